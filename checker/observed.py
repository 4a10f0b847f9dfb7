"""What the table observed, and the cards recorded in zones: is it consistent?

The cards a log records in zones (the public set-up, its private records,
the cards shown at the end) go in first, so that every observation is
checked against them; then each move's observations, as the replay reaches
them.  An observation no deal fits is reported with the facts it clashes
with (the solver's minimal explanation) and left out, so the ones after it
are still checked.  An observation may name the log check that reports it
(``check:``), and may take back the facts of an earlier move that it shows
to be a mistake (``withdraws:``): those leave the accepted facts first.
"""

from __future__ import annotations

from ..spec.deal import pin, zone_id
from ..spec.diagnostics import Fix, Position, Related
from ..spec.facts import Atom, Fact, count
from ..spec.machine import Play, Seen, State
from .consistency import Clash, Observations
from .context import Context
from .log import LoggedMove, Recorded, ZoneRecord

__all__ = ["Observed"]


class Observed:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.seen = Observations(ctx.deal)
        self.withdrawn: set[int] = set()   # moves whose facts a later move took back

    # -- records -------------------------------------------------------------------
    def records(self) -> None:
        """Add the recorded cards; report what cannot be (problems of the end later)."""
        ctx = self.ctx
        private = ctx.log.private.zones
        shown = ctx.log.end.zones if ctx.log.end else ()
        holder: dict[str, tuple[str, Recorded, ZoneRecord]] = {}
        for where, records in (("setup", ctx.log.public), ("private", private), ("end", shown)):
            report = ctx.emit if where != "end" else ctx.defer
            for record in records:
                earlier = next((r for r in private if r.spec.zone == record.spec.zone), None) \
                    if where == "end" else None
                for player, cards in record.cards.items():
                    self.record(where, record, player, cards, earlier, holder, report)

    def record(self, where: str, record: ZoneRecord, player: str, cards: tuple[Recorded, ...],
               earlier: ZoneRecord | None, holder: dict[str, tuple[str, Recorded, ZoneRecord]],
               report) -> None:  # type: ignore[no-untyped-def]
        ctx, key = self.ctx, record.key
        if earlier is not None and player in earlier.cards:
            before = earlier.cards[player]
            if sorted(c.value for c in before) != sorted(c.value for c in cards):
                whose = f"{player} shows {self.names(cards)}, but their {earlier.key} was" if player else \
                    f"the {record.key} shown is {self.names(cards)}, but the {earlier.key} was"
                report("zone-shown", f"{whose} recorded as {self.names(before)}", cards[0].position,
                       (Related(f"{player}'s {earlier.key} recorded here" if player else
                                f"the {earlier.key} recorded here", before[0].position),))
                return
        zone = zone_id(record.spec.zone, player or None)  # type: ignore[arg-type]
        seen_by = ctx.deal.zone(zone).seen_by
        viewers = None if where in ("end", "setup") or seen_by == "everyone" else \
            frozenset({player}) if player and seen_by == "owner" else frozenset()
        player = player or record.spec.zone  # type: ignore[assignment]
        for rec in cards:
            other = holder.get(rec.value)
            if other is not None and other[0] != player:
                report("zone-record", f"{player} and {other[0]} cannot both hold {ctx.name(rec.value)}",
                       rec.position, (Related(f"{other[0]}'s {other[2].key} recorded here", other[1].position),))
                return
            holder.setdefault(rec.value, (player, rec, record))
            clash = self.seen.add(pin(rec.value, zone, viewers, (where, player, key, rec)))
            if clash is not None:
                report("zone-record", f"{player}'s {ctx.name(rec.value)} does not fit the rest of the {key}",
                       rec.position, self.notes(clash))
                return

    def names(self, cards: tuple[Recorded, ...]) -> str:
        return ", ".join(self.ctx.name(c.value) for c in cards)

    def facts(self) -> list[Fact]:
        """The accepted facts of the records (for the solver's viewpoints)."""
        return [f for f in self.seen.facts if isinstance(f.source, tuple) and f.source[0] in ("setup", "private", "end")]

    # -- observations -------------------------------------------------------------
    def fits(self, facts: list[Fact | Seen]) -> bool:
        """Whether the observations of a move fit, all together, every accepted fact (but
        those of an earlier move they take back)."""
        back = next((i.withdraws for i in facts if isinstance(i, Seen) and i.withdraws is not None), None)
        return self.seen.fits_all((i.fact if isinstance(i, Seen) else i for i in facts),
                                  ("move", back - 1) if back is not None else None)

    def check(self, index: int, logged: LoggedMove, facts: list[Fact | Seen],
              more: tuple[Related, ...] = (), fix: Fix | None = None) -> None:
        """The observations of one move against all before them (``more``: notes for the
        error a clash gives, ``fix``: its edit)."""
        for item in facts:
            seen = item if isinstance(item, Seen) else None
            fact = seen.fact if seen is not None else item
            if seen is not None and seen.withdraws is not None:
                self.withdraw(seen.withdraws - 1)
            clash = self.seen.add(fact)
            if clash is None:
                continue
            rule = seen.rule.check if seen is not None else None
            pos = self.position(logged, seen)
            left_out = self.left_out(fact) if rule is None else []
            noun = self.ctx.rules.solution_word("noun", "the solution")
            if left_out:
                names = ", ".join(self.ctx.name(g) for g in left_out)
                self.ctx.emit("omitted-group", f"it leaves out {names}, but no deal fits {names} holding no "
                              f"{noun}", pos, (*self.notes(clash), *more), fix=fix)
                return
            against = "what was recorded before" if clash.sources else "the deal of the records"
            if rule is not None and fact.text:
                detail = f"impossible with {against}: {fact.text}"
            else:
                detail = f"{self.text(logged.play)} is impossible with {against}"
            self.ctx.emit("observations", detail, pos, (*self.notes(clash), *more), rule=rule, fix=fix)
            return

    def withdraw(self, index: int) -> None:
        """Take back the accepted facts of the move at ``index`` (0-based)."""
        if self.seen.withdraw(("move", index)):
            self.withdrawn.add(index)

    def notes(self, clash: Clash) -> tuple[Related, ...]:
        """Where each fact a clash names was recorded."""
        ctx = self.ctx
        word = ctx.rules.solution_word("observation", "observation")
        out = []
        for source in clash.sources:
            if source[0] == "move":
                i = source[1]
                play = ctx.log.moves[i].play
                out.append(ctx.move_note(i, f"{word} here ({play.actor}'s {play.kind}: {self.text(play)})"))
            else:
                where, player, key, rec = source
                verb = "shown" if where == "end" else "recorded"
                whose = f"{player}'s {key}" if player in ctx.log.header.players else f"the {key}"
                out.append(Related(f"{whose} {ctx.name(rec.value)} {verb} here", rec.position))
        return tuple(out)

    def text(self, play: Play) -> str:
        """The observed counts of a move (its ``count`` parameters), e.g. ``n 2``."""
        counts = [f"{p.name} {play.args.get(p.name)}" for p in self.ctx.rules.moves[play.kind].params
                  if p.type == "count" and p.name in play.args]
        return ", ".join(counts) or play.kind

    def position(self, logged: LoggedMove, seen: Seen | None = None) -> Position:
        """Where to point: the move's observed count; for an observation with a check of
        its own, the first parameter (not a player) its fact reads."""
        move = self.ctx.rules.moves[logged.play.kind]
        if seen is not None and seen.rule.check is not None:
            types = {p.name: p.type for p in move.params}
            for base, attr, _col in seen.rule.fact.attributes:
                if base == "move" and attr in logged.raw and types.get(attr) != "player":
                    return logged.at(attr)
        param = move.param_of_type("count")
        return logged.at(param.name) if param else logged.position

    def left_out(self, fact: Fact) -> list[str]:
        """Groups of the solution's constraint that an observation counting every card it
        names (on fewer groups than there are) claims hold none of the solution -- when no
        deal fits that claim."""
        deal = self.ctx.deal
        atom = fact.formula
        deck = deal.solution_deck
        if not isinstance(atom, Atom) or atom.op != "==" or deck is None or not deck.constraints:
            return []
        terms = atom.lin.terms
        if not terms or atom.value != len(terms) or any(w != 1 or z != frozenset(deal.solution) for _c, z, w in terms):
            return []
        g = deck.constraints[0]
        named = {c for c, _z, _w in terms}
        missing = [i for i, grp in enumerate(g.groups) if not named & set(grp)]
        if not missing or len(missing) == len(g.groups):
            return []
        empty = Fact(count([c for i in missing for c in g.groups[i]], deal.solution) == 0)
        return [] if self.seen.fits(empty) else [g.group_names[i] for i in missing]

    def solution(self) -> frozenset[str] | None:
        """The solution: the cards recorded in every solution zone, else what the observations leave."""
        ctx, deal = self.ctx, self.ctx.deal
        recorded: dict[str, set[str]] = {}
        for record in (*ctx.log.private.zones, *(ctx.log.end.zones if ctx.log.end else ())):
            for player, cards in record.cards.items():
                recorded.setdefault(zone_id(record.spec.zone, player or None), set()).update(  # type: ignore[arg-type]
                    c.value for c in cards)
        zones = [deal.zone(z) for z in deal.solution]
        if zones and all(len(recorded.get(z.id, ())) == z.size for z in zones):
            cards = frozenset(c for z in zones for c in recorded[z.id])
            if len(cards) == sum(z.size for z in zones) and \
                    all(self.seen.fits(pin(c, z.id, None)) for z in zones for c in recorded[z.id]):
                return cards
        return self.seen.solution()

    def count(self) -> int:
        """How many solutions the accepted facts leave."""
        return self.seen.knowledge.solution_count()
