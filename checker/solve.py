"""``ruleslawyer solve``: what is still possible after a log, for whom, and why.

Replays the log through the state machine, turns each observed move into a
solver fact (``spec.deal.observe``) and each private fact of the log into a
viewer's fact, then asks the solver.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any

from ..solver import queries
from ..solver.facts import DealShape, Fact
from ..spec.deal import deal_shape, holds
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean
from ..spec.machine import Machine, Play
from ..spec.model import Ruleset
from .log import GameLog, parse_log


@dataclass(frozen=True)
class Step:
    """One move of the log with its position and the fact it produced."""

    number: int
    play: Play
    position: Position | None
    fact: Fact | None


@dataclass
class Replay:
    rules: Ruleset
    shape: DealShape
    players: tuple[str, ...]
    steps: list[Step]
    private: list[Fact]

    def facts(self, upto: int | None = None) -> list[Fact]:
        """Private facts (known from the deal) then each move's fact up to move ``upto``."""
        chosen = [s.fact for s in self.steps if s.fact is not None and (upto is None or s.number <= upto)]
        return [*self.private, *chosen]


def known_evidence(log: GameLog) -> dict[str, str]:
    """Each player's evidence card as far as the log tells (private facts, then the end)."""
    known = {p: r.value for p, r in log.private.evidence.items()}
    if log.end is not None:
        for p, r in log.end.evidence.items():
            known.setdefault(p, r.value)
    return known


def replay(log: GameLog, rules: Ruleset) -> Replay:
    """The log's moves with the fact each lets the table observe."""
    machine = Machine(rules)
    players = tuple(log.header.players)
    state = machine.start(players, log.header.first)
    steps = []
    for n, logged in enumerate(log.moves, 1):
        fact = machine.observation(state, logged.play, source=(n, logged.position))
        steps.append(Step(n, logged.play, logged.position, fact))
        state = machine.play(state, logged.play).state
    private = [holds(card, player, source=(0, None)) for player, card in known_evidence(log).items()]
    return Replay(rules, deal_shape(rules), players, steps, private)


def run_solve(args: argparse.Namespace) -> int:
    from ..solver import queries
    
    log, rules = parse_log(args.log)
    rep = replay(log, rules)
    if args.at is not None and not 0 <= args.at <= len(rep.steps):
        _bad_argument(args.log, f"--at {args.at}: the log has {len(rep.steps)} moves")
    if args.viewer:
        args.viewer = next((p for p in rep.players if p.lower() == args.viewer.lower()), args.viewer)
    if args.viewer and args.viewer not in rep.players:
        _bad_argument(args.log, f"--as {args.viewer}: not a player", rep.players, args.viewer)
    view = (queries.Viewpoint.omniscient() if args.omniscient else
            queries.Viewpoint.of_player(args.viewer) if args.viewer else queries.Viewpoint.spectator())
    facts = rep.facts(args.at)
    out: dict[str, Any] = {"rules": rules.canonical_name, "viewpoint": view.name,
                           "after_move": args.at if args.at is not None else len(rep.steps)}
    result = queries.solve(rep.shape, facts, view, max_solutions=args.list)
    out["solve"] = result.to_json()
    if args.explain:
        card = rules.find_clue(args.explain)
        if card is None:
            names = [c.name for c in rules.clues.values()]
            _bad_argument(args.log, f"--explain {args.explain}: unknown clue", names, args.explain)
        expl = queries.explain(rep.shape, facts, card, view)
        out["explain"] = {"clue": card, "status": expl.status,
                          "because": [describe_fact(rules, f) for f in expl.facts]}
    if args.hindsight:
        views = [queries.Viewpoint.spectator(), *(queries.Viewpoint.of_player(p) for p in rep.players)]
        first = queries.first_determined(rep.shape, facts, views)
        out["hindsight"] = {who: (None if i is None else 0 if i < 0 else _move_of(facts[i]))
                            for who, i in first.items()}
    if args.format == "json":
        print(json.dumps(out, indent=1, ensure_ascii=False, default=str))
    else:
        print(render_text(rules, rep, out))
    return 0


def _bad_argument(log: str, message: str, choices: Any = (), given: str = "") -> None:
    guess = did_you_mean(given, list(choices)) if given else None
    hint = f"did you mean '{guess}'?" if guess else (f"one of: {', '.join(choices)}" if choices else None)
    raise DiagnosticError([Diagnostic("RL010", message, Position(log), hint=hint)])


def _move_of(fact: Fact) -> int:
    source = fact.source
    return source[0] if isinstance(source, tuple) else 0


def describe_fact(rules: Ruleset, fact: Fact) -> dict[str, Any]:
    """A fact in words, with the move and position that produced it."""
    number, pos = fact.source if isinstance(fact.source, tuple) else (0, None)
    names = [rules.clues[c].name if c in rules.clues else c for c, _w in fact.weights]
    if fact.viewer is not None and number == 0:
        words = f"{fact.viewer} holds {names[0]}"
    else:
        words = f"{fact.value} of [{', '.join(names)}] are evidence" if fact.op == "==" else \
            f"evidence among [{', '.join(names)}] {fact.op} {fact.value}"
    return {"move": number, "at": str(pos) if pos else None, "words": words}


def render_text(rules: Ruleset, rep: Replay, out: dict[str, Any]) -> str:
    """Holmes's desk: one column per category, each clue with its status and chance."""
    solve = out["solve"]
    lines = [f"{out['rules']} — viewpoint: {out['viewpoint']}, after move {out['after_move']}",
             f"{solve.get('count')} evidence set(s) remain" + ("; the solution is determined" if solve.get("determined") else "")]
    status = solve.get("status", {})
    probs = solve.get("probabilities", {})
    mark = {"in": "!", "out": "x"}
    width = 28
    lines += ["", "".join(f"{c.name:<{width}}" for c in rules.categories).rstrip()]
    for row in range(max(len(c.clues) for c in rules.categories)):
        cells = []
        for c in rules.categories:
            cid = c.clues[row] if row < len(c.clues) else None
            if cid is None:
                cells.append(" " * width)
                continue
            p = probs.get(cid)
            chance = f"{p * 100:5.1f}%" if p is not None else "     -"
            cells.append(f"{rules.clues[cid].name[:18]:<18} {chance}{mark.get(status.get(cid, ''), ' ')}".ljust(width))
        lines.append("".join(cells).rstrip())
    lines.append("(! certainly evidence, x certainly a red herring; chances under a uniform deal)")
    patterns = solve.get("pattern_probabilities") or []
    if len({tuple(p["pattern"]) for p in patterns}) > 1:
        lines += ["", "evidence cards per category:"]
        for i, c in enumerate(rules.categories):
            by_n: dict[int, float] = {}
            for item in patterns:
                n = item["pattern"][i]
                by_n[n] = by_n.get(n, 0.0) + item["probability"]
            lines.append(f"  {c.name:<12} " + ", ".join(f"{n}: {q * 100:.1f}%" for n, q in sorted(by_n.items())))
    if solve.get("solutions"):
        lines.append("")
        lines.append("remaining solutions:")
        for sol in solve["solutions"]:
            lines.append("  " + ", ".join(rules.clues[c].name for c in sol))
    if "explain" in out:
        ex = out["explain"]
        verdict = {"in": "is certainly evidence", "out": "is certainly a red herring"}.get(ex["status"], "is still open")
        lines += ["", f"{rules.clues[ex['clue']].name} {verdict}" + (", because:" if ex["because"] else "")]
        for b in ex["because"]:
            where = f"{b['at']}: " if b["at"] else ""
            lines.append(f"  {where}move {b['move']}: {b['words']}")
    if "hindsight" in out:
        lines += ["", "first move after which the solution was determined:"]
        for who, step in out["hindsight"].items():
            when = "not yet" if step is None else f"after move {step}"
            could = " (could have accused then)" if step is not None and who.startswith("player:") else ""
            lines.append(f"  {who}: {when}{could}")
    return "\n".join(lines)
