"""The advice's budget of solver counts (lab/advice.py ``MAX_COUNTS``, ``suggest --budget``).

The counts are counted here, apart from the advice's own tally: every knowledge object the
solver is asked to count (``count``, ``consistent``, ``solution_count``, ``solutions``) is
recorded by its identity, by wrapping the engines' classes.  A sampled run is checked against
the full run of the same position (cheap on Lady Alice): the choices it values are among the
full run's and each has the full run's values.
"""

from __future__ import annotations

import json
import math

import pytest

from ruleslawyer.lab import advice as advice_module
from ruleslawyer.lab.advice import MAX_COUNTS, value_moves
from ruleslawyer.lab.bots import GreedyBot
from ruleslawyer.solver.engines import rebuild

from .test_advice import CLUE, LADY, _clue_enumerate, _run, _setting

METHODS = ("count", "consistent", "solution_count", "solutions")


@pytest.fixture
def counted(monkeypatch):
    """A function that starts counting on the engines of a turn's knowledge; returns the set of
    the ids of the knowledges counted."""
    seen: dict[int, object] = {}

    def watch(turn):
        classes = {type(turn.view), type(rebuild(turn.view.deal, tuple(getattr(turn.view, "facts", ()))))}
        for cls in classes:
            for name in METHODS:
                original = getattr(cls, name)

                def wrapped(self, *a, _original=original, **k):
                    seen.setdefault(id(self), self)
                    return _original(self, *a, **k)

                monkeypatch.setattr(cls, name, wrapped)
        return seen

    return watch


def _key(mv):
    return mv.kind, repr(sorted(mv.args.items()))


def _lady(budget, seed=0):
    _rep, _lab, turn, _facts = _setting(LADY, 14)
    return value_moves(turn, max_choices=16, kinds=["suspect"], budget=budget, seed=seed)


def test_the_budget_bounds_the_counts(counted):
    _rep, _lab, turn, _facts = _setting(LADY, 14)
    seen = counted(turn)
    advice = value_moves(turn, max_choices=16, kinds=["suspect"], budget=30)
    assert 0 < len(seen) <= 30
    assert advice.counts == len(seen)
    assert advice.sampled and advice.truncated and advice.valued < advice.choices == 16


def test_full_run_is_not_sampled(counted):
    _rep, _lab, turn, _facts = _setting(LADY, 14)
    seen = counted(turn)
    advice = value_moves(turn, max_choices=16, kinds=["suspect"], budget=10**6)
    assert not advice.sampled and advice.valued == advice.choices == 16 == len(advice.moves)
    assert advice.counts == len(seen)


@pytest.mark.parametrize("budget", [25, 40, 60])
def test_a_sample_has_the_full_runs_values(budget):
    full = {_key(m): m for m in _lady(10**6).moves}
    part = _lady(budget)
    assert part.sampled and 0 < len(part.moves) < len(full)
    assert part.valued == len(part.moves)  # every suspicion is legal, none a claim
    for mv in part.moves:
        whole = full[_key(mv)]
        assert mv.bits == pytest.approx(whole.bits)
        assert mv.worlds_left == pytest.approx(whole.worlds_left)
        assert [(a.says, a.worlds_left) for a in mv.answers] == [(a.says, a.worlds_left) for a in whole.answers]
        assert [a.probability for a in mv.answers] == pytest.approx([a.probability for a in whole.answers])
        if mv.solution_bits is not None:
            assert mv.solution_bits == pytest.approx(whole.solution_bits)


def test_the_sample_is_seeded():
    one = [_key(m) for m in _lady(40, seed=1).moves]
    assert one == [_key(m) for m in _lady(40, seed=1).moves]
    others = {tuple(sorted(_key(m) for m in _lady(40, seed=s).moves)) for s in range(2, 6)}
    assert len(others | {tuple(sorted(one))}) > 1  # different seeds draw different choices


def test_clue_within_the_default_budget(counted):
    rep, _lab, turn, facts = _setting(CLUE, 67)
    assert turn.actor == "Cat"
    worlds, envelope = _clue_enumerate(rep, facts, "Cat")
    groups = rep.deal.decks[0].constraints[0].groups  # suspects, weapons, rooms
    may_be_in = {c for w in worlds for c, z in w.items() if z == envelope}
    seen = counted(turn)
    advice = value_moves(turn, max_choices=20000)
    assert len(seen) <= MAX_COUNTS and advice.counts == len(seen)
    assert advice.moves and advice.sampled and advice.valued < advice.choices
    assert advice.worlds == len(worlds)
    # the legal choices: a suggestion of any suspect, weapon and room (6 x 6 x 9), passing, and
    # the accusations naming no card Cat has ruled out of the envelope
    assert [len(g) for g in groups] == [6, 6, 9]
    accusations = math.prod(len(may_be_in & set(g)) for g in groups)
    assert advice.choices == 6 * 6 * 9 + 1 + accusations


def test_greedy_keeps_to_the_budget(counted, monkeypatch):
    monkeypatch.setattr(advice_module, "MAX_COUNTS", 40)
    _rep, _lab, turn, _facts = _setting(CLUE, 61)
    seen = counted(turn)
    play = GreedyBot().choose(turn)
    assert play is not None and play.kind in turn.kinds
    assert len(seen) <= 40 + 2  # the advice's, and the bot's own look at its knowledge after the move


# -- the command -------------------------------------------------------------------------------------
@pytest.mark.heavy
def test_suggest_says_it_sampled(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _err = _run(capsys, str(LADY), "--at", "14", "--budget", "50")
    assert status == 0
    line = next(li for li in out.splitlines() if li.startswith("valued "))
    assert line.endswith("choices, sampled: raise --budget to value more")
    assert all(len(li) <= 80 for li in out.splitlines())
    status, out, _err = _run(capsys, str(LADY), "--at", "14", "--budget", "50", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["sampled"] is True and data["truncated"] is True
    assert 0 < data["valued"] < data["choices"] and data["counts"] <= data["budget"] == 50
    assert f"valued {data['valued']:,} of {data['choices']:,} choices" in line


def test_suggest_unsampled_says_nothing_of_it(capsys):
    status, out, _err = _run(capsys, str(LADY), "--at", "15", "--top", "3")
    assert status == 0 and "sampled" not in out
    status, out, _err = _run(capsys, str(LADY), "--at", "15", "--format", "json")
    data = json.loads(out)
    assert data["sampled"] is False and data["valued"] == data["choices"]


@pytest.mark.parametrize("argv, words", [
    (["--budget", "0"], "--budget 0"),
    (["--budget", "-1"], "--budget -1"),
    (["--budget", "x"], "--budget x"),
    (["--budget", "1.5"], "--budget 1.5"),
    (["--budget", "\u0663"], "--budget"),  # a digit of another script
    (["--budget", "99999999999"], "--budget 99999999999"),
    (["--seed", "-1"], "--seed -1"),
])
def test_suggest_refuses_a_bad_budget(capsys, argv, words):
    status, out, err = _run(capsys, str(LADY), "--at", "14", *argv)
    assert status == 2, out
    said = out + err
    assert words in said and "RL010" in said
    assert "clean-4p.yaml" in said and "Traceback" not in said
