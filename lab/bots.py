"""Game-agnostic bots: they read only the rule file's moves and the solver.

* ``random`` — a move kind drawn uniformly among those open to the bot
  (weighted when the specification gives weights), then the mover's choices
  drawn uniformly among the legal ones (rejection sampling, then, when that
  keeps failing, enumeration).  Uniform over kinds first so that a kind
  with thousands of variants (naming four cards) does not crowd out a pass.
* ``greedy`` — the move of most expected information (:mod:`lab.advice`);
  a claim when certain, or when its chance of being right reaches
  ``greedy:risk=P``.
* ``informed`` — from its own seat (public facts and its own private ones):
  when a move that *claims* something about the deal (a ``claims:`` of the
  rule file) is legal and the claim is forced by
  what the bot knows, it makes it.  Otherwise every candidate move gets a
  value — for a move that lets the bot observe something, the expected
  information it gives about the solution (expected fall of log2 of the
  worlds left, over the move's outcomes, their chances counted by the
  solver); for a move after which the bot's expected score (the rule file's
  scoring steps on solutions drawn from its knowledge) rises, that rise —
  and one is drawn with chance proportional to exp(value / temperature)
  (temperature 0: the best, ties broken at random).  Claims that are not
  certain are never made.  Large choice sets are sampled
  (:data:`CANDIDATES` candidates per kind).

A specification names a bot per seat, comma-separated, the last repeated
for the remaining seats: ``random``, ``informed``, ``informed:0.5``, ``greedy:risk=0.8``
(temperature), ``random:end=0.05`` (kind weights).

One piece (over 800 lines): each bot builds on the one before it (informed on random's
filters and fallbacks, greedy on informed's claims and candidates) and the specification's
parser makes them all; split, each part would reach into the others' private helpers.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..solver.engine import Knowledge
from ..solver.errors import SolverError
from ..solver.marginal import table_of
from ..solver.refute import Refuter
from ..spec.dealmodel import Deal
from ..spec.facts import Fact, negate
from ..spec.machine import Play, State
from ..spec.scoring import UnknownValues, score
from .engine import Lab
from .filters import FILTER_CODE, FilterError, MoveFilter, parse_filter
from .outcomes import worlds_from_table

__all__ = ["refuse_filtered", "unfiltered", "FORCED", "Bot", "RandomBot", "InformedBot", "GreedyBot", "Turn", "parse_bots", "BotSpecError", "BotError", "CANDIDATES"]

#: The bots a specification may name.
BOTS = ("random", "informed", "greedy", "search")
#: Candidate mover choices valued per move kind by the informed bot.
CANDIDATES = 24
#: Candidates valued per move kind that may change the score (each costs SCORE_SAMPLES scorings).
SCORED_CANDIDATES = 8
#: Solutions drawn from a bot's knowledge to value a move by expected score.
SCORE_SAMPLES = 6
#: Mover's choices per kind the greedy bot values at most (beyond: sampled).
GREEDY_CHOICES = 24
#: Choices of a kind that tells nothing the greedy bot looks at (it draws one of them).
SILENT_CHOICES = 8
#: Rejection-sampling tries per kind before enumerating.
TRIES = 40
#: Values of a move's optional choices tried before leaving them out.
OPTIONAL_TRIES = 64
#: Enumerated choices tried per candidate wanted, when sampling finds too few legal ones.
ENUMERATED = 40
#: Choices that enumeration goes through at most when none of the first ``ENUMERATED`` per
#: candidate wanted was legal (a kind with 15 of 2,880 choices legal, a third of them tried:
#: none found, the bot made the likeliest claim, a gamble; benchmarks/README.md).
UNSEEN = 10_000
#: Whether that enumeration goes through the legal choices only (:meth:`Lab.legal_choices`,
#: a staged search); False: every choice, legal or not.  Off: measured slower (more legal
#: candidates found, each valued; benchmarks/README.md, branch staged).
STAGED_FALLBACK = False
#: Legal choices per kind the greedy bot values when none of its sample was legal (drawn by
#: :meth:`Lab.legal_sample`; then 4 times as many when each of those obliges a gamble) before
#: it falls back to the informed bot's weighing; 0: straight to the informed bot.  Off: weaker
#: with few, slower with many (one greedy against three random bots, 160 games of the bundled
#: game where it falls back most: 76.9 % of wins with 6, 85.0 % with 12 at 0.55 greedy games a
#: second, against 87.5 % at 0.78 with the informed bot's weighing; benchmarks/README.md).
FALLBACK_CHOICES = 0
#: The informed weighing reads the worlds left after one count of one owner's cards from one
#: table of them per decision (:func:`lab.outcomes.worlds_from_table`); False: a knowledge
#: counted per list of facts (the same numbers).
TABLE_COUNTS = True


class BotSpecError(ValueError):
    """A bot specification that cannot be read (position: the character)."""

    def __init__(self, message: str, column: int = 0, code: str = "RL170"):
        super().__init__(message)
        self.column = column
        self.code = code


class BotError(RuntimeError):
    """A bot that can make no move where a legal one is open to it (its weights leave none)."""


@dataclass
class Turn:
    """What a bot is told when it is to move."""

    lab: Lab
    state: State
    actor: str
    kinds: list[str]
    world: Mapping[str, str]          # the true deal: only to fill in outcomes, never to decide
    rng: random.Random
    deal: Deal
    view: Knowledge | None = None     # what the bot knows (its seat's facts)
    cache: dict[str, Any] = field(default_factory=dict)  # what one decision computes once
    due: bool = False                 # the rules oblige the bot to make a move of these kinds now
    history: Sequence[Fact] = ()      # every fact of the game so far (the deal's and each move's), with
    #                                   who saw it: a bot reads only its own (lab.search)


class Bot:
    name = "bot"
    needs_view = False
    #: Move filters (``forbid=``): a candidate any of them is true of is never played.
    forbid: tuple[MoveFilter, ...] = ()
    #: When the filters forbid every legal move (``forced=``): ``stop`` the run (RL170), or
    #: ``play`` the move the bot would make without them (that move only; the game counts it).
    forced: str = "stop"

    def allows(self, turn: Turn, kind: str, args: Mapping[str, Any]) -> bool:
        """Whether no filter of the bot forbids this move (its kind and choices)."""
        if not self.forbid:
            return True
        try:
            return not any(f.forbids(turn.lab, turn.state, turn.actor, kind, args) for f in self.forbid)
        except FilterError as exc:
            raise BotError(f"bot {self.spec()} at seat {turn.actor} after move {turn.state.played}: {exc}") from None

    def permits(self, turn: Turn, play: Play | None) -> Play | None:
        """The move when the filters allow it, else None."""
        return play if play is None or self.allows(turn, play.kind, play.args) else None

    def filters_spec(self) -> str:
        """The filters as ``--bots`` reads them (``;forbid="..."`` each, then ``;forced=play``)."""
        return "".join(f';forbid="{f.source}"' for f in self.forbid) + (";forced=play" if self.forced == "play" else "")

    def choose(self, turn: Turn) -> Play | None:
        raise NotImplementedError

    def interject(self, turn: Turn) -> Play | None:
        """A move out of turn (a certain claim), or None."""
        return None

    def spec(self) -> str:
        return self.name


def _sampled(turn: Turn, kind: str, args: dict[str, Any]) -> Play | None:
    """The move with these sampled choices completed; when it is not legal and no value of
    its optional choices would make it legal, the same move with them left out (a move that
    is legal only without them)."""
    lab, state, actor = turn.lab, turn.state, turn.actor
    play = lab.complete(state, actor, kind, args, turn.world, turn.rng)
    if play is not None:
        return play
    optional = [p for p in lab.kinds[kind].mover if lab.may_leave_out(p) and p.name in args]
    if not optional or lab.failed_alike(p.name for p in optional):
        return None
    bare = {k: v for k, v in args.items() if k not in {p.name for p in optional}}
    axes = [[(p.name, v) for v in lab.options(state, actor, p)] for p in optional]
    probe = _FIRST  # an existence test: any order of the values finds a completion when there is one
    for n, combo in enumerate(itertools.product(*axes)):
        if n >= OPTIONAL_TRIES:
            return None
        if lab.draw(state, actor, kind, {**bare, **dict(combo)}, None, probe) is not None:
            return None  # a value fits: not this way
    return lab.complete(state, actor, kind, bare, turn.world, turn.rng)


class _First(random.Random):
    """A stream that always draws the first value: for a search whose answer is only
    whether a completion exists (no new stream, seeded, at every test)."""

    def random(self) -> float:
        return 0.0

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return args[0] if len(args) > 1 else 0


_FIRST = _First(0)


def _legal(turn: Turn, kind: str, tries: int = TRIES, bot: Bot | None = None,
           values: Mapping[str, Mapping[Any, float]] | None = None) -> Play | None:
    """One legal move of this kind for the mover, drawn uniformly, with its outcomes (one the
    bot's filters allow, when a bot is given); ``values``: weights of some parameters' values
    (parameter -> value -> weight, 1 when not given): those are drawn by weight among the legal ones."""
    lab, state, actor, rng = turn.lab, turn.state, turn.actor, turn.rng
    weighed = [p for p in lab.kinds[kind].mover if p.name in values] if values else []
    for _ in range(tries):
        args = lab.sample_args(state, actor, kind, rng)
        for p in weighed:
            options = lab.options(state, actor, p)
            w = [float(values[p.name].get(v, 1.0)) for v in options]  # type: ignore[index]
            if sum(w) > 0:
                args[p.name] = options[bisect.bisect(list(itertools.accumulate(w)), rng.random() * sum(w),
                                                     0, len(options) - 1)]
        if bot is not None and not bot.allows(turn, kind, args):
            continue
        play = _sampled(turn, kind, args)
        if play is not None and (bot is None or bot.allows(turn, kind, play.args)):
            return play
    choices = list(lab.mover_choices(state, actor, kind))
    rng.shuffle(choices)
    if weighed:  # a weighted order (each choice first with chance proportional to its weight; 0: never)
        w = [math.prod(float(values[p.name].get(c.get(p.name, p.default), 1.0)) for p in weighed)  # type: ignore[index]
             for c in choices]
        choices = _weighted_order([c for c, x in zip(choices, w) if x > 0], [x for x in w if x > 0], rng)
    for args in choices:
        if bot is not None and not bot.allows(turn, kind, args):
            continue
        play = lab.complete(state, actor, kind, args, turn.world, rng)
        if play is not None:
            return play
    return None


def _weighted_order(items: list[Any], weights: Sequence[float], rng: random.Random) -> list[Any]:
    """The items in a random order where each comes next with chance proportional to its weight
    among those left (Efraimidis and Spirakis: key u ** (1 / w)); the weights are above 0."""
    keys = [rng.random() ** (1.0 / w) for w in weights]
    return [items[i] for i in sorted(range(len(items)), key=lambda i: -keys[i])]


def _weighted(items: Sequence[str], weights: Sequence[float], rng: random.Random) -> str:
    """``rng.choices(items, weights)[0]``, the same draw from the same stream, without the
    list it builds (a random bot draws a kind at every move)."""
    cum = list(itertools.accumulate(weights))
    return items[bisect.bisect(cum, rng.random() * (cum[-1] + 0.0), 0, len(items) - 1)]


@dataclass
class RandomBot(Bot):
    """Weights: the rule file's (``play: random:``, see :mod:`spec.playweights`), each replaced by
    one given here: ``weights`` by kind, ``values`` by (kind, parameter) then value."""

    weights: Mapping[str, float] = field(default_factory=dict)
    values: Mapping[tuple[str, str], Mapping[Any, float]] = field(default_factory=dict)
    name = "random"
    _kept: dict[tuple[Any, ...], Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _values_for(self, turn: Turn, kind: str) -> dict[str, dict[Any, float]]:
        """Parameter -> value -> weight for this kind: the rule file's, then this bot's."""
        key = ("values", id(turn.lab.rules), kind)
        found = self._kept.get(key)
        if found is None:
            play = turn.lab.rules.play
            found = {}
            for (k, name), by in list(play.value_weights().items() if play is not None else []) + \
                    list(self.values.items()):
                if k == kind:
                    found[name] = {**found.get(name, {}), **by}
            self._kept[key] = found
        return found

    def choose(self, turn: Turn) -> Play | None:
        kinds = list(turn.kinds)
        defaults = turn.lab.rules.play.kind_weights() if turn.lab.rules.play is not None else {}
        while kinds:
            w = self._weights_of(kinds, defaults)
            if w is None:
                self._refuse(turn, kinds)
                return None
            kind = kinds[0] if len(kinds) == 1 else _weighted(kinds, w, turn.rng)
            play = _legal(turn, kind, bot=self, values=self._values_for(turn, kind))
            if play is not None:
                return play
            kinds.remove(kind)
        return None

    def _weights_of(self, kinds: list[str], defaults: Mapping[str, float] = {}) -> list[float] | None:
        """The weights of these kinds (this bot's, else the rule file's, else 1) divided by the
        largest (their sum stays finite, the draw the same), None when they are all 0; kept by the kinds."""
        key = (tuple(kinds), tuple(sorted(defaults.items())))
        found = self._kept.get(key, False)
        if found is False:
            w = [float(self.weights.get(k, defaults.get(k, 1.0))) for k in kinds]
            top = max(w, default=0.0)
            found = self._kept[key] = [v / top for v in w] if top > 0 else None
        return found  # type: ignore[return-value]

    def _refuse(self, turn: Turn, kinds: Sequence[str]) -> None:
        """Raise :class:`BotError` when a move of these kinds (all of weight 0) is legal: the bot,
        not the game, is stuck."""
        for kind in kinds:
            if _legal(turn, kind) is not None:
                state = turn.state
                raise BotError(f"bot {self.spec()} at seat {turn.actor} can make no move after move "
                               f"{state.played} (phase {state.phase}): the moves open to it "
                               f"({', '.join(kinds)}) all have weight 0")

    def spec(self) -> str:
        parts = [f"{k}={v:g}" for k, v in sorted(self.weights.items())] + \
            [f"{k}.{p}.{_text(v)}={w:g}" for (k, p), by in sorted(self.values.items()) for v, w in by.items()]
        return "random" + (":" + ";".join(parts) if parts else "") + \
            (self.filters_spec() if parts else self.filters_spec().replace(";", ":", 1))


@dataclass
class InformedBot(Bot):
    temperature: float = 0.25
    name = "informed"
    needs_view = True
    #: the choices it values drawn among the legal ones (the advice's sample, and the candidates
    #: found by listing: the staged listing), whatever :data:`advice.LEGAL_SAMPLE` and
    #: :data:`STAGED_FALLBACK` say (a bot built on this one that needs several legal questions)
    legal_sample = False
    #: True: the weighing as first written (the reference the cheaper one is tested equal to):
    #: every choice :meth:`_candidates` enumerates completed from the deal as it is found (not
    #: only those the mover's requirements allow by the rules alone, the others having no
    #: completion; and not only the one made, :meth:`_finished`), each outcome's facts by
    #: :meth:`Lab.seen_facts`, every move's worlds left counted anew (not once per list of facts
    #: per decision: :class:`_Worlds`)
    reference_weighing = False

    def spec(self) -> str:
        return f"informed:{self.temperature:g}" + self.filters_spec()

    # -- claims ------------------------------------------------------------------
    def certain_claim(self, turn: Turn) -> Play | None:
        """A legal move whose claim the bot's knowledge forces, or None."""
        lab, view = turn.lab, turn.view
        if view is None:
            return None
        status = view.status() if view.consistent() else {}
        ruled_out = {c for c, s in status.items() if s == "out"}
        for kind in turn.kinds:
            info = lab.kinds[kind]
            if not info.claims:
                continue
            for args in self._claim_candidates(turn, kind, ruled_out):
                if not self.allows(turn, kind, args):
                    continue
                play = lab.complete(turn.state, turn.actor, kind, args, turn.world, turn.rng)
                if play is None:
                    continue
                claim = lab.machine.claim(turn.state, play)
                if claim is None:
                    continue
                if not view.with_fact(Fact(negate(claim))).consistent():
                    return play
        return None

    def _claim_candidates(self, turn: Turn, kind: str, ruled_out: set[str]) -> list[dict[str, Any]]:
        """Mover choices of a claim naming no card the bot has ruled out (none when more than 256:
        then it is not certain of any)."""
        return list(turn.lab.mover_choices(turn.state, turn.actor, kind, limit=256, exclude=ruled_out))

    def interject(self, turn: Turn) -> Play | None:
        if turn.view is None or not turn.view.determined():
            return None
        return self.certain_claim(turn)

    def _random(self, turn: Turn) -> Play | None:
        """A random move with this bot's filters."""
        bot = RandomBot()
        bot.forbid = self.forbid
        return bot.choose(turn)

    # -- values --------------------------------------------------------------------
    def choose(self, turn: Turn) -> Play | None:
        claim = self.certain_claim(turn)
        if claim is not None:
            return claim
        lab, rng = turn.lab, turn.rng
        candidates: list[Play] = []
        for kind in turn.kinds:
            if lab.kinds[kind].claims:
                continue  # a claim that is not certain is a gamble: never
            candidates.extend(self._candidates(turn, kind, SCORED_CANDIDATES if lab.kinds[kind].may_score
                                               and lab.scores else CANDIDATES))
        if not candidates:
            return self.likeliest_claim(turn)  # nothing else is open: the likeliest claim
        values = [self.value(turn, play) for play in candidates]
        # a move after which the rules oblige the bot to claim is made only when every
        # outcome of it makes the claim certain (else it would have to gamble): drawn
        # again without it (the same as drawing among the others), unless every move is such
        left, kept = list(range(len(candidates))), list(range(len(candidates)))
        while left:
            i = left[_softmax([values[j] for j in left], self.temperature, rng)]
            play = self._finished(turn, candidates[i])
            if play is not None and not self.forces_gamble(turn, play):
                return play
            left.remove(i)
        play = self._finished(turn, candidates[kept[_softmax(values, self.temperature, rng)]])
        return play if play is not None else self._random(turn)

    def _finished(self, turn: Turn, play: Play) -> Play | None:
        """The candidate as made: one of :meth:`_candidates`' choices whose outcomes were only
        listed, completed from the true deal now (once per decision; None: the deal allows no
        completion, which a legal move always has); any other candidate as it is."""
        if not isinstance(play, _Unfinished):
            return play
        found = turn.cache.setdefault("finished", {})
        if id(play) not in found:
            found[id(play)] = (play, turn.lab.complete(turn.state, turn.actor, play.kind, play.args,
                                                       turn.world, turn.rng))
        return found[id(play)][1]

    def forces_gamble(self, turn: Turn, play: Play) -> bool:
        """Whether, after the move, a claim is due from the bot while some outcome of the move
        leaves the solution open to it."""
        lab, view = turn.lab, turn.view
        after, _recorded = lab.apply(turn.state, play)
        if not any(who == turn.actor and lab.kinds[kind].claims for who, kind in lab.due(after.state)):
            return False
        if view is None or not view.consistent():
            return True
        outcomes = _outcomes(turn, play) or [play]
        seen: set[str] = set()
        for outcome in outcomes:
            facts = _seen(turn, outcome)
            key = repr([f.formula for f in facts])
            if key in seen:
                continue
            seen.add(key)
            k = view.with_facts(facts)
            if k.consistent() and not k.determined():
                return True
        return False

    def likeliest_claim(self, turn: Turn) -> Play | None:
        """When only claims are open (or one is due): the claim that holds in the most worlds the
        bot still thinks possible (a gamble forced on it, never one it seeks)."""
        lab, view = turn.lab, turn.view
        best, best_n = None, -1
        for kind in turn.kinds:
            if not lab.kinds[kind].claims:
                continue
            for args in lab.mover_choices(turn.state, turn.actor, kind, limit=256):
                if not self.allows(turn, kind, args):
                    continue
                play = lab.complete(turn.state, turn.actor, kind, args, turn.world, turn.rng)
                if play is None:
                    continue
                claim = lab.machine.claim(turn.state, play)
                if claim is None or view is None or not view.consistent():
                    n = 0
                else:
                    n = view.with_fact(Fact(claim)).count()
                if n > best_n:
                    best, best_n = play, n
        return best if best is not None else self._random(turn)

    def _candidates(self, turn: Turn, kind: str, limit: int = 0) -> list[Play]:
        lab, rng = turn.lab, turn.rng
        want = limit or CANDIDATES
        out: list[Play] = []
        seen: set[str] = set()
        choices = None
        for _ in range(want * 2):
            if len(out) >= want:
                break
            args = lab.sample_args(turn.state, turn.actor, kind, rng)
            key = repr(sorted(args.items()))
            if key in seen:
                continue
            seen.add(key)
            if not self.allows(turn, kind, args):
                continue
            play = _sampled(turn, kind, args)
            if play is not None and self.allows(turn, kind, play.args):
                out.append(play)
        if len(out) < want:
            # few sampled choices were legal: go through every choice the mover's requirements
            # allow (their staged listing: the others never looked at), in a random order
            choices = lab.legal_choices(turn.state, turn.actor, kind) if STAGED_FALLBACK or self.legal_sample else None
            passing: list[bool] | None = None  # per choice: whether the mover's requirements allow it
            if choices is None:
                choices = list(lab.mover_choices(turn.state, turn.actor, kind))
                # the same choices tried, but only those the mover's requirements allow by the
                # rules alone are completed (a completion of another is never found: most of them)
                if not self.reference_weighing:
                    passing = _passing(choices, lab.legal_choices(turn.state, turn.actor, kind))
            order = list(range(len(choices)))
            rng.shuffle(order)  # the same order as shuffling the choices themselves
            # none of the choices tried legal: the others too (up to :data:`UNSEEN`), rather than
            # leave a legal move unseen (the bot would then make a claim it is not sure of)
            for n, i in enumerate(order):
                if n >= want * ENUMERATED and (out or n >= UNSEEN):
                    break
                if passing is not None and not passing[i]:
                    continue
                args = choices[i]
                key = repr(sorted(args.items()))
                if key in seen or not self.allows(turn, kind, args):
                    continue
                seen.add(key)
                if self.reference_weighing:
                    play = lab.complete(turn.state, turn.actor, kind, args, turn.world, rng)
                else:  # legal when the rules give it outcomes (listed for its value anyway);
                    # completed from the deal only if it is the one made (:meth:`_finished`)
                    play = _Unfinished(kind, turn.actor, dict(args))
                    play = play if _outcomes(turn, play) else None
                if play is not None:
                    out.append(play)
                    if len(out) >= want:
                        break
        return out

    def value(self, turn: Turn, play: Play) -> float:
        return self.information(turn, play) + self.score_gain(turn, play)

    def information(self, turn: Turn, play: Play) -> float:
        """Expected fall of log2(worlds left) over the move's outcomes, as the bot sees them."""
        lab, view = turn.lab, turn.view
        info = lab.kinds[play.kind]
        if view is None or not info.observes or not view.consistent():
            return 0.0
        outcomes = _outcomes(turn, play)
        if len(outcomes) > 64:
            outcomes = turn.rng.sample(outcomes, 64)
        total = view.count()
        if total <= 1:
            return 0.0
        seen: dict[Any, int] = {}
        if self.reference_weighing:
            for outcome in outcomes:
                facts = _seen(turn, outcome)
                key = repr([f.formula for f in facts])
                if key in seen:
                    continue
                k = view
                for f in facts:
                    k = k.with_fact(f)
                seen[key] = k.count()
        else:
            worlds = _Worlds.of(turn)
            for facts in _seen_together(turn, outcomes):
                key = tuple(worlds.text(f.formula) for f in facts)
                if key not in seen:
                    seen[key] = worlds.count(key, facts)
        mass = sum(seen.values())
        if mass == 0:
            return 0.0
        after = sum(n / mass * math.log2(n) for n in seen.values() if n > 0)
        return max(0.0, math.log2(total) - after)

    def score_gain(self, turn: Turn, play: Play) -> float:
        """Expected change of the bot's own score if the game were scored now, after the move
        (the rule file's scoring steps on solutions drawn from the bot's knowledge)."""
        lab, view = turn.lab, turn.view
        if view is None or not lab.scores or not lab.kinds[play.kind].may_score or not view.consistent():
            return 0.0
        cache = turn.cache
        if "solutions" not in cache:
            cache["solutions"] = _sample_solutions(view, SCORE_SAMPLES, turn.rng)
            try:
                cache["before"] = [score(lab.machine, turn.state, s).scores.get(turn.actor, 0)
                                   for s in cache["solutions"]]
            except UnknownValues:
                cache["before"] = None
        solutions, before = cache["solutions"], cache["before"]
        if not solutions or before is None:
            return 0.0
        made = self._finished(turn, play)
        if made is None:
            return 0.0
        after, _play = lab.apply(turn.state, made)
        try:
            total = sum(score(lab.machine, after.state, s).scores.get(turn.actor, 0) for s in solutions)
        except UnknownValues:
            return 0.0
        return (total - sum(before)) / len(solutions)


@dataclass
class GreedyBot(InformedBot):
    """The move that tells the bot most (expected information about the solution, from
    :func:`lab.advice.value_moves`); a claim when it is certain or when its chance of being
    right reaches ``risk``.  Large choice sets are sampled (``choices`` per kind), and the advice
    keeps to the same budget of solver counts as ``suggest`` (:data:`lab.advice.MAX_COUNTS`)."""

    risk: float = 1.0
    choices: int = GREEDY_CHOICES
    temperature: float = 0.0
    #: every claim valued in full by the advice, as every other move (the reference the
    #: cheaper way of :meth:`_certain_claim` is tested equal to)
    reference: bool = False
    #: :meth:`_certain_claim` refutes a claim from the knowledge's per-card statuses and
    #: chances before counting it (:class:`solver.refute.Refuter`); False: every claim
    #: counted (the reference the refutation is tested equal to)
    refute: bool = True
    name = "greedy"

    def spec(self) -> str:
        options = ([f"risk={self.risk:g}"] if self.risk < 1 else []) + \
            ([f"choices={self.choices}"] if self.choices != GREEDY_CHOICES else [])
        text = "greedy" + (":" + ";".join(options) if options else "") + self.filters_spec()
        return text if ":" in text.split(";")[0] or ";" not in text else text.replace(";", ":", 1)

    def choose(self, turn: Turn) -> Play | None:
        from .advice import AdviceError, value_moves  # advice imports this module

        if turn.view is None or not turn.view.consistent():
            return self._random(turn)
        if turn.view.determined():  # else a certain claim, if any, is among the advice's choices
            claim = self.certain_claim(turn)
            if claim is not None:
                return claim
        lab = turn.lab
        claiming = [k for k in turn.kinds if lab.kinds[k].claims]
        others = [k for k in turn.kinds if not lab.kinds[k].claims]
        # a claim is made only when certain (risk 1) while other moves are open: what the bot
        # reads of its claims is then only whether one is certain (not their information);
        # the claims' choices are drawn after the others' (as the advice draws them)
        split = not self.reference and self.risk >= 1 and claiming and others \
            and turn.kinds == others + claiming
        try:
            advice = value_moves(turn, max_choices=self.choices, silent_choices=SILENT_CHOICES,
                                 kinds=others if split else None, legal=self.legal_sample or None)
            # the claims' checks kept to what the advice left of its budget of solver counts
            certain = self._certain_claim(turn, claiming, advice.budget - advice.counts) if split else None
        except AdviceError:
            return InformedBot.choose(self, turn)
        turn.cache["advice"] = advice  # for a bot built on this one (lab.search)
        if certain is not None:
            return self._made(turn, *certain)
        play = self._pick(turn, advice)
        tries = (FALLBACK_CHOICES, 4 * FALLBACK_CHOICES) if FALLBACK_CHOICES and not self.legal_sample and others \
            else ()
        for size in tries:
            if play is not None:
                break
            # the choices looked at were none legal (a sample of many choices, few of them
            # legal), or each obliges a gamble: a few of the moves other than claims (a certain
            # claim was looked for) drawn among the legal ones, valued the same way (then more)
            try:
                advice = value_moves(turn, max_choices=size, silent_choices=SILENT_CHOICES, kinds=others,
                                     legal=True)
            except AdviceError:
                return InformedBot.choose(self, turn)
            turn.cache["advice"] = advice
            play = self._pick(turn, advice)
        return play if play is not None else InformedBot.choose(self, turn)  # still none: every one

    def _pick(self, turn: Turn, advice: Any) -> Play | None:
        """The move greedy makes of the advice's ranked moves (None: none of them is legal)."""
        moves = [m for m in advice.moves if self.allows(turn, m.kind, m.args)]
        claims = [m for m in moves if m.right is not None]
        best_claim = max(claims, key=lambda m: m.right or 0.0, default=None)
        if best_claim is not None and (best_claim.right or 0.0) >= min(self.risk, 1.0) - 1e-9:
            return self._made(turn, best_claim.kind, best_claim.args)
        others = [m for m in moves if not turn.lab.kinds[m.kind].claims]  # a claim saying nothing: no
        informative = [m for m in others if (m.solution_bits if m.solution_bits is not None else m.bits or 0.0) > 0]
        for m in informative:  # in rank order: the first that does not oblige a gamble after it
            play = self._made(turn, m.kind, m.args)
            if play is not None and not self.forces_gamble(turn, play):
                return play
        others = [m for m in others if m not in informative]
        turn.rng.shuffle(others)
        for m in others:
            play = self._made(turn, m.kind, m.args)
            if play is not None:
                return play
        if best_claim is not None and not any(not turn.lab.kinds[k].claims for k in turn.kinds):
            return self._made(turn, best_claim.kind, best_claim.args)  # only claims are open: the likeliest
        return None

    def _certain_claim(self, turn: Turn, kinds: Sequence[str], budget: int) -> tuple[str, dict[str, Any]] | None:
        """The first claim, of the choices :func:`lab.advice.value_moves` would draw of these
        kinds (the same draws, in the same order), that the bot's filters allow, that some
        way of ending makes legal, and whose claim the bot's knowledge forces (it
        holds in every world): the claim the advice would rank first, with a chance of 1.  The ways
        of ending are listed only for a claim found certain from the mover's choices alone
        (when the claim reads no outcome: else for each).  ``budget``: knowledges counted at
        most besides the bot's own (past it, the claims left are not looked at: none found)."""
        from .advice import AdviceError, _Bases, _bare_claim, _choices, _Spent, move_paths  # advice imports this module

        lab, view, state, actor = turn.lab, turn.view, turn.state, turn.actor
        if view is None:
            return None

        # what the checks cost of the budget: each claim's knowledge (one count per claim,
        # counted or refuted without a count alike), and each base other than the bot's own
        # knowledge it is added to (once, when first needed)
        charged: set[Any] = {id(view)}
        refuter = Refuter(view) if self.refute else None

        def charge(*keys: Any) -> None:
            new = set(keys) - charged
            if len(charged) - 1 + len(new) > budget:
                raise _Spent
            charged.update(new)

        def certain(claim: Any) -> bool:
            """Whether the claim holds in every world of the bot's knowledge: as many worlds with
            it as without (counted where the advice counts the claim's chance), unless the
            knowledge's per-card statuses or chances refute it first."""
            if refuter is not None and refuter.refutes(claim) is not None:
                charge(claim)
                return False  # hopeless or not certain: no count needed
            fact = Fact(claim)
            base = bases.for_facts([fact])
            charge(claim, id(base))
            with_it = base.with_fact(fact)
            return with_it.consistent() and with_it.count() == base.count()
        try:
            bases = _Bases(view)
            ruled_out = frozenset(c for c, v in view.status().items() if v == "out")
            for kind in kinds:
                bare = not lab.claim_reads_outcome(kind)
                choices, _cut = _choices(lab, state, actor, kind, self.choices, turn.rng, ruled_out,
                                         self.legal_sample or None)
                for args in choices:
                    if not self.allows(turn, kind, args):
                        continue
                    claim = _bare_claim(lab, state, actor, kind, args) if bare else None
                    if claim is not None and not certain(claim):
                        continue  # not certain, whatever the outcomes
                    paths = move_paths(lab, state, actor, kind, args, actor)
                    if not paths:
                        continue
                    claim = lab.machine.claim(state, paths[0].plays[0])
                    if claim is not None and certain(claim):
                        return kind, args
        except _Spent:
            return None
        except SolverError as exc:
            raise AdviceError(f"the solver cannot count these worlds exactly: {exc}") from None
        return None

    def _made(self, turn: Turn, kind: str, args: Mapping[str, Any]) -> Play | None:
        """The move with these choices, its outcomes filled in from the true deal (None when
        a filter of the bot forbids it as completed)."""
        return self.permits(turn, _sampled(turn, kind, dict(args)))


def unfiltered(bot: Bot, turn: Turn) -> Play | None:
    """When the bot made no move: with ``forced=play`` and filters that forbid every move open
    to it, the move it makes with the filters lifted (for this move only); else None, after
    :func:`refuse_filtered` (which raises when a move is legal)."""
    if bot.forced == "play" and bot.forbid:
        filters = bot.forbid
        bot.forbid = ()  # a bot may sit at several seats: lifted for this one choice, then put back
        try:
            play = bot.choose(turn)
        finally:
            bot.forbid = filters
        if play is not None:
            return play
    refuse_filtered(bot, turn)
    return None


def refuse_filtered(bot: Bot, turn: Turn) -> None:
    """Raise :class:`BotError` when the bot made no move although one is legal: its filters
    forbid every move open to it (the bot, not the game, is stuck)."""
    if not bot.forbid:
        return
    for kind in turn.kinds:
        if _legal(turn, kind) is not None:
            state = turn.state
            raise BotError(f"bot {bot.spec()} at seat {turn.actor} can make no move after move {state.played} "
                           f"(phase {state.phase}): its filters forbid every move open to it "
                           f"({', '.join(turn.kinds)})")


def _outcomes(turn: Turn, play: Play) -> list[Play]:
    """Every outcome the move may have as far as the rules go (kept for the decision)."""
    lab = turn.lab
    info = lab.kinds[play.kind]
    mover_args = {p.name: play.args[p.name] for p in info.mover if p.name in play.args}
    key = "outcomes " + play.kind + repr(sorted(mover_args.items()))
    if key not in turn.cache:
        turn.cache[key] = lab.completions(turn.state, turn.actor, play.kind, mover_args, None, turn.rng)
    return list(turn.cache[key])


def _seen(turn: Turn, outcome: Play) -> list[Fact]:
    """The facts a move with these outcomes lets the mover observe (kept for the decision)."""
    key = "seen " + outcome.kind + repr(sorted(outcome.args.items()))
    if key not in turn.cache:
        memo = turn.cache.setdefault("facts", {})
        turn.cache[key] = turn.lab.seen_facts(turn.state, outcome, turn.actor, memo)
    return turn.cache[key]


def _seen_together(turn: Turn, outcomes: Sequence[Play]) -> list[tuple[Fact, ...]]:
    """:func:`_seen` of each of the outcomes of one move (its mover's choices the same), read
    together by :meth:`Lab.ending_observations` (the same facts the mover observes, in the
    order of the rule file's observations): what an observation reads of the outcomes alone
    is looked up per ending, the rest worked out once per state and mover."""
    lab = turn.lab
    memo = lab.observation_memo(turn.state, turn.actor)
    return [tuple(f for f in facts if _sees(f, turn.actor))
            for facts in lab.ending_observations(turn.state, outcomes, ("bots", 1), memo)]


class _Worlds:
    """The worlds of the bot's knowledge left after lists of facts, for one decision: each list
    counted once, and the knowledge after each of its prefixes made once (the facts of a move's
    outcomes share their first ones: a number said, then which item goes with it)."""

    def __init__(self, view: Knowledge):
        self.view = view
        self.made: dict[tuple[str, ...], Knowledge] = {(): view}
        self.counted: dict[tuple[str, ...], int] = {}
        self.texts: dict[int, tuple[Any, str]] = {}  # id of a formula -> it (kept alive), its text
        self.tables: dict[frozenset[str], Any] = {}  # zones -> the view's table of them (or None)

    def text(self, formula: Any) -> str:
        """``repr(formula)``, worked out once per formula object (the same one is met in many
        outcomes' facts: a number said, with each item that may go with it)."""
        kept = self.texts.get(id(formula))
        if kept is None:
            kept = self.texts[id(formula)] = (formula, repr(formula))
        return kept[1]

    @classmethod
    def of(cls, turn: Turn) -> "_Worlds":
        """The decision's own (anew when the bot's knowledge is another)."""
        kept = turn.cache.get("worlds")
        if kept is None or kept.view is not turn.view:
            kept = turn.cache["worlds"] = cls(turn.view)
        return kept

    def count(self, key: tuple[str, ...], facts: Sequence[Fact]) -> int:
        """The worlds left after ``facts`` (``key``: their formulas' texts): read from the table of
        one owner's cards and the solution when the facts are one count of them (a number said,
        an item shown; :func:`lab.outcomes.worlds_from_table`, one table per owner and decision),
        else counted."""
        n = self.counted.get(key)
        if n is None:
            n = worlds_from_table(facts, self._table) if TABLE_COUNTS else None
            if n is None:
                n = self.after(key, facts).count()
            self.counted[key] = n
        return n

    def _table(self, zones: frozenset[str]) -> Any:
        if zones not in self.tables:
            self.tables[zones] = table_of(self.view, zones)
        return self.tables[zones]

    def after(self, key: tuple[str, ...], facts: Sequence[Fact]) -> Knowledge:
        k = self.made.get(key)
        if k is None:
            k = self.made[key] = self.after(key[:-1], facts[:-1]).with_fact(facts[-1])
        return k


class _Unfinished(Play):
    """A candidate of the informed weighing with only its mover's choices: the rules give it
    outcomes (:func:`_outcomes`), the true deal has not yet been asked which (what the weighing
    reads of it is its mover's choices and every outcome they may have)."""


def _passing(choices: Sequence[Mapping[str, Any]], allowed: Sequence[Mapping[str, Any]] | None) -> list[bool] | None:
    """Per choice of ``choices`` (:meth:`Lab.mover_choices`, in its order), whether it is one of
    ``allowed`` (:meth:`Lab.legal_choices`: a sublist in the same order); None when not listed."""
    if allowed is None:
        return None
    flags, j = [False] * len(choices), 0
    for i, args in enumerate(choices):
        if j < len(allowed) and args == allowed[j]:
            flags[i] = True
            j += 1
    if j == len(allowed):
        return flags
    keys = {repr(sorted(a.items())) for a in allowed}  # not in the listing's order: by their keys
    return [repr(sorted(a.items())) in keys for a in choices]


def _sees(fact: Fact, player: str) -> bool:
    return fact.viewers is None or player in fact.viewers



def _sample_solutions(view: Knowledge, n: int, rng: random.Random) -> list[frozenset[str]]:
    """Solutions drawn from a knowledge: its own sampler when it has one, else its list when short."""
    sampler = getattr(view, "sample_solutions", None)
    if sampler is not None:
        return sampler(n, rng)
    few = view.solutions(256)
    if not few:
        return []
    return [rng.choice(few) for _ in range(n)]


def _text(value: Any) -> str:
    """A value as --bots writes it (a flag lower case)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _softmax(values: Sequence[float], temperature: float, rng: random.Random) -> int:
    if temperature <= 0:
        best = max(values)
        top = [i for i, v in enumerate(values) if v >= best - 1e-12]
        return top[0] if len(top) == 1 else rng.choice(top)
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    return rng.choices(range(len(values)), weights)[0]


#: What ``forced=`` may say.
FORCED = ("stop", "play")


def _split(text: str, sep: str) -> list[tuple[str, int]]:
    """``text`` cut at ``sep`` outside quotes and brackets: each part with its offset.

    >>> _split("a;forbid=\"x in ['a;b']\";c", ";")
    [('a', 0), ('forbid="x in [\'a;b\']"', 2), ('c', 24)]
    """
    parts, start, quote, depth = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == sep and depth == 0:
            parts.append((text[start:i], start))
            start = i + 1
    parts.append((text[start:], start))
    return parts


def parse_bot(text: str, kinds: Sequence[str] = (), column: int = 0, rules: Any = None) -> Bot:
    head, colon, rest = text.partition(":")
    name = head.strip().lower()
    base = column + len(head) + len(colon)
    options, filters, forced = [], [], "stop"
    for part, offset in _split(rest, ";"):
        key, eq, value = part.partition("=")
        if eq and key.strip() == "forced":
            forced = value.strip()
            if forced not in FORCED:
                raise BotSpecError(f"forced= is {' or '.join(FORCED)} (what the bot does when its filters forbid "
                                   f"every legal move), not {forced!r}", base + offset + len(key) + 1)
        elif eq and key.strip() == "forbid":
            at = base + offset + len(key) + 1
            if rules is None:
                raise BotSpecError("forbid= needs the rules to read its expression against", at)
            try:
                filters.append(parse_filter(value, rules, at))
            except FilterError as exc:
                raise BotSpecError(str(exc), exc.column, FILTER_CODE) from None
        elif part.strip():
            options.append(part)
    bot = _bot_of(name, ";".join(options), kinds, column, rules)
    bot.forbid = tuple(filters)
    if forced != "stop":
        bot.forced = forced
    return bot


def _bot_of(name: str, rest: str, kinds: Sequence[str], column: int, rules: Any = None) -> Bot:
    """A bot from its name and its options (``forbid=`` taken out)."""
    if name == "random":
        weights: dict[str, float] = {}
        values: dict[tuple[str, str], dict[Any, float]] = {}
        for part in filter(None, (p.strip() for p in rest.split(";"))):
            kind, eq, num = part.partition("=")
            if not eq:
                raise BotSpecError(f"a weight is KIND=NUMBER or KIND.PARAMETER.VALUE=NUMBER, not {part!r}", column)
            if "." in kind:
                key, value = _value_key(kind.strip(), rules, column)
                values.setdefault(key, {})[value] = _number(num, kind.strip(), column)
                continue
            if kinds and kind.strip() not in kinds:
                raise BotSpecError(f"no move {kind.strip()!r} in these rules (moves: {', '.join(kinds)})", column)
            weights[kind.strip()] = _number(num, kind.strip(), column)
        if kinds and all(weights.get(k, 1.0) == 0 for k in kinds):
            raise BotSpecError("every move has weight 0: the bot could never move", column)
        for (kind, param), by in values.items():
            known = _listed_values(rules, kind, param) or []
            if known and all(by.get(v, 1.0) == 0 for v in known):
                raise BotSpecError(f"every value of {kind}.{param} has weight 0: the bot could never make a {kind} move",
                                   column)
        return RandomBot(weights, values)
    if name == "informed":
        temperature = 0.25
        if rest.strip():
            try:
                temperature = float(rest)
            except ValueError:
                raise BotSpecError(f"the temperature must be a number, not {rest.strip()!r}", column) from None
            if not math.isfinite(temperature) or temperature < 0:
                raise BotSpecError("the temperature must be a number from 0 up", column)
        return InformedBot(temperature)
    if name == "greedy":
        risk, choices = _greedy_options(rest, column)
        return GreedyBot(risk=risk, choices=choices)
    if name == "search":
        from .search import parse_search  # it builds on this module's bots

        return parse_search(rest, column)
    raise BotSpecError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})", column)


def _number(text: str, what: str, column: int) -> float:
    """A weight: a finite number from 0 up."""
    try:
        value = float(text)
    except ValueError:
        raise BotSpecError(f"the weight of {what} must be a number, not {text!r}", column) from None
    if not math.isfinite(value) or value < 0:
        raise BotSpecError(f"the weight of {what} must be a number from 0 up", column)
    return value


def _listed_values(rules: Any, kind: str, param: str) -> list[Any] | None:
    from ..spec.playweights import weighable_values

    if rules is None or kind not in rules.moves:
        return None
    return weighable_values(rules.moves[kind], param, rules.components)


def _value_key(text: str, rules: Any, column: int) -> tuple[tuple[str, str], Any]:
    """``KIND.PARAMETER.VALUE`` checked against the rules: ((kind, parameter), value)."""
    kind, _, tail = text.partition(".")
    param, _, value = tail.partition(".")
    if rules is None:
        raise BotSpecError(f"a value's weight ({text}) needs the rules to read it against", column)
    if kind not in rules.moves:
        raise BotSpecError(f"no move {kind!r} in these rules (moves: {', '.join(rules.moves)})", column)
    known = _listed_values(rules, kind, param)
    if known is None:
        names = [p.name for p in rules.moves[kind].params if _listed_values(rules, kind, p.name)]
        raise BotSpecError(f"{kind} has no parameter {param!r} with values to weigh "
                           f"(these have: {', '.join(names) or 'none'})", column)
    by_text = {_text(v): v for v in known}
    if value not in by_text:
        close = difflib.get_close_matches(value, list(by_text), 1)
        raise BotSpecError(f"{value!r} is no value of {kind}.{param}" +
                           (f": did you mean {close[0]!r}?" if close else f" ({', '.join(by_text)})"), column)
    return (kind, param), by_text[value]


def _greedy_options(rest: str, column: int) -> tuple[float, int]:
    """``risk=P`` (default 1: only certain claims) and ``choices=N`` (default
    :data:`GREEDY_CHOICES`) of a greedy bot."""
    risk, choices = 1.0, GREEDY_CHOICES
    for part in filter(None, (p.strip() for p in rest.split(";"))):
        key, eq, num = part.partition("=")
        key = key.strip()
        if not eq or key not in ("risk", "choices"):
            raise BotSpecError(f"a greedy bot takes risk=P (a chance from 0 to 1) and choices=N (mover's choices "
                               f"valued per kind, from 1), not {part!r}", column)
        if key == "choices":
            try:
                choices = int(num)
            except ValueError:
                raise BotSpecError(f"choices must be a whole number, not {num.strip()!r}", column) from None
            if not 1 <= choices <= 5000:
                raise BotSpecError("choices must be from 1 to 5000 (mover's choices valued per kind)", column)
            continue
        try:
            risk = float(num)
        except ValueError:
            raise BotSpecError(f"the risk must be a number, not {num.strip()!r}", column) from None
        if not math.isfinite(risk) or not 0 < risk <= 1:
            raise BotSpecError("the risk must be a chance above 0, at most 1", column)
    return risk, choices


def parse_bots(text: str, seats: int, kinds: Sequence[str] = (), rules: Any = None) -> list[Bot]:
    """One bot per seat from ``random,informed:0.5,...`` (the last repeats).

    Weights of a random bot are separated by ``;``: ``random:end=0.05;wait=2``; any bot takes
    filters, ``forbid=EXPR`` (see :mod:`lab.filters`; ``rules``: the rule set they read).
    """
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError(f"no bot named (bots: {', '.join(BOTS)})")
    if len(text) > 1000:
        raise BotSpecError("a bot specification of more than 1000 characters")
    if rules is not None and not kinds:
        kinds = list(rules.moves)
    bots = []
    for part, column in _split(text, ","):
        bots.append(parse_bot(part, kinds, column, rules))
    if len(bots) > seats:
        raise BotSpecError(f"{len(bots)} bots named for {seats} seats", 0)
    while len(bots) < seats:
        bots.append(bots[-1])
    return bots
