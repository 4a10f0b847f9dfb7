"""Random legal games check clean; one mutated move is flagged with its code."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.spec.machine import Play

from .games import Game, simulate

VARIANTS = st.sampled_from(["3p", "4p", "5p"])
SEEDS = st.integers(0, 10_000)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(text: str):
    return check_text(text, "game.yaml")


@FAST
@given(VARIANTS, SEEDS, st.sampled_from(["full", "public", "no-end", "private-no-values"]))
def test_random_legal_games_check_clean(variant, seed, view):
    game = simulate(variant, seed, max_moves=120)
    text = {
        "full": lambda: game.log(),
        "public": lambda: game.log(private=False, values=False),
        "no-end": lambda: game.log(end=False),
        "private-no-values": lambda: game.log(values=False),
    }[view]()
    report = check(text)
    assert report.status == 0 and report.diagnostics == [], report.format_text() + "\n" + text
    if game.state.ended and view != "no-end":
        assert report.score is not None and report.score.scores == game.table.scores


def mutated(game: Game, index: int, play: Play, **kw) -> str:
    plays = list(game.plays)
    plays[index] = play
    return replace(game, plays=plays).log(**kw)


def codes_at(text: str, index: int) -> tuple[list[str], list[str]]:
    """Codes reported at move ``index`` and before it."""
    log, _rules = parse_log_text(text, "game.yaml")
    line = log.moves[index].position.line
    report = check(text)
    at = [d.code for d in report.diagnostics if d.position and d.position.line == line]
    before = [d.code for d in report.diagnostics if d.position and d.position.line < line]
    return at, before


@FAST
@given(VARIANTS, SEEDS, st.data())
def test_a_move_by_the_wrong_player_is_flagged(variant, seed, data):
    game = simulate(variant, seed, max_moves=60)
    assume(len(game.plays) > 1)
    i = data.draw(st.integers(0, len(game.plays) - 1))
    play = game.plays[i]
    others = [p for p in game.players if p != play.actor]
    wrong = data.draw(st.sampled_from(others))
    text = mutated(game, i, replace(play, actor=wrong))
    at, before = codes_at(text, i)
    assert before == []
    assert set(at) & {"LA204", "LA205", "LA202"}, at


@FAST
@given(VARIANTS, SEEDS, st.data())
def test_a_wrong_verdict_is_flagged(variant, seed, data):
    game = simulate(variant, seed, max_moves=60)
    verdicts = [i for i, p in enumerate(game.plays) if "smiles" in p.args]
    assume(verdicts)
    i = data.draw(st.sampled_from(verdicts))
    play = game.plays[i]
    true = play.args["smiles"]
    wrong = data.draw(st.sampled_from([n for n in range(len(play.args["clues"]) + 1) if n != true]))
    args = {k: v for k, v in play.args.items() if k != "covers"}
    text = mutated(game, i, replace(play, args={**args, "smiles": wrong}), end=False)
    at, before = codes_at(text, i)
    assert before == []
    assert set(at) & {"LA310", "LA303", "LA211"}, at  # LA211: more smiles than players


@FAST
@given(VARIANTS, SEEDS, st.data())
def test_repeating_the_previous_suspicion_is_flagged(variant, seed, data):
    game = simulate(variant, seed, max_moves=120)
    suspicions = [i for i, p in enumerate(game.plays) if p.kind == "suspect"]
    assume(len(suspicions) >= 2)
    k = data.draw(st.integers(1, len(suspicions) - 1))
    i, previous = suspicions[k], game.plays[suspicions[k - 1]]
    play = Play("suspect", game.plays[i].actor, {"clues": list(previous.args["clues"]),
                                                  "smiles": previous.args["smiles"]})
    at, before = codes_at(mutated(game, i, play, end=False), i)
    assert before == [] and "LA212" in at, at


@FAST
@given(VARIANTS, SEEDS)
def test_a_changed_reveal_is_flagged(variant, seed):
    game = simulate(variant, seed, max_moves=120)
    reveals = [i for i, p in enumerate(game.plays) if p.args.get("reveals")]
    assume(reveals)
    i = reveals[0]
    play = game.plays[i]
    (owner, value), *rest = play.args["reveals"]
    other = (value + 1) % 3
    text = mutated(game, i, replace(play, args={**play.args, "reveals": [(owner, other), *rest]}), end=False)
    at, before = codes_at(text, i)
    assert before == [] and "LA321" in at, at


@settings(max_examples=12, deadline=None)
@given(VARIANTS, SEEDS, st.data())
def test_finished_games_mutated_at_the_end(variant, seed, data):
    game = simulate(variant, seed, max_moves=200, solve_rate=0.05)
    assume(game.state.ended)
    what = data.draw(st.sampled_from(["score", "winner", "extra move"]))
    if what == "extra move":
        extra = Play("pass", data.draw(st.sampled_from(game.players)), {})
        text = replace(game, plays=[*game.plays, extra]).log()
        report = check(text)
        assert [d.code for d in report.diagnostics] == ["LA301"]
        return
    text = game.log()
    table = game.table
    if what == "score":
        player = data.draw(st.sampled_from(game.players))
        points = table.scores[player]
        line = [ln for ln in text.splitlines() if ln.startswith("  scores:")][0]
        new_line = line.replace(f"{player}: {points}", f"{player}: {points + 1}")
        report = check(text.replace(line, new_line))
        assert [d.code for d in report.diagnostics] == ["LA401"]
    else:
        loser = [p for p in game.players if p not in table.winners]
        assume(loser)
        line = [ln for ln in text.splitlines() if ln.startswith("  winner:")][0]
        report = check(text.replace(line, f"  winner: {loser[0]}"))
        assert [d.code for d in report.diagnostics] == ["LA402"]
