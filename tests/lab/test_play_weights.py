"""Issue 23: random play that resembles play — weights per kind and per parameter value,
declared in the rule files (``play: random:``) and overridable in ``--bots``."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.cli import main
from ruleslawyer.lab.bots import BotSpecError, parse_bots
from ruleslawyer.lab.simulate import Config, run
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules


def _finals_and_questions(bots: str, games: int = 12) -> tuple[int, int]:
    result = run(Config("perfect-alibi", variant="3p", games=games, bots=bots, sample=2, track=False, seed=3))
    assert all(status == 0 for _i, _t, status in result.logs)
    kinds = result.summary["kinds"]
    return kinds.get("ask.via=final", {}).get("moves", 0), kinds["ask"]["moves"]


def test_the_rule_files_declare_their_weights_each_cited_or_a_choice():
    for game in ("lady-alice", "perfect-alibi", "clue"):
        play = load_rules(game).play
        assert play is not None and (play.kinds or play.values)
        for w in list(play.kinds.values()) + [w for by in play.values.values() for w in by.values()]:
            assert w.weight >= 0 and (w.cite is not None or w.choice)
    pa = load_rules("perfect-alibi").play
    assert pa.values[("ask", "via")]["final"].weight < 1  # a final question is drawn less than the others


def test_a_value_of_weight_0_is_never_played_and_a_small_weight_rarely():
    """Weight 0 for a final question: none in 4 games, of many questions (583: without a final
    question a game runs long; 12 games were 5 s of CPU for 1,492).  The rule file's small weight
    against the uniform draw (final=1): fewer final questions per question (12 games each: a
    count, with a wide margin)."""
    finals, questions = _finals_and_questions("random:ask.via.final=0", games=4)
    assert finals == 0 and questions > 200
    few, asked_few = _finals_and_questions("random")
    many, asked_many = _finals_and_questions("random:ask.via.final=1")
    assert few / asked_few < 0.5 * (many / asked_many), (few, asked_few, many, asked_many)


def test_the_command_line_overrides_a_declared_weight():
    rules = load_rules("perfect-alibi")
    [bot] = parse_bots("random:ask.via.final=0.5;guess=0", 1, rules=rules)
    assert bot.values == {("ask", "via"): {"final": 0.5}} and bot.weights == {"guess": 0.0}
    assert bot.spec() == "random:guess=0;ask.via.final=0.5"
    [again] = parse_bots(bot.spec(), 1, rules=rules)
    assert again.spec() == bot.spec()


@pytest.mark.parametrize("spec, words", [
    ("random:ask.via.fnal=1", "did you mean 'final'"),
    ("random:ask.asked.x=1", "no parameter 'asked'"),
    ("random:ask.via.final=-1", "from 0 up"),
    ("random:ask.via.final=nan", "from 0 up"),
    ("random:nope.via.final=1", "no move 'nope'"),
    ("random:ask.via.tile=0;ask.via.final=0;ask.via.journalist=0;ask.via.own-colour=0", "every value"),
])
def test_a_bad_value_weight_is_a_usage_error(spec, words, capsys):
    with pytest.raises(BotSpecError, match=words):
        parse_bots(spec, 4, rules=load_rules("perfect-alibi"))
    status = main(["simulate", "perfect-alibi", "--games", "1", "--bots", spec])
    text = capsys.readouterr()
    assert status == 2 and "error[RL170]" in text.out + text.err and "Traceback" not in text.out + text.err


@pytest.mark.parametrize("block, code, words", [
    ("kinds: {guess: {weight: -1, choice: a test}}", "RL104", "weight"),
    ("kinds: {swap: {weight: 0.5}}", "RL104", ""),                  # neither cite nor choice: the schema
    ("kinds: {gues: {weight: 0.5, choice: a test}}", "RL121", "did you mean 'guess'"),
    ("values: {ask: {via: {fnal: {weight: 1, choice: a test}}}}", "RL121", "did you mean 'final'"),
    ("values: {ask: {asked: {x: {weight: 1, choice: a test}}}}", "RL121", "asked"),
])
def test_a_bad_play_block_of_an_overlay_is_a_positioned_diagnostic(tmp_path, block, code, words):
    house = tmp_path / "h.yaml"
    house.write_text(f"ruleslawyer: 1\nextends: perfect-alibi\nname: h\nchange:\n  play:\n    random:\n      {block}\n")
    with pytest.raises(DiagnosticError) as err:
        load_rules("perfect-alibi", house=[str(house)])
    d = err.value.diagnostics[0]
    text = d.format_text()
    assert d.code in (code, "RL104", "RL102") and d.position is not None and d.position.line >= 5, text
    assert words in text + (d.hint or ""), text


def test_simulate_reports_moves_by_kind_and_by_weighed_value(capsys):
    status = main(["simulate", "perfect-alibi", "--variant", "3p", "--games", "3", "--no-determination"])
    out = capsys.readouterr().out
    assert status == 0 and "moves by kind" in out and "ask.via=final" in out and "guess" in out, out


def test_random_games_with_the_declared_weights_check_clean():
    for game in ("lady-alice", "perfect-alibi", "clue"):
        result = run(Config(game, variant="3p", games=3, bots="random", sample=3, track=False, seed=9))
        assert [s for _i, _t, s in result.logs] == [0, 0, 0], [p["text"] for p in result.problems]
        kinds = result.summary["kinds"]
        assert sum(d["moves"] for k, d in kinds.items() if "=" not in k) == sum(r.moves for r in result.records)
        for _i, text, _s in result.logs:
            assert check_text(text, "<g>").status == 0
