"""The typed model of a resolved rule set (one game, one variant, its house rules).

Built by :mod:`spec.loader`; read by the state machine, the solver and the
checker.  Everything here is plain data plus compiled expressions; every
rule keeps its citation and the position it was read from.  The engine's
words are generic — components and their items, a deal of cards into
zones, tokens on spaces, facts, records — and each rule file gives them the
game's own words (``noun:``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from .diagnostics import Position
from .expr import Expr, ExprError, compile_expr


@dataclass(frozen=True)
class Cite:
    """The rulebook sentence a rule implements."""

    src: str
    quote: str
    position: Position | None = None

    def to_json(self) -> dict[str, Any]:
        return {"src": self.src, "quote": self.quote}


@dataclass(frozen=True)
class Template:
    """A message with ``{expression}`` holes, filled from an environment.

    >>> Template.parse("{a} of {len(b)}").render({"a": 1, "b": [1, 2]})
    '1 of 2'
    """

    parts: tuple[str | Expr, ...]

    @classmethod
    def parse(cls, text: str, position: Position | None = None) -> "Template":
        parts: list[str | Expr] = []
        for i, piece in enumerate(re.split(r"\{([^{}]*)\}", text)):
            if i % 2 == 0:
                if piece:
                    parts.append(piece)
            else:
                parts.append(compile_expr(piece, position))
        return cls(tuple(parts))

    def render(self, env: Mapping[str, Any]) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            try:
                value = part.run(env)
            except ExprError:
                value = "?"
            out.append(show(value))
        return "".join(out)

    def expressions(self) -> list[Expr]:
        return [p for p in self.parts if isinstance(p, Expr)]

    def text(self) -> str:
        """The template as written, holes included."""
        return "".join(p if isinstance(p, str) else "{" + p.source + "}" for p in self.parts)


def show(value: Any) -> str:
    """A value as messages print it: lists in brackets, sets sorted."""
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return "[" + ", ".join(show(v) for v in items) + "]"
    return str(value)


@dataclass(frozen=True)
class Item:
    """One named thing of a component (a card, a category, a colour...)."""

    id: str
    name: str
    component: str
    aliases: tuple[str, ...] = ()
    attrs: Mapping[str, str] = field(default_factory=dict)  # attribute -> item id


@dataclass(frozen=True)
class Component:
    """A named list of items; ``attributes`` maps an attribute to the component its values come from."""

    id: str
    noun: str
    items: tuple[str, ...]
    attributes: Mapping[str, str] = field(default_factory=dict)
    name: str | None = None
    cite: Cite | None = None


@dataclass(frozen=True)
class Setting:
    """A parameter's resolved value and where it was set."""

    name: str
    value: Any
    position: Position | None
    cite: Cite | None
    set_by: str  # "base", "variant 5p", "house no-repeat"


@dataclass(frozen=True)
class Option:
    name: str
    values: tuple[Any, ...]
    default: Any
    value: Any
    cite: Cite
    ambiguity: str | None
    position: Position | None
    set_by: str


def decided_by(p: "MoveParam") -> str:
    """Who decides a parameter in a simulated game: its ``decided_by:``, else by
    type — ``outcome`` for a count, token reveals and a list without a size
    (what the table observed, or the table's choice), ``mover`` otherwise."""
    if p.decided_by is not None:
        return p.decided_by
    if p.type not in CHOICE_TYPES or (p.type == "items" and p.size is None):
        return "outcome"
    return "mover"


@dataclass(frozen=True)
class Require:
    id: str
    when: Expr | None
    expr: Expr
    code: str
    message: Template
    cite: Cite
    position: Position | None


ParamType = Literal["item", "items", "count", "player", "token_value", "token_reveals", "choice", "flag"]
#: Parameter types a player chooses (the others record what the table observed).
CHOICE_TYPES = frozenset({"item", "items", "token_value", "player", "choice", "flag"})


class _Unknown:
    """An item a log records as there but not known which ("?"): a card shown to
    someone else.  Rule expressions compare it with the name ``unknown``."""

    _instance: "_Unknown | None" = None

    def __new__(cls) -> "_Unknown":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "?"

    __str__ = __repr__

    def __reduce__(self) -> str:
        return "UNKNOWN"


#: The one unknown item (see :class:`_Unknown`); a log writes it ``?``.
UNKNOWN = _Unknown()
#: Who decides a parameter's value in a simulated game (a move's ``decided_by:``).
DECIDERS = ("mover", "outcome")


@dataclass(frozen=True)
class MoveParam:
    """One parameter of a move.

    ``item`` and ``items`` name items of ``of`` (or, for ``items``, of one of
    ``components`` when there are several: with ``one_component`` all of
    them from the same one); ``choice`` is one of ``values``; ``flag`` is
    true or false.  ``default`` is the value an absent ``choice`` or
    ``flag`` takes; ``unknown`` lets an ``item`` be recorded as ``?``
    (there, but not known which).
    """

    name: str
    type: str
    of: str | None = None          # the component of an item / items parameter (the first of several)
    size: Expr | None = None
    max: Expr | None = None
    distinct: str | None = None    # an attribute whose values the items must not share
    optional: bool = False
    code: str | None = None
    cite: Cite | None = None
    components: tuple[str, ...] = ()   # every component an items parameter may name
    one_component: bool = False        # all the items from one of them
    values: tuple[Any, ...] = ()       # the values of a choice
    default: Any = None                # an absent choice or flag
    unknown: bool = False              # an item may be recorded as unknown ("?")
    #: Who decides the value when a game is simulated: ``mover`` (the player
    #: making the move chooses it) or ``outcome`` (the hidden deal and the
    #: other players' obligations decide it: a count, an answer, a card
    #: shown).  None: by type (see :func:`decided_by`).
    decided_by: str | None = None


@dataclass(frozen=True)
class Effect:
    """One effect verb with its argument; ``when`` effects carry branches."""

    verb: str
    arg: Any
    position: Position | None
    cite: Cite | None = None
    then: tuple["Effect", ...] = ()
    otherwise: tuple["Effect", ...] = ()


@dataclass(frozen=True)
class Observation:
    """A fact about the hidden deal that a move lets some players learn."""

    fact: Expr
    seen_by: Expr                  # "everyone", a player or a list of players
    when: Expr | None
    says: Template | None          # the fact in the game's words
    cite: Cite
    position: Position | None = None
    check: str | None = None       # the log check (by id) that reports a clash of this fact
    withdraws: Expr | None = None  # the number of an earlier move whose facts this one takes back
    chosen_among: Expr | None = None  # k: what was seen was one of k equally likely choices (none: not weighed)


@dataclass(frozen=True)
class Move:
    name: str
    cite: Cite
    params: tuple[MoveParam, ...]
    requires: tuple[Require, ...]
    observe: tuple[Observation, ...]
    effects: tuple[Effect, ...]
    position: Position | None = None
    claims: Expr | None = None     # a fact about the deal the move asserts (naming the solution)
    #: Who the rules oblige to make this move now (a player, or none), read when a game is
    #: simulated: a log may still leave the move out (a tile drawn), so the checker never requires it.
    due: Expr | None = None

    def param(self, name: str) -> MoveParam | None:
        return next((p for p in self.params if p.name == name), None)

    def param_of_type(self, type_: str) -> MoveParam | None:
        return next((p for p in self.params if p.type == type_), None)


@dataclass(frozen=True)
class Function:
    name: str
    args: tuple[str, ...]
    expr: Expr
    cite: Cite


@dataclass(frozen=True)
class StateVar:
    """A state variable of the rules: its start value and, for collections,
    how a note says that a move added an item to it (``item``, and ``by``: who
    made that move)."""

    name: str
    init: Expr
    added: Template | None = None
    label: str | None = None  # what a picture of the table calls it (shown when set): a mark or a count

@dataclass(frozen=True)
class ScoringStep:
    id: str
    kind: str  # show_solution | remove | reveal_all | points
    expr: Expr | None
    cite: Cite
    position: Position | None = None


@dataclass(frozen=True)
class Scoring:
    cite: Cite | None
    steps: tuple[ScoringStep, ...]
    winners: Expr
    define: tuple[tuple[str, Expr], ...]
    winners_cite: Cite


@dataclass(frozen=True)
class LogCheck:
    """A whole-log check the rules declare: which generic check, its code and rule."""

    id: str
    check: str
    code: str
    message: str
    cite: Cite
    position: Position | None = None


@dataclass(frozen=True)
class Flow:
    start_phase: str
    start_turn: Expr
    start_cite: Cite
    phases: Mapping[str, Cite]
    requires: tuple[Require, ...]


# -- the hidden deal ---------------------------------------------------------------


@dataclass(frozen=True)
class ZoneSpec:
    """A zone family: one zone per player (``per_player``) or one zone."""

    family: str
    per_player: bool
    size: Expr | None          # None: the rest of the deck
    seen_by: str               # owner | everyone | nobody
    cite: Cite | None
    position: Position | None = None


@dataclass(frozen=True)
class ConstraintSpec:
    """The zones of these families hold, together, ``pattern`` cards of each value of an attribute."""

    zones: tuple[str, ...]
    count_by: str
    pattern: Expr
    shuffled: Expr
    cite: Cite | None
    position: Position | None = None


@dataclass(frozen=True)
class DeckSpec:
    id: str
    cards: str                 # a component
    zones: tuple[ZoneSpec, ...]
    constraints: tuple[ConstraintSpec, ...]
    when: Expr | None = None
    position: Position | None = None


@dataclass(frozen=True)
class SolutionSpec:
    zones: tuple[str, ...]     # zone families whose content is the solution
    words: Mapping[str, str]   # noun, sets, certainly_in, certainly_out, per_group, could_end
    cite: Cite | None


@dataclass(frozen=True)
class DealSpec:
    decks: tuple[DeckSpec, ...]
    solution: SolutionSpec | None
    cite: Cite | None

    def families(self) -> dict[str, ZoneSpec]:
        return {z.family: z for d in self.decks for z in d.zones}

    def deck_of_family(self, family: str) -> DeckSpec:
        return next(d for d in self.decks if any(z.family == family for z in d.zones))


@dataclass(frozen=True)
class TokenSpec:
    """Face-down tokens with hidden values placed on spaces (one space per item of ``on``)."""

    noun: str
    plural: str
    on: str
    supply: Expr               # value -> how many each player has
    cite: Cite | None


RecordKind = Literal["zone", "token_values", "tokens_shown", "scores", "winners", "player_item"]


@dataclass(frozen=True)
class RecordSpec:
    """What a key of a log's ``setup:``, ``private:`` or ``end:`` section records.

    ``setup:`` is public and comes before the moves: the cards of zones
    everyone sees, and ``player_item`` records (one item of ``component``
    per player; ``distinct``: no two the same),
    which every log must give and rule expressions read as
    ``setup.<key>[player]``.
    """

    key: str
    section: str               # setup | private | end
    kind: str                  # one of RecordKind
    zone: str | None = None    # the zone family of a ``zone`` record
    shown: bool = False        # shown to everyone (at the end)
    per_player: bool = True    # a ``zone`` record of a family with one zone per player
    cite: Cite | None = None
    component: str | None = None  # the component of a ``player_item`` record
    distinct: bool = False        # a ``player_item`` record gives every player another item


@dataclass(frozen=True)
class Ruleset:
    """One resolved rule set: a game, a variant and its house rules (read-only once built)."""

    game: str
    title: str
    code_prefix: str
    variant: str
    house: tuple[str, ...]
    files: tuple[str, ...]
    sources: Mapping[str, str]
    components: Mapping[str, Component]
    items: Mapping[str, Item]
    params: Mapping[str, Setting]
    options: Mapping[str, Option]
    state: Mapping[str, StateVar]
    flow: Flow
    moves: Mapping[str, Move]
    functions: Mapping[str, Function]
    scoring: Scoring | None
    deal: DealSpec | None = None
    tokens: TokenSpec | None = None
    records: tuple[RecordSpec, ...] = ()
    aliases: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # component -> folded name -> id
    log_checks: tuple[LogCheck, ...] = ()
    play: Any = None  # how a random player plays (spec.playweights.PlayWeights), when declared

    @property
    def canonical_name(self) -> str:
        """``game[players=N]+house+...``, printed on every report."""
        name = f"{self.game}[players={self.param('players')}]"
        return name + "".join(f"+{h}" for h in self.house)

    def param(self, name: str) -> Any:
        return self.params[name].value

    def option(self, name: str) -> Any:
        return self.options[name].value

    def name(self, item: str) -> str:
        """An item's printed name (the id itself for anything else)."""
        found = self.items.get(item) if isinstance(item, str) else None
        return found.name if found else str(item)

    def noun(self, component: str) -> str:
        return self.components[component].noun

    def find(self, component: str, text: str) -> str | None:
        """The item id for a name as printed or any alias, case-insensitive."""
        return self.aliases.get(component, {}).get(" ".join(str(text).split()).lower())

    def record(self, section: str, kind: str) -> RecordSpec | None:
        """The first record of a kind in a log section, when the rules declare one."""
        return next((r for r in self.records if r.section == section and r.kind == kind), None)

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards of the deck that holds the solution."""
        if self.deal is None or self.deal.solution is None:
            return ()
        deck = self.deal.deck_of_family(self.deal.solution.zones[0])
        return self.components[deck.cards].items

    def solution_word(self, key: str, default: str = "") -> str:
        if self.deal is None or self.deal.solution is None:
            return default
        return self.deal.solution.words.get(key, default)
