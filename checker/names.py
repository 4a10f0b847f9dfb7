"""Names in a log: items (cards...) as printed or by any alias, players as seated.

Both are matched case-insensitively with spaces collapsed; a name that
matches nothing gets a diagnostic with "did you mean ...".

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> from ruleslawyer.spec.diagnostics import Position
>>> rules = load_rules(str(next(rules_dir().glob("*.yaml"))))
>>> comp = next(c for c in rules.components.values() if c.attributes)
>>> item = max((rules.items[i] for i in comp.items), key=lambda c: len(c.name))
>>> names = Names(rules, ("Helen", "Gordon"))
>>> names.item(comp.id, item.name.upper(), None) == item.id, names.player("gordon", None)
(True, 'Gordon')
>>> names.item(comp.id, item.name[:-1], Position("g.yaml", 4, 9)) is None
True
>>> d = names.diagnostics[0]
>>> d.code, str(d.position), d.hint == f"did you mean '{item.name}'?"
('LG110', 'g.yaml:4:9', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..spec.diagnostics import Diagnostic, Fix, Position, did_you_mean
from ..spec.model import Ruleset

__all__ = ["Names", "NameHook", "fold", "rename"]

#: Told of every name found: as written, where it stands, and its spelling as printed
#: (the rule file's for an item, the header's for a player); ``fmt`` respells with it.
NameHook = Callable[[Any, "Position | None", str], None]


def rename(pos: Position | None, meant: str | None) -> Fix | None:
    """The fix of a name a single "did you mean" names: the name at ``pos`` respelt as ``meant``."""
    return Fix("rename", position=pos, text=meant) if pos is not None and meant is not None else None


def fold(text: Any) -> str:
    """The form names are compared in: spaces collapsed, lower case."""
    return " ".join(str(text).split()).lower()


@dataclass
class Names:
    """Resolves item and player names, collecting diagnostics for bad ones."""

    rules: Ruleset
    players: Sequence[str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Take a name that matches nothing as the one its "did you mean" names (the diagnostic
    #: is still given): the log can then be checked on, as a compiler reads on past a typo.
    meant: bool = False
    #: The diagnostics of names taken as the one meant (the others: a name left unknown).
    taken: list[Diagnostic] = field(default_factory=list)
    #: The diagnostics of names left unknown (nothing close enough to take).
    left: list[Diagnostic] = field(default_factory=list)
    #: Told of each name found (see :data:`NameHook`); None: nobody asks.
    seen: NameHook | None = None

    def _found(self, text: Any, pos: Position | None, printed: str) -> None:
        if self.seen is not None:
            self.seen(text, pos, printed)

    def unknown(self, diagnostic: Diagnostic, meant: Any) -> Any:
        """A word the log gives that is not one the rules know (a name, a choice's value): the
        diagnostic kept, and ``meant`` (its "did you mean") taken when the log is read on past
        typos, else None (the name left unknown: the part of the log that holds it is read past)."""
        return self._unknown(diagnostic, meant)

    def _unknown(self, diagnostic: Diagnostic, meant: Any) -> Any:
        self.diagnostics.append(diagnostic)
        if self.meant and meant is not None:
            self.taken.append(diagnostic)
            return meant
        self.left.append(diagnostic)
        return None

    def item(self, component: str, text: Any, pos: Position | None) -> str | None:
        """The item id for a name or alias; None (and a diagnostic) if unknown."""
        ok = isinstance(text, (str, int)) and not isinstance(text, bool)
        found = self.rules.find(component, str(text)) if ok else None
        if found is not None:
            self._found(text, pos, self.rules.name(found))
            return found
        table = self.rules.aliases.get(component, {})
        near = did_you_mean(str(text), list(table))
        meant = self.rules.name(table[near]) if near else None
        hint = f"did you mean '{meant}'?" if near else None
        return self._unknown(Diagnostic("LG110", f"unknown {self.rules.noun(component)} '{text}'", pos, hint=hint,
                                        fix=rename(pos, meant)), table[near] if near else None)

    def item_of(self, components: Sequence[str], text: Any, pos: Position | None) -> str | None:
        """As :meth:`item`, the item of the first of several components that has the name."""
        if len(components) == 1:
            return self.item(components[0], text, pos)
        ok = isinstance(text, (str, int)) and not isinstance(text, bool)
        for component in components:
            found = self.rules.find(component, str(text)) if ok else None
            if found is not None:
                self._found(text, pos, self.rules.name(found))
                return found
        table = {k: v for c in components for k, v in self.rules.aliases.get(c, {}).items()}
        near = did_you_mean(str(text), list(table))
        meant = self.rules.name(table[near]) if near else None
        hint = f"did you mean '{meant}'?" if near else None
        nouns = " or ".join(self.rules.noun(c) for c in components)
        return self._unknown(Diagnostic("LG110", f"unknown {nouns} '{text}'", pos, hint=hint, fix=rename(pos, meant)),
                             table[near] if near else None)

    def player(self, text: Any, pos: Position | None) -> str | None:
        """The player as spelled in the header; None (and a diagnostic) if unknown."""
        by_fold = {fold(p): p for p in self.players}
        found = by_fold.get(fold(text)) if isinstance(text, str) else None
        if found is not None:
            self._found(text, pos, found)
            return found
        near = did_you_mean(str(text), list(self.players))
        hint = f"did you mean '{near}'?" if near else f"the players are: {', '.join(self.players)}"
        return self._unknown(Diagnostic("LG111", f"unknown player '{text}'", pos, hint=hint, fix=rename(pos, near)),
                             near)
