"""Which engine answers for a deal: :func:`initial`, which never refuses a deal for its size.

* The deal projects (see :mod:`solver.frame`): the numpy engine's
  projected mode, counting solutions.  A fact that does not project moves
  the knowledge (all its facts) to the next choice below.
* Otherwise, the first that fits: numpy's full mode when the deal has at
  most :data:`~ruleslawyer.solver.enumerate.MAX_WORLDS` deals; the subset
  dynamic program (``solver/dp.py``) when it applies; the zone engine
  (``solver/zones.py``: one deck, facts each about one zone, a group
  constraint per zone) when it applies; else
  :class:`~ruleslawyer.solver.sampled.SampledKnowledge`: consistency and
  status exact from Z3, chances estimated from samples (``estimate`` is
  True), counts refused with :class:`~ruleslawyer.solver.errors.NeedsCounting`.
  The choice depends on the shape of the deal and of the facts, never on a
  game.  A fact an engine does not take moves every fact down this list.

>>> from ruleslawyer.spec.dealmodel import Deck, Zone
>>> from ruleslawyer.spec.facts import count, member
>>> deck = Deck("d", tuple("abcd"), (Zone("hand:Ann", "hand", "Ann", 1, "owner"),
...     Zone("hand:Bob", "hand", "Bob", 1, "owner"), Zone("rest", "rest", None, 2)))
>>> deal = Deal((deck,), solution=("hand:Ann", "hand:Bob"))
>>> k = initial(deal).with_fact(Fact(count("ab", {"hand:Ann", "hand:Bob"}) == 2))
>>> k.worlds, k.count()
('solutions', 1)
>>> k = k.with_fact(Fact(member("a", {"hand:Bob"}) == 0))
>>> k.worlds, k.count(), k.zone_probabilities()["a"]["hand:Ann"]
('deals', 1, 1.0)
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..spec.dealmodel import Deal
from ..spec.facts import Fact
from . import zones
from .engine import Knowledge
from .enumerate import MAX_WORLDS, ProjectedKnowledge, full_knowledge, full_size
from .errors import SolverError, TooBig
from .frame import frame_of

__all__ = ["initial", "rebuild", "exact_engine"]


def _optional_dp() -> ModuleType | None:
    """``solver.dp`` if it is installed (it is written separately)."""
    try:
        return importlib.import_module(f"{__package__}.dp")
    except ModuleNotFoundError as error:
        if error.name != f"{__package__}.dp":
            raise  # dp is there but something it imports is not: say so
        return None


_dp = _optional_dp()


def _full_size(deal: Deal) -> int | None:
    try:
        return full_size(deal)
    except SolverError:  # a deck with several constraints: not enumerated in full mode
        return None


def exact_engine(deal: Deal, facts: tuple[Fact, ...] = ()) -> str | None:
    """The exact counting engine :func:`rebuild` picks (None: chances are estimated).

    >>> from ruleslawyer.spec.dealmodel import Deck, Zone
    >>> exact_engine(Deal((Deck("d", tuple("ab"), (Zone("x", "x", None, 1), Zone("y", "y", None, 1))),),
    ...                   solution=("x",)))
    'enumerate'
    """
    size = _full_size(deal)
    if size is not None and size <= MAX_WORLDS:
        return "enumerate"
    if _dp is not None and _dp.applicable(deal, facts):
        return "dp"
    if zones.applicable(deal, facts):
        return "zones"
    return None


def rebuild(deal: Deal, facts: tuple[Fact, ...] = ()) -> Knowledge:
    """A knowledge of ``deal`` after ``facts`` that counts full deals (or estimates, beyond reach)."""
    return _rebuild(deal, facts, True)


def _status_rebuild(deal: Deal, facts: tuple[Fact, ...] = ()) -> Knowledge:
    return _rebuild(deal, facts, False)


def _rebuild(deal: Deal, facts: tuple[Fact, ...], count: bool) -> Knowledge:
    engine = exact_engine(deal, facts)
    again = rebuild if count else _status_rebuild
    if engine == "enumerate":
        return full_knowledge(deal, facts)
    if engine == "dp":
        return _dp.DPKnowledge.initial(deal, fallback=again).with_facts(facts)  # type: ignore[union-attr]
    if engine == "zones" and count:
        return zones.ZoneKnowledge.initial(deal, fallback=again).with_facts(facts)
    from .sampled import SampledKnowledge  # Z3: imported when no exact engine answers

    if engine == "zones":  # its count costs more than Z3's answer to consistency and status
        return SampledKnowledge.initial(deal, reason="counting is not asked for").with_facts(facts)
    size = _full_size(deal)
    reason = (f"{size:,} deals are more than full enumeration takes (RULESLAWYER_MAX_WORLDS, "
              f"{MAX_WORLDS:,}) and no other exact engine fits the deal and these facts"
              if size is not None else "no exact engine fits the deal and these facts")
    return SampledKnowledge.initial(deal, reason=reason).with_facts(facts)


def initial(deal: Deal, count: bool = True) -> Knowledge:
    """Nothing known yet, in the fastest engine that answers exactly (never refused for size).

    ``count=False``: only consistency and status will be asked (a replay's checks): an engine
    whose count costs more than Z3's answer (the zone engine) is passed over for Z3."""
    again = rebuild if count else _status_rebuild
    if frame_of(deal) is not None:
        try:
            return ProjectedKnowledge.initial(deal, fallback=again)
        except TooBig:  # more solutions than the numpy engine enumerates: the next engine
            pass
    return again(deal)
