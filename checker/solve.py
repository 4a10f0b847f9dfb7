"""``ruleslawyer solve``: what is still possible after a log, for whom, and why.

Runs the one replay of :mod:`checker.replay` (the same as ``check``), takes
the facts each move let players observe and the cards the log records in
zones, then asks the solver from a viewpoint.  The words of the report (what
the solution's cards are called, what a set of them is) come from the rule
file's ``deal: solution:``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..solver import queries
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean
from ..spec.facts import Fact
from ..spec.machine import RuleError
from ..spec.model import Ruleset
from .log import parse_log
from .replay import Replay, replay

__all__ = ["run_solve", "describe_fact", "render_text"]


def run_solve(args: argparse.Namespace) -> int:
    log, rules = parse_log(args.log, allow=getattr(args, "allow_path", None))
    rep = replay(log, rules)
    if rules.deal is None or rules.deal.solution is None:
        raise DiagnosticError([Diagnostic("RL010", f"{rules.canonical_name} declares no hidden solution to solve",
                                          Position(args.log))])
    moves = len(rep.steps)
    if args.at is not None and not 0 <= args.at <= moves:
        _bad_argument(args.log, f"--at {args.at}: the log has {moves} moves")
    if args.viewer:
        args.viewer = next((p for p in rep.players if p.lower() == args.viewer.lower()), args.viewer)
    if args.viewer and args.viewer not in rep.players:
        _bad_argument(args.log, f"--as {args.viewer}: not a player", rep.players, args.viewer)
    view = (queries.Viewpoint.omniscient() if args.omniscient else
            queries.Viewpoint.of_player(args.viewer) if args.viewer else queries.Viewpoint.spectator())
    facts = rep.facts(args.at)
    out: dict[str, Any] = {"rules": rules.canonical_name, "viewpoint": view.name,
                           "after_move": args.at if args.at is not None else moves}
    result = queries.solve(rep.deal, facts, view, max_solutions=args.list)
    out["solve"] = result.to_json()
    errors = [d for d in rep.reporter.diagnostics if d.severity == "error"]
    if errors:  # the answers take the moves as played; say first that the log is wrong
        out["problems"] = [d.to_json() for d in errors]
    if not result.consistent:
        found = queries.first_inconsistent(rep.deal, facts, view)
        out["inconsistent"] = {"because": [describe_fact(rules, rep, f) for f in found.facts]} if found else {}
    if args.explain and result.consistent:
        card = _card(rules, rep, args.explain)
        if card is None:
            names = [rules.name(c) for c in rep.deal.solution_cards]
            _bad_argument(args.log, f"--explain {args.explain}: unknown {_noun(rules, rep)}", names, args.explain)
        expl = queries.explain(rep.deal, facts, card, view)  # type: ignore[arg-type]
        out["explain"] = {_noun(rules, rep): card, "status": expl.status,
                          "because": [describe_fact(rules, rep, f) for f in expl.facts]}
    if args.hindsight:
        views = [queries.Viewpoint.spectator(), *(queries.Viewpoint.of_player(p) for p in rep.players)]
        first = queries.first_determined(rep.deal, facts, views)
        out["hindsight"] = {who: (None if i is None else 0 if i < 0 else _move_of(facts[i]))
                            for who, i in first.items()}
        out["claims"] = grade_claims(rep, args.at)
    if args.format == "json":
        print(json.dumps(out, indent=1, ensure_ascii=False, default=str))
    else:
        print(render_text(rules, rep, out))
    return 1 if errors or not result.consistent else 0


def grade_claims(rep: Replay, upto: int | None = None) -> list[dict[str, Any]]:
    """Each move that asserts something about the deal (its rules' ``claims:``, e.g. a guess),
    graded from its player's viewpoint just before it: certain, a gamble or impossible."""
    from ..solver.errors import SolverError
    from ..solver.z3engine import Z3Knowledge
    from ..spec.facts import negate

    out = []
    for step in rep.steps:
        if upto is not None and step.number > upto:
            break
        try:
            claim = rep.machine.claim(step.before, step.play)
        except RuleError:  # a move too broken to say what it claims (its own error is in the report)
            continue
        if claim is None:
            continue
        view = queries.Viewpoint.of_player(step.play.actor)
        seen = [f for f in rep.facts(step.number - 1) if view.sees(f)]
        try:
            known = Z3Knowledge.initial(rep.deal).with_facts(seen)
            can, can_not = known.possible(claim), known.possible(negate(claim))
            grade = "certain" if not can_not and can else "impossible" if not can else "a gamble"
        except SolverError:
            grade = "unknown (no deal fits what the player saw)"
        out.append({"move": step.number, "player": step.play.actor, "kind": step.play.kind, "when_made": grade})
    return out


def _noun(rules: Ruleset, rep: Replay) -> str:
    """What one card of the solution's deck is called (its component's noun)."""
    deck = rules.deal.deck_of_family(rules.deal.solution.zones[0]) if rules.deal and rules.deal.solution else None
    return rules.noun(deck.cards) if deck else "card"


def _card(rules: Ruleset, rep: Replay, text: str) -> str | None:
    deck = rules.deal.deck_of_family(rules.deal.solution.zones[0])  # type: ignore[union-attr]
    return rules.find(deck.cards, text)


def _bad_argument(log: str, message: str, choices: Any = (), given: str = "") -> None:
    guess = did_you_mean(given, list(choices)) if given else None
    hint = f"did you mean '{guess}'?" if guess else (f"one of: {', '.join(choices)}" if choices else None)
    raise DiagnosticError([Diagnostic("RL010", message, Position(log), hint=hint)])


def _move_of(fact: Fact) -> int:
    source = fact.source
    return source[1] + 1 if isinstance(source, tuple) and source and source[0] == "move" else 0


def describe_fact(rules: Ruleset, rep: Replay, fact: Fact) -> dict[str, Any]:
    """A fact in words, with the move (or record) and position that produced it."""
    source = fact.source if isinstance(fact.source, tuple) else ()
    if source and source[0] == "move":
        number, pos = source[1] + 1, rep.steps[source[1]].position
        words = fact.text or "an observation"
    elif source and source[0] in ("private", "end"):
        _where, player, _key, rec = source
        number, pos = 0, rec.position
        words = f"{player} holds {rules.name(rec.value)}"
    else:
        number, pos, words = 0, None, fact.text or "a fact"
    return {"move": number, "at": str(pos) if pos else None, "words": words}


def render_text(rules: Ruleset, rep: Replay, out: dict[str, Any]) -> str:
    """The solution's cards laid out by group, each with its status and chance."""
    solve = out["solve"]
    word = rules.solution_word
    lines = [f"{out['rules']} — viewpoint: {out['viewpoint']}, after move {out['after_move']}"]
    if out.get("problems"):
        n = len(out["problems"])
        lines.append(f"this log breaks the rules ({n} error{'s' * (n != 1)}; 'ruleslawyer check' says where); "
                     "the answers below take its moves as played")
    if "inconsistent" in out:
        lines.append(f"no deal fits what this viewpoint saw, because:")
        for b in out["inconsistent"].get("because", []):
            where = f"{b['at']}: " if b["at"] else ""
            lines.append(f"  {where}move {b['move']}: {b['words']}")
        return "\n".join(lines)
    lines.append(f"{solve.get('solution_count', solve.get('count'))} {word('sets', 'solution')}(s) remain"
                 + ("; the solution is determined" if solve.get("determined") else ""))
    if solve.get("worlds") == "deals":
        lines.append(f"{solve.get('count')} deals fit")
    status = solve.get("status", {})
    probs = solve.get("probabilities", {})
    mark = {"in": "!", "out": "x"}
    deck = rep.deal.solution_deck
    groups = deck.constraints[0] if deck is not None and deck.constraints else None
    columns = ([(rules.name(g), list(cards)) for g, cards in zip(groups.group_names, groups.groups)]
               if groups else [("", list(rep.deal.solution_cards))])
    width = 28
    lines += ["", "".join(f"{title:<{width}}" for title, _cards in columns).rstrip()]
    for row in range(max(len(cards) for _t, cards in columns)):
        cells = []
        for _title, cards in columns:
            cid = cards[row] if row < len(cards) else None
            if cid is None:
                cells.append(" " * width)
                continue
            p = probs.get(cid)
            chance = f"{p * 100:5.1f}%" if p is not None else "     -"
            cells.append(f"{rules.name(cid)[:18]:<18} {chance}{mark.get(status.get(cid, ''), ' ')}".ljust(width))
        lines.append("".join(cells).rstrip())
    lines.append(f"(! {word('certainly_in', 'certainly in the solution')}, "
                 f"x {word('certainly_out', 'certainly not in the solution')}; chances under a uniform deal)")
    patterns = solve.get("pattern_probabilities") or []
    if groups is not None and len({tuple(p["pattern"]) for p in patterns}) > 1:
        lines += ["", f"{word('per_group', 'solution cards per group')}:"]
        for i, name in enumerate(groups.group_names):
            by_n: dict[int, float] = {}
            for item in patterns:
                n = item["pattern"][i]
                by_n[n] = by_n.get(n, 0.0) + item["probability"]
            lines.append(f"  {rules.name(name):<12} " + ", ".join(f"{n}: {q * 100:.1f}%" for n, q in sorted(by_n.items())))
    if solve.get("solutions"):
        lines.append("")
        lines.append("remaining solutions:")
        for sol in solve["solutions"]:
            lines.append("  " + ", ".join(rules.name(c) for c in sol))
    if "explain" in out:
        ex = out["explain"]
        card = ex[_noun(rules, rep)]
        verdict = {"in": f"is {word('certainly_in', 'certainly in the solution')}",
                   "out": f"is {word('certainly_out', 'certainly not in the solution')}"}.get(ex["status"], "is still open")
        lines += ["", f"{rules.name(card)} {verdict}" + (", because:" if ex["because"] else "")]
        for b in ex["because"]:
            where = f"{b['at']}: " if b["at"] else ""
            lines.append(f"  {where}move {b['move']}: {b['words']}")
    if "hindsight" in out:
        lines += ["", "first move after which the solution was determined:"]
        could_end = word("could_end", "could have ended the game then")
        for who, step in out["hindsight"].items():
            when = "not yet" if step is None else f"after move {step}"
            could = f" ({could_end})" if step is not None and who.startswith("player:") else ""
            lines.append(f"  {who}: {when}{could}")
        for c in out.get("claims", []):
            lines.append(f"  move {c['move']}: {c['player']}'s {c['kind']} was {c['when_made']} when made")
    return "\n".join(lines)
