"""Evidence and verdicts: is what the table observed consistent?

The recorded evidence (private facts, evidence shown at the end) goes in
first, so that every verdict is checked against it; then each verdict, as
the replay reaches it.  A verdict no deal fits is reported with the facts it
clashes with (the solver's minimal explanation) and left out, so the ones
after it are still checked.
"""

from __future__ import annotations

from dataclasses import replace

from ..solver.facts import Fact
from ..spec.deal import holds
from ..spec.diagnostics import Position, Related
from ..spec.machine import Play, State
from .consistency import Clash, Observations
from .context import Context
from .log import LoggedMove, Recorded

__all__ = ["Verdicts"]


class Verdicts:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.seen = Observations(ctx.rules)

    def evidence(self) -> None:
        """Add the recorded evidence; report what cannot be (end-of-log problems later)."""
        ctx = self.ctx
        private = ctx.log.private.evidence
        shown = ctx.log.end.evidence if ctx.log.end else {}
        holder: dict[str, tuple[str, Recorded]] = {}
        for where, records in (("private", private), ("end", shown)):
            report = ctx.emit if where == "private" else ctx.defer
            for player, rec in records.items():
                if where == "end" and player in private and private[player].value != rec.value:
                    report("evidence-shown", f"{player} shows {ctx.name(rec.value)}, but their evidence was "
                           f"recorded as {ctx.name(private[player].value)}", rec.position,
                           (Related(f"{player}'s evidence recorded here", private[player].position),))
                    continue
                other = holder.get(rec.value)
                if other is not None and other[0] != player:
                    report("evidence-deal", f"{player} and {other[0]} cannot both hold {ctx.name(rec.value)}",
                           rec.position, (Related(f"{other[0]}'s evidence recorded here", other[1].position),))
                    continue
                holder.setdefault(rec.value, (player, rec))
                viewer = player if where == "private" else None
                clash = self.seen.add(replace(holds(rec.value, player, (where, player)), viewer=viewer))
                if clash is not None:
                    report("evidence-deal", f"{player}'s {ctx.name(rec.value)} does not fit the rest of the "
                           "evidence", rec.position, self.notes(clash))

    def check(self, index: int, logged: LoggedMove, before: State, play: Play) -> None:
        """The verdict of one move (if it has an observation) against all before it."""
        fact = self.ctx.machine.observation(before, play, ("move", index))
        if fact is None:
            return
        clash = self.seen.add(fact)
        if clash is None:
            return
        pos = self.position(logged)
        left_out = self.left_out(fact)
        if left_out:
            names = ", ".join(c.name for c in self.ctx.rules.categories if c.id in left_out)
            self.ctx.emit("partial-accusation", f"it leaves out {names}, but no deal fits {names} holding no "
                          "evidence", pos, self.notes(clash))
            return
        self.ctx.emit("observations", f"{self.text(play)} is impossible with " +
                      ("what was recorded before" if clash.sources else "the deal of the evidence"),
                      pos, self.notes(clash))

    def notes(self, clash: Clash) -> tuple[Related, ...]:
        """Where each fact a clash names was recorded."""
        ctx = self.ctx
        out = []
        for source in clash.sources:
            if source[0] == "move":
                i = source[1]
                play = ctx.log.moves[i].play
                out.append(ctx.move_note(i, f"verdict here ({play.actor}'s {play.kind}: {self.text(play)})"))
            else:
                where, player = source
                records = ctx.log.private.evidence if where == "private" else ctx.log.end.evidence  # type: ignore[union-attr]
                verb = "recorded" if where == "private" else "shown"
                out.append(Related(f"{player}'s evidence {ctx.name(records[player].value)} {verb} here",
                                   records[player].position))
        return tuple(out)

    def text(self, play: Play) -> str:
        """The observed counts of a move (its ``count`` parameters), e.g. ``n 2``."""
        counts = [f"{p.name} {play.args.get(p.name)}" for p in self.ctx.rules.moves[play.kind].params
                  if p.type == "count" and p.name in play.args]
        return ", ".join(counts) or play.kind

    def position(self, logged: LoggedMove) -> Position:
        name = self.ctx.param_of(logged.play.kind, "count")
        return logged.at(name) if name else logged.position

    def left_out(self, fact: Fact) -> set[str]:
        """Categories that a verdict counting every named clue, on fewer clues than
        there are categories, claims hold no evidence -- when no deal fits that claim."""
        rules = self.ctx.rules
        cards = [c for c, _w in fact.weights]
        if fact.op != "==" or fact.value != len(cards) or not cards:
            return set()
        missing = {c.id for c in rules.categories} - {rules.category_of(c) for c in cards}
        if not missing:
            return set()
        empty = Fact.count([c for k in rules.categories if k.id in missing for c in k.clues], "==", 0)
        return set() if self.seen.fits(empty) else missing

    def solution(self) -> frozenset[str] | None:
        """The solution: every player's evidence when recorded, else what the verdicts leave."""
        log = self.ctx.log
        evidence = {**log.private.evidence, **(log.end.evidence if log.end else {})}
        cards = {rec.value for rec in evidence.values()}
        if len(evidence) == len(log.header.players) and len(cards) == len(evidence) and \
                all(self.seen.fits(Fact.count([c], "==", 1)) for c in cards):
            return frozenset(cards)
        return self.seen.solution()

    def count(self) -> int:
        """How many solutions the accepted facts leave."""
        return self.seen.knowledge.count()
