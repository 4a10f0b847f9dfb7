"""Every way a move may end (lab/advice.py move_paths) with each observation worked out once
per the values of the parameters it reads (Lab.observations), and the moves obliged after it
followed once when they are the same after each ending (lab/chain.py), against the reference:
every ending's facts from the state machine (Machine.observations) and the obliged moves
followed after every ending, in positions of every bundled rule file: every legal choice of
every kind open to the seat listed (its endings counted for the assertions on sharing), and
compared with the reference on the first choice of each shape of ending (given up, or how
many ways and of how many moves) and a seeded sample of the others, ``SAMPLE`` per kind (a
kind's choices repeat a few shapes: at Perfect Alibi's 5-player position, hundreds of
questions)."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab import advice
from ruleslawyer.lab.advice import MAX_PATHS, move_paths
from ruleslawyer.lab import chain
from ruleslawyer.lab.chain import chain_choices, chain_shared
from ruleslawyer.lab.engine import MAX_ENUMERATE, Lab
from ruleslawyer.lab.suggest import position
from ruleslawyer.spec.expr import evaluations
from ruleslawyer.spec.loader import load_rules

ROOT = Path(__file__).resolve().parents[2]
#: (log, after move, whether the endings share most of their facts' work: a question's answers)
POSITIONS = [
    ("perfect-alibi/clean-3p.yaml", 24, True),
    ("perfect-alibi/clean-5p.yaml", 13, True),
    ("perfect-alibi/clean-4p.yaml", 6, False),
    ("lady-alice/clean-4p.yaml", 0, False),
    ("lady-alice/clean-4p.yaml", 4, False),
    ("clue/clean-3p.yaml", 3, False),
]


def _fact(f):
    return (repr(f.formula), f.viewers, f.source, f.text, repr(f.likelihood))


def _paths(paths):
    return None if paths is None else [(repr(p.plays), [_fact(f) for f in p.facts], [_fact(f) for f in p.seen])
                                       for p in paths]


@functools.cache
def _listed(log: str, at: int) -> tuple[Lab, Any, str, dict[str, list[tuple[dict, Any]]]]:
    """The lab, the state after move ``at`` of ``log``, the mover, and for each kind open to the
    mover every choice with its ways to end as :func:`move_paths` lists them (shipped path)."""
    parsed, rules = parse_log(str(ROOT / "examples" / log))
    rep = replay(parsed, rules)
    lab = Lab(rules)
    state, mover, kinds = position(rep, lab, at)
    with evaluations():  # as the advice lists them: the generated checks run (the reference's are the interpreter's)
        listed = {kind: [(choice, move_paths(lab, state, mover, kind, choice, mover))
                         for choice in lab.mover_choices(state, mover, kind, limit=MAX_ENUMERATE)]
                  for kind in kinds}
    return lab, state, mover, listed


#: choices per kind compared with the reference, at most, beyond one of each shape of ending
SAMPLE = 24


def _shape(paths) -> Any:
    """How a choice ends: given up (None), or how many ways and how many moves each takes."""
    return None if paths is None else (len(paths), tuple(sorted({len(p.plays) for p in paths})))


def _sample(choices: list, rng: random.Random) -> list:
    """The first choice of each shape of ending, and a seeded sample of the others up to
    ``SAMPLE`` (all of them where there are no more): a kind's choices repeat few shapes."""
    firsts: dict[Any, int] = {}
    for i, (_choice, paths) in enumerate(choices):
        firsts.setdefault(_shape(paths), i)
    rest = [i for i in range(len(choices)) if i not in firsts.values()]
    extra = rng.sample(rest, min(len(rest), max(0, SAMPLE - len(firsts))))
    return [choices[i] for i in sorted(set(firsts.values()) | set(extra))]


@pytest.mark.parametrize("log, at, shared", POSITIONS)
@pytest.mark.heavy
def test_memo_paths_equal_the_reference(log, at, shared):
    lab, state, mover, listed = _listed(log, at)
    ended = facts = once = compared = 0
    for kind, choices in listed.items():
        for choice, new in _sample(choices, random.Random(f"{log}{at}{kind}")):
            assert _paths(new) == _paths(move_paths(lab, state, mover, kind, choice, mover, memo=False)), choice
            compared += 1
        for choice, new in choices:
            ended += len(new or ())
            facts += sum(len(p.facts) for p in new or ())
            once += bool(new) and lab.has_due and chain_shared(lab, kind) and len({repr(p.plays[0]) for p in new}) > 1
    assert ended > 0 and compared > 0
    if "perfect-alibi" in log and at > 6:  # a tile drawn after each question: followed once per question
        assert once > 0
    if shared:  # each answer's facts worked out once for the cards that may be shown with it
        assert len(lab.observation_memo(state, mover)) < facts / 2


def test_a_tile_drawn_after_a_question_does_not_multiply_its_ways_to_end(log="perfect-alibi/clean-3p.yaml", at=24):
    """A question is followed by a tile drawn (Perfect Alibi), which tells no one anything of the
    deal: the question's ways to end are its own completions (the rule checks of the question
    alone), each listed once, not once per tile.  Counted per tile, some questions here had more
    than MAX_PATHS ways and were never valued (advice listed only guesses)."""
    lab, state, mover, listed = _listed(log, at)  # the listing the test above checks, made once
    once_per_tile = 0
    for choice, paths in listed["ask"]:
        own = lab.completions(state, mover, "ask", choice, None, random.Random(0))
        if not own:
            continue
        assert paths is not None and len(paths) == len(own), choice
        assert [p.plays[0] for p in paths] == own
        if any(len(p.plays) > 1 for p in paths):  # a tile is drawn after it (not after every question)
            assert {p.plays[1].kind for p in paths if len(p.plays) > 1} == {"draw"}
            tiles = len(lab.completions(lab.apply(state, own[0])[0].state, mover, "draw", {}, None, random.Random(0)))
            once_per_tile += len(own) * tiles > MAX_PATHS
    assert once_per_tile > 0


def test_which_chains_are_shared_by_the_bundled_rule_files():
    """From the rule files: a question's answer and card are written only into the record of
    questions, which neither the tile drawn after it nor the guess due after a final question
    reads (Perfect Alibi); the card shown writes nothing (Clue).  A tile's colour and symbol go
    into the display the next draw reads; a guess or an accusation may end the game."""
    alibi, clue = Lab(load_rules("perfect-alibi")), Lab(load_rules("clue"))
    assert chain_shared(alibi, "ask") and chain_shared(clue, "show")
    assert not chain_shared(alibi, "draw") and not chain_shared(alibi, "guess")
    assert not chain_shared(clue, "accuse")


def test_which_choices_change_the_chain_in_the_bundled_rule_files():
    """From the rule file: the elements a question asks about go only into the record of
    questions ("questions: updated(vars.questions, move_number, question())"), which neither the
    tile drawn after it nor the guess due after a final question reads; how it is asked (a
    final question: the guess is due) and the tile taken (the display the next draw reads) do
    change the chain."""
    names = chain_choices(Lab(load_rules("perfect-alibi")), "ask")
    assert "asked" not in names and "via" in names


#: A house rule where the tile is drawn only after a question about more than one element:
#: the chain after a question then depends on what it asks about (a mover's choice), not on
#: its answer (the record it reads is written from the question's elements alone).
DRAW_AFTER_WIDE = """ruleslawyer: 1
extends: perfect-alibi
name: draw-after-wide
change:
  state:
    wide: {init: "true"}
  moves:
    ask:
      effects:
        $add:
          - {set: {wide: "len(move.asked) > 1"}}
    draw:
      due: "turn if phase == 'assistants' and len(vars.chosen) == 0 and vars.setup_draws < params.display_size else (vars.to_draw if vars.wide else none)"
"""


def test_a_chain_that_reads_a_choice_is_followed_per_class_of_that_choice(tmp_path, monkeypatch):
    """The chain after a question is followed once for the questions alike in what may change
    it (chain_choices): with the draw reading what was asked, the questions about one element
    and those about several are not alike, and each is listed as the reference lists it."""
    house = tmp_path / "h.yaml"
    house.write_text(DRAW_AFTER_WIDE)
    parsed, rules = parse_log(str(ROOT / "examples" / "perfect-alibi/clean-3p.yaml"), house=(str(house),))

    def listing():
        lab = Lab(rules)
        state, mover, _kinds = position(replay(parsed, rules), lab, 24)
        choices = [c for c in lab.mover_choices(state, mover, "ask", limit=MAX_ENUMERATE)
                   if lab.completions(state, mover, "ask", c, None, random.Random(0))]
        narrow = next(c for c in choices if len(c["asked"]) == 1)
        wide = next(c for c in choices if len(c["asked"]) > 1 and all(c[n] == narrow[n] for n in c if n != "asked"))
        with evaluations():
            return lab, state, mover, [(c, move_paths(lab, state, mover, "ask", c, mover)) for c in (narrow, wide)]
    lab, state, mover, listed = listing()
    assert chain_shared(lab, "ask") and "asked" in chain_choices(lab, "ask")
    for choice, paths in listed:
        assert _paths(paths) == _paths(move_paths(lab, state, mover, "ask", choice, mover, memo=False)), choice
    assert {len(p.plays) for p in listed[0][1]} == {1} and {len(p.plays) for p in listed[1][1]} == {2}
    # followed once for both (as if the analysis said so), the wide question would take no draw
    monkeypatch.setattr(chain, "chain_choices", lambda lab, kind: ())
    lab, state, mover, wrong = listing()
    assert _paths(wrong[1][1]) != _paths(move_paths(lab, state, mover, "ask", wrong[1][0], mover, memo=False))


#: A house rule where the tile is drawn only after an answer other than 0: the chain after a
#: question then depends on its answer (some endings are followed by a draw, some not).
DRAW_AFTER_ANSWER = """ruleslawyer: 1
extends: perfect-alibi
name: draw-after-answer
change:
  moves:
    draw:
      due: "turn if phase == 'assistants' and len(vars.chosen) == 0 and vars.setup_draws < params.display_size else (vars.to_draw if (move_number - 1) not in vars.questions or vars.questions[move_number - 1]['answer'] != 0 else none)"
"""


def test_a_chain_that_reads_the_answer_is_followed_per_ending(tmp_path, monkeypatch):
    house = tmp_path / "h.yaml"
    house.write_text(DRAW_AFTER_ANSWER)
    parsed, rules = parse_log(str(ROOT / "examples" / "perfect-alibi/clean-3p.yaml"), house=(str(house),))
    lab = Lab(rules)
    assert not chain_shared(lab, "ask")
    state, mover, _kinds = position(replay(parsed, rules), lab, 24)
    choices = [c for c in lab.mover_choices(state, mover, "ask", limit=MAX_ENUMERATE)
               if lab.completions(state, mover, "ask", c, None, random.Random(0))][:3]
    assert choices
    for choice in choices:
        paths = move_paths(lab, state, mover, "ask", choice, mover)
        assert _paths(paths) == _paths(move_paths(lab, state, mover, "ask", choice, mover, memo=False))
        answers = {len(p.plays): p.plays[0].args["answer"] for p in paths}
        assert answers[1] == 0 and answers[2] != 0  # no draw after 0, one after the others
    # followed once (as if the analysis said so), every ending would take the first one's draw
    monkeypatch.setattr(advice, "chain_shared", lambda lab, kind: True)
    wrong = move_paths(lab, state, mover, "ask", choices[0], mover)
    assert _paths(wrong) != _paths(move_paths(lab, state, mover, "ask", choices[0], mover, memo=False))


def test_a_parameter_read_only_as_given_or_not_counts_by_that_alone():
    """Perfect Alibi's question: whether a card was shown ("said_two_or_more(...) if move.shown is
    not none else ...") reads the card shown only as given or not (its fact is worked out once per
    answer, not per card); that the card lies in the target's hand reads which card."""
    from ruleslawyer.lab.engine import _given_only
    lab = Lab(load_rules("perfect-alibi"))
    functions = {name: fn.expr for name, fn in lab.rules.functions.items()}
    told, card = [ob for ob in lab.rules.moves["ask"].observe if "shown" in ob.fact.source]
    assert _given_only([told.fact, told.when], "shown", functions)
    assert not _given_only([card.fact], "shown", functions)
    assert not _given_only([told.fact], "answer", functions)  # compared with 2 through a rule function


def test_the_chain_followed_once_gives_up_where_the_reference_does():
    """move_paths gives None past ``limit`` ways (or 4 × limit waiting on its stack): the walk
    followed once per choice gives None for exactly the limits where the per-ending walk does."""
    parsed, rules = parse_log(str(ROOT / "examples" / "perfect-alibi/clean-3p.yaml"))
    lab = Lab(rules)
    state, mover, _kinds = position(replay(parsed, rules), lab, 24)
    choices = [c for c in lab.mover_choices(state, mover, "ask", limit=MAX_ENUMERATE)
               if lab.completions(state, mover, "ask", c, None, random.Random(0))][:2]
    assert chain_shared(lab, "ask")
    gave_up = kept = 0
    for choice in choices:
        n = len(move_paths(lab, state, mover, "ask", choice, mover))
        for limit in (1, n // 8, n // 5 - 1, n // 5, n // 4, n - 1, n):
            new = move_paths(lab, state, mover, "ask", choice, mover, limit=limit)
            assert _paths(new) == _paths(move_paths(lab, state, mover, "ask", choice, mover, limit=limit,
                                                    chain=False)), (choice, limit)
            gave_up += new is None
            kept += new is not None
    assert gave_up and kept


@pytest.mark.parametrize("log, at, shared", POSITIONS)
@pytest.mark.heavy
def test_ways_no_deal_allows_are_left_out_as_the_reference_filtered(log, at, shared):
    """move_paths(deal=...): the ways listed (fast path, a choice's endings' facts worked out
    together) are the reference's ways (every ending's facts from the state machine) without
    those with a fact that no deal of the table's shape satisfies, in the same order; each such
    fact is refused by the solver too (no deal of the seat's start fits it), and the ways kept
    have none."""
    from ruleslawyer.lab.chain import never
    from ruleslawyer.solver.engines import initial
    from ruleslawyer.spec.facts import Fact
    parsed, rules = parse_log(str(ROOT / "examples" / log))
    rep = replay(parsed, rules)
    lab, state, mover, listed = _listed(log, at)
    deal = rep.deal
    start = initial(deal)
    dropped = kept = 0
    refused: dict[str, bool] = {}
    for kind, choices in listed.items():
        for choice, _new in _sample(choices, random.Random(f"{log}{at}{kind}never")):
            with evaluations():
                got = move_paths(lab, state, mover, kind, choice, mover, deal=deal)
            every = move_paths(lab, state, mover, kind, choice, mover, memo=False)
            want = None if every is None else [p for p in every if not any(never(f.formula, deal) for f in p.facts)]
            assert _paths(got) == _paths(want), choice
            assert _paths(move_paths(lab, state, mover, kind, choice, mover, memo=False, deal=deal)) == _paths(want)
            for p in every or ():
                bad = [f for f in p.facts if never(f.formula, deal)]
                dropped += bool(bad)
                kept += not bad
                for f in bad:  # the solver finds no deal for it
                    key = repr(f.formula)
                    if key not in refused:
                        refused[key] = not start.with_facts([Fact(f.formula)]).consistent()
                    assert refused[key], f
    assert kept > 0
    if shared:  # a question's answers beyond what the target's hand holds
        assert dropped > 0  # answers the hand allows but the cards asked about do not
