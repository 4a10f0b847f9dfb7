"""Claims refuted without a count (solver/refute.py) in the greedy bot and the advice, and the
claims read in the lab's environment of the state (lab/advice.py ``_bare_claim``), against
the reference: every claim counted (``GreedyBot(refute=False)``, ``advice._Bases.refute = False``)
and read by the state machine (``Machine.claim``).

* the very same greedy games, move for move, on every rule file in ``rules/`` (3 players)
  and a house rule, every log checking clean, with fewer knowledges counted;
* at decisions of those games, every kind valued by the advice (claims too, with every
  choice): the same hopeless count and the same values, refuted or counted;
* at the same decisions, every claim choice's bare claim the machine's (same formula)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab import advice
from ruleslawyer.lab.advice import _bare_claim, _choices
from ruleslawyer.lab.bots import GreedyBot
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.machine import Play
from ruleslawyer.spec.loader import load_rules, rules_dir

GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))
CASES = [(g, "3p", []) for g in GAMES] + [("lady-alice", "4p", ["no-repeat"])]
EVERY = 3  # of the decisions of a game, every EVERY-th compared in full (the advice twice)


@pytest.mark.parametrize("game,variant,house", CASES)
@pytest.mark.heavy
def test_the_same_games_with_claims_refuted(game, variant, house, monkeypatch):
    monkeypatch.setattr(advice, "MAX_COUNTS", 10 ** 9)
    rules = load_rules(game, variant=variant, house=house)
    seats = int(rules.param("players"))
    logs, made = {}, {}
    for refute in (False, True):
        lab = Lab(rules)
        bot = GreedyBot(refute=refute)
        counting: list[int] = []
        original = GreedyBot._certain_claim

        def timed(self, turn, *a, _original=original, _counting=counting, **k):
            before = _Made.n
            try:
                return _original(self, turn, *a, **k)
            finally:
                _counting.append(_Made.n - before)
        with monkeypatch.context() as m:
            m.setattr(GreedyBot, "_certain_claim", timed)
            _Made.watch(m)
            logs[refute] = play_game(lab, [bot] * seats, 3, 0, 400, keep_log=True, track=False).log
        made[refute] = sum(counting)
    assert logs[True] == logs[False]
    report = check_text(logs[True], f"<{game}>")
    assert report.status == 0, logs[True] + report.format_text()
    assert made[True] <= made[False]
    if game == "lady-alice":  # its accusations are checked at nearly every decision
        assert made[True] < made[False] / 4, made


class _Made:
    """Knowledges made with a fact added, by any engine (``with_fact``), counted."""

    n = 0

    @classmethod
    def watch(cls, m) -> None:
        from ruleslawyer.solver import brute, dp, enumerate as numpy_engine, zones

        for module in (numpy_engine, dp, zones, brute):
            for obj in vars(module).values():
                if isinstance(obj, type) and "with_fact" in vars(obj):
                    original = vars(obj)["with_fact"]

                    def wrapped(self, *a, _original=original, **k):
                        cls.n += 1
                        return _original(self, *a, **k)
                    m.setattr(obj, "with_fact", wrapped)


class _Both(GreedyBot):
    """Greedy that, at every EVERY-th decision, has the advice value every kind open (claims
    with every choice) with the refutation on and off (``_Bases.refute``), from copies of the decision's random
    state, and keeps both; and reads each claim choice's bare claim both ways."""

    pairs: list = []
    claims: list = []
    seen = 0

    def choose(self, turn):  # type: ignore[no-untyped-def]
        type(self).seen += 1
        if turn.view is not None and turn.view.consistent() and type(self).seen % EVERY == 0:
            state = turn.rng.getstate()
            got = []
            for refute in (True, False):
                copy = dataclasses.replace(turn, rng=random.Random(), cache={})
                copy.rng.setstate(state)
                advice._Bases.refute = refute
                try:
                    a = advice.value_moves(copy, max_choices=self.choices)
                finally:
                    advice._Bases.refute = True
                got.append((a.hopeless, a.valued, [(m.kind, repr(sorted(m.args.items())), m.right, m.bits,
                                                    m.solution_bits, m.rank) for m in a.moves]))
            type(self).pairs.append(tuple(got))
            lab = turn.lab
            for kind in turn.kinds:
                if not lab.kinds[kind].claims:
                    continue
                choices, _cut = _choices(lab, turn.state, turn.actor, kind, self.choices, random.Random(0))
                for args in choices:
                    try:
                        machine = lab.machine.claim(turn.state, Play(kind, turn.actor, dict(args)))
                    except Exception:  # noqa: BLE001 - reads an outcome: None, as _bare_claim says
                        machine = None
                    type(self).claims.append((repr(_bare_claim(lab, turn.state, turn.actor, kind, args)),
                                              repr(machine)))
        return super().choose(turn)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.heavy
def test_the_advice_counts_the_same_hopeless_claims(game, monkeypatch):
    monkeypatch.setattr(advice, "MAX_COUNTS", 10 ** 9)
    rules = load_rules(game, variant="3p")
    _Both.pairs, _Both.claims, _Both.seen = [], [], 0
    play_game(Lab(rules), [_Both()] * 3, 5, 0, 120, track=False)
    assert _Both.pairs
    for refuted, counted in _Both.pairs:
        assert refuted == counted
    assert _Both.claims
    assert all(new == old for new, old in _Both.claims)
    assert any(new != "None" for new, _old in _Both.claims)
