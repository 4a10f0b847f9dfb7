"""Move advice (lab/advice.py), the ``suggest`` command and the greedy bot.

The answers' chances and the information are checked against a plain
enumeration written here: every deal the seat cannot rule out is listed by
hand (its own cards known, the rest dealt every way the rule file's deal
allows), kept when every fact the seat saw holds in it, and the move is
applied by hand as the rulebook says (a Lady Alice suspicion: the verdict
counts the evidence among the four clues; a Clue suggestion: the players to
the left in turn show one of the named cards they hold, uniformly, or say
they cannot).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import yaml

from ruleslawyer.checker.cli import main
from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab.advice import value_moves
from ruleslawyer.lab.bots import BotSpecError, GreedyBot, Turn, parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.suggest import position
from ruleslawyer.solver.engines import initial

ROOT = Path(__file__).resolve().parents[2]
LADY = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
CLUE = ROOT / "examples" / "clue" / "clean-3p.yaml"


def _setting(path: Path, at: int):
    log, rules = parse_log(str(path))
    rep = replay(log, rules)
    lab = Lab(rules)
    state, mover, kinds = position(rep, lab, at)
    facts = [f for f in rep.facts(at) if f.viewers is None or mover in f.viewers]
    view = initial(rep.deal).with_facts(facts)
    return rep, lab, Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view), facts


def _entropy(ps) -> float:
    return -sum(p * math.log2(p) for p in ps if p > 0)


def _plain(worlds, observe, solution_of):
    """From worlds (equally likely) and ``observe(world) -> {observation: chance}``: each
    observation's chance and the worlds and solutions left after it, I(world; obs), I(solution; obs)."""
    n = len(worlds)
    dist: dict = defaultdict(float)
    left: dict = defaultdict(set)
    h_given_world = 0.0
    by_solution: dict = defaultdict(lambda: defaultdict(float))
    weight: Counter = Counter()
    for i, w in enumerate(worlds):
        obs = observe(w)
        h_given_world += _entropy(obs.values()) / n
        s = solution_of(w)
        weight[s] += 1
        for o, q in obs.items():
            dist[o] += q / n
            left[o].add(i)
            by_solution[s][o] += q
    h = _entropy(dist.values())
    h_given_solution = sum(weight[s] / n * _entropy(q / weight[s] for q in d.values())
                           for s, d in by_solution.items())
    return dist, left, h - h_given_world, h - h_given_solution


def _check(mv, worlds, dist, left, bits, solution_bits, solution_of):
    assert sum(a.probability for a in mv.answers) == pytest.approx(1.0)
    unit = (lambda ids: len(ids)) if mv.world_kind == "deals" else \
        (lambda ids: len({solution_of(worlds[i]) for i in ids}))
    want = sorted((round(p, 9), unit(left[o])) for o, p in dist.items() if p > 0)
    got = sorted((round(a.probability, 9), a.worlds_left) for a in mv.answers)
    assert got == want, mv.args
    assert mv.bits == pytest.approx(bits, abs=1e-9)
    if mv.solution_bits is not None:
        assert mv.solution_bits == pytest.approx(solution_bits, abs=1e-9)


# -- Lady Alice: John to suspect after move 14 of the clean 4-player game -------------------------
def _lady_worlds(rep, facts):
    """Every deal of one clue per hand, one of each category (the rulebook's shuffled piles),
    that fits the seat's facts."""
    rules = rep.rules
    clues = list(rules.components["clues"].items)
    deck = rep.deal.decks[0]
    hands = [z.id for z in deck.zones if z.family == "hand"]
    desk = next(z.id for z in deck.zones if z.family != "hand")
    groups = deck.constraints[0].groups
    category = {c: g for g, cards in enumerate(groups) for c in cards}
    out = []
    for chosen in itertools.permutations(clues, len(hands)):
        if len({category[c] for c in chosen}) < len(hands):
            continue
        world = {c: desk for c in clues}
        world.update({c: h for c, h in zip(chosen, hands)})
        if all(f.formula.holds(world) for f in facts):
            out.append(world)
    return out, hands


@pytest.fixture(scope="module")
def lady():
    rep, lab, turn, facts = _setting(LADY, 14)
    assert turn.actor == "John" and "suspect" in turn.kinds
    worlds, hands = _lady_worlds(rep, facts)
    advice = value_moves(turn, max_choices=16, kinds=["suspect"])
    return rep, turn, worlds, hands, advice


def test_lady_alice_suspicions_match_a_plain_enumeration(lady):
    rep, turn, worlds, hands, advice = lady
    assert advice.moves
    hand_set = set(hands)

    def solution_of(w):
        return frozenset(c for c, z in w.items() if z in hand_set)

    for mv in advice.moves:
        named = mv.args["clues"]
        dist, left, bits, sbits = _plain(worlds, lambda w: {sum(w[c] in hand_set for c in named): 1.0}, solution_of)
        _check(mv, worlds, dist, left, bits, sbits, solution_of)
        # a verdict is a function of the evidence: as much about the solution as about the deal
        assert mv.solution_bits == pytest.approx(mv.bits)


def test_lady_alice_worlds_counted_as_the_enumeration(lady):
    rep, turn, worlds, hands, advice = lady
    hand_set = set(hands)
    solutions = {frozenset(c for c, z in w.items() if z in hand_set) for w in worlds}
    assert advice.solutions == len(solutions)
    assert advice.worlds == (len(worlds) if advice.world_kind == "deals" else len(solutions))


# -- Clue: Cat to suggest after move 61 of the clean 3-player game --------------------------------


def _clue_enumerate(rep, facts, seat):
    """Every deal of the 3-player game that fits the seat's facts: the seat's hand as the log's
    private record says, one card of each kind in the envelope, the others' hands of 6."""
    deck = rep.deal.decks[0]
    by_id = {z.id: z for z in deck.zones}
    envelope = next(z for z in deck.zones if z.family == "envelope").id
    own = next(z for z in deck.zones if z.owner == seat).id
    others = [z.id for z in deck.zones if z.family == "hand" and z.owner != seat]
    rules = rep.rules
    record = yaml.safe_load(CLUE.read_text(encoding="utf-8"))["private"]["hand"][seat]
    mine = {rules.find("cards", name) for name in record}  # the component the deck deals
    assert None not in mine
    rest = [c for c in deck.cards if c not in mine]
    groups = deck.constraints[0].groups
    out = []
    for env in itertools.product(*[[c for c in g if c in rest] for g in groups]):
        left = [c for c in rest if c not in env]
        first = by_id[others[0]].size
        for hand in itertools.combinations(left, first):
            world = {c: own for c in mine}
            world.update({c: envelope for c in env})
            world.update({c: others[0] for c in hand})
            world.update({c: others[1] for c in left if c not in hand})
            if all(f.formula.holds(world) for f in facts):
                out.append(world)
    return out, envelope


@pytest.fixture(scope="module")
def clue():
    rep, lab, turn, facts = _setting(CLUE, 61)
    assert turn.actor == "Cat" and "suggest" in turn.kinds
    worlds, envelope = _clue_enumerate(rep, facts, "Cat")
    advice = value_moves(turn, max_choices=12, kinds=["suggest"])  # 12 of the 324, sampled
    return rep, turn, worlds, envelope, advice


def test_clue_suggestions_match_a_plain_enumeration(clue):
    rep, turn, worlds, envelope, advice = clue
    players = list(rep.players)
    after = players[players.index("Cat") + 1:] + players[:players.index("Cat")]
    assert advice.moves
    overlapping = 0

    def solution_of(w):
        return frozenset(c for c, z in w.items() if z == envelope)

    for mv in advice.moves:
        named = [mv.args["suspect"], mv.args["weapon"], mv.args["room"]]

        def observe(w):
            # the first player to the left holding a named card shows one of them, as they choose
            for p in after:
                held = [c for c in named if w[c] == f"hand:{p}"]
                if held:
                    return {(p, c): 1 / len(held) for c in held}
            return {None: 1.0}

        overlapping += any(len(observe(w)) > 1 for w in worlds)
        dist, left, bits, sbits = _plain(worlds, observe, solution_of)
        _check(mv, worlds, dist, left, bits, sbits, solution_of)
    assert overlapping  # some suggestion leaves a player a choice of card: the uniform model is tested
    assert any(mv.solution_bits is not None for mv in advice.moves)  # checked in _check


def test_clue_worlds_counted_as_the_enumeration(clue):
    rep, turn, worlds, envelope, advice = clue
    assert advice.world_kind == "deals" and advice.worlds == len(worlds)


# -- the greedy bot ------------------------------------------------------------------------------
def test_greedy_parsed_and_refused():
    bots = parse_bots("greedy,greedy:risk=0.8", 3)
    assert [type(b) for b in bots] == [GreedyBot] * 3
    assert bots[0].risk == 1.0 and bots[1].risk == 0.8 and bots[1].spec() == "greedy:risk=0.8"
    for bad, column in (("greedy:risk=2", 0), ("greedy:risk=0", 0), ("greedy:nerve=0.5", 0),
                        ("random,greedy:risk=x", 7), ("greedy:risk=nan", 0), ("greedy:0.5", 0)):
        with pytest.raises(BotSpecError) as err:
            parse_bots(bad, 3)
        assert err.value.column == column, bad


@pytest.mark.parametrize("game, variant", [("lady-alice", "3p"), ("perfect-alibi", "3p")])
def test_greedy_plays_legal_games_that_check_clean(game, variant):
    from ruleslawyer.lab.simulate import Config, run

    result = run(Config(game, variant, games=1, bots="greedy:risk=0.9", seed=3, max_moves=300, sample=1))
    assert result.records[0].moves > 0
    assert [status for _i, _text, status in result.logs] == [0], result.problems


def test_greedy_makes_a_certain_claim():
    # after move 25 of the clean 4-player game Gordon knows the evidence (the rulebook's game ends
    # with his accusation): greedy accuses, and names the four pieces of evidence
    rep, lab, turn, _facts = _setting(LADY, 25)
    assert turn.actor == "Gordon" and turn.view.determined()
    play = GreedyBot().choose(turn)
    assert play.kind == "accuse"
    assert set(play.args["clues"]) == set(rep.solution)


# -- the command -----------------------------------------------------------------------------------
def _run(capsys, *argv):
    status = main(["suggest", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_suggest_text_fits_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _err = _run(capsys, str(LADY), "--at", "15", "--top", "4")
    assert status == 0
    assert "Audrey to move after move 15" in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "right 33.3%, wrong 66.7%" in out  # 3 evidence sets left, an accusation naming one


def test_suggest_json_is_complete(capsys):
    status, out, _err = _run(capsys, str(LADY), "--at", "15", "--top", "3", "--format", "json", "--as", "gordon")
    assert status == 0
    data = json.loads(out)
    assert data["seat"] == "Gordon" and data["mover"] == "Audrey" and data["listed"] == 3
    assert len(data["moves"]) == 3
    for mv in data["moves"]:
        assert {"rank", "kind", "choices", "bits", "solution_bits", "right", "wrong", "worlds_left",
                "answers", "ranked_by"} <= set(mv)
        if mv["answers"]:
            assert sum(a["probability"] for a in mv["answers"]) == pytest.approx(1.0)


def test_suggest_escapes_names(capsys, tmp_path):
    text = LADY.read_text(encoding="utf-8").replace("Helen", "He\u202elen")  # a right-to-left override
    log = tmp_path / "game.yaml"
    log.write_text(text, encoding="utf-8")
    for fmt in ("text", "json"):
        status, out, err = _run(capsys, str(log), "--at", "4", "--top", "2", "--as", "He\u202elen", "--format", fmt)
        assert status == 0, out + err
        assert "\u202e" not in out + err  # shown escaped, never sent
        assert "He" in out


@pytest.mark.parametrize("argv, words", [
    (["--as", "Nobody"], "not a player"),
    (["--at", "99"], "the log has 26 moves"),
    (["--at", "-1"], "the log has 26 moves"),
    (["--top", "0"], "--top 0"),
    ([], "the game has ended"),
])
def test_suggest_refuses_bad_input(capsys, argv, words):
    status, out, err = _run(capsys, str(LADY), *argv)
    assert status == 2, out
    said = out + err
    assert words in said
    assert "clean-4p.yaml" in said and "Traceback" not in said


@pytest.mark.parametrize("text", ["{{{ not yaml", "rules: no-such-game\nplayers: [A, B]\nmoves: []\n",
                                  "- a list\n- not a log\n"])
def test_suggest_refuses_a_hostile_log(capsys, tmp_path, text):
    log = tmp_path / "bad.yaml"
    log.write_text(text, encoding="utf-8")
    status, out, err = _run(capsys, str(log))
    assert status == 2
    assert "bad.yaml:" in out + err and "Traceback" not in out + err
