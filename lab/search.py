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

**Which question: information now against the race.**  The greedy bot asks
what tells *it* most; what it asks is told to the table too, and a game is
won by the first to be sure.  Among the greedy bot's ``moves=K`` best moves
by information (default :data:`MOVES`), the search bot draws ``iterations``
deals from its own knowledge and, on each, plays every candidate's outcome
and counts, for every other player still in the game, the solutions that
player would have left (that player's viewpoint in the drawn deal: the zones
they see as dealt there, and the facts the bot saw that they saw too, as
:mod:`solver.others` rebuilds it).  A candidate's value is the bits it tells
the bot (the advice's exact figure) less ``race=W`` times the bits it tells
the opponent nearest to the solution (default :data:`RACE`; 0: greedy's
choice), an opponent left sure while the bot is not counting
:data:`LOSS_BITS` more (they would claim first).  One search costs
``iterations`` × candidates solver counts per opponent, no playout.

Its own sample of choices (those greedy's advice values) is drawn among the legal
ones (:meth:`lab.engine.Lab.legal_sample`), so that the race has questions to weigh
where most of a kind's choices are illegal; the greedy bot's is not (slower, no
gain shown for greedy alone).

Never the true deal: the bot reads the facts it saw (``Turn.history``
filtered to its own), deals drawn from them, and outcomes filled in from
those deals; two true deals it cannot tell apart get the same decision.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..solver.engines import initial
from ..solver.errors import SolverError
from ..solver.sampled import sample
from ..spec.deal import pin
from ..spec.facts import Fact
from ..spec.machine import Play, State
from .bots import GREEDY_CHOICES, BotSpecError, GreedyBot, Turn, _split
from .engine import solution_of

__all__ = ["SearchBot", "ITERATIONS", "FLOOR", "PLAYOUT_MOVES", "parse_search"]

#: Playouts per decision (the budget), by default.
ITERATIONS = 16
#: A claim's chance of being right from which it is weighed by playouts, by default (0.5:
#: measured to beat greedy on both bundled games measured, where 0.15 showed no edge on one
#: of them; benchmarks/README.md).
FLOOR = 0.5
#: Moves after which a playout is cut (scored as not won).
PLAYOUT_MOVES = 400
#: Candidate moves (the greedy bot's best by information) weighed for the race, by default.
MOVES = 4
#: Weight of the information a move tells the nearest opponent, by default (0: greedy's choice).
RACE = 1.0
#: What an opponent left sure (while the bot is not) costs, in bits.
LOSS_BITS = 4.0
#: The largest budget a specification may give.
MAX_ITERATIONS = 100_000


@dataclass
class SearchBot(GreedyBot):
    iterations: int = ITERATIONS
    floor: float = FLOOR
    width: int = 1
    moves: int = MOVES
    race: float = RACE
    name = "search"
    #: its own choices drawn among the legal ones (greedy's sample of 24 of many choices, most of
    #: them illegal, rarely holds two moves to race: benchmarks/README.md, bots_bench.py); its
    #: playouts' greedy bots draw as greedy does
    legal_sample = True
    #: Work done, counted (never timed): decisions weighed by playouts, playouts played, questions
    #: weighed for the race, and the solver counts those took.
    searched: int = 0
    playouts: int = 0
    raced: int = 0
    race_counts: int = 0

    def spec(self) -> str:
        return (f"search:iterations={self.iterations}" + (f";floor={self.floor:g}" if self.floor != FLOOR else "")
                + (f";width={self.width}" if self.width != 1 else "")
                + (f";moves={self.moves}" if self.moves != MOVES else "")
                + (f";race={self.race:g}" if self.race != RACE else "")
                + (f";choices={self.choices}" if self.choices != GREEDY_CHOICES else "") + self.filters_spec())

    def choose(self, turn: Turn) -> Play | None:
        play = GreedyBot.choose(self, turn)
        advice = turn.cache.get("advice")
        lab = turn.lab
        if play is None or advice is None or lab.kinds[play.kind].claims or not turn.history:
            return play
        if self.race > 0 and self.moves > 1:
            play = self.race_choice(turn, advice, play)
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

    def race_choice(self, turn: Turn, advice: Any, play: Play) -> Play:
        """Among the greedy bot's best moves by information, the one of most information to the
        bot less ``race`` times the information to the opponent nearest the solution, over deals
        drawn from the bot's knowledge (see the module's docstring); ``play`` (greedy's) on a tie."""
        lab, state, actor, view = turn.lab, turn.state, turn.actor, turn.view
        if view is None:
            return play
        top = []
        for m in advice.moves:
            if len(top) >= self.moves:
                break
            if lab.kinds[m.kind].claims or not self.allows(turn, m.kind, m.args):
                continue
            if (m.solution_bits if m.solution_bits is not None else m.bits or 0.0) <= 0:
                continue
            made = self._made(turn, m.kind, m.args)
            if made is not None and not self.forces_gamble(turn, made):
                top.append((m, made))
        if len(top) < 2:
            return play
        own = _own(turn)
        seed = turn.rng.randrange(2 ** 31)
        try:
            worlds, _method, _rate = sample(turn.deal, own, self.iterations, seed)
            before = math.log2(max(1, view.solution_count()))
        except (SolverError, ValueError):
            return play
        exact = all(m.solution_bits is not None for m, _ in top)
        rng = random.Random(seed)
        mine = [0.0] * len(top)
        theirs = [0.0] * len(top)
        opponents = [p for p in state.players if p != actor and p not in state.out]
        self.raced += 1
        try:
            for world in worlds:
                views = {p: _view_of(turn.deal, world, p, own) for p in opponents}
                nearest = min((math.log2(max(1, k.solution_count())) for k in views.values()), default=0.0)
                for i, (m, _made) in enumerate(top):
                    made = lab.complete(state, actor, m.kind, dict(m.args), world, rng)
                    if made is None:
                        continue
                    facts = lab.machine.observations(state, made, source=state.played)
                    me = math.log2(max(1, view.with_facts([f for f in facts if f.seen_by(actor)]).solution_count()))
                    left = [view_p.with_facts([f for f in facts if f.seen_by(p)]).solution_count()
                            for p, view_p in views.items()]
                    self.race_counts += 1 + len(left)
                    mine[i] += before - me
                    if left:
                        after = min(math.log2(max(1, n)) for n in left)
                        theirs[i] += nearest - after + (LOSS_BITS if min(left) <= 1 and me > 0 else 0.0)
        except SolverError:
            return play
        n = len(worlds) or 1
        values = [((m.solution_bits or 0.0) if exact else mine[i] / n) - self.race * theirs[i] / n
                  for i, (m, _made) in enumerate(top)]
        best = max(values)
        chosen = next(i for i, v in enumerate(values) if v >= best - 1e-9)
        greedy = next((i for i, (_m, made) in enumerate(top) if made.kind == play.kind
                       and _mover_args(lab, made) == _mover_args(lab, play)), None)
        if greedy is not None and values[greedy] >= best - 1e-9:
            return play
        return top[chosen][1]

    def best(self, turn: Turn, candidates: Sequence[Play]) -> int:
        """The index of the candidate whose playouts score best (the first on a tie)."""
        own = _own(turn)
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
    own = _own(turn)
    try:
        views: dict[str, Any] = {p: _view_of(deal, world, p, own) for p in players}
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


def _own(turn: Turn) -> tuple[Fact, ...]:
    """The facts the bot saw: all it decides from."""
    return tuple(f for f in turn.history if f.seen_by(turn.actor))


def _view_of(deal: Any, world: Mapping[str, str], player: str, own: Sequence[Fact]) -> Any:
    """A player's knowledge in a drawn deal, as the bot can rebuild it: the zones the player
    sees, as dealt there, and the facts the bot saw that the player saw too (for the bot
    itself: all it saw)."""
    zones = set(deal.visible_zones(player))
    pins = [pin(card, zone, None, source="drawn") for card, zone in world.items() if zone in zones]
    return initial(deal).with_facts(pins + [f for f in own if f.seen_by(player)])


def _mover_args(lab: Any, play: Play) -> dict[str, Any]:
    return {p.name: play.args[p.name] for p in lab.kinds[play.kind].mover if p.name in play.args}


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
    """``search:iterations=N;floor=P;width=K;moves=M;race=W;choices=C`` (each optional;
    ``choices``: the mover's choices valued per kind, as greedy's)."""
    bot = SearchBot()
    keys = ("iterations", "floor", "width", "moves", "race", "choices")
    for part, _offset in _split(rest, ";"):
        if not part.strip():
            continue
        key, eq, num = (x.strip() for x in part.partition("="))
        if not eq or key not in keys:
            raise BotSpecError(f"a search bot takes iterations=N (playouts or deals per decision), floor=P (a "
                               f"claim's chance from which it is weighed), width=K (claims weighed), moves=M "
                               f"(questions weighed for the race) and race=W (weight of what a question tells "
                               f"the nearest opponent) and choices=C (mover's choices valued per kind), not {part.strip()!r}", column)
        try:
            value = float(num)
        except ValueError:
            raise BotSpecError(f"{key} must be a number, not {num!r}", column) from None
        if key == "floor":
            if not math.isfinite(value) or not 0 < value <= 1:
                raise BotSpecError("floor must be a chance above 0, at most 1", column)
            bot.floor = value
        elif key == "race":
            if not math.isfinite(value) or not 0 <= value <= 10:
                raise BotSpecError("race must be a number from 0 to 10", column)
            bot.race = value
        else:
            top = {"iterations": MAX_ITERATIONS, "width": 8, "moves": 64, "choices": 5000}[key]
            if not math.isfinite(value) or value != int(value) or not 1 <= value <= top:
                raise BotSpecError(f"{key} must be a whole number from 1 to {top:,}", column)
            setattr(bot, key, int(value))
    return bot
