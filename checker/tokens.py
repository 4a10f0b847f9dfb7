"""Token values as the log records them: placed, in a private record, revealed, shown at the end.

A part of the replay that a rule file switches on by declaring ``tokens:``.
Every value the log gives is recorded in a :class:`~checker.ledger.TokenLedger`;
a value contradicting an earlier record, a reveal of tokens that were not
face down, or records that no assignment of the hidden values can fit are
reported (and left out, so that later records are still checked).  The
values known or deduced are what scoring reads (:meth:`Tokens.values`); the
state machine keeps its own state.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from ..spec.diagnostics import Position, Related
from ..spec.machine import Outcome, Play, State, Token
from ..spec.tally import Tally
from .context import Context
from .ledger import TokenLedger
from .log import LoggedMove, Recorded

__all__ = ["Tokens"]


class Tokens:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.ledger = TokenLedger(ctx.machine.supply)
        self.placed: Tally[str] = Tally()
        self.noun = ctx.rules.tokens.noun if ctx.rules.tokens else "token"
        self.plural = ctx.rules.tokens.plural if ctx.rules.tokens else "tokens"
        self.supply_codes = {r.code for m in ctx.rules.moves.values() for r in m.requires
                             if "tokens_left_of" in r.expr.names}

    # -- during the moves ----------------------------------------------------------------
    def private(self, logged: LoggedMove, token: Token) -> None:
        """A placement's value from the private record (the actor's k-th token), checked against the move."""
        ctx, play = self.ctx, logged.play
        k = self.placed[token.owner]
        self.placed[token.owner] += 1
        records = ctx.log.private.tokens.get(token.owner, ())
        rec = records[k] if k < len(records) else None
        if rec is None or rec.value is None or rec.value not in ctx.machine.supply:
            return
        value_param = ctx.param_of(play.kind, "token_value")
        given = play.args.get(value_param) if value_param else None
        if given is not None and given != rec.value:
            ctx.emit("token-record", f"{play.actor}'s {self.noun} is {given} here, but {rec.value} in the "
                     "private record", logged.at(value_param),  # type: ignore[arg-type]
                     (Related(f"{play.actor}'s {self.noun} recorded as {rec.value} here", rec.position),))
            return
        self.ledger.record(token.order, rec.value, logged.position, "placed")

    def after(self, logged: LoggedMove, before: State, play: Play, outcome: Outcome) -> None:
        """Record the values a move gives (placed, revealed); check they still fit."""
        ctx = self.ctx
        old = {t.order for t in before.tokens}
        start = self.ledger.snapshot()
        for t in outcome.state.tokens:
            if t.order not in old:
                self.ledger.place(t.order, t.owner)
                if t.value in ctx.machine.supply:  # a value that exists (else its own code)
                    self.ledger.record(t.order, t.value, logged.position, "placed")
                self.private(logged, t)
        if not self.ledger.feasible():
            if not any(v.code in self.supply_codes for v in outcome.violations):
                value_param = ctx.param_of(play.kind, "token_value")
                self.supply(logged.at(value_param) if value_param else logged.position)
            self.ledger.restore(start)
        reveals = ctx.param_of(play.kind, "token_reveals")
        given = play.args.get(reveals) if reveals else None
        if given is None:
            return
        placed = self.ledger.snapshot()
        pos = logged.at(reveals)  # type: ignore[arg-type]
        space_param = ctx.param_of(play.kind, "item")
        space = play.args.get(space_param) if space_param else None
        if self.reveal(list(given), list(outcome.revealed), pos, space) and not self.ledger.feasible():
            self.supply(pos)
        if not self.ledger.feasible():
            self.ledger.restore(placed)

    def reveal(self, given: list[Any], tokens: list[Token], pos: Position, space: str | None) -> bool:
        """Record the values a reveal shows: by owner when named, else as a group.

        False (with a diagnostic, and nothing recorded) when the record itself is wrong.
        """
        ctx = self.ctx
        snap = self.ledger.snapshot()
        where = ctx.name(space) if space else "the space"
        named = [g for g in given if isinstance(g, tuple)]
        plain = [g for g in given if not isinstance(g, tuple)]
        if len(given) > len(tokens):
            down = f"only {len(tokens)} {self.noun}(s) were" if tokens else f"no {self.noun} was"
            ctx.emit("token-reveal", f"{len(given)} value(s) recorded, but {down} face down on {where}",
                     pos, ctx.token_notes(tokens))
            return False
        by_owner: dict[str, list[Token]] = {}
        for t in tokens:
            by_owner.setdefault(t.owner, []).append(t)
        for owner, _value in named:
            if not by_owner.get(owner):
                ctx.emit("token-reveal", f"{owner} had no {self.noun} face down on {where}", pos,
                         ctx.token_notes(tokens))
                return False
        if plain and (named or len(plain) != len(tokens)):
            ctx.error("LG203", f"the reveal gives {len(given)} value(s) for {len(tokens)} {self.noun}(s) turned "
                      "face up: give them all, or name their owners", pos)
            return False
        groups: list[tuple[list[Token], list[int]]] = [(tokens, plain)] if plain else []
        for owner in dict.fromkeys(o for o, _v in named):
            values = [v for o, v in named if o == owner]
            mine = by_owner[owner]
            if len(values) > len(mine):
                ctx.emit("token-reveal", f"{len(values)} value(s) recorded for {owner}, who had "
                         f"{len(mine)} {self.noun}(s) face down on {where}", pos, ctx.token_notes(mine))
                return False
            if len(values) < len(mine):
                ctx.error("LG203", f"{len(mine)} of {owner}'s {self.plural} were turned face up on {where}: "
                          "give a value for each", pos)
                return False
            groups.append((mine, values))
        for toks, values in groups:
            if not self.record(toks, values, pos, "revealed"):
                self.ledger.restore(snap)
                return False
        return True

    def record(self, tokens: list[Token], values: list[int], pos: Position | None, what: str) -> bool:
        """These tokens show these values; False on a conflict (reported)."""
        if len(tokens) == 1:
            conflict = self.ledger.record(tokens[0].order, values[0], pos, what)
        else:
            conflict = self.ledger.reveal([t.order for t in tokens], values, pos)
        if conflict is None:
            if len({(t.owner, t.space) for t in tokens}) == 1:
                self.pin(tokens, values, pos, what)
            return True
        owner = self.ledger.owners[conflict.key]
        shown = values[0] if len(values) == 1 else sorted(values)
        earlier = conflict.earlier
        self.ctx.emit("token-record", f"{owner}'s {self.noun} shows {shown}, but it was {earlier.what} as "
                      f"{earlier.value}", pos, (Related(f"{earlier.what} as {earlier.value} here", earlier.position),))
        return False

    def pin(self, tokens: list[Token], values: list[int], pos: Position | None, what: str) -> None:
        """Tokens of one owner on one space are alike: give them the values in an order that fits."""
        keys = [t.order for t in tokens if self.ledger.value(t.order) is None]
        left = Tally(values)
        left.subtract(self.ledger.value(t.order) for t in tokens if self.ledger.value(t.order) is not None)
        for order in sorted(set(permutations(sorted(left.elements())))):
            if len(order) == len(keys) and self.ledger.feasible(dict(zip(keys, order))):
                for key, value in zip(keys, order):
                    self.ledger.record(key, value, pos, what)
                return

    def supply(self, pos: Position | None) -> None:
        """Report that no assignment fits: a value recorded too often, else the supplies."""
        values = self.ctx.machine.supply
        over = self.ledger.over_supply()
        if over:
            owner, value, records = over[0]
            notes = tuple(Related(f"{owner}'s {value} {r.what} here", r.position) for r in records)
            detail = (f"{len(records)} of {owner}'s {self.plural} show {value}, but {owner} has "
                      f"{values.get(value, 0)} of value {value}")
        else:
            each = ", ".join(f"{n} of value {v}" for v, n in sorted(values.items()))
            notes, detail = (), f"no assignment of the values not yet revealed fits every player's {self.plural} ({each} each)"
        self.ctx.emit("token-supply", detail, pos, notes)

    def values(self) -> dict[int, int]:
        """Every token value the ledger knows or deduces (token order -> value), for scoring."""
        values = self.ledger.forced() if self.ledger.groups else {}
        values.update({k: r.value for k, r in self.ledger.known.items()})
        return values

    # -- at the end ------------------------------------------------------------------------
    def end(self, state: State) -> None:
        """Private records of more tokens than placed; tokens turned up at the end."""
        ctx = self.ctx
        for player, records in ctx.log.private.tokens.items():
            placed = sum(1 for t in state.tokens if t.owner == player)
            if len(records) > placed:
                ctx.error("LG201", f"the private record lists {len(records)} {self.noun}(s) of {player}, who placed "
                          f"{placed}", records[placed].position)
        if ctx.log.end is not None:
            for space, owners in ctx.log.end.tokens.items():
                for owner, rec in owners.items():
                    self.shown(state, space, owner, rec)

    def shown(self, state: State, space: str, owner: str, rec: Recorded) -> None:
        """Tokens of one player on one space, turned face up at the end."""
        ctx = self.ctx
        snap = self.ledger.snapshot()
        mine = [t for t in state.spaces.get(space, ()) if t.owner == owner]
        values = list(rec.value)
        if len(values) > len(mine):
            ctx.emit("token-reveal", f"{len(values)} {self.noun}(s) of {owner} recorded on {ctx.name(space)}, "
                     f"which holds {len(mine)}", rec.position, ctx.token_notes(mine))
        elif len(values) < len(mine):
            ctx.error("LG203", f"{owner} has {len(mine)} {self.plural} on {ctx.name(space)}: give a value for each",
                      rec.position)
        elif self.record(mine, values, rec.position, "shown at the end") and not self.ledger.feasible():
            self.supply(rec.position)
            self.ledger.restore(snap)
