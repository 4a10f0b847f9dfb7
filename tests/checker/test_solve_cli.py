"""``ruleslawyer solve``: answers agree with the engines, viewpoints and positions are right."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.solver.queries import Viewpoint
from ruleslawyer.solver.z3engine import Z3Knowledge

from ..conftest import ROOT, cli
from . import plain

EXAMPLES = ROOT / "examples" / "lady-alice"


def solve(*args: str) -> tuple[int, dict]:
    out = cli("solve", *args, "--format", "json")
    return out.returncode, (json.loads(out.stdout) if out.returncode == 0 else {"stderr": out.stderr + out.stdout})


@pytest.mark.parametrize("name", ["clean-3p", "clean-4p", "clean-5p", "rulebook-deductions"])
def test_spectator_and_player_answers_match_brute_force_and_z3(name):
    path = str(EXAMPLES / f"{name}.yaml")
    log, rules = parse_log(path)
    rep = replay(log, rules)
    moves = len(rep.steps)
    for at in sorted({1, moves // 2, moves}):
        for view, flags in ((Viewpoint.spectator(), []), (Viewpoint.of_player(rep.players[0]), ["--as", rep.players[0]])):
            status, got = solve(path, "--at", str(at), *flags)
            assert status == 0, got
            facts = [f for f in rep.facts(at) if view.sees(f)]
            count, status_, probs = plain.answers(rep.deal, facts)
            assert got["solve"]["count"] == count
            assert got["solve"]["status"] == status_
            assert got["solve"]["status"] == Z3Knowledge.initial(rep.deal).with_facts(facts).status()
            for card, p in probs.items():
                assert got["solve"]["probabilities"][card] == pytest.approx(float(p), abs=1e-9)


def test_a_player_knows_their_own_card():
    path = str(EXAMPLES / "clean-4p.yaml")
    _, spectator = solve(path, "--at", "1")
    _, gordon = solve(path, "--at", "1", "--as", "gordon")
    assert gordon["solve"]["status"]["kingsley"] == "in"
    assert spectator["solve"]["status"]["kingsley"] == "open"
    assert gordon["solve"]["count"] < spectator["solve"]["count"]


def test_explanation_names_the_verdicts_that_force_a_clue():
    path = str(EXAMPLES / "clean-4p.yaml")
    _, got = solve(path, "--at", "3", "--explain", "Tippu Tip")
    assert got["explain"]["status"] == "out"
    because = got["explain"]["because"]
    assert [b["move"] for b in because] == [1]
    line = int(because[0]["at"].split(":")[-2])
    assert "suspect: Helen" in (EXAMPLES / "clean-4p.yaml").read_text().splitlines()[line - 1]
    _, open_clue = solve(path, "--at", "3", "--explain", "Mary Kingsley")
    assert open_clue["explain"] == {"clue": "kingsley", "status": "open", "because": [], "closing": None}


def test_hindsight_is_the_first_determined_move():
    path = str(EXAMPLES / "clean-4p.yaml")
    _, got = solve(path, "--hindsight")
    for who, move in got["hindsight"].items():
        flags = [] if who == "spectator" else ["--as", who.split(":", 1)[1]]
        if move is None:
            continue
        _, at = solve(path, "--at", str(move), *flags)
        assert at["solve"]["determined"]
        if move > 1:
            _, before = solve(path, "--at", str(move - 1), *flags)
            assert not before["solve"]["determined"]


def test_pattern_probabilities_for_a_doubled_category():
    _, got = solve(str(EXAMPLES / "clean-5p.yaml"), "--at", "1")
    patterns = got["solve"]["pattern_probabilities"]
    assert len(patterns) == 4 and sum(p["probability"] for p in patterns) == pytest.approx(1.0)
    assert all(sorted(p["pattern"]) == [1, 1, 1, 2] for p in patterns)


@pytest.mark.parametrize("args,hint", [(["--at", "999"], ""), (["--as", "Gordn"], "did you mean 'Gordon'"),
                                       (["--explain", "Mary Kinsley"], "did you mean 'Mary Kingsley'")])
def test_bad_arguments_are_usage_errors(args, hint):
    out = cli("solve", str(EXAMPLES / "clean-4p.yaml"), *args)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert "error[RL010]" in out.stdout and hint in out.stdout


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_text_report_lays_out_the_desk_for_the_terminal(columns):
    out = cli("solve", str(EXAMPLES / "clean-4p.yaml"), "--as", "Gordon", "--hindsight", env={"COLUMNS": str(columns)})
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    titles = [w for line in lines for w in line.split() if w in ("Suspects", "Places", "Times", "Objects")]
    assert titles == ["Suspects", "Places", "Times", "Objects"]
    if columns >= 160:
        assert next(line for line in lines if line.startswith("Suspects")).split() == titles
    for name in ("Charles Chaillé-Long", "Place 2", "John Hanning Speke"):  # wrapped, never cut
        assert name in out.stdout or name.split()[-1] in out.stdout
    assert "player:Gordon: after move" in out.stdout


def test_hindsight_grades_each_claim_when_it_was_made():
    # Gordon knew the solution after move 15 (his own card and the verdicts), so his accusation at move 26
    # was certain; Audrey's accusation names Waterloo Station and compass together, but the verdict of
    # move 1 allows only one of them to be evidence: impossible, whatever she held.
    _, got = solve(str(EXAMPLES / "clean-4p.yaml"), "--hindsight")
    assert got["claims"] == [{"move": 26, "player": "Gordon", "kind": "accuse", "when_made": "certain"}]
    _, got = solve(str(EXAMPLES / "rulebook-accusation.yaml"), "--hindsight")
    assert got["claims"] == [{"move": 5, "player": "Audrey", "kind": "accuse", "when_made": "impossible"}]


def _knows_plain(deal, facts, player):
    """A spectator's chance that ``player`` knows the evidence set: every set plain.py lists, every
    way to hand its cards out (each as likely), and for each the player's own card pinned."""
    import itertools
    from fractions import Fraction

    from ruleslawyer.spec.facts import Fact, member

    public = [f for f in facts if f.viewers is None]
    knows, total = Fraction(0), Fraction(0)
    for s, weight in plain.solutions(deal, public).items():
        for order in itertools.permutations(sorted(s)):
            world = {c: "desk" for c in deal.solution_deck.cards}
            world.update(zip(order, deal.solution))
            if not all(f.holds(world) for f in public):
                continue
            total += weight
            card = next(c for c, z in world.items() if z == f"hand:{player}")
            if len(plain.solutions(deal, [*public, Fact(member(card, {f"hand:{player}"}) == 1)])) == 1:
                knows += weight
    return knows / total


@pytest.mark.parametrize("at", [16, 25])
def test_others_from_a_spectator_match_a_plain_enumeration(at):
    path = str(EXAMPLES / "clean-4p.yaml")
    log, rules = parse_log(path)
    rep = replay(log, rules)
    status, got = solve(path, "--at", str(at), "--others")
    assert status == 0, got
    players = got["others"]["players"]
    assert [o["player"] for o in players] == list(rep.players)
    for o in players:
        assert o["method"] == "exact" and not o["lower_bound"]
        assert o["chance"] == pytest.approx(float(_knows_plain(rep.deal, rep.facts(at), o["player"])), abs=1e-12)


def test_others_text_names_each_other_player_and_how_it_was_counted():
    out = cli("solve", str(EXAMPLES / "clean-4p.yaml"), "--as", "Gordon", "--at", "5", "--others",
              env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stdout + out.stderr
    block = out.stdout.split("what the others know, seen by Gordon:")[1]
    # Gordon holds Mary Kingsley; move 1 ruled out four clues: each other player holds one of the
    # 7 clues left of a place, a time or an object, 3 x 7 = 21 hands.
    for who in ("Helen", "John", "Audrey"):
        assert f"  {who}: knows the solution 0.0% (exact over 21 hand(s))" in block
    assert "Gordon:" not in block
