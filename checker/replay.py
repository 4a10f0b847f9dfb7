"""Replaying a log through the state machine: the one replay ``check`` and ``solve`` share.

Each move is checked by the compiled state machine (its requirements from
the rule file), then applied *as played*, so that one mistake does not hide
the next.  Every fact a move lets players observe is kept with its move
(:class:`Step`), which is all ``solve`` needs.  Alongside, the replay feeds
the parts the rule file switches on: the records of cards in zones and the
consistency of every observation (:mod:`checker.observed`, always, when the
rules declare a deal), the ledger of hidden token values
(:mod:`checker.tokens`, when they declare ``tokens:``) and the end of the
game, scores and winners (:mod:`checker.ending`, when they declare
``scoring:``).  Problems go to a :class:`~ruleslawyer.spec.diagnostics.Reporter`,
which may stop at the first (strict).  Each violation points at the part of
the move it is about and notes the earlier moves behind it
(:mod:`checker.blame`).  The machine is the only owner of its state: nothing
here writes into it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from ..spec.dealmodel import Deal
from ..spec.diagnostics import Fix, Position, Related, Reporter
from ..spec.expr import evaluations
from ..spec.facts import Fact
from ..spec.machine import MALFORMED, Machine, Outcome, Play, Seen, State, Violation
from ..spec.model import Require, Ruleset, decided_by
from ..spec.scoring import ScoreTable
from .context import Context
from .ending import Ending
from .log import GameLog, LoggedMove
from .observed import Observed
from .recover import Recovery, Repair, Seating, describe, fix_of, seating_fix
from .tokens import Tokens

__all__ = ["Step", "Replay", "replay"]


@dataclass(frozen=True)
class Step:
    """One move of the log: where it stands, the state before it, what it did and showed."""

    index: int              # 0-based position in the log's moves
    logged: LoggedMove
    before: State
    outcome: Outcome
    facts: tuple[Fact, ...]  # what the move let players observe (source: ("move", index))

    @property
    def number(self) -> int:
        """1-based move number, as reports and ``--at`` count."""
        return self.index + 1

    @property
    def play(self) -> Play:
        return self.logged.play

    @property
    def position(self) -> Position:
        return self.logged.position


@dataclass
class Replay:
    """Where the replay left the game, and everything observed on the way."""

    log: GameLog
    rules: Ruleset
    machine: Machine
    deal: Deal
    steps: list[Step]
    records: list[Fact]            # the cards the log records in zones (private records, shown at the end)
    state: State
    table: ScoreTable | None
    solution: frozenset[str] | None
    reporter: Reporter = field(default_factory=Reporter)
    withdrawn: frozenset[int] = frozenset()   # moves (0-based) whose facts a later move took back

    @property
    def players(self) -> tuple[str, ...]:
        return self.log.header.players

    def facts(self, upto: int | None = None) -> list[Fact]:
        """The records' facts, then each move's facts up to move number ``upto`` (1-based).

        A card a log shows at the end was its holder's own knowledge from the
        deal: it counts for that player (and the omniscient) at every move.  A
        zone nobody owns shown at the end (a card under the board) is seen by
        the table at the end only: its facts come after every move's, and
        before the end they count for the omniscient alone.
        """
        chosen = [f for s in self.steps if upto is None or s.number <= upto for f in s.facts
                  if s.index not in self.withdrawn]
        records, shown = [], []
        for f in self.records:
            if f.source[0] != "end":
                records.append(f)
            elif f.source[1] in self.players:
                records.append(replace(f, viewers=frozenset({f.source[1]})))
            else:
                at_end = upto is None or upto >= len(self.steps)
                shown.append(f if at_end else replace(f, viewers=frozenset()))
        return [*records, *chosen, *shown]


def replay(log: GameLog, rules: Ruleset, reporter: Reporter | None = None) -> Replay:
    """Replay every move; report problems to ``reporter`` (a strict one may raise StopReplay)."""
    reporter = reporter or Reporter()
    with evaluations():  # many outermost evaluations in a row, each with a budget of its own
        try:
            return _Replay(Context(log, rules, reporter)).run()
        except _Reseat as found:  # a seating that fits better: the replay starts again under it
            del reporter.diagnostics[found.kept:]
            return _Replay(Context(log, rules, reporter)).run(found.seating)


class _Reseat(Exception):
    """A seating found that fits the moves better than the log's, after some of the replay:
    what it reported from ``kept`` on is taken back, and the replay starts again."""

    def __init__(self, seating: Seating, kept: int):
        super().__init__(seating.hint)
        self.seating, self.kept = seating, kept


class _Replay:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.observed = Observed(ctx) if ctx.rules.deal is not None else None
        self.tokens = Tokens(ctx) if ctx.rules.tokens is not None else None
        self.ending = Ending(ctx, self.observed) if self.observed is not None else None
        self.after_end_reported = False
        self.steps: list[Step] = []

    def run(self, seating: Seating | None = None) -> Replay:
        """The replay; under ``seating`` when one was found already (it is reported first)."""
        ctx = self.ctx
        end = ctx.log.end
        shown = {(space, owner): len(rec.value) for space, owners in (end.tokens if end else {}).items()
                 for owner, rec in owners.items()}
        winners = frozenset(end.winners.value) if end is not None and end.winners is not None else None
        recovery = Recovery(ctx.machine, ctx.log.moves, ctx.start, ends=end is not None and bool(end.scores or end.winners),
                            shown=shown, winners=winners, unread=ctx.log.unread)
        header = ctx.log.header
        # Another seating is looked for when a move breaks a rule as played (it replays every
        # move): a clean log is replayed once.  Until then this replay is the one the log's
        # seating gives; a seating found later starts it again (:class:`_Reseat`).  A strict
        # replay, or one of moves with unknown names, looks first, as it reports as it goes.
        searched = seating is not None or ctx.reporter.strict or bool(ctx.log.unread)
        kept = len(ctx.reporter.diagnostics)
        if seating is None and searched:
            seating = recovery.seating(header.players, header.first, "first" in header.positions)
        if seating is not None:
            self.reseat(seating)
        if self.observed is not None:
            self.observed.records()
        state = ctx.start()
        index, moves = 0, ctx.log.moves
        while index < len(moves):
            if index in ctx.log.unread:
                state = self.unread(index, state, recovery)
                index += 1
                continue
            violations = ctx.machine.check(state, moves[index].play) if not ctx.reporter.strict else None
            if not searched and (violations or state.ended or len(ctx.reporter.diagnostics) > kept
                                 or self.misrevealed(recovery)):
                searched = True
                self.search(recovery, kept)
            repair = recovery.repair(index, state, violations) if violations is not None else None
            if repair is None or repair.kind == "as-played":
                hint = describe(ctx.rules, repair, moves, index)[0] if repair is not None else None
                state = self.step(index, moves[index], state, hint=hint, fix=fix_of(ctx.rules, repair, moves, index),
                                  legal=violations == [])
                index += 1
            else:
                state = self.recover(index, repair, state, recovery)
                index = repair.next_index
        if not searched and (len(ctx.reporter.diagnostics) > kept or self.misrevealed(recovery)
                             or recovery.errors(state, [])):
            self.search(recovery, kept)
        self.steps.sort(key=lambda s: s.index)
        if self.tokens is not None:
            self.tokens.end(state)
        if self.ending is not None:
            self.ending.reached(state)
        ctx.flush()
        solution = self.observed.solution() if self.observed is not None else None
        values = self.tokens.values() if self.tokens is not None else {}
        table = self.ending.score(state, solution, values) if self.ending is not None else None
        records = self.observed.facts() if self.observed is not None else []
        withdrawn = frozenset(self.observed.withdrawn) if self.observed is not None else frozenset()
        return Replay(ctx.log, ctx.rules, ctx.machine, ctx.deal, self.steps, records, state, table, solution,
                      ctx.reporter, withdrawn)

    def search(self, recovery: Recovery, kept: int) -> None:
        """Look for a seating that fits the moves better than the log's (the replay so far
        is the log's seating's): raise :class:`_Reseat` when there is one."""
        header = self.ctx.log.header
        seating = recovery.seating(header.players, header.first, "first" in header.positions)
        if seating is not None:
            raise _Reseat(seating, kept)

    def misrevealed(self, recovery: Recovery) -> bool:
        """Whether the last move replayed recorded other token values than it turned up."""
        return bool(self.steps) and recovery.misrevealed(self.steps[-1].logged.play, self.steps[-1].outcome)

    def reseat(self, seating: Seating) -> None:
        """Report the seating once, at the first move it breaks, and replay with the one that fits."""
        ctx = self.ctx
        header = ctx.log.header
        state = ctx.start()
        for logged in ctx.log.moves:
            outcome = ctx.machine.play(state, logged.play)
            if outcome.violations:
                v = outcome.violations[0]
                req = self.require(v)
                pos = self.position(req, logged) if req is not None else logged.position
                notes = [Related("the players' seating and who starts are given here",
                                 header.positions.get("players"))]
                left = seating.errors_before - seating.errors_after - 1
                if left > 0:
                    notes.append(Related(f"{left} later move(s) that break the turns only under this seating "
                                         "are not reported"))
                ctx.reporter.error(v.code, v.message, pos, notes, seating.hint,
                                   seating_fix(seating, "first" in header.positions))
                break
            state = outcome.state
        new_header = replace(header, players=seating.players, first=seating.first)
        ctx.log = replace(ctx.log, header=new_header)
        ctx.deal = ctx.machine.deal(seating.players)
        if self.observed is not None:
            self.observed = Observed(ctx)
            self.ending = Ending(ctx, self.observed)

    def recover(self, index: int, repair: Repair, before: State, recovery: Recovery) -> State:
        """Report a flawed move once, then apply it as the repair reads it."""
        ctx, moves = self.ctx, self.ctx.log.moves
        logged = moves[index]
        violations = ctx.machine.check(before, logged.play)
        hint, note = describe(ctx.rules, repair, moves, index)
        extra = [Related(f"also: {v.message} [{v.code}]") for v in violations[1:]]
        if note:
            extra.append(Related(note))
        self.report(violations[0], logged, before, logged.play, extra, hint, fix_of(ctx.rules, repair, moves, index))
        state = before
        if repair.kind == "delete":
            self.steps.append(Step(index, logged, before, Outcome(before.copy(), violations), ()))
            return state
        if repair.kind == "fill":
            (_i, filled), = repair.plays
            outcome = ctx.machine.play(before, filled)
            outcome = Outcome(outcome.state, violations, outcome.revealed)
            if self.tokens is not None:
                self.tokens.after(logged, before, filled, outcome)
            ctx.blame.update(index, before, outcome.state)
            self.steps.append(Step(index, logged, before, outcome, ()))
            return outcome.state
        for i, play in repair.plays:
            if i is None:  # a move the log lacks: applied, nothing reported, nothing observed
                outcome = ctx.machine.play(state, play)
                if self.tokens is not None:
                    self.tokens.after(logged, state, play, outcome)
                ctx.blame.update(index, state, outcome.state)
                state = outcome.state
            else:
                state = self.step(i, moves[i], state, quiet=True)
        return state

    def unread(self, index: int, before: State, recovery: Recovery) -> State:
        """A move with unknown names (each reported when the log was read): applied as the
        reading that fits the moves after it (:meth:`Recovery.infer`), nothing it breaks
        reported again, nothing it shows taken as known."""
        ctx = self.ctx
        logged = ctx.log.moves[index]
        if before.ended:  # after the end: said once, as for any move
            return self.step(index, logged, before, quiet=True)
        inferred = self.fitting(index, before, recovery.readings(index, before)) if not ctx.reporter.strict else None
        if inferred is None:  # nothing to go on: the move is left out
            self.steps.append(Step(index, logged, before, Outcome(before.copy(), []), ()))
            return before
        played = ctx.machine.play(before, inferred)
        outcome = Outcome(played.state, [], played.revealed, played.ended_by)
        if self.tokens is not None:
            self.tokens.after(logged, before, inferred, outcome)
        ctx.blame.update(index, before, outcome.state)
        self.steps.append(Step(index, logged, before, outcome, ()))
        return outcome.state

    def fitting(self, index: int, before: State, readings: list[Play], horizon: int = 12) -> Play | None:
        """Of readings as likely by the rules, the first under which what the next moves show
        fits every fact so far (they show it of the cards the reading names), else the first."""
        ctx, moves = self.ctx, self.ctx.log.moves
        if len(readings) < 2 or self.observed is None:
            return readings[0] if readings else None
        for play in readings:
            state, seen = ctx.machine.play(before, play).state, []
            for k in range(index + 1, min(index + 1 + horizon, len(moves))):
                if k in ctx.log.unread or state.ended:
                    break
                out = ctx.machine.play(state, moves[k].play)
                if out.violations:
                    break
                seen.extend(ctx.machine.observed(state, moves[k].play, ("move", k)))
                state = out.state
            if self.observed.fits(seen):
                return play
        return readings[0]

    def step(self, index: int, logged: LoggedMove, before: State, quiet: bool = False,
             hint: str | None = None, fix: Fix | None = None, legal: bool = False) -> State:
        """Check one move, apply it as played, record what it shows (``quiet``: its
        violations were reported already; ``legal``: the move was just checked, and breaks
        no rule)."""
        ctx, play = self.ctx, logged.play
        first_after_end = (before.ended and not self.after_end_reported and ctx.blame.ended is not None)
        if first_after_end:
            self.after_end_reported = True
            ctx.emit("game-ends", "", ctx.log.moves[ctx.blame.ended].position,  # type: ignore[index]
                     (Related("the log goes on here", logged.position),))
        outcome = ctx.machine.play(before, play, legal=legal)
        if before.ended:  # nothing a move does after the end of the game counts
            outcome = Outcome(before.copy(), outcome.violations)
        violations = outcome.violations
        after_end = [v for v in violations if self.reads(v, "ended")]
        if after_end:
            # A move after the end has no business being checked further; the
            # first one is reported once, as the game not ending when it must.
            violations = [] if first_after_end else after_end
        if violations and not quiet:  # one error per move: the first rule it breaks, the others as notes
            self.report(violations[0], logged, before, play,
                        [Related(f"also: {v.message} [{v.code}]") for v in violations[1:]], hint, fix)
        facts: tuple[Fact, ...] = ()
        if not self.param_violations(outcome.violations) and not before.ended:
            seen = ctx.machine.observed(before, play, ("move", index))
            facts = tuple(s.fact for s in seen)
            if self.observed is not None:
                amended = self.amended(index, before, play, outcome, seen)
                more: tuple[Related, ...] = ()
                fix = None
                if amended is not None:
                    outcome, note, fix = amended
                    more = (Related(note),)
                self.observed.check(index, logged, list(seen), more, fix)
        if self.tokens is not None:
            self.tokens.after(logged, before, play, outcome)
        ctx.blame.update(index, before, outcome.state)
        self.steps.append(Step(index, logged, before, outcome, facts))
        return outcome.state

    def amended(self, index: int, before: State, play: Play, outcome: Outcome,
                seen: list[Seen]) -> tuple[Outcome, str, Fix | None] | None:
        """When a move's recorded outcome ends the game or puts a player out, no deal fits
        it, and the next move is legal only under another outcome: that outcome's state (the
        moves that follow show it), with a note saying so.  None when the recorded
        one is possible, or no other outcome lets the log go on.  The observations of the
        other outcome are not taken as facts: the log does not say them.  When that outcome is
        the only one that fits, the fix that writes it goes with the note."""
        ctx, moves = self.ctx, self.ctx.log.moves
        state = outcome.state
        if index + 1 >= len(moves) or self.observed is None or \
                not (state.ended or set(state.out) - set(before.out)):
            return None  # only an outcome that changes who plays on cascades
        following = moves[index + 1].play
        if not ctx.machine.check(state, following) or self.observed.fits(seen):
            return None  # the log goes on as well after the outcome as recorded, or it is possible
        move = ctx.rules.moves[play.kind]
        env = ctx.machine.env(before, play.actor)
        for p in move.params:
            recorded = play.args.get(p.name)
            if decided_by(p) != "outcome" or recorded is None:
                continue
            values = [v for v in ctx.machine.param_values(p, env, before) if v != recorded]
            if p.type == "count":  # the nearest count first: the likeliest slip
                values.sort(key=lambda v: abs(v - recorded) if isinstance(recorded, int) else 0)
            fitting = []
            for value in values:
                other = Play(play.kind, play.actor, {**play.args, p.name: value})
                after = ctx.machine.play(before, other)
                if after.violations or ctx.machine.check(after.state, following) or \
                        not self.observed.fits(ctx.machine.observed(before, other, ("move", index))):
                    continue
                fitting.append((value, after))
                if len(fitting) > 1:
                    break
            if fitting:
                value, after = fitting[0]
                note = (f"replayed as {p.name} {_shown(value)}, the outcome the moves that follow need "
                        f"(move {index + 2} is legal after it)")
                # the one outcome that fits (no other value of it does): an edit the checker is sure of
                fix = Fix("set", position=moves[index].at(p.name), text=_shown(value)) \
                    if len(fitting) == 1 and p.name in ctx.log.moves[index].raw else None
                return Outcome(after.state, outcome.violations, after.revealed, after.ended_by), note, fix
        return None

    # -- violations of the move's requirements ------------------------------------------
    def param_violations(self, violations: list[Violation]) -> bool:
        """Whether the move's parameters themselves are wrong (then what it shows is not read)."""
        for v in violations:
            kind, _, rest = v.rule.partition("/")
            move = self.ctx.rules.moves.get(kind)
            if v.code == MALFORMED or not rest or (move and rest in {p.name for p in move.params}):
                return True
        return False

    def require(self, v: Violation) -> Require | None:
        kind, _, rule_id = v.rule.partition("/")
        move = self.ctx.rules.moves.get(kind)
        for req in (*self.ctx.rules.flow.requires, *(move.requires if move else ())):
            if req.id == rule_id:
                return req
        return None

    def reads(self, v: Violation, name: str) -> bool:
        """Whether the requirement behind a violation reads this state name."""
        req = self.require(v)
        return req is not None and name in req.expr.names

    def report(self, v: Violation, logged: LoggedMove, before: State, play: Play,
               extra: Iterable[Related] = (), hint: str | None = None, fix: Fix | None = None) -> None:
        req = self.require(v)
        if req is None:  # a parameter: point at it
            _kind, _, name = v.rule.partition("/")
            pos = logged.at(name) if name in logged.raw else logged.position
            self.ctx.reporter.error(v.code, v.message, pos, tuple(extra), hint, fix)
            return
        self.ctx.reporter.error(v.code, v.message, self.position(req, logged),
                                [*self.notes(req, before, play), *extra], hint, fix)

    def position(self, req: Require, logged: LoggedMove) -> Position:
        """The part of the move a requirement is about: a parameter it reads (one its
        condition reads too, first), else the player."""
        read = [a for b, a, _c in req.expr.attributes if b == "move" and a in logged.raw]
        when = {a for b, a, _c in req.when.attributes if b == "move"} if req.when is not None else set()
        for attr in [a for a in read if a in when] + read:
            return logged.at(attr)
        if "actor" in req.expr.names:
            verb = next((k for k in logged.raw if str(k).lower() == logged.play.kind), None)
            if verb is not None:
                return logged.at(verb)
        return logged.position

    def notes(self, req: Require, before: State, play: Play) -> list[Related]:
        """The earlier moves behind what a requirement reads."""
        ctx, blame, names = self.ctx, self.ctx.blame, req.expr.names
        notes: list[Related] = []
        if "ended" in names and blame.ended is not None:
            notes.append(ctx.move_note(blame.ended, "the game ended here"))
        if "out" in names and play.actor in blame.out:
            notes.append(ctx.move_note(blame.out[play.actor], f"{play.actor} was eliminated here"))
        if "phase" in names and blame.phase is not None:
            notes.append(ctx.move_note(blame.phase, f"the {before.phase} phase began here"))
        if "turn" in names and blame.turn is not None:
            notes.append(ctx.move_note(blame.turn, f"{before.turn}'s turn from here"))
        items = [c for c in _strings(play.args.values()) if c in ctx.rules.items]
        if "spaces" in names:
            notes.extend(ctx.token_notes(t for c in items for t in before.spaces.get(c, ())))
        env = None
        for base, attr, _col in req.expr.attributes:
            if base != "vars":
                continue
            var = ctx.rules.state.get(attr)
            current = before.vars.get(attr)
            if var is not None and var.added is not None and isinstance(current, frozenset):
                for item in items:
                    where = blame.added.get(attr, {}).get(item)
                    if where is not None and item in current:
                        env = env or ctx.machine.env(before, play.actor)
                        notes.append(ctx.move_note(where, var.added.render(
                            {**env, "item": item, "by": ctx.log.moves[where].play.actor})))
            elif var is not None and var.added is not None and isinstance(current, list):
                k = _matching(current, play)
                where = blame.appended.get(attr, [])[k] if k is not None and k < len(blame.appended.get(attr, [])) \
                    else None
                if where is not None:
                    env = env or ctx.machine.env(before, play.actor)
                    notes.append(ctx.move_note(where, var.added.render(
                        {**env, "item": current[k], "by": ctx.log.moves[where].play.actor})))  # type: ignore[index]
            elif attr in blame.vars:
                notes.append(ctx.move_note(blame.vars[attr], f"{ctx.describe(blame.vars[attr])} here"))
        return list(dict.fromkeys(notes))


def _shown(value: Any) -> str:
    """A parameter's value as a log writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _matching(elements: list[Any], play: Play) -> int | None:
    """The last element of a list variable that holds what one of the move's parameters
    names (the same items, in any order), else the last element."""
    wanted = [frozenset(v) if isinstance(v, (list, tuple)) else frozenset([v])
              for v in play.args.values() if isinstance(v, (str, list, tuple))]
    for k in range(len(elements) - 1, -1, -1):
        e = elements[k]
        mine = frozenset(e) if isinstance(e, (list, tuple, set, frozenset)) else frozenset([e])
        if mine in wanted:
            return k
    return len(elements) - 1 if elements else None


def _strings(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for v in values:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, str))
    return out
