"""``search``: a bot in the manner of information-set Monte Carlo tree search, one ply deep.

Where the greedy bot would wait (its top move by information) while a claim
that may be right is open, the search bot weighs the two by play: it draws
deals uniformly among those consistent with what *it* has seen
(:func:`solver.sampled.sample`: determinisation), and on each deal plays
every candidate move, then the rest of the game with greedy bots at every
seat (``greedy`` playouts: each player's knowledge rebuilt from that deal and
the facts each saw), and scores the game for itself (1 for a win, 1/k for a
win shared by k).  Every candidate is played on the same deals (common
random numbers: the difference between two candidates is not drowned by
the luck of the draw).  It makes the candidate of the best mean; a tie goes
to the greedy move.  Elsewhere it plays as ``greedy`` does.

The budget is counted in playouts, never in time: ``search:iterations=N``
(default :data:`ITERATIONS`) playouts per decision in all, shared evenly
among the candidates.  A claim is a candidate when its chance of being
right, from the bot's knowledge, reaches ``search:floor=P`` (default
:data:`FLOOR`): below it no playout is spent.  A playout is cut after
:data:`PLAYOUT_MOVES` moves (it scores 0: a game not won).

Candidates: the greedy move, and the likeliest claim (``width=K``: the K
likeliest claims, default 1).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..solver.engines import initial
from ..solver.errors import SolverError
from ..solver.sampled import sample
from ..spec.facts import Fact
from ..spec.machine import Play, State
from .bots import BotSpecError, GreedyBot, Turn, _split
from .engine import solution_of

__all__ = ["SearchBot", "ITERATIONS", "FLOOR", "PLAYOUT_MOVES", "parse_search"]

#: Playouts per decision (the budget), by default.
ITERATIONS = 16
#: A claim's chance of being right from which it is weighed by playouts, by default.
FLOOR = 0.15
#: Moves after which a playout is cut (scored as not won).
PLAYOUT_MOVES = 400
#: The largest budget a specification may give.
MAX_ITERATIONS = 100_000


@dataclass
class SearchBot(GreedyBot):
    iterations: int = ITERATIONS
    floor: float = FLOOR
    width: int = 1
    name = "search"
    #: Work done, counted (never timed): decisions weighed by playouts, and playouts played.
    searched: int = 0
    playouts: int = 0

    def spec(self) -> str:
        return (f"search:iterations={self.iterations}" + (f";floor={self.floor:g}" if self.floor != FLOOR else "")
                + (f";width={self.width}" if self.width != 1 else "") + self.filters_spec())

    def choose(self, turn: Turn) -> Play | None:
        play = GreedyBot.choose(self, turn)
        advice = turn.cache.get("advice")
        lab = turn.lab
        if play is None or advice is None or lab.kinds[play.kind].claims or not turn.history:
            return play
        claims = self.likely_claims(turn)
        candidates = [play] + claims[:self.width]
        if len(candidates) < 2:
            return play
        return candidates[self.best(turn, candidates)]

    def likely_claims(self, turn: Turn) -> list[Play]:
        """The claims open to the bot whose chance of being right reaches the floor, likeliest first
        (looked for only when the solutions the bot still thinks possible are few enough for one
        to reach it: at most 1 / floor)."""
        lab, view = turn.lab, turn.view
        if view is None or not view.consistent():
            return []
        try:
            if view.solution_count() > 1 / self.floor:
                return []
            total = view.count()
        except SolverError:
            return []
        status = view.status()
        ruled_out = {c for c, s in status.items() if s == "out"}
        found: list[tuple[float, int, Play]] = []
        for kind in turn.kinds:
            if not lab.kinds[kind].claims:
                continue
            for args in self._claim_candidates(turn, kind, ruled_out):
                if not self.allows(turn, kind, args):
                    continue
                play = lab.complete(turn.state, turn.actor, kind, args, turn.world, turn.rng)
                claim = lab.machine.claim(turn.state, play) if play is not None else None
                if claim is None:
                    continue
                chance = view.with_fact(Fact(claim)).count() / total if total else 0.0
                if chance >= self.floor - 1e-12:
                    found.append((chance, len(found), play))
        return [p for _c, _i, p in sorted(found, key=lambda t: (-t[0], t[1]))]

    def best(self, turn: Turn, candidates: Sequence[Play]) -> int:
        """The index of the candidate whose playouts score best (the first on a tie)."""
        own = tuple(f for f in turn.history if f.viewers is None or turn.actor in f.viewers)
        deals = max(1, self.iterations // len(candidates))
        try:
            worlds, _method, _rate = sample(turn.deal, own, deals, turn.rng.randrange(2 ** 31))
        except (SolverError, ValueError):
            return 0
        totals = [0.0] * len(candidates)
        self.searched += 1
        for world in worlds:
            for i, play in enumerate(candidates):
                totals[i] += playout(turn, play, world, turn.rng)
                self.playouts += 1
        top = max(totals)
        return next(i for i, t in enumerate(totals) if t >= top - 1e-12)


def playout(turn: Turn, play: Play, world: Mapping[str, str], rng: random.Random) -> float:
    """The bot's score of one game played on ``world`` from the move (its mover's choices,
    its outcomes filled in from that world): greedy bots at every seat."""
    from .game import _learn, _result  # game imports the bots

    lab, machine, deal, actor = turn.lab, turn.lab.machine, turn.deal, turn.actor
    state: State = turn.state
    made = lab.complete(state, actor, play.kind, {p.name: play.args[p.name] for p in lab.kinds[play.kind].mover
                                                    if p.name in play.args}, world, rng)
    if made is None:
        return 0.0
    players = list(state.players)
    greedy = GreedyBot()
    by_player = {p: greedy for p in players}
    try:
        base = initial(deal)
        views: dict[str, Any] = {p: base.with_facts(f for f in turn.history if (f.viewers is None or p in f.viewers)
                                                    and f.holds(world)) for p in players}
    except SolverError:
        return 0.0
    moves, ignored = 0, {}
    while moves < PLAYOUT_MOVES:
        if made is None:
            made = _next(lab, state, by_player, world, rng, deal, views)
            if made is None:
                return 0.0
        facts = machine.observations(state, made, source=state.played)
        out, _recorded = lab.apply(state, made)
        if out.violations:
            return 0.0
        state, made, moves = out.state, None, moves + 1
        _learn(views, ignored, facts, moves)
        if state.ended:
            _table, winners = _result(lab, state, solution_of(deal, world))
            return 1.0 / len(winners) if actor in winners else 0.0
    return 0.0


def _next(lab: Any, state: State, by_player: Mapping[str, GreedyBot], world: Mapping[str, str],
          rng: random.Random, deal: Any, views: Mapping[str, Any]) -> Play | None:
    """The next move of a playout, as a simulated game makes it (a certain claim out of turn, a
    due move, the mover's), or None when there is none."""
    from .game import _due

    for p in state.players:
        view = views.get(p)
        if p == state.turn or p in state.out or view is None or not view.consistent() or not view.determined():
            continue
        open_kinds = lab.open_kinds(state, p)
        if any(lab.kinds[k].claims for k in open_kinds):
            play = by_player[p].interject(Turn(lab, state, p, open_kinds, world, rng, deal, view))
            if play is not None:
                return play
    if lab.has_due:
        play = _due(lab, state, by_player, world, rng, deal, views)
        if play is False:
            return None
        if play is not None:
            return play  # type: ignore[return-value]
    open_ = lab.actors(state, [state.turn])
    if lab.claims_only(open_.get(state.turn, ())):
        open_ = lab.actors(state)
    mover = lab.mover(state, open_, rng)
    if mover is None:
        return None
    return by_player[mover].choose(Turn(lab, state, mover, open_[mover], world, rng, deal, views.get(mover)))


def parse_search(rest: str, column: int) -> SearchBot:
    """``search:iterations=N;floor=P;width=K`` (each optional)."""
    bot = SearchBot()
    for part, _offset in _split(rest, ";"):
        if not part.strip():
            continue
        key, eq, num = (x.strip() for x in part.partition("="))
        if not eq or key not in ("iterations", "floor", "width"):
            raise BotSpecError(f"a search bot takes iterations=N (playouts per decision), floor=P (a claim's "
                               f"chance from which it is weighed) and width=K (claims weighed), not {part.strip()!r}",
                               column)
        try:
            value = float(num)
        except ValueError:
            raise BotSpecError(f"{key} must be a number, not {num!r}", column) from None
        if key == "floor":
            if not math.isfinite(value) or not 0 < value <= 1:
                raise BotSpecError("floor must be a chance above 0, at most 1", column)
            bot.floor = value
        else:
            top = MAX_ITERATIONS if key == "iterations" else 8
            if not math.isfinite(value) or value != int(value) or not 1 <= value <= top:
                raise BotSpecError(f"{key} must be a whole number from 1 to {top:,}", column)
            setattr(bot, key, int(value))
    return bot
