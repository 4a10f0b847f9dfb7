"""``ruleslawyer solve``: what is still possible after a log, for whom, and why.

Runs the one replay of :mod:`checker.replay` (the same as ``check``), takes
the facts each move let players observe and the cards the log records in
zones, then asks the solver from a viewpoint.  The words of the report (what
the solution's cards are called, what a set of them is) come from the rule
file's ``deal: solution:``.
"""

from __future__ import annotations

import argparse
from typing import Any, Sequence

from ..solver import queries
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean, printable
from ..spec.facts import Fact
from ..spec.machine import RuleError
from ..spec.model import Ruleset
from .check import number_moves
from .consistency import FEW, StatusResult, first_determined, first_inconsistent, solve_view
from .log import parse_log
from .replay import Replay, replay
from .textout import STATUS_MARK, columns, fit, grid, grid_fits, json_text, terminal_width

__all__ = ["run_solve", "describe_fact", "render_text"]


def run_solve(args: argparse.Namespace) -> int:
    log, rules = parse_log(args.log, allow=getattr(args, "allow_path", None),
                           house=tuple(getattr(args, "house", ()) or ()))
    rep = replay(log, rules)
    if rules.deal is None or rules.deal.solution is None:
        raise DiagnosticError([Diagnostic("RL010", f"{rules.canonical_name} declares no hidden solution to solve",
                                          Position(args.log))])
    moves = len(rep.steps)
    if args.at is not None and not 0 <= args.at <= moves:
        _bad_argument(args.log, f"--at {args.at}: the log has {moves} moves")
    view = viewpoint_of(args, rep)
    facts = rep.facts(args.at)
    out: dict[str, Any] = {"rules": rules.canonical_name, "viewpoint": view.name,
                           "after_move": args.at if args.at is not None else moves}
    errors = rep.reporter.errors
    number_moves(errors, log)
    if errors:  # the answers take the moves as the replay read them; say first that the log is wrong
        out["problems"] = [d.to_json() for d in errors]
    result = solve_view(rep.deal, facts, view, max_solutions=args.list)
    out["solve"] = result.to_json()
    out["consistent"] = result.consistent
    if isinstance(result, StatusResult):  # status from Z3, no chances: say so, at the log
        out["notes"] = [Diagnostic("RL160", f"{result.why}; status comes from Z3, chances need a count",
                                   Position(args.log, 1, 1), severity="note").to_json()]
    if not result.consistent:
        found = first_inconsistent(rep.deal, facts, view)
        out["inconsistent"] = {"because": [describe_fact(rules, rep, f) for f in found.facts]} if found else {}
    if args.explain and result.consistent:
        card = _card(rules, rep, args.explain)
        if card is None:
            _bad_argument(args.log, f"--explain {args.explain}: unknown {_noun(rules, rep)}",
                          nearest(rules, rep, args.explain), args.explain, nearest_only=True)
        expl = queries.explain(rep.deal, facts, card, view)  # type: ignore[arg-type]
        out["explain"] = {_noun(rules, rep): card, "status": expl.status,
                          "because": [describe_fact(rules, rep, f) for f in expl.facts],
                          "closing": closing_step(rules, rep, card, expl.status, list(expl.facts))}
    if args.hindsight and result.consistent:
        views = [queries.Viewpoint.spectator(), *(queries.Viewpoint.of_player(p) for p in rep.players)]
        first = first_determined(rep.deal, facts, views)
        out["hindsight"] = {who: (None if i is None else 0 if i < 0 else _move_of(facts[i]))
                            for who, i in first.items()}
        out["could_end"] = {who: _could_end(rep, who, step) for who, step in out["hindsight"].items()}
        out["claims"] = grade_claims(rep, args.at)
    if getattr(args, "others", False) and result.consistent:
        out["others"] = others_json(rep, facts, view)
    status = 1 if errors or not result.consistent else 0
    weighed = sum(1 for f in facts if f.weighted and view.sees(f))
    out["weighted_choices"] = weighed
    out["legend"] = legend(rules, weighed)
    out["status"] = status
    if args.format == "json":
        print(json_text(out, indent=1, default=str))
    else:
        width = terminal_width()
        print(fit(render_text(rules, rep, out, width), width))
    return status


def others_json(rep: Replay, facts: list[Fact], view: queries.Viewpoint) -> dict[str, Any]:
    """``--others``: each other player's chance of knowing the solution, seen from ``view``, and the
    moves at which they first could have and surely did (:mod:`solver.others`)."""
    from ..solver.errors import SolverError
    from ..solver.others import MAX_HANDS, SAMPLES, others_know

    def move(i: int | None) -> int | None:
        return None if i is None else 0 if i < 0 else _move_of(facts[i])

    try:
        found = others_know(rep.deal, facts, view, rep.players)
    except SolverError as exc:
        return {"players": [], "error": str(exc)}
    return {"model": "in each world the seat thinks possible, the other player's own zones as dealt there and "
                     "the facts the seat saw that they saw too; what they saw alone is not counted",
            "exact_hands_limit": MAX_HANDS, "samples": SAMPLES,
            "players": [{**o.to_json(), "first_possible_move": move(o.first_possible),
                         "first_certain_move": move(o.first_certain)} for o in found]}


def others_text(seat: str, others: dict[str, Any]) -> list[str]:
    """``--others`` in words, one player a line or two."""
    lines = ["", f"what the others know, seen by {seat}:"]
    if others.get("error"):
        return [*lines, printable(f"  not counted: {others['error']}")]
    for o in others["players"]:
        if o["method"] == "exact":
            how = f"exact over {o['hands']:,} hand(s)"
        else:
            lo, hi = o["interval"]
            how = f"sampled, {o['samples']:,} worlds, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%"
        first = o["first_possible_move"]
        sure = o["first_certain_move"]
        could = "in no world yet" if first is None else "at the deal" if first == 0 else f"after move {first}"
        surely = "" if sure is None else "; surely knew at the deal" if sure == 0 else \
            f"; surely knew after move {sure}"
        least = f" at least (they saw {o['unseen_facts']} fact(s) the seat did not)" \
            if o["lower_bound"] and o["chance"] < 1 else ""
        lines.append(printable(f"  {o['player']}: knows the solution {100 * o['chance']:.1f}%{least} ({how}); "
                               f"could first have known {could}{surely}"))
    return lines


def legend(rules: Ruleset, weighed: int = 0) -> str:
    """How the chances are counted, in the rule file's words (``deal: solution: chances:``), or,
    when the viewpoint saw ``weighed`` choices a rule option says are made at random
    (``chosen_among``), that the chances weigh them."""
    if weighed:
        return (f"chances weigh each deal by how likely it makes the {weighed} choice{'s' * (weighed != 1)} "
                "seen, each taken as made at random among those open (a rule option)")
    return rules.solution_word("chances", "chances under a uniform deal")


def viewpoint_of(args: argparse.Namespace, rep: Replay) -> queries.Viewpoint:
    """The viewpoint ``--as NAME`` or ``--omniscient`` name (a spectator's by default)."""
    if getattr(args, "viewer", None):
        args.viewer = next((p for p in rep.players if p.lower() == args.viewer.lower()), args.viewer)
        if args.viewer not in rep.players:
            _bad_argument(args.log, f"--as {args.viewer}: not a player", rep.players, args.viewer)
    return (queries.Viewpoint.omniscient() if getattr(args, "omniscient", False) else
            queries.Viewpoint.of_player(args.viewer) if getattr(args, "viewer", None) else
            queries.Viewpoint.spectator())


def nearest(rules: Ruleset, rep: Replay, text: str, n: int = 3) -> list[str]:
    """The cards of the solution's deck whose name or an alias is nearest to ``text``."""
    import difflib

    deck = rules.deal.deck_of_family(rules.deal.solution.zones[0])  # type: ignore[union-attr]
    table = rules.aliases.get(deck.cards, {})
    found = difflib.get_close_matches(" ".join(text.split()).lower(), list(table), n=n * 3, cutoff=0.4)
    return list(dict.fromkeys(rules.name(table[f]) for f in found))[:n]


def closing_step(rules: Ruleset, rep: Replay, card: str, status: str, core: list[Fact]) -> str | None:
    """The step that closes the argument: assume the opposite, and the last fact of the
    core leaves no deal (said with how many solutions the other facts leave)."""
    if status not in ("in", "out") or not core:
        return None
    noun = rules.solution_word("noun", "in the solution")
    noun = rules.solution_word("were", noun)  # what a card of the solution is said to be after "were"
    sets = rules.solution_word("sets", "solution")
    name = rules.name(card)
    last = describe_fact(rules, rep, core[-1])
    where = f"move {last['move']}" if last["move"] else (last.get("record") or "the record")
    if len(core) == 1:
        return f"{where} alone decides it: {last['words']}"
    try:
        from ..solver.engines import initial
        from ..spec.facts import member, negate

        inside = member(card, rep.deal.solution) >= 1
        assume = Fact(inside if status == "out" else negate(inside))
        left = initial(rep.deal).with_facts([*core[:-1], assume]).solution_count()
    except Exception:  # noqa: BLE001 - an engine that cannot count this: say the step without the number
        left = None
    supposed = f"{name} were {noun}" if status == "out" else f"{name} were not {noun}"
    leaves = f"would leave {left} {sets}(s)" if left is not None else "would leave some"
    return (f"if {supposed}, the other {len(core) - 1} fact(s) {leaves}, and none of them fits "
            f"{where}: {last['words']}")


def grade_claims(rep: Replay, upto: int | None = None) -> list[dict[str, Any]]:
    """Each move that asserts something about the deal (its rules' ``claims:``, e.g. naming the solution),
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


def _bad_argument(log: str, message: str, choices: Any = (), given: str = "", nearest_only: bool = False) -> None:
    if nearest_only:
        hint = ("did you mean " + " or ".join(f"'{c}'" for c in choices) + "?") if choices else None
        raise DiagnosticError([Diagnostic("RL010", message, Position(log), hint=hint)])
    near = did_you_mean(given, list(choices)) if given else None
    hint = f"did you mean '{near}'?" if near else (f"one of: {', '.join(choices)}" if choices else None)
    raise DiagnosticError([Diagnostic("RL010", message, Position(log), hint=hint)])


def _could_end(rep: Replay, who: str, step: int | None) -> str | None:
    """Whether a player who knew the solution after move ``step`` could still act on it:
    "yes", or why not ("over": that move ended the game, "out": the player was out by then);
    None for the spectator or a solution never determined."""
    from .table import state_at

    if step is None or not who.startswith("player:"):
        return None
    state = state_at(rep, step)
    return "over" if state.ended else "out" if who[len("player:"):] in state.out else "yes"


def _move_of(fact: Fact) -> int:
    source = fact.source
    return source[1] + 1 if isinstance(source, tuple) and source and source[0] == "move" else 0


def describe_fact(rules: Ruleset, rep: Replay, fact: Fact) -> dict[str, Any]:
    """A fact in words, with the move (or record) and position that produced it."""
    source = fact.source if isinstance(fact.source, tuple) else ()
    record = None
    if source and source[0] == "move":
        number, pos = source[1] + 1, rep.steps[source[1]].position
        words = fact.text or "an observation"
    elif source and source[0] in ("private", "end", "setup"):
        where, owner, key, rec = source  # owner: a player, or the zone of a record nobody owns
        number, pos = None, rec.position
        words = (f"{owner} holds {rules.name(rec.value)}" if owner in rep.players else
                 f"{rules.name(rec.value)} is in the {rules.name(owner)}")
        record = f"{where}: {key}"
    else:
        number, pos, words = None, None, fact.text or "a fact"
    return {"move": number, "record": record, "at": str(pos) if pos else None, "words": words}


def render_text(rules: Ruleset, rep: Replay, out: dict[str, Any], width: int = 80) -> str:
    """The solution's cards laid out by group for ``width`` columns, each with its status and
    chance; a log with errors or a viewpoint no deal fits is said so first."""
    solve = out["solve"]
    word = rules.solution_word
    lines = [printable(f"{out['rules']} — viewpoint: {out['viewpoint']}, after move {out['after_move']}")]
    problems = out.get("problems") or []
    if problems:
        n = len(problems)
        lines.append(f"this log breaks the rules ({n} error{'s' * (n != 1)}; 'ruleslawyer check' says more); "
                     "the answers below take its moves as the replay read them:")
        for d in problems[:5]:
            move = f"move {d['move']}: " if d.get("move") else ""
            lines.append(printable(f"  {d['file']}:{d['line']}:{d['column']}: error[{d['code']}]: {move}{d['message']}"))
        if n > 5:
            lines.append(f"  ... and {n - 5} more")
    if "inconsistent" in out or not solve.get("consistent", True):
        lines.append("no deal fits what this viewpoint saw" + (", because:" if out.get("inconsistent", {}).get("because")
                                                             else " (see 'ruleslawyer check')"))
        for b in out.get("inconsistent", {}).get("because", []):
            lines.append("  " + _because(b))
        return "\n".join(lines)
    estimate = solve.get("estimate")
    if estimate:  # no exact engine counts this deal: nothing is counted, chances are estimated
        lines.append(f"{word('sets', 'solution')}s not counted: no exact engine fits"
                     + ("; the solution is determined" if solve.get("determined") else ""))
    else:
        left = solve.get("solution_count", solve.get("count"))
        lines.append(f"{left if left is not None else 'more than ' + str(FEW)} {word('sets', 'solution')}(s) remain"
                     + ("; the solution is determined" if solve.get("determined") else ""))
    for note in out.get("notes") or []:
        lines.append(f"{note['file']}:{note['line']}:{note['column']}: note[{note['code']}]: {note['message']}")
    if estimate:
        lines.append(f"chances below are ESTIMATES from {estimate['samples']:,} sampled deals "
                     "(95 % intervals: --format json); the marks ! and x are exact")
    elif solve.get("worlds") == "deals" and solve.get("count") is not None:
        decks = [rules.name(d.id) for d in rep.deal.decks]
        lines.append(f"{solve.get('count'):,} deals fit" if len(decks) == 1 else
                     f"{solve.get('count'):,} worlds fit (a deal of each: {', '.join(decks)})")
    if "explain" not in out:  # --explain answers one question: the table is the plain call's
        lines += _tables(rules, rep, solve, width, out.get("legend") or legend(rules))
    if "explain" in out:
        ex = out["explain"]
        card = ex[_noun(rules, rep)]
        found = {"in": f"is {word('certainly_in', 'certainly in the solution')}",
                   "out": f"is {word('certainly_out', 'certainly not in the solution')}"}.get(ex["status"], "is still open")
        chance = (solve.get("probabilities") or {}).get(card)
        if ex["status"] not in ("in", "out") and chance is not None:
            found += f" ({chance * 100:.1f}%)"
        lines += ["", f"{rules.name(card)} {found}" + (", because:" if ex["because"] else "")]
        for b in ex["because"]:
            lines.append("  " + _because(b))
        if ex.get("closing"):
            lines.append(printable(f"  so: {ex['closing']}"))
    if "others" in out:
        seat = out["viewpoint"]
        lines += others_text(seat[len("player:"):] if seat.startswith("player:") else f"the {seat}", out["others"])
    if "hindsight" in out:
        lines += ["", "first move after which the solution was determined:"]
        could_end = word("could_end", "could have ended the game then")
        for who, step in out["hindsight"].items():
            when = "not yet" if step is None else f"after move {step}"
            could = {"yes": f" ({could_end})", "over": " (the game was over)",
                     "out": " (out of the game by then)"}.get(out.get("could_end", {}).get(who) or "", "")
            lines.append(printable(f"  {who}: {when}{could}"))
        for c in out.get("claims", []):
            lines.append(printable(f"  move {c['move']}: {c['player']}'s {c['kind']} was {c['when_made']} when made"))
    return "\n".join(lines)


def _tables(rules: Ruleset, rep: Replay, solve: dict[str, Any], width: int, said: str) -> list[str]:
    """The solution's cards with their chances (by zone or by group), the cards per group and
    the remaining solutions listed: the body of ``solve``'s answer."""
    word = rules.solution_word
    lines: list[str] = []
    tables = zone_tables(rules, rep, solve, width)
    lines += ["", *(tables or [desk(rules, rep, solve, width)]),
              f"(! {word('certainly_in', 'certainly in the solution')}, "
              f"x {word('certainly_out', 'certainly not in the solution')}; {said})"]
    deck = rep.deal.solution_deck
    groups = deck.constraints[0] if deck is not None and deck.constraints else None
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
    return lines


def _because(b: dict[str, Any]) -> str:
    """One fact of an explanation: where it stands, its move or record, its words."""
    where = f"{b['at']}: " if b["at"] else ""
    what = f"move {b['move']}: " if b.get("move") else ""
    record = f" ({b['record']})" if b.get("record") else ""
    return printable(f"{where}{what}{b['words']}{record}")


def desk(rules: Ruleset, rep: Replay, solve: dict[str, Any], width: int = 80) -> str:
    """The solution's cards by group (the deal's first constraint), each with its chance and
    status mark, in as many columns as fit ``width``."""
    status = solve.get("status", {})
    probs = solve.get("probabilities", {})
    deck = rep.deal.solution_deck
    groups = deck.constraints[0] if deck is not None and deck.constraints else None
    cols = ([(rules.name(g), list(cards)) for g, cards in zip(groups.group_names, groups.groups)]
            if groups else [("", list(rep.deal.solution_cards))])

    def cell(cid: str) -> tuple[str, str]:
        p = probs.get(cid)
        chance = f"{p * 100:5.1f}%" if p is not None else "     -"
        return rules.name(cid), f" {chance}{STATUS_MARK.get(status.get(cid, ''), ' ')}"

    return columns([(title, [cell(c) for c in cards]) for title, cards in cols], width)


def zone_tables(rules: Ruleset, rep: Replay, solve: dict[str, Any], width: int = 80) -> list[str]:
    """Per deck, each card's chance of being in each zone (the solution's zones first, with
    their status mark, then each player's, then the rest), when the engine counted whole
    deals; zones no card can be in are left out.  Empty when the answer has no zones."""
    zp = solve.get("zone_probabilities") or {}
    if solve.get("worlds") != "deals" or not zp:
        return []
    deal = rep.deal
    status = solve.get("status", {})

    def order(z: Any) -> tuple[int, int]:
        if z.id in deal.solution:
            return (0, 0)
        return (1, deal.players.index(z.owner)) if z.owner in deal.players else (2, 0)

    def rows(cards: Sequence[str], zones: Sequence[Any], digits: int) -> list[tuple[str, list[str]]]:
        return [(rules.name(card), [f"{zp.get(card, {}).get(z.id, 0.0) * 100:.{digits}f}%"
                                    + (STATUS_MARK.get(status.get(card, ""), " ") if z.id in deal.solution else "")
                                    for z in zones]) for card in cards]

    out = []
    for deck in deal.decks:
        zones = [z for z in sorted(deck.zones, key=order)
                 if any(zp.get(c, {}).get(z.id, 0.0) > 0 for c in deck.cards)]
        if len(zones) < 2:
            continue
        heads = [z.owner if z.owner in deal.players else rules.name(z.family) for z in zones]
        title = rules.name(deck.id)
        table = rows(deck.cards, zones, 1)
        if not grid_fits(title, heads, table, width):  # whole percents when tenths do not fit
            table = rows(deck.cards, zones, 0)
        out.append(grid(title, heads, table, width))
    return out
