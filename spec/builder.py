"""Building the sections of a rule file into the typed model, with positions.

:class:`Builder` turns each section of a validated rule document (the
loader has checked it against ``rules.schema.json``) into the dataclasses
of :mod:`spec.model`, compiling every expression and remembering where it
stood and which names it may read, so that :func:`check_references` can
point at any name, component, attribute or zone family the rule file uses
but does not declare.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Literal

from .diagnostics import Diagnostic, DiagnosticError, Position, Related, did_you_mean
from .expr import Expr, compile_expr
from .model import (Cite, Component, ConstraintSpec, DealSpec, DeckSpec, Effect, Flow, Function, Item,
                    LogCheck, Move, MoveParam, Observation, RecordSpec, Require, Ruleset, Scoring, ScoringStep,
                    SolutionSpec, StateVar, Template, TokenSpec, ZoneSpec)
from .names import SCORING_NAMES, SEAT_NAMES, TABLE_NAMES, reserved, state_names, static_names
from .source import LMap, position_of

__all__ = ["Ctx", "Builder", "check_references", "unknown", "EFFECT_VERBS", "RECORD_KINDS"]

EFFECT_VERBS = ("set", "add", "remove", "eliminate", "place_token", "reveal_tokens", "phase", "turn", "end", "when")
RECORD_KINDS = ("zone", "token_values", "tokens_shown", "scores", "winners", "player_item")
Context = Literal["static", "state", "scoring"]
_ANY = object()  # a parameter of that name that is not a choice somewhere: its literals are not checked


@dataclass
class Ctx:
    """Collects diagnostics while one rule set is built."""

    diagnostics: list[Diagnostic]

    def error(self, code: str, message: str, pos: Position | None, hint: str | None = None,
              related: Iterable[Related] = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, pos, related=tuple(related), hint=hint))


def unknown(ctx: Ctx, code: str, kind: str, name: Any, known: Iterable[Any], pos: Position | None) -> None:
    near = did_you_mean(str(name), [str(k) for k in known])
    ctx.error(code, f"unknown {kind} '{name}'", pos, hint=f"did you mean '{near}'?" if near else None)


def fold(text: Any) -> str:
    return " ".join(str(text).split()).lower()


def _cite(node: Any, pos: Position | None) -> Cite | None:
    if not isinstance(node, dict):
        return None
    return Cite(str(node.get("src", "")), str(node.get("quote", "")), pos)


class Builder:
    def __init__(self, doc: LMap, ctx: Ctx):
        self.doc = doc
        self.ctx = ctx
        self.exprs: list[tuple[Expr, Position | None, Context, frozenset[str]]] = []
        self.cites: list[Cite] = []
        self.refs: list[tuple[str, str, Position | None]] = []  # (kind, name, where): checked later

    # -- expressions -----------------------------------------------------
    def expr(self, container: Any, key: Any, context: Context = "state",
             extra: frozenset[str] = frozenset()) -> Expr | None:
        pos = position_of(container, key)
        try:
            e = compile_expr(container[key], pos)
        except DiagnosticError as exc:
            self.ctx.diagnostics.extend(exc.diagnostics)
            return None
        self.exprs.append((e, pos, context, extra))
        return e

    def template(self, container: Any, key: Any, context: Context = "state",
                 extra: frozenset[str] = frozenset()) -> Template:
        pos = position_of(container, key)
        try:
            t = Template.parse(str(container[key]), pos)
        except DiagnosticError as exc:
            self.ctx.diagnostics.extend(exc.diagnostics)
            return Template((str(container[key]),))
        for e in t.expressions():
            self.exprs.append((e, pos, context, extra))
        return t

    def cite(self, node: Any, key: str = "cite") -> Cite | None:
        if not isinstance(node, dict) or key not in node:
            return None
        c = _cite(node[key], position_of(node, key))
        if c:
            self.cites.append(c)
        return c

    def ref(self, kind: str, name: str, pos: Position | None) -> str:
        """A name of the rule file that must be declared (a component, attribute, zone family...)."""
        self.refs.append((kind, str(name), pos))
        return str(name)

    # -- components --------------------------------------------------------
    def components(self) -> tuple[dict[str, Component], dict[str, Item], dict[str, dict[str, str]]]:
        comps: dict[str, Component] = {}
        items: dict[str, Item] = {}
        aliases: dict[str, dict[str, str]] = {}
        first: dict[str, Position | None] = {}
        taken = reserved()
        for cid, node in self.doc["components"].items():
            pos = position_of(self.doc["components"], cid)
            if cid in taken:
                self.ctx.error("RL126", f"component '{cid}' has the name of an engine name", pos,
                               hint=f"engine names: {', '.join(sorted(taken))}")
            attrs = {str(a): str(c) for a, c in (node.get("attributes") or {}).items()}
            for a in attrs:
                self.ref("component", attrs[a], position_of(node["attributes"], a))
            ids = []
            table: dict[str, str] = {}
            for raw in node.get("list") or []:
                iid = str(raw["id"])
                if iid in items:
                    self.ctx.error("RL126", f"id '{iid}' used twice", position_of(raw, "id"),
                                   related=[Related("first used here", first[iid])])
                    continue
                first[iid] = position_of(raw, "id")
                values = {}
                for key, value in raw.items():
                    if key in ("id", "name", "aliases"):
                        continue
                    if key not in attrs:
                        near = did_you_mean(str(key), list(attrs))
                        self.ctx.error("RL101", f"unknown key '{key}' in components/{cid}/list", raw.key_position(key),
                                       hint=f"did you mean '{near}'?" if near else
                                       f"declare it under attributes: of {cid}")
                        continue
                    values[str(key)] = str(value)
                    self.refs.append((f"item:{attrs[key]}", str(value), position_of(raw, key)))
                for a in attrs:
                    if a not in values:
                        self.ctx.error("RL103", f"item '{iid}' of {cid} needs its '{a}'", position_of(raw, "id"))
                items[iid] = Item(iid, str(raw["name"]), cid, tuple(str(a) for a in raw.get("aliases", [])), values)
                ids.append(iid)
                for name in [raw["name"], iid, *raw.get("aliases", [])]:
                    key = fold(name)
                    if table.get(key, iid) != iid:
                        self.ctx.error("RL126", f"name '{name}' means both '{table[key]}' and '{iid}'",
                                       position_of(raw, "name"))
                        continue
                    table[key] = iid
            comps[cid] = Component(cid, str(node.get("noun") or cid), tuple(ids), attrs, node.get("name"),
                                   self.cite(node))
            aliases[cid] = table
        return comps, items, aliases

    # -- the deal ------------------------------------------------------------
    def deal(self) -> DealSpec | None:
        node = self.doc.get("deal")
        if node is None:
            return None
        decks = []
        families: dict[str, Position | None] = {}
        for did, dnode in node["decks"].items():
            zones = []
            for fam, z in dnode["zones"].items():
                zpos = position_of(dnode["zones"], fam)
                if fam in families:
                    self.ctx.error("RL126", f"zone family '{fam}' declared twice", zpos,
                                   related=[Related("first declared here", families[fam])])
                families[fam] = zpos
                per_player = z.get("per") == "player"
                size = None if z["size"] == "rest" else self.expr(z, "size", "static",
                                                                  SEAT_NAMES if per_player else TABLE_NAMES)
                zones.append(ZoneSpec(str(fam), per_player, size, z["seen_by"], self.cite(z), zpos))
            constraints = []
            for c in dnode.get("constraints") or []:
                for i, fam in enumerate(c["zones"]):
                    self.refs.append((f"family:{did}", str(fam), c["zones"].pos_of(i)))
                pattern = self.expr(c, "pattern", "static")
                shuffled = self.expr(c, "shuffled", "static") if "shuffled" in c else compile_expr(False)
                self.refs.append((f"attribute:{dnode['cards']}", str(c["count_by"]), position_of(c, "count_by")))
                if pattern is not None and shuffled is not None:
                    constraints.append(ConstraintSpec(tuple(str(f) for f in c["zones"]), str(c["count_by"]),
                                                      pattern, shuffled, self.cite(c), c.pos))
            cards = self.ref("component", dnode["cards"], position_of(dnode, "cards"))
            when = self.expr(dnode, "when", "static") if "when" in dnode else None
            self.cite(dnode)
            decks.append(DeckSpec(str(did), cards, tuple(zones), tuple(constraints), when,
                                  position_of(node["decks"], did)))
        solution = None
        if "solution" in node:
            s = node["solution"]
            for i, fam in enumerate(s["zones"]):
                self.refs.append(("family", str(fam), s["zones"].pos_of(i)))
            words = {k: str(v) for k, v in s.items() if k not in ("zones", "cite")}
            solution = SolutionSpec(tuple(str(f) for f in s["zones"]), words, self.cite(s))
        return DealSpec(tuple(decks), solution, self.cite(node))

    def tokens(self) -> TokenSpec | None:
        node = self.doc.get("tokens")
        if node is None:
            return None
        on = self.ref("component", node["on"], position_of(node, "on"))
        supply = self.expr(node, "supply", "static")
        noun = str(node["noun"])
        return TokenSpec(noun, str(node.get("plural") or noun + "s"), on, supply, self.cite(node))  # type: ignore[arg-type]

    def state(self) -> dict[str, StateVar]:
        out = {}
        for name, node in (self.doc.get("state") or {}).items():
            init = self.expr(node, "init")
            added = self.template(node, "added", extra=frozenset({"item", "by"})) if "added" in node else None
            if init is not None:
                label = str(node["label"]) if node.get("label") is not None else None
                out[str(name)] = StateVar(str(name), init, added, label)
        return out

    # -- flow and moves ------------------------------------------------------
    def require(self, node: LMap) -> Require | None:
        when = self.expr(node, "when") if "when" in node else None
        expr = self.expr(node, "expr")
        msg = self.template(node, "message")
        if expr is None:
            return None
        return Require(node["id"], when, expr, node["code"], msg, self.cite(node), node.pos)  # type: ignore[arg-type]

    def flow(self) -> Flow:
        node = self.doc["flow"]
        start = node["start"]
        self.refs.append(("phase", str(start["phase"]), position_of(start, "phase")))
        return Flow(start["phase"], self.expr(start, "turn"), self.cite(start),  # type: ignore[arg-type]
                    {k: self.cite(v) for k, v in node["phases"].items()},  # type: ignore[misc]
                    tuple(r for r in (self.require(r) for r in node.get("requires", [])) if r))

    def effects(self, items: Any) -> tuple[Effect, ...]:
        out = []
        for node in items or []:
            verbs = [k for k in node if k in EFFECT_VERBS]
            if "phase" in verbs and "turn" in verbs:
                verbs.remove("turn")  # "phase: X, turn: Y" starts a phase with that player
            if len(verbs) != 1 or ("do" in node and verbs != ["when"]):
                self.ctx.error("RL104", f"an effect needs exactly one verb of: {', '.join(EFFECT_VERBS)}",
                               position_of(node))
                continue
            verb = verbs[0]
            cite = self.cite(node)
            pos = position_of(node, verb)
            if verb == "when":
                cond = self.expr(node, "when")
                out.append(Effect("when", cond, pos, cite, self.effects(node.get("do")),
                                  self.effects(node.get("else"))))
            elif verb in ("set", "add", "remove"):
                for k in node[verb]:
                    self.refs.append(("state variable", str(k), node[verb].key_position(k)))
                out.append(Effect(verb, tuple((str(k), self.expr(node[verb], k)) for k in node[verb]), pos, cite))
            elif verb == "place_token":
                place = node["place_token"]
                self.refs.append(("tokens", verb, pos))
                out.append(Effect(verb, (self.expr(place, "space"),
                                         self.expr(place, "value") if "value" in place else None), pos, cite))
            elif verb == "reveal_tokens":
                self.refs.append(("tokens", verb, pos))
                out.append(Effect(verb, self.expr(node, verb), pos, cite))
            elif verb == "phase":
                self.refs.append(("phase", str(node["phase"]), pos))
                out.append(Effect("phase", node["phase"], pos, cite))
                if "turn" in node:
                    out.append(Effect("turn", self.expr(node, "turn"), position_of(node, "turn"), cite))
            elif verb == "end":
                out.append(Effect(verb, True, pos, cite))
            else:
                out.append(Effect(verb, self.expr(node, verb), pos, cite))
        return tuple(out)

    def move(self, name: str, node: LMap) -> Move:
        params = []
        for pname, p in (node.get("params") or {}).items():
            of, components = None, ()
            if "of" in p:
                given = p["of"] if isinstance(p["of"], list) else [p["of"]]
                components = tuple(self.ref("component", c, position_of(p, "of")) for c in given)
                of = components[0] if components else None
            if p["type"] in ("item", "items") and of is None:
                self.ctx.error("RL103", f"parameter '{pname}' of type {p['type']} needs 'of: COMPONENT'",
                               position_of(p, "type"))
            if len(components) > 1 and p["type"] != "items":
                self.ctx.error("RL104", f"parameter '{pname}': only an items parameter names several components",
                               position_of(p, "of"))
            if p["type"] == "choice" and not p.get("values"):
                self.ctx.error("RL103", f"parameter '{pname}' of type choice needs 'values: [...]'",
                               position_of(p, "type"))
            if "values" in p and p["type"] != "choice":
                self.ctx.error("RL104", f"parameter '{pname}': only a choice has values", position_of(p, "values"))
            if "default" in p:
                d = p["default"]
                fits = d in (p.get("values") or ()) if p["type"] == "choice" else \
                    isinstance(d, bool) if p["type"] == "flag" else False
                if not fits:
                    self.ctx.error("RL104", f"parameter '{pname}': default {d!r} is not a value it takes",
                                   position_of(p, "default"))
            if p.get("unknown") and p["type"] != "item":
                self.ctx.error("RL104", f"parameter '{pname}': only an item may be recorded as unknown",
                               position_of(p, "unknown"))
            if p["type"] in ("token_value", "token_reveals"):
                self.refs.append(("tokens", str(p["type"]), position_of(p, "type")))
            if "distinct" in p and of is not None:
                self.refs.append((f"attribute:{of}", str(p["distinct"]), position_of(p, "distinct")))
            params.append(MoveParam(
                str(pname), p["type"], of,
                self.expr(p, "size") if "size" in p else None,
                self.expr(p, "max") if "max" in p else None,
                str(p["distinct"]) if "distinct" in p else None, bool(p.get("optional", False)),
                p.get("code"), self.cite(p), components=components,
                one_component=bool(p.get("one_component", False)),
                values=tuple(p.get("values") or ()), default=p.get("default"), unknown=bool(p.get("unknown", False)),
                decided_by=p.get("decided_by")))
        requires = tuple(r for r in (self.require(r) for r in node.get("requires", [])) if r)
        observe = []
        for ob in node.get("observe") or []:
            fact = self.expr(ob, "fact")
            seen = self.expr(ob, "seen_by")
            when = self.expr(ob, "when") if "when" in ob else None
            says = self.template(ob, "says") if "says" in ob else None
            withdraws = self.expr(ob, "withdraws") if "withdraws" in ob else None
            chosen = self.expr(ob, "chosen_among") if "chosen_among" in ob else None
            if "check" in ob:
                self.refs.append(("log check", str(ob["check"]), position_of(ob, "check")))
            if fact is not None and seen is not None:
                observe.append(Observation(fact, seen, when, says, self.cite(ob), ob.pos,  # type: ignore[arg-type]
                                           str(ob["check"]) if "check" in ob else None, withdraws, chosen))
        claims = self.expr(node, "claims") if "claims" in node else None
        due = self.expr(node, "due") if "due" in node else None
        return Move(name, self.cite(node), tuple(params), requires, tuple(observe),  # type: ignore[arg-type]
                    self.effects(node.get("effects")), node.pos, claims, due)

    def functions(self) -> dict[str, Function]:
        out = {}
        taken = reserved()
        for name, node in (self.doc.get("functions") or {}).items():
            if name in taken:
                self.ctx.error("RL126", f"function '{name}' has the name of an engine name",
                               position_of(self.doc["functions"], name))
            e = self.expr(node, "expr", extra=frozenset(node["args"]))
            if e is not None:
                out[str(name)] = Function(str(name), tuple(node["args"]), e, self.cite(node))  # type: ignore[arg-type]
        return out

    def scoring(self) -> Scoring | None:
        node = self.doc.get("scoring")
        if node is None:
            return None
        steps = []
        for step in node.get("steps") or []:
            kinds = [k for k in ("show_solution", "remove", "reveal_all", "points") if k in step]
            if len(kinds) != 1:
                self.ctx.error("RL104", "a scoring step needs exactly one of show_solution, remove, reveal_all, points",
                               position_of(step))
                continue
            kind = kinds[0]
            expr = self.expr(step, kind, "scoring") if kind in ("remove", "points") else None
            steps.append(ScoringStep(step["id"], kind, expr, self.cite(step), step.pos))  # type: ignore[arg-type]
        win = node["winners"]
        define = win.get("define", {})
        names = frozenset(define)
        defs = tuple((k, self.expr(define, k, "scoring", names)) for k in define)
        return Scoring(self.cite(node), tuple(steps), self.expr(win, "expr", "scoring", names),  # type: ignore[arg-type]
                       defs, self.cite(win))  # type: ignore[arg-type]

    def records(self) -> tuple[RecordSpec, ...]:
        node = self.doc.get("log") or {}
        out = []
        for section in ("setup", "private", "end"):
            for key, r in (node.get(section) or {}).items():
                pos = position_of(node[section], key)
                kinds = [k for k in RECORD_KINDS if k in r]
                if len(kinds) != 1:
                    self.ctx.error("RL104", f"a log record needs exactly one of: {', '.join(RECORD_KINDS)}", pos)
                    continue
                kind = kinds[0]
                if (kind == "player_item") != (section == "setup") and kind not in ("zone",):
                    self.ctx.error("RL104", f"a {kind} record belongs in " +
                                   ("setup:" if kind == "player_item" else "private: or end:"), pos)
                    continue
                if kind == "zone":
                    self.refs.append(("family", str(r["zone"]), position_of(r, "zone")))
                if kind in ("token_values", "tokens_shown"):
                    self.refs.append(("tokens", kind, pos))
                if kind in ("scores",):
                    self.refs.append(("scoring", kind, pos))
                component = self.ref("component", r["player_item"], position_of(r, "player_item")) \
                    if kind == "player_item" else None
                out.append(RecordSpec(str(key), section, kind, zone=str(r["zone"]) if kind == "zone" else None,
                                      shown=bool(r.get("shown", False)), cite=self.cite(r),
                                      per_player=kind != "zone" or self._per_player(str(r["zone"])),
                                      component=component, distinct=bool(r.get("distinct", False))))
        return tuple(out)

    def _per_player(self, family: str) -> bool:
        for deck in ((self.doc.get("deal") or {}).get("decks") or {}).values():
            zone = (deck.get("zones") or {}).get(family)
            if isinstance(zone, dict):
                return zone.get("per") == "player"
        return True

    def log_checks(self) -> tuple[LogCheck, ...]:
        out = []
        for c in self.doc.get("log_checks") or []:
            if c["check"] in ("scores",):
                self.refs.append(("scoring", c["check"], position_of(c, "check")))
            if str(c["check"]).startswith("token-"):
                self.refs.append(("tokens", c["check"], position_of(c, "check")))
            out.append(LogCheck(c["id"], c["check"], c["code"], c["message"], self.cite(c), c.pos))  # type: ignore[arg-type]
        return tuple(out)


def check_references(b: Builder, rules: Ruleset, ctx: Ctx) -> None:
    """Every name an expression reads, and every component, attribute, zone
    family, phase and state variable a section names, must be declared."""
    comps = rules.components
    families = rules.deal.families() if rules.deal else {}
    for kind, name, pos in b.refs:
        if kind == "component" and name not in comps:
            unknown(ctx, "RL121", "component", name, comps, pos)
        elif kind.startswith("item:"):
            comp = kind[5:]
            if comp in comps and name not in comps[comp].items:
                unknown(ctx, "RL126", f"item of {comp}", name, comps[comp].items, pos)
        elif kind.startswith("attribute:"):
            comp = comps.get(kind[10:])
            if comp is not None and name not in comp.attributes:
                unknown(ctx, "RL121", f"attribute of {comp.id}", name, comp.attributes, pos)
        elif kind.startswith("family"):
            deck = kind.partition(":")[2]
            known = [z.family for d in rules.deal.decks if not deck or d.id == deck for z in d.zones] \
                if rules.deal else []
            if name not in known:
                if rules.deal is None:
                    ctx.error("RL121", f"zone family '{name}' but the rules declare no deal:", pos)
                else:
                    unknown(ctx, "RL121", "zone family", name, known, pos)
        elif kind == "phase" and name not in rules.flow.phases:
            unknown(ctx, "RL128", "phase", name, rules.flow.phases, pos)
        elif kind == "state variable" and name not in rules.state:
            unknown(ctx, "RL121", "state variable", name, rules.state, pos)
        elif kind == "tokens" and rules.tokens is None:
            ctx.error("RL121", f"'{name}' needs tokens, but the rules declare no tokens:", pos)
        elif kind == "scoring" and rules.scoring is None:
            ctx.error("RL121", f"'{name}' needs scoring, but the rules declare no scoring:", pos)
        elif kind == "log check":
            ids = [c.id for c in rules.log_checks if c.check == "observations"]
            if name not in ids:
                unknown(ctx, "RL121", "log check of kind observations", name, ids, pos)
    if rules.deal is not None and rules.deal.solution is not None:
        decks = {rules.deal.deck_of_family(f).id for f in rules.deal.solution.zones if f in families}
        if len(decks) > 1:
            ctx.error("RL131", "the solution's zones must belong to one deck", rules.deal.solution.cite.position
                      if rules.deal.solution.cite else None)
    _check_names(b, rules, ctx)


def _check_names(b: Builder, rules: Ruleset, ctx: Ctx) -> None:
    allowed = {"static": static_names(rules), "state": state_names(rules),
               "scoring": state_names(rules) | SCORING_NAMES}
    moves_params = {p.name for m in rules.moves.values() for p in m.params}
    choices: dict[str, set[Any]] = {}
    for m in rules.moves.values():
        for p in m.params:
            if p.type == "choice":
                choices.setdefault(p.name, set()).update(p.values)
            else:
                choices[p.name] = choices.get(p.name, set()) | {_ANY}
    choices = {k: v for k, v in choices.items() if _ANY not in v}
    setup = [r.key for r in rules.records if r.section == "setup" and r.kind == "player_item"]
    tables: dict[str, Iterable[str]] = {"params": rules.params, "options": rules.options,
                                        "vars": rules.state, "move": moves_params, "setup": setup}
    for expr, pos, context, extra in b.exprs:
        names = allowed[context] | extra
        for name in sorted(expr.names - names):
            unknown(ctx, "RL121", "name", name, sorted(names), pos)
        for base, attr, _col in expr.attributes:
            table = tables.get(base)
            if table is not None and base not in extra and attr not in table:
                code = {"params": "RL122", "options": "RL123"}.get(base, "RL121")
                kind = {"params": "parameter", "options": "option", "vars": "state variable",
                        "move": "move parameter", "setup": "setup record"}[base]
                unknown(ctx, code, kind, attr, table, pos)
        for base, attr, literal, _col in expr.literals:
            if base == "" and attr == "phase" and literal not in rules.flow.phases:
                unknown(ctx, "RL128", "phase", literal, rules.flow.phases, pos)
            if base == "move" and attr in choices and literal not in choices[attr]:
                ctx.error("RL124", f"move parameter '{attr}' never takes the value {literal!r} "
                          f"(values: {sorted(choices[attr])})", pos)
            if base == "options" and attr in rules.options and literal not in rules.options[attr].values:
                ctx.error("RL124", f"option '{attr}' never takes the value {literal!r} "
                          f"(values: {list(rules.options[attr].values)})", pos)
