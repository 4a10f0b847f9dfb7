"""Recovering from a flawed move, as a good compiler does: one mistake, one error.

When a move breaks a rule, the replay asks what the move most likely was
and goes on from there, so that the errors a single slip would cause
further on are not reported as errors of their own.  The candidates are
few and generic (no game's knowledge):

* **as played** -- the move counts as it stands (the default, and the
  choice whenever it is as good as any other);
* **fill** -- a required parameter is missing: the move is applied with
  the value that fits the moves after it, and what it shows is unknown
  (an observed move without its count is still that move, its count unknown);
* **swap** -- this move and the next one were written in the wrong order;
* **insert** -- a move without parameters (a pass) is missing before it;
* **delete** -- the move is one too many.

A move with a name the log's reader did not know (a card, a player: see
:class:`~.log.GameLog`'s ``unread``) has been reported already; it is
read as the player and values that fit the moves after it best
(:meth:`Recovery.infer`), and nothing it shows is taken as known.

Each candidate is scored by replaying the next moves as played through the
state machine (cheap: legality only) and counting those that break a rule;
the best one wins, ties going to the least change.  The seating is checked
once for the whole log the same way: a reversed seating or the wrong first
player breaks the turn of many moves, and one error says so.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from ..spec.diagnostics import Fix
from ..spec.machine import MALFORMED, Machine, Outcome, Play, RuleError, State, Violation
from ..spec.model import Ruleset
from ..spec.scoring import winners_unscored
from ..spec.tally import Tally
from .log import LoggedMove
from .writer import move_text

__all__ = ["Repair", "Recovery", "Seating", "describe", "fix_of", "seating_fix"]

#: Readings of a move with an unknown name weighed against the moves after it (every value
#: of one parameter of the rule sets bundled: 32 cards at most).
INFER_LIMIT = 64
#: The look-ahead of those readings: up to this many moves, and this many moves replayed in all.
INFER_HORIZON, INFER_WORK = 200, 2_000

#: Candidates in the order preferred when they are as good.
ORDER = ("as-played", "fill", "swap", "insert", "delete")


@dataclass(frozen=True)
class Repair:
    """How a flawed move is read: which plays are applied, and where the replay goes on."""

    kind: str
    plays: tuple[tuple[int | None, Play], ...]   # (log index, or None for a move the log lacks; the play)
    next_index: int
    cost: int = 0                                # moves that break a rule in the look-ahead
    residual: int = 0                            # rules the flawed move still breaks, read this way
    filled: frozenset[str] = frozenset()         # parameters the log lacks, filled in
    deletable: bool = False                      # deleting the move would do as well
    sure: bool = False                           # no other reading does as well (a fix may be made)

    @property
    def assumed(self) -> int:
        """How many parameters of moves the log lacks are assumed (fewer is likelier)."""
        return sum(len(p.args) for i, p in self.plays if i is None)

    def with_cost(self, cost: int, residual: int) -> "Repair":
        return replace(self, cost=cost, residual=residual)


@dataclass(frozen=True)
class Seating:
    """A seating (and first player) that fits the moves better than the log's."""

    players: tuple[str, ...]
    first: str
    hint: str
    errors_before: int
    errors_after: int
    sure: bool = True     # no other seating tried does as well


@dataclass
class Recovery:
    """Chooses a repair for each flawed move; a budget bounds the work on very broken logs."""

    machine: Machine
    moves: Sequence[LoggedMove]
    start: Callable[[tuple[str, ...], str], State]   # the state before the first move, for a seating
    ends: bool = False      # the log records the end of the game (scores, winners)
    shown: dict[tuple[str, str], int] = field(default_factory=dict)  # (space, owner) -> tokens the end records
    winners: frozenset[str] | None = None   # the winners the end records
    unread: Mapping[int, frozenset[str]] = field(default_factory=dict)  # moves with unknown names (GameLog's)
    horizon: int = 30
    budget: int = 8         # flawed moves read with care; after that, as played
    used: int = field(default=0)

    @property
    def rules(self) -> Ruleset:
        return self.machine.rules

    # -- one move -----------------------------------------------------------------
    def repair(self, index: int, state: State, violations: list[Violation]) -> Repair | None:
        """The best reading of a flawed move (None: replay it as played, nothing to choose)."""
        if not violations or state.ended or self.used >= self.budget:
            return None
        try:
            return self._repair(index, state, violations)
        except RuleError:  # a reading the rules cannot even evaluate: the move is taken as played
            return None

    def _repair(self, index: int, state: State, violations: list[Violation]) -> Repair | None:
        play = self.moves[index].play
        missing = self.machine.missing(play)
        if any(v.code == MALFORMED and v.rule.partition("/")[2] not in missing for v in violations):
            return None  # a move the machine cannot read at all (a missing parameter can be filled in)
        self.used += 1
        candidates: list[Repair] = []
        if not missing:
            candidates.append(Repair("as-played", ((index, play),), index + 1))
        else:
            candidates.extend(self.fills(index, state, play, missing))
        candidates.extend(self.swaps(index, state))
        candidates.extend(self.inserts(index, state, play))
        candidates.append(Repair("delete", (), index + 1))
        scored = [c.with_cost(*self.cost(state, c, len(violations))) for c in candidates]
        best = min(scored, key=lambda c: (c.cost, c.residual, ORDER.index(c.kind), c.assumed))
        if best.kind == "as-played" and any(c.kind == "delete" and c.cost == best.cost for c in scored):
            best = replace(best, deletable=True)
        # sure: the reading chosen (or, for a move as good deleted, the deletion) is the only one
        # that does as well; the move as played, which a fix would leave, does not count against it
        chosen = next(c for c in scored if c.kind == "delete") if best.deletable else best
        as_good = [c for c in scored if c is not chosen and c.kind != "as-played"
                  and (c.cost, c.residual) <= (chosen.cost, chosen.residual)]
        return replace(best, sure=not as_good)

    def infer(self, index: int, state: State) -> Play | None:
        """The likeliest reading of a move with unknown names: its player (when unknown,
        one who may make the move now, the one whose turn it is first) and the parameters
        it names unknown filled in, legal if possible; None when nothing can be inferred."""
        found = self.readings(index, state)
        return found[0] if found else None

    def readings(self, index: int, state: State) -> list[Play]:
        """The readings of a move with unknown names as likely as the likeliest, that one first
        (the caller may weigh them further: what the moves after them show); [] when none."""
        try:
            return self._infer(index, state)
        except RuleError:  # a reading the rules cannot even evaluate: the move is left out
            return []

    def _infer(self, index: int, state: State) -> list[Play]:
        logged = self.moves[index]
        play = logged.play
        move = self.rules.moves[play.kind]
        if play.actor:
            actors = [play.actor]
        else:
            able = [p for p in state.active if self.machine.available(state, p, play.kind)]
            actors = sorted(able or list(state.active), key=lambda p: p != state.turn)
        names = {p.name for p in move.params if p.name in self.unread.get(index, ())}
        candidates: list[Repair] = []
        for actor in actors[:8]:
            bare = Play(play.kind, actor, play.args)
            wanted = names | self.machine.missing(bare)
            fills = self.fills(index, state, bare, wanted, INFER_LIMIT) if wanted else []
            candidates.extend(fills or [Repair("fill", ((index, bare),), index + 1)])
        if not candidates:
            return []
        # scored by the moves after it, which is cheap when the next move is inferred too (or none)
        cheap = index + 1 >= len(self.moves) or index + 1 in self.unread
        if not cheap and self.used >= self.budget:  # a very broken log: the first legal reading, unscored
            legal = [c for c in candidates if not self.machine.check(state, c.plays[0][1])]
            return [(legal or candidates)[0].plays[0][1]]
        self.used += not cheap
        # few readings: the moves after them are followed further (a tile drawn decides a move 40 later)
        horizon = max(self.horizon, min(INFER_HORIZON, INFER_WORK // len(candidates)))
        costs = [self.cost(state, c, 0, horizon) for c in candidates]
        best = min(costs)
        return [c.plays[0][1] for c, cost in zip(candidates, costs) if cost == best]

    def fills(self, index: int, state: State, play: Play, missing: set[str], limit: int = 6) -> list[Repair]:
        """The move with its missing parameters given each value they may take (the first
        ``limit`` legal ones: a few for a parameter left out, where the moves after it rarely
        tell one value from another; more for a name nobody knows, which they often do)."""
        move = self.rules.moves[play.kind]
        env = self.machine.env(state, play.actor)
        axes = []
        for p in move.params:
            if p.name not in missing:
                continue
            values = self.machine.param_values(p, env, state)
            if not values:
                return []
            axes.append((p.name, values))
        legal: list[Play] = []
        other: list[Play] = []
        for combo in itertools.islice(itertools.product(*(v for _n, v in axes)), 300):
            filled = Play(play.kind, play.actor, {**play.args, **dict(zip((n for n, _v in axes), combo))})
            (other if self.machine.check(state, filled) else legal).append(filled)
            if len(legal) >= limit:
                break
        return [Repair("fill", ((index, filled),), index + 1, filled=frozenset(missing))
                for filled in (legal or other[:limit])]

    def swaps(self, index: int, state: State) -> list[Repair]:
        """This move and the next, the other way round, when both are then legal."""
        if index + 1 >= len(self.moves):
            return []
        nxt, this = self.moves[index + 1].play, self.moves[index].play
        out = self.machine.play(state, nxt)
        if out.violations or self.machine.check(out.state, this):
            return []
        return [Repair("swap", ((index + 1, nxt), (index, this)), index + 2)]

    def inserts(self, index: int, state: State, play: Play) -> list[Repair]:
        """A move the log may lack: one that, made first, makes this one legal (its
        parameters, when it has any, a few of the values they may take)."""
        out: list[Repair] = []
        for kind in self.rules.moves:
            for actor in state.active:
                if not self.machine.available(state, actor, kind):
                    continue
                for cand in self.plays(state, kind, actor):
                    after = self.machine.play(state, cand)
                    if after.violations or self.machine.check(after.state, play):
                        continue
                    out.append(Repair("insert", ((None, cand), (index, play)), index + 1))
                    if len(out) >= 16:
                        return out
        return out

    def plays(self, state: State, kind: str, actor: str, limit: int = 8) -> list[Play]:
        """Legal plays of a move by a player, required parameters given their first values."""
        move = self.rules.moves[kind]
        if not move.params:
            return [Play(kind, actor)]
        env = self.machine.env(state, actor)
        axes = [(p.name, self.machine.param_values(p, env, state)) for p in move.params if not p.optional]
        if any(not values for _n, values in axes):
            return []
        out = []
        for combo in itertools.islice(itertools.product(*(v for _n, v in axes)), 300):
            cand = Play(kind, actor, dict(zip((n for n, _v in axes), combo)))
            if not self.machine.check(state, cand):
                out.append(cand)
                if len(out) >= limit:
                    break
        return out

    def cost(self, state: State, repair: Repair, broken: int, horizon: int | None = None) -> tuple[int, int]:
        """(moves breaking a rule in the repair, bar the flawed move itself, and in the
        look-ahead of ``horizon`` moves (default :attr:`horizon`); rules the flawed move still breaks)."""
        horizon = self.horizon if horizon is None else horizon
        errors, s = 0, state
        residual = 1 if repair.kind == "delete" else 0
        for n, (_i, play) in enumerate(repair.plays):
            out = self.machine.play(s, play)
            if repair.kind == "as-played" and n == 0:
                residual = broken + self.misrevealed(play, out)
            elif repair.kind == "fill" and n == 0:
                residual = len(out.violations)
            elif self.flawed(play, out):
                errors += 1
            s = out.state
        rest = list(self.moves[repair.next_index:repair.next_index + horizon])
        last = repair.next_index + horizon >= len(self.moves)
        unread = next((k for k in range(len(rest)) if repair.next_index + k in self.unread), None)
        if unread is not None:  # what a move with unknown names does is inferred later: the look-ahead stops there
            rest, last = rest[:unread], False
        return errors + self.errors(s, [m.play for m in rest], last), residual

    def errors(self, state: State, plays: Sequence[Play], last: bool = True) -> int:
        """How many of these moves, played as they stand, break a rule (one for all after
        the end; with ``last``, one for an end the log records that they do not reach, one
        for tokens face up other than it records, one for other winners than it records)."""
        errors, s = 0, state
        for play in plays:
            if s.ended:
                return errors + 1
            out = self.machine.play(s, play)
            errors += self.flawed(play, out)
            s = out.state
        if last:
            errors += self.ends and not s.ended
            errors += any(sum(1 for t in s.spaces.get(space, ()) if t.owner == owner) != n
                          for (space, owner), n in self.shown.items())
            if self.winners is not None and s.ended:  # when the rules name them without the scores
                found = winners_unscored(self.machine, s)
                errors += found is not None and frozenset(found) != self.winners
        return errors

    def flawed(self, play: Play, out: Outcome) -> bool:
        """A move that breaks a rule, or reveals other tokens than were face down."""
        return bool(out.violations) or self.misrevealed(play, out)

    def misrevealed(self, play: Play, out: Outcome) -> bool:
        """A move recording the values of other tokens than it turned face up."""
        param = self.rules.moves[play.kind].param_of_type("token_reveals")
        given = play.args.get(param.name) if param is not None else None
        if not given:
            return False
        if len(given) != len(out.revealed):
            return True
        owners = Tally(t.owner for t in out.revealed)
        named = Tally(g[0] for g in given if isinstance(g, tuple))
        return any(n > owners[o] for o, n in named.items())

    # -- the whole log ----------------------------------------------------------------
    def seating(self, players: tuple[str, ...], first: str, first_given: bool) -> Seating | None:
        """A seating or first player under which clearly fewer moves break a rule, if any."""
        try:
            return self._seating(players, first, first_given)
        except RuleError:  # a seating the rules cannot even evaluate: keep the log's
            return None

    def _seating(self, players: tuple[str, ...], first: str, first_given: bool) -> Seating | None:
        plays = [m.play for m in self.moves[:min(self.unread, default=len(self.moves))]]
        if not plays:
            return None
        whole = len(plays) == len(self.moves)  # else up to a move with unknown names
        before = self.errors(self.start(players, first), plays, whole)
        if before == 0:
            return None
        opener = plays[0].actor
        options: list[tuple[tuple[str, ...], str]] = []
        reverse = tuple(reversed(players))
        options.append((reverse, first))
        if opener in players and opener != first:
            options.append((players, opener))
            options.append((reverse, opener))
        best: tuple[int, tuple[str, ...], str] | None = None
        found: list[int] = []
        for order, who in options:
            n = self.errors(self.start(order, who), plays, whole)
            found.append(n)
            # clearly fewer: every error explained, or at least two and most of them (a
            # seating explaining one error of two loses to a local slip, two moves swapped)
            clearly = n == 0 or (before - n >= 2 and 2 * n <= before)
            if n < before and clearly and (best is None or n < best[0]):
                best = (n, order, who)
        if best is None:
            return None
        n, order, who = best
        if not first_given and order[0] != who:
            order = _rotate(order, who)  # the same seating, written to start with who starts
        names = ", ".join(order)
        if not first_given or who == first:
            what = f"the moves start with {who}" if _same_cycle(order, players) else "the seating looks reversed"
            hint = f"{what}: did you mean players: [{names}]?"
        elif order != players:
            hint = f"the seating looks reversed and {who} first: did you mean players: [{names}] and first: {who}?"
        else:
            hint = f"the moves start with {who}: did you mean first: {who}?"
        return Seating(order, who, hint, before, n, sure=found.count(n) == 1)


def _same_cycle(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two seatings go round the table in the same order."""
    return len(a) == len(b) and any(a[k:] + a[:k] == b for k in range(len(a)))


def _rotate(players: tuple[str, ...], who: str) -> tuple[str, ...]:
    i = players.index(who)
    return players[i:] + players[:i]


def describe(rules: Ruleset, repair: Repair, moves: Sequence[LoggedMove], index: int) -> tuple[str | None, str | None]:
    """(hint, note) for a chosen repair: what to change in the log, how the replay went on."""
    play = moves[index].play
    if repair.kind == "as-played" and repair.deletable and index and moves[index - 1].play == play:
        return f"it repeats move {index}: delete it?", None
    if repair.kind == "delete":
        return f"delete this {play.kind}?", f"the replay goes on without this {play.kind}"
    if repair.kind == "swap":
        return (f"moves {index + 1} and {index + 2} look swapped: swap them?",
                f"the replay goes on with moves {index + 1} and {index + 2} the other way round")
    if repair.kind == "insert":
        missing = [p for i, p in repair.plays if i is None]
        text = "; ".join(move_text(rules, p, unknown=True) for p in missing)
        return (f"is a move missing before this one? {text}",
                f"the replay goes on as if {'they' if len(missing) > 1 else 'it'} had been made")
    if repair.kind == "fill":
        names = ", ".join(sorted(repair.filled))
        return None, f"the replay goes on with this {play.kind}'s {names} unknown"
    return None, None


def fix_of(rules: Ruleset, repair: Repair | None, moves: Sequence[LoggedMove], index: int) -> Fix | None:
    """The edit of the log a chosen repair stands for, when it is sure (:attr:`Repair.sure`) and
    says all of the edit: a move deleted (one too many, or repeating the move before), two moves
    swapped, a move that takes no parameters inserted (a missing move with parameters, even
    optional ones, would be values picked blind: no fix); None otherwise (the move as played, a parameter filled in)."""
    if repair is None or not repair.sure:
        return None
    play = moves[index].play
    if repair.kind == "delete" or (repair.kind == "as-played" and repair.deletable and index
                                   and moves[index - 1].play == play):
        return Fix("delete", (index,))
    if repair.kind == "swap":
        return Fix("swap", (index, index + 1))
    if repair.kind == "insert":
        missing = [p for i, p in repair.plays if i is None]
        if len(missing) == 1 and not missing[0].args and not rules.moves[missing[0].kind].params:
            return Fix("insert", (index,), text=move_text(rules, missing[0]))
    return None


def seating_fix(seating: Seating, first_given: bool) -> Fix | None:
    """The header's edit a better seating stands for, when no other seating tried does as well."""
    if not seating.sure:
        return None
    return Fix("seat", players=seating.players, first=seating.first if first_given else None)
