"""``ruleslawyer solve`` on Perfect Alibi logs: every card's chance in every zone, the Rival
tiles' chances, the legend, the terminal's width.  Expectations are counted by hand from the
rulebook's set-up (16 alibi cards, 3 face up with 4 players, 3 in each hand; 5 Rival tiles)."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction

import pytest

from ..conftest import ROOT, cli

PA = ROOT / "examples" / "perfect-alibi"


def run(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    return cli("solve", *args, env={"COLUMNS": str(columns)}, cwd=ROOT)


def test_before_any_move_every_hidden_card_and_tile_is_even():
    out = run(str(PA / "rival-4p.yaml"), "--at", "0", "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    solve = got["solve"]
    # 13 cards not face up: 13! / (1! 3!^4) deals, times 5! ways to lay the Rival tiles
    assert solve["count"] == 4_804_800 * 120
    zones = solve["zone_probabilities"]
    face_up = {"solarium-t3", "l4-t3", "restaurant-12"}  # rival-4p.yaml's set-up
    for card, by_zone in ((c, z) for c, z in zones.items() if c.split("-")[0] in
                          ("bar", "restaurant", "solarium", "l4")):
        if card in face_up:
            assert by_zone["row"] == pytest.approx(1.0)
            continue
        assert by_zone["missing"] == pytest.approx(float(Fraction(1, 13)))
        for player in ("Yellow", "Blue", "Green", "Red"):
            assert by_zone[f"hand:{player}"] == pytest.approx(float(Fraction(3, 13)))
    for tile in ("journalist", "captain", "psychiatrist", "priest", "cook"):
        for zone in ("rival:Yellow", "rival:Blue", "rival:Green", "rival:Red", "box"):
            assert zones[tile][zone] == pytest.approx(0.2)
    assert "once" in got["legend"] and "A19" in got["legend"]


def test_text_lays_out_each_card_by_zone_and_the_rival_tiles():
    out = run(str(PA / "rival-4p.yaml"), "--at", "0")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("576,576,000 worlds fit") for line in lines), out.stdout
    head = next(line for line in lines if line.startswith("alibis"))
    assert head.split()[1:] == ["missing", "Yellow", "Blue", "Green", "Red", "row"]
    bar6 = next(line for line in lines if line.startswith("Bar 6 o'clock"))
    assert bar6.split()[3:] == ["7.7%", "23.1%", "23.1%", "23.1%", "23.1%", "0.0%"]   # 1/13, 3/13
    assert next(line for line in lines if line.startswith("rivals")).split()[1:] == \
        ["Yellow", "Blue", "Green", "Red", "box"]
    assert next(line for line in lines if line.startswith("Cook")).split()[1:] == ["20.0%"] * 5
    assert "every world that fits once" in " ".join(lines)


def test_a_face_up_card_is_certainly_not_missing_and_shown_as_such():
    out = run(str(PA / "rival-4p.yaml"), "--at", "0")
    r12 = next(line for line in out.stdout.splitlines() if line.startswith("Restaurant 12 o'clock"))
    assert r12.split()[3] == "0.0%x" and r12.split()[-1] == "100.0%"


@pytest.mark.parametrize("columns", [40, 60, 80, 120])
def test_the_tables_fit_the_terminal(columns):
    out = run(str(PA / "clean-5p.yaml"), "--as", "Blue", "--at", "20", columns=columns)
    assert out.returncode == 0, out.stderr
    assert max(len(line) for line in out.stdout.splitlines()) <= columns
    # nothing is cut: every word of every card's name is there
    words = set(out.stdout.split())
    assert {"Location", "4,", "Time", "Solarium", "o'clock"} <= words


def test_lady_alice_keeps_its_desk():
    out = run(str(ROOT / "examples" / "lady-alice" / "clean-4p.yaml"), "--at", "10")
    assert out.returncode == 0 and "worlds fit" not in out.stdout


def _replayed(name: str):  # type: ignore[no-untyped-def]
    from ruleslawyer.checker.log import parse_log
    from ruleslawyer.checker.replay import replay

    log, rules = parse_log(str(PA / f"{name}.yaml"))
    return replay(log, rules)


def test_explain_gives_a_minimal_set_of_answers_checked_by_counting():
    """The explanation (Z3's minimised core) checked by the counting engine: its facts rule
    the card out, and without any one of them the card is open again."""
    from ruleslawyer.solver import queries
    from ruleslawyer.solver.dp import DPKnowledge

    rep = _replayed("clean-4p")
    facts = rep.facts(45)
    expl = queries.explain(rep.deal, facts, "solarium-6")
    assert expl.status == "out" and expl.facts
    base = DPKnowledge.initial(rep.deal)
    assert base.with_facts(expl.facts).status()["solarium-6"] == "out"
    for i in range(len(expl.facts)):
        rest = expl.facts[:i] + expl.facts[i + 1:]
        assert base.with_facts(rest).status()["solarium-6"] == "open"
    out = run(str(PA / "clean-4p.yaml"), "--at", "45", "--explain", "Solarium 6", "--format", "json")
    got = json.loads(out.stdout)["explain"]
    assert got["status"] == "out" and len(got["because"]) == len(expl.facts)
    assert all(b["at"].startswith(str(PA / "clean-4p.yaml")) or b["at"].startswith("examples/")
               for b in got["because"])
    assert "were the missing alibi" in got["closing"]


def test_hindsight_grades_each_guess_from_its_players_seat():
    """Each guess graded by solve --hindsight agrees with the counting engine's status of the
    guessed card, from the guesser's seat, just before the guess."""
    from ruleslawyer.solver.dp import DPKnowledge
    from ruleslawyer.solver.queries import Viewpoint

    rep = _replayed("rival-4p")
    out = run(str(PA / "rival-4p.yaml"), "--hindsight", "--format", "json")
    claims = json.loads(out.stdout)["claims"]
    assert claims, "the game has guesses"
    base = DPKnowledge.initial(rep.deal)
    for c in claims:
        step = rep.steps[c["move"] - 1]
        card = step.play.args["card"]
        view = Viewpoint.of_player(c["player"])
        known = base.with_facts(f for f in rep.facts(c["move"] - 1) if view.sees(f))
        expected = {"in": "certain", "out": "impossible", "open": "a gamble"}[known.status()[card]]
        assert c["when_made"] == expected, c
