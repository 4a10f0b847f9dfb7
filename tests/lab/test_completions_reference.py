"""Every completion of a move's outcomes (``Lab.completions``) by the search that prunes,
its checks generated functions, against the reference (``Lab(reference=True)``: every
combination of outcome values checked in turn by the state machine, requirement by
requirement): the same completions in the same order, with the deal known and without.
The pruned search runs within ``evaluations()``, as in a simulated game or an advice: only
there do the generated checks run (outside, every check is the interpreter's).

Positions: a seeded sample of ``STATES`` states of a random game of each rule file in
``rules/`` (and of house rules that add outcomes or checks), always with its first and last
state (the opening and the late game, where outcomes pin most), and the positions of the
bundled clean logs the advice tests use; in each, every kind open to every player, with
its legal choices (the mover's choices listed by ``Lab.mover_choices``; a seeded sample of
``CHOICES`` where there are more).  The game is the one test_draw.py plays (``game_states``,
same seed and length).  A random game repeats its shapes: its 80 states hold the same kinds
open to the same players, so a sample of them meets every kind and every outcome the whole
game meets (asserted: the kinds with several outcomes met, in each game that has them)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.suggest import position
from ruleslawyer.spec.expr import evaluations
from ruleslawyer.spec.loader import load_rules, rules_dir
from tests.lab.test_draw import game_states, sample_states

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))
HOUSES = [("lady-alice", "3p", ["unlimited-cards"]), ("lady-alice", "5p", ["two-counters"]),
          ("perfect-alibi", "3p", ["rival"]), ("perfect-alibi", "5p", ["unforgiving"]),
          ("clue", "3p", ["shown-at-random"])]
LOGS = [("perfect-alibi/clean-3p.yaml", 24), ("perfect-alibi/clean-5p.yaml", 13),
        ("lady-alice/clean-4p.yaml", 4), ("clue/clean-3p.yaml", 3)]
SEED, INDEX, MOVES = 5, 0, 80
STATES = 24  # states of the random game compared (a seeded sample, first and last kept)
CHOICES = 16  # mover's choices compared per kind and state, at most (beyond: a sample)


def _key(plays):
    return [(p.kind, p.actor, sorted((k, repr(v)) for k, v in p.args.items())) for p in plays]


def _sample(states: list, rng: random.Random) -> list:
    """``STATES`` of the states in their order, the first and the last among them."""
    return sample_states(states, rng, STATES)


def _compare(lab: Lab, ref: Lab, states, world, rng: random.Random) -> tuple[int, int, set[str]]:
    """Every legal choice (or a sample) of every open kind of every player, in every state:
    the completions of both labs equal.  (choices compared, completions listed, kinds with
    several outcomes met)"""
    compared = listed = 0
    several: set[str] = set()
    for state in states:
        for actor, kinds in lab.actors(state).items():
            for kind in kinds:
                choices = list(lab.mover_choices(state, actor, kind))
                if not choices:
                    choices = [lab.sample_args(state, actor, kind, rng) for _ in range(CHOICES)]
                elif len(choices) > CHOICES:
                    choices = rng.sample(choices, CHOICES)
                for args in choices:
                    for seen in (world, None):
                        with evaluations():  # as in a simulated game: the generated checks run
                            new = lab.completions(state, actor, kind, args, seen, random.Random(0))
                        old = ref.completions(state, actor, kind, args, seen, random.Random(0))
                        assert _key(new) == _key(old), (kind, args, seen is None)
                        listed += len(new)
                        if new and len(lab.kinds[kind].outcome) > 1:
                            several.add(kind)
                    compared += 1
    return compared, listed, several


@pytest.mark.parametrize("game,variant,house", [(g, None, []) for g in GAMES] + HOUSES)
@pytest.mark.heavy
def test_pruned_completions_equal_the_reference_in_a_random_game(game, variant, house):
    rules = load_rules(game, variant=variant, house=house)
    lab, ref = Lab(rules), Lab(rules, reference=True)
    states, world = game_states(lab, MOVES, SEED, INDEX)
    rng = random.Random(f"{game}{house}")
    compared, listed, several = _compare(lab, ref, _sample(states, rng), world, rng)
    joint = any(len(info.outcome) > 1 for info in lab.kinds.values())
    assert compared > 100 and listed > 100 and (several or not joint), (compared, listed, several)


@pytest.mark.parametrize("log, at", LOGS)
@pytest.mark.heavy
def test_pruned_completions_equal_the_reference_in_the_logs(log, at):
    parsed, rules = parse_log(str(ROOT / "examples" / log))
    rep = replay(parsed, rules)
    lab, ref = Lab(rules), Lab(rules, reference=True)
    state, _mover, _kinds = position(rep, lab, at)
    compared, listed, _several = _compare(lab, ref, [state], None, random.Random(log))
    assert compared > 0 and listed > 0


def test_a_deductions_accusation_lists_each_verdict_once():
    """Lady Alice 4 players, the rulebook's accusation (three clues, one per category): by
    the rules each verdict of 0 to 3 smiles is a way it may end (covered clues none or, at
    0 smiles, the uncovered ones); a hand count of what the pruned search must list.  In a
seeded sample of the random game's states (``STATES``)."""
    rules = load_rules("lady-alice", variant="4p")
    lab, ref = Lab(rules), Lab(rules, reference=True)
    states, world = game_states(lab, MOVES, SEED, INDEX)
    seen = 0
    for state in _sample(states, random.Random("accuse")):
        for actor, kinds in lab.actors(state).items():
            if "accuse" not in kinds:
                continue
            for args in list(lab.mover_choices(state, actor, "accuse"))[:20]:
                with evaluations():
                    new = lab.completions(state, actor, "accuse", args, None, random.Random(0))
                assert _key(new) == _key(ref.completions(state, actor, "accuse", args, None, random.Random(0)))
                smiles = [p.args["smiles"] for p in new]
                assert smiles == sorted(set(smiles)), new  # one completion per verdict, in order
                assert set(smiles) == set(range(len(args["clues"]) + 1)), new
                assert all(p.args.get("covers") in (None, []) for p in new if p.args["smiles"] > 0), new
                seen += 1
    assert seen > 0


@pytest.mark.parametrize("game,variant,house", [(g, None, []) for g in GAMES] + [HOUSES[2]])
@pytest.mark.heavy
def test_completions_a_deal_rules_out_are_those_the_reference_lists_with_an_impossible_fact(game, variant, house):
    """``Lab.completions(deal=...)``: the reference's completions in the same order, less some
    whose facts (the state machine's observations of each) include one that no deal of the
    table's shape satisfies (``never``; each such fact refused by the solver too, from no
    knowledge); checked on the bundled logs' positions (Violet, after move 13 of the 5-player
    log, may leave her answer out: a question's unanswered endings stay exactly as the
    reference lists them) and on a random game of each rule file."""
    from ruleslawyer.lab.engine import never
    from ruleslawyer.solver.engines import initial
    from ruleslawyer.spec.deal import build_deal
    from ruleslawyer.spec.facts import Fact
    rules = load_rules(game, variant=variant, house=house)
    lab, ref = Lab(rules), Lab(rules, reference=True)
    states, _world = game_states(lab, MOVES, SEED, INDEX)
    positions = [(lab, ref, s, build_deal(rules, list(s.players))) for s in _sample(states, random.Random(game))]
    for log, at in LOGS:
        if game in log and not house:
            parsed, rules_of = parse_log(str(ROOT / "examples" / log))
            rep = replay(parsed, rules_of)
            lab_of = Lab(rules_of)
            positions.append((lab_of, Lab(rules_of, reference=True), position(rep, lab_of, at)[0], rep.deal))
    left = kept = 0
    refused: dict[str, bool] = {}
    for lab_, ref_, state, deal in positions:
        rng = random.Random(repr(state.players))
        for actor, kinds in lab_.actors(state).items():
            for kind in kinds:
                choices = list(lab_.mover_choices(state, actor, kind))
                if len(choices) > 4 * CHOICES:
                    choices = rng.sample(choices, 4 * CHOICES)
                for args in choices:
                    with evaluations():
                        new = lab_.completions(state, actor, kind, args, None, random.Random(0), deal)
                    old = ref_.completions(state, actor, kind, args, None, random.Random(0))
                    newkeys = _key(new)
                    rest = [p for p in old if _key([p])[0] in newkeys]
                    assert _key(rest) == newkeys, (kind, args)  # the same, in the same order
                    for p in old:
                        if _key([p])[0] in newkeys:
                            kept += 1
                            continue
                        left += 1
                        bad = [f for f in lab_.machine.observations(state, p) if never(f.formula, deal)]
                        assert bad, p
                        key = repr(bad[0].formula)
                        if key not in refused:
                            refused[key] = not initial(deal).with_facts([Fact(bad[0].formula)]).consistent()
                        assert refused[key], bad[0]
    assert kept > 0
    if game == "perfect-alibi" and not house:  # answers beyond what the target's hand holds
        assert left > 0
