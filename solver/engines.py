"""Which counting engine answers for a deal: :func:`initial`.

* The deal projects (see :mod:`solver.frame`): the numpy engine's
  projected mode, counting solutions.  A fact that does not project moves
  the knowledge (all its facts) to the next choice below.
* Otherwise: numpy's full mode when the deal has at most
  :data:`~ruleslawyer.solver.enumerate.MAX_WORLDS` deals; else the
  dynamic-programming engine (``solver/dp.py``) when present and it says it
  applies; else :class:`~ruleslawyer.solver.errors.TooBig`.

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
from .engine import Knowledge
from .enumerate import MAX_WORLDS, ProjectedKnowledge, full_knowledge, full_size
from .errors import SolverError, TooBig
from .frame import frame_of

__all__ = ["initial", "rebuild"]


def _optional_dp() -> ModuleType | None:
    """``solver.dp`` if it is installed (it is written separately)."""
    try:
        return importlib.import_module(f"{__package__}.dp")
    except ModuleNotFoundError as error:
        if error.name != f"{__package__}.dp":
            raise  # dp is there but something it imports is not: say so
        return None


_dp = _optional_dp()


def rebuild(deal: Deal, facts: tuple[Fact, ...] = ()) -> Knowledge:
    """A knowledge of ``deal`` after ``facts`` that counts full deals."""
    try:
        size: int | None = full_size(deal)
    except SolverError:  # a deck with several constraints: not enumerated in full mode
        size = None
    if size is not None and size <= MAX_WORLDS:
        return full_knowledge(deal, facts)
    # -- hook: the dynamic-programming engine, for large spaces whose facts each
    # -- concern one zone (solver/dp.py exposes applicable() and DPKnowledge).
    if _dp is not None and _dp.applicable(deal, facts):
        return _dp.DPKnowledge.initial(deal).with_facts(facts)
    if size is None:
        raise SolverError("no engine counts this deal: a deck has several group constraints")
    raise TooBig(f"{size:,} deals are more than full enumeration takes ({MAX_WORLDS:,}) "
                 "and no other engine applies to these facts")


def initial(deal: Deal) -> Knowledge:
    """Nothing known yet, in the fastest engine that answers exactly."""
    if frame_of(deal) is not None:
        return ProjectedKnowledge.initial(deal, fallback=rebuild)
    return rebuild(deal)
