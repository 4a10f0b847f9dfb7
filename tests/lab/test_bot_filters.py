"""Issue 23: any bot restricted by a filter over its moves (``forbid=EXPR``)."""

from __future__ import annotations

import pytest
import yaml

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.cli import main
from ruleslawyer.lab.bots import BotError, BotSpecError, parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.loader import load_rules

COOK = "move.assistant == 'cook'"


def _run(argv, capsys):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text, text
    return status, text


def _assistants_of(log: str, seat: str) -> list[str]:
    """Every assistant the seat chose or swapped to, read from the log (as check reads it)."""
    moves = yaml.safe_load(log)["moves"]
    return [str(m["assistant"]).lower() for m in moves
            if (m.get("choose") == seat or m.get("swap") == seat) and "assistant" in m]


@pytest.mark.heavy
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_filtered_seat_never_takes_the_cook_and_its_logs_check_clean(bot):
    """The first seat forbidden the Cook (the first bot plays the log's first player); the other
    seats unfiltered random bots.  Without the filter the same games do give the Cook to the first
    seat (so the filter is what keeps it away)."""
    rules = load_rules("perfect-alibi", variant="3p")
    lab = Lab(rules)
    games = range(6) if bot == "random" else range(2)
    unfiltered = 0
    for spec, filtered in ((f'{bot}:forbid="{COOK}",random:guess=0.05;accuse=0.02', True),
                           (f"{bot},random:guess=0.05;accuse=0.02", False)):
        bots = parse_bots(spec, 3, rules=rules)
        for i in games:
            rec = play_game(lab, bots, 5, i, 120, keep_log=True, track=False)
            assert check_text(rec.log, f"<{spec} {i}>").status == 0, rec.log
            took = _assistants_of(rec.log, f"P{rec.redrawn + 1}")  # the first bot's seat (lab.game)
            if filtered:
                assert "cook" not in took, rec.log
            else:
                unfiltered += took.count("cook")
    if bot == "random":  # 1 assistant in 5 at each choice: the Cook comes up over 6 games
        assert unfiltered > 0


def test_the_filter_reads_the_rule_environment_and_applies_to_kinds_that_have_its_parameters():
    rules = load_rules("perfect-alibi")
    [bot] = parse_bots("random:forbid=move.via == 'final' or kind == 'accuse'", 1, rules=rules)
    assert sorted(bot.forbid[0].kinds) == ["ask"]  # it reads move.via: only a question has it
    [bot] = parse_bots("random:forbid=move.via == 'final';forbid=kind == 'accuse'", 1, rules=rules)
    assert [sorted(f.kinds) for f in bot.forbid] == [["ask"], sorted(rules.moves)]  # two filters


def test_no_final_question_is_asked_when_it_is_forbidden():
    rules = load_rules("perfect-alibi", variant="3p")
    lab = Lab(rules)
    bots = parse_bots("random:forbid=move.via == 'final'", 3, rules=rules)
    for i in range(4):
        rec = play_game(lab, bots, 2, i, 150, keep_log=True, track=False)
        moves = yaml.safe_load(rec.log)["moves"]
        assert not [m for m in moves if m.get("via") == "final"]
        assert check_text(rec.log, "<g>").status == 0


@pytest.mark.parametrize("spec, column, words", [
    ("greedy:forbid=move.assistant == 'Cook'", 33, "did you mean 'cook'"),
    ("greedy:forbid=move.asistant == 'cook'", 15, "did you mean move.assistant"),
    ("random,greedy:forbid=move.via ==", 22, "bad expression"),
    ("greedy:risk=0.5;forbid=nothing == 1", 24, "reads 'nothing'"),
    ("random:forbid=", 15, "needs an expression"),
])
def test_a_bad_filter_is_a_positioned_rl175(spec, column, words, capsys):
    status, text = _run(["simulate", "perfect-alibi", "--games", "1", "--bots", spec], capsys)
    assert status == 2
    assert f"--bots:1:{column}: error[RL176]" in text and words in text, text
    status, text = _run(["explain", "RL176"], capsys)
    assert status == 0 and "forbid=" in text


def test_a_bot_with_every_move_forbidden_is_an_error_naming_bot_seat_and_move(capsys):
    rules = load_rules("lady-alice")
    bots = parse_bots("random,random:forbid=kind != 'pass'", 4, rules=rules)
    with pytest.raises(BotError) as err:
        play_game(Lab(rules), bots, 0, 0, 200, track=False)
    message = str(err.value)
    assert "forbid=" in message and "at seat P2" in message and "after move" in message
    status, text = _run(["simulate", "lady-alice", "--games", "1", "--bots", "random:forbid=true"], capsys)
    assert status == 2 and "error[RL170]" in text and "at seat P1" in text and "after move 0" in text, text


def test_forced_play_makes_a_forbidden_move_only_when_the_rules_leave_no_other():
    """Five players: "in a 5-player game there are no unused assistants" (the rulebook), so a
    player whose assistant is taken must choose the one just put down, the Cook too.  With
    ``forced=play`` the first seat takes the Cook only then, and each game counts it (the log's
    Cook moves of that seat, the only way it takes it); without, the same game stops at that move."""
    rules = load_rules("perfect-alibi", variant="5p")
    lab = Lab(rules)
    spec = f'random:forbid="{COOK}";forced=play,random'
    forced_in = []
    for i in range(12):  # games until one where the rules leave the seat nothing else (rare)
        rec = play_game(lab, parse_bots(spec, 5, rules=rules), 1, i, 500, keep_log=True, track=False)
        assert check_text(rec.log, f"<{spec} {i}>").status == 0, rec.log
        assert _assistants_of(rec.log, f"P{rec.redrawn + 1}").count("cook") == rec.forced, rec.log
        if rec.forced:
            forced_in.append(i)
            break
    assert forced_in
    stop = parse_bots(spec.replace(";forced=play", ""), 5, rules=rules)
    with pytest.raises(BotError, match="its filters forbid every move open to it"):
        play_game(lab, stop, 1, forced_in[0], 500, track=False)


@pytest.mark.parametrize("spec, column", [("random:forced=maybe", 15), ("greedy:risk=0.5;forced=", 24)])
def test_forced_is_stop_or_play(spec, column, capsys):
    status, text = _run(["simulate", "perfect-alibi", "--games", "1", "--bots", spec], capsys)
    assert status == 2 and f"--bots:1:{column}: error[RL170]" in text and "forced= is stop or play" in text, text


def test_the_spec_of_a_filtered_bot_reads_back_as_the_same_bot():
    rules = load_rules("perfect-alibi")
    for spec in [f'greedy:forbid="{COOK}"', f'greedy:risk=0.8;forbid="{COOK}"', f'random:forbid="{COOK}"',
                 f'random:guess=0.1;forbid="{COOK}"', f'informed:0;forbid="{COOK}"',
                 f'greedy:forbid="{COOK}";forced=play']:
        [bot] = parse_bots(spec, 1, rules=rules)
        [again] = parse_bots(bot.spec(), 1, rules=rules)
        assert again.spec() == bot.spec() and again.forbid[0].source == COOK and again.forced == bot.forced


def test_a_comma_inside_a_filter_does_not_split_the_bots():
    rules = load_rules("perfect-alibi")
    bots = parse_bots("random:forbid=move.assistant in ['cook', 'priest'],greedy", 2, rules=rules)
    assert bots[0].forbid[0].source == "move.assistant in ['cook', 'priest']" and bots[1].name == "greedy"
    with pytest.raises(BotSpecError):
        parse_bots("random:forbid=move.assistant == 'cook'", 1)  # no rules to read it against
