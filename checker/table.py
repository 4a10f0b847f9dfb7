"""A picture of the table at any move, built from the rule file alone: ``ruleslawyer show``.

What the picture holds comes from the rules, never from a game's name:

* the players in their seats: whose turn, who is out, the tokens they have
  left (when the rules declare ``tokens:``), and for each zone a player owns
  (a hand, a secret tile) the cards known there and the likeliest possible
  ones, with their chances, from the chosen seat;
* the spaces: the items tokens are placed on (``tokens: on:``), else the
  solution's cards, grouped as the deal groups them (its first constraint)
  or by the component's first attribute; on each, its chance of being part
  of the solution with its status mark, the tokens on it (a face-up value,
  the seat's own hidden value in parentheses, ``?`` otherwise) and the
  marks of the state variables that hold it (their ``label:``);
* the counts the rules keep that carry a ``label:``, the phase, and what
  comes next.

:func:`view` builds it as plain data (``--format json``), :func:`render_text`
lays it out for the terminal, :func:`render_svg` draws it.
"""

from __future__ import annotations

import argparse
from typing import Any, Mapping

from ..solver import queries
from ..solver.entropy import solution_entropy
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, printable
from ..spec.machine import State
from .consistency import solve_view
from .endgame import end_lines, end_svg, end_view, reveal_tokens, reveal_zones
from .log import parse_log
from .nextmoves import what_next
from .replay import Replay, replay
from .textout import (SVG_FONT, STATUS_MARK, columns, fit, json_text, markup, svg_text_width, svg_wrap,
                      terminal_width)
from .writer import move_text

__all__ = ["view", "views", "render_text", "render_svg", "run_show", "state_at", "initials", "status_line",
           "card_groups", "short_name"]


def state_at(rep: Replay, at: int) -> State:
    """The state after move ``at`` (0: before the first move)."""
    if at <= 0:
        return rep.steps[0].before if rep.steps else rep.state  # no move: the state is the start
    return rep.steps[at - 1].outcome.state


def initials(players: tuple[str, ...] | list[str]) -> dict[str, str]:
    """The shortest prefix (two letters at least) that tells each player apart.

    >>> initials(["Ann", "Anna", "Ben"])
    {'Ann': 'Ann', 'Anna': 'Anna', 'Ben': 'Be'}
    """
    out = {}
    for p in players:
        n = min(2, len(p))
        while n < len(p) and any(q != p and q.lower().startswith(p[:n].lower()) for q in players):
            n += 1
        out[p] = p[:n]
    return out


def card_groups(rules: Any, items: list[str], deck: Any | None) -> list[tuple[str, list[str]]]:
    """Items in groups with their titles: as the deck's first constraint groups them when it covers
    them all, else by their component's first attribute, else one group named by the component."""
    cons = deck.constraints[0] if deck is not None and deck.constraints else None
    if cons is not None and set(c for g in cons.groups for c in g) == set(items):
        return [(rules.name(g), list(cards)) for g, cards in zip(cons.group_names, cons.groups)]
    comp = rules.components[rules.items[items[0]].component] if items and items[0] in rules.items else None
    attr = next(iter(comp.attributes), None) if comp is not None else None
    if attr is None:
        return [(comp.noun if comp is not None else "", items)]
    by: dict[str, list[str]] = {}
    for i in items:
        by.setdefault(rules.items[i].attrs.get(attr, ""), []).append(i)
    return [(rules.name(k) if k in rules.items else k, v) for k, v in by.items()]


def short_name(rules: Any, item: str) -> str:
    """An item's shortest name, printed or alias (the printed one on a tie): how a table too narrow
    for the printed names abbreviates it; any alias reads back in a log.

    >>> from ruleslawyer.spec.model import Item
    >>> class R: items = {"l4": Item("l4", "Location 4, Time 3", "cards", ("L4 T3", "Location 4 T3"))}
    >>> short_name(R(), "l4")
    'L4 T3'
    """
    found = rules.items.get(item) if isinstance(item, str) else None
    if found is None:
        return str(item)
    return min((found.name, *found.aliases), key=len)


def view(rep: Replay, at: int | None = None, viewpoint: queries.Viewpoint | None = None,
         solved: queries.SolveResult | None = None) -> dict[str, Any]:
    """The table after move ``at`` (default: the last), seen from ``viewpoint`` (default: a spectator)."""
    rules, machine = rep.rules, rep.machine
    at = len(rep.steps) if at is None else at
    viewpoint = viewpoint or queries.Viewpoint.spectator()
    state = state_at(rep, at)
    deal = rep.deal
    result = solved
    if result is None and deal.decks and deal.solution:
        result = solve_view(deal, rep.facts(at), viewpoint, max_solutions=0)
    probs = result.probabilities if result is not None and result.consistent else {}
    status = result.status if result is not None and result.consistent else {}
    zprobs = (result.zone_probabilities or {}) if result is not None and result.consistent else {}
    zstatus = getattr(result, "zone_status", None) if result is not None and result.consistent else None
    seat = viewpoint.player if viewpoint.kind == "player" else None
    everything = viewpoint.kind == "omniscient"
    short = initials(list(rep.players))

    # the spaces
    tokens = rules.tokens
    grid_comp = tokens.on if tokens is not None else None
    solution_deck = deal.solution_deck
    if grid_comp is None and solution_deck is not None:
        grid_comp = next((c.id for c in rules.components.values() if set(c.items) >= set(solution_deck.cards)), None)
    groups = card_groups(rules, list(rules.components[grid_comp].items), solution_deck) if grid_comp is not None else []
    marks = {name: var.label for name, var in rules.state.items()
             if var.label and isinstance(state.vars.get(name), (frozenset, set, list))
             and not _records(state.vars.get(name))}

    def token(t: Any) -> dict[str, Any]:
        known = t.face_up or everything or (seat is not None and t.owner == seat)
        return {"owner": t.owner, "short": short.get(t.owner, t.owner), "face_up": t.face_up,
                "value": t.value if known else None}

    spaces = []
    for title, ids in groups:
        cells = []
        for cid in ids:
            cells.append({
                "id": cid, "name": rules.name(cid), "short": short_name(rules, cid),
                "p": probs.get(cid), "status": status.get(cid),
                "tokens": [token(t) for t in state.spaces.get(cid, ())],
                "marks": [label for name, label in marks.items() if cid in state.vars.get(name, ())],
            })
        spaces.append({"group": title, "items": cells})

    # the players: what the rules keep for each (a labelled mapping from player), their zones
    per_player = {var.label: state.vars[name] for name, var in rules.state.items()
                  if var.label and isinstance(state.vars.get(name), Mapping)
                  and set(state.vars[name]) <= set(rep.players)}
    players = []
    for p in rep.players:
        zones = []
        for z in deal.zones:
            if z.owner != p:
                continue
            if zstatus:  # no count: the cards Z3 forces into the zone, and the open ones (no chance)
                cards = {c: zstatus.get(c, {}).get(z.id, "out") for c in deal.deck_of_zone(z.id).cards}
                known = sorted((c for c, v in cards.items() if v == "in"), key=lambda c: rules.name(c))
                possible = [(c, None) for c, v in cards.items() if v == "open"]
            else:
                chances = {c: zprobs.get(c, {}).get(z.id, 0.0) for c in deal.deck_of_zone(z.id).cards}
                known = sorted((c for c, q in chances.items() if q >= 1 - 1e-9), key=lambda c: rules.name(c))
                possible = sorted(((c, q) for c, q in chances.items() if 1e-9 < q < 1 - 1e-9), key=lambda cq: -cq[1])
            zones.append({"zone": z.family, "size": z.size,
                          "known": [rules.name(c) for c in known],
                          "possible": [{"name": rules.name(c), "p": q} for c, q in possible[:4]],
                          "more": max(0, len(possible) - 4)})
        row: dict[str, Any] = {"name": p, "short": short[p], "out": p in state.out,
                               "turn": p == state.turn and not state.ended, "zones": zones,
                               "marks": [{"label": label, "value": _shown(rules, held[p])}
                                         for label, held in per_player.items() if p in held]}
        if tokens is not None:
            row["tokens_left"] = machine.per_player - len(state.placed_by(p))
        players.append(row)

    public = []
    for z in deal.zones:
        if z.owner is None and z.seen_by == "everyone" and z.id not in deal.solution:
            known = [c for c in deal.deck_of_zone(z.id).cards if zprobs.get(c, {}).get(z.id, 0.0) >= 1 - 1e-9]
            public.append({"zone": z.family, "size": z.size, "known": [rules.name(c) for c in known]})

    # what lies face up on the table that the rules keep as records (a labelled list of mappings)
    table = [{"label": var.label, "items": [_record(rules, r) for r in state.vars[name]]}
             for name, var in rules.state.items() if var.label and _records(state.vars.get(name))]
    counts = [{"label": var.label, "value": state.vars.get(name)} for name, var in rules.state.items()
              if var.label and isinstance(state.vars.get(name), int) and not isinstance(state.vars.get(name), bool)]
    last = rep.steps[at - 1].logged if at > 0 and at <= len(rep.steps) else None
    out: dict[str, Any] = {
        "rules": rules.canonical_name, "title": rules.title, "viewpoint": viewpoint.name,
        "move": at, "moves": len(rep.steps),
        "last_move": move_text(rules, last.play) if last is not None else None,
        "last_line": last.position.line if last is not None else None,
        "phase": state.phase, "turn": state.turn, "ended": state.ended,
        "players": players, "counts": counts, "public": public, "table": table,
        "spaces": spaces, "space_noun": rules.noun(grid_comp) if grid_comp else None,
        "token_noun": tokens.plural if tokens is not None else None,
        "solutions": result.solution_count if result is not None else None,
        "consistent": result.consistent if result is not None else True,
        "determined": result.determined if result is not None else False,
        "entropy": _entropy(deal, result),
        "words": {k: rules.solution_word(k, d) for k, d in (
            ("sets", "solution"), ("certainly_in", "certainly in the solution"),
            ("certainly_out", "certainly not in the solution"), ("noun", "solution"))},
    }
    if not state.ended:
        out["next"] = what_next(machine, state, at + 1)
    elif at == len(rep.steps):  # the end of the game: its scores, winners and what it revealed
        out["end"] = end_view(rep)
        if out["end"] is not None:
            reveal_tokens(spaces, state, out["end"], rep.table)
            reveal_zones(players, rep)
    return out


def _entropy(deal: Any, result: queries.SolveResult | None) -> dict[str, Any] | None:
    """The solution's entropy in bits from the seat (:func:`solver.entropy.solution_entropy`):
    ``exact`` false when it is an upper bound, ``estimate`` true when the chances are sampled."""
    if result is None or not result.consistent:
        return None
    bits, exact = solution_entropy(deal, result.probabilities, result.solution_count)
    return {"bits": round(bits, 6), "exact": exact, "estimate": bool(result.estimate)}


def views(rep: Replay, viewpoint: queries.Viewpoint | None = None) -> list[dict[str, Any]]:
    """:func:`view` after every move (0 to the last), one solve per distinct set of facts the
    viewpoint sees: a move whose facts it does not see leaves its chances as they were."""
    viewpoint = viewpoint or queries.Viewpoint.spectator()
    out: list[dict[str, Any]] = []
    solved, seen = None, None
    for at in range(len(rep.steps) + 1):
        facts = rep.facts(at)
        now = [f for f in facts if viewpoint.sees(f)]
        if now != seen and rep.deal.decks and rep.deal.solution:
            solved, seen = solve_view(rep.deal, facts, viewpoint, max_solutions=0), now
        out.append(view(rep, at, viewpoint, solved))
    return out


# -- text ------------------------------------------------------------------------------


def status_line(v: dict[str, Any], solutions: bool = True) -> str:
    """Whose turn in which phase (or the end), the counts the rules keep and, with
    ``solutions``, how many solutions remain from the seat."""
    due = v.get("next", {}).get("to_play", v["turn"])  # a move due from another player (an answer, a final claim)
    line = "the game is over" if v["ended"] else f"{v['phase']} phase, " + (
        f"{v['turn']} to play" if due == v["turn"] else f"{v['turn']}'s turn, {due} to play")
    line += "".join(f"; {c['label']}: {c['value']}" for c in v["counts"])
    if solutions and not v["consistent"]:
        line += "; no deal fits what this seat saw"
    elif solutions and v["solutions"] is not None:
        line += f"; {v['solutions']} {v['words']['sets']}(s) remain" + ("; determined" if v["determined"] else "")
    return line


def _records(value: Any) -> bool:
    """Whether a state variable's value is a list of records (mappings), e.g. tiles face up."""
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(r, Mapping) for r in value)


def _record(rules: Any, record: Mapping[str, Any]) -> str:
    """A record in words: its items by their names, then ``with KEY`` for each flag set.

    >>> class R: items = {"red": type("I", (), {"name": "Red"})()}; name = lambda self, i: self.items[i].name
    >>> _record(R(), {"colour": "red", "arrows": True, "twice": False})
    'Red with arrows'
    """
    words = [rules.name(v) if isinstance(v, str) and v in rules.items else str(v)
             for v in record.values() if not isinstance(v, bool) and v is not None]
    words += [f"with {k}" for k, v in record.items() if v is True]
    return " ".join(words)


def _shown(rules: Any, value: Any) -> str:
    """A value the rules keep, in words: an item by its name, a list item by item."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(_shown(rules, v) for v in value)
    return rules.name(value) if isinstance(value, str) and value in rules.items else str(value)


def _cards(names: list[str]) -> str:
    """Cards in a line: set apart by a dot, as a card's own name may hold a comma."""
    return " · ".join(names)


def _glued(name: str) -> str:
    """A name whose words wrap together (no-break spaces), when it is short enough to fit a line."""
    return name.replace(" ", "\u00a0") if len(name) <= 40 else name


def _pct(p: float | None) -> str:
    return "    -" if p is None else f"{p * 100:4.0f}%"


def _printable(value: Any) -> Any:
    """The view with every string in it :func:`printable` (keys kept): no name breaks a line."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {k: _printable(x) for k, x in value.items()}
    if isinstance(value, (list, tuple)):
        return [_printable(x) for x in value]
    return value


def render_text(v: dict[str, Any], width: int = 80) -> str:
    """The picture for a terminal of ``width`` columns, every name in it :func:`printable`."""
    v = _printable(v)
    words = v["words"]
    head = f"{v['rules']} — move {v['move']} of {v['moves']}, seen by {v['viewpoint']}"
    lines = [head]
    if v["last_move"]:
        lines.append(f"last move: {v['last_move']}")
    lines.append(status_line(v, solutions=False))
    if not v["consistent"]:
        lines.append("no deal fits what this seat saw: the log is inconsistent ('ruleslawyer check' says where)")
    elif v["solutions"] is not None:
        lines.append(f"{v['solutions']} {words['sets']}(s) remain" + ("; determined" if v["determined"] else ""))
    for z in v["public"]:
        lines.append(f"{z['zone']} (face up): {_cards(z['known']) or '?'}")
    for t in v.get("table", ()):
        lines.append(f"{t['label']}: {_cards(t['items'])}")
    lines.append("")
    for p in v["players"]:
        flags = ("> " if p["turn"] else "  ") + p["name"] + (" (out)" if p["out"] else "")
        bits = [f"{m['label']}: {m['value']}" for m in p["marks"]]
        if "tokens_left" in p:
            bits.append(f"{p['tokens_left']} {v['token_noun']} left")
        for z in p["zones"]:
            known = _cards(z["known"]) or "?"
            maybe = _cards([q["name"] + (f" {q['p'] * 100:.0f}%" if q["p"] is not None else "") for q in z["possible"]])
            more = f", +{z['more']} more" if z["more"] else ""
            bits.append(f"{z['zone']}: {known}" + (f" (maybe {maybe}{more})" if maybe and len(z["known"]) < z["size"] else ""))
        lines.append(flags + (": " + "; ".join(bits) if bits else ""))
    if v["spaces"]:
        lines.append("")
        cols = []
        for g in v["spaces"]:
            cells = []
            for c in g["items"]:
                extra = "".join(f" [{m}]" for m in c["marks"])
                toks = " ".join(f"{t['short']}{'' if t['value'] is None else t['value']}"
                                f"{'' if t['face_up'] or t['value'] is None else '*'}"
                                f"{'?' if t['value'] is None else ''}" for t in c["tokens"])
                mark = STATUS_MARK.get(c["status"] or "", " ")
                cells.append((c["name"] + extra + (f" ({toks})" if toks else ""), f" {_pct(c['p'])}{mark}"))
            cols.append((g["group"], cells))
        lines.append(columns(cols, width))
        legend = f"(! {words['certainly_in']}, x {words['certainly_out']}" + (
            f"; {v['token_noun']}: owner and value, * face down, ? not known from this seat)" if v["token_noun"] else ")")
        lines.append(legend)
    if "next" in v and v["next"]["moves"]:
        lines.append("")
        lines.append("legal now: " + "  ".join(m["text"] for m in v["next"]["moves"]))
    if v.get("end"):
        lines.extend(["", *end_lines(v["end"])])
    return fit("\n".join(lines), width)


# -- svg -------------------------------------------------------------------------------


def render_svg(v: dict[str, Any]) -> str:
    """The picture as a self-contained SVG (no fonts or images fetched): well-formed XML
    whatever the names hold (each through :func:`markup`).

    Nothing runs off the picture: every line is wrapped to its width and each
    cell is as wide as its longest name (measured by :func:`svg_text_width`);
    a name longer than a cell of the usual width is written as its shortest
    alias (:func:`short_name`), its printed name in the cell's tooltip."""
    esc = markup
    pad, cell_h, line_h = 10, 46, 18
    groups = v["spaces"]
    suffix_w = svg_text_width("100% !")
    shown = {c["id"]: c["name"] if svg_text_width(c["name"]) <= 190 - 24 - suffix_w else c.get("short", c["name"])
             for g in groups for c in g["items"]}  # each cell's name: its own, or its shortest alias when too long
    longest = max((svg_text_width(n) for n in shown.values()), default=0)
    longest = max([longest] + [svg_text_width(g["group"]) for g in groups])
    cell_w = max(190, int(longest + suffix_w + 24))
    width = max(2 * pad + cell_w * max(len(groups), 1), 640)
    text_w = width - 2 * pad

    body: list[str] = [f'<text x="{pad}" y="{20 + 20 * i}" font-size="15" font-weight="bold">{esc(piece)}</text>'
                       for i, piece in enumerate(svg_wrap(f"{v['title']} — move {v['move']} of {v['moves']}", text_w, 15))]
    y = 18 + 20 * len(body)

    def lines(text: str, cls: str, attrs: str = "") -> None:
        """One <text> (its textContent the whole line), wrapped: each further line a <tspan> below."""
        nonlocal y
        first, *more = svg_wrap(text, text_w - 28)
        spans = "".join(f'<tspan x="{pad + 28}" y="{y + line_h * (i + 1)}">{esc(piece)}</tspan>'
                        for i, piece in enumerate(more))
        body.append(f'<text x="{pad}" y="{y}"{attrs} class="{cls}">{esc(first)}{" " if more else ""}{spans}</text>')
        y += line_h * (1 + len(more))

    lines(f"{status_line(v)} (seen by {v['viewpoint']})", "status")
    for z in v["public"]:
        lines(f"{z['zone']} (face up): {_cards([_glued(c) for c in z['known']]) or '?'}", "public")
    for t in v.get("table", ()):
        lines(f"{t['label']}: {_cards([_glued(c) for c in t['items']])}", "public")
    y += 4
    for p in v["players"]:
        colour = "#999" if p["out"] else "#000"
        weight = "bold" if p["turn"] else "normal"
        bits = [f"{m['label']}: {m['value']}" for m in p["marks"]]
        if "tokens_left" in p:
            bits.append(f"{p['tokens_left']} {v['token_noun']} left")
        for z in p["zones"]:  # a card's name kept on one line (joined by no-break spaces)
            maybe = _cards([_glued(q["name"] + (f" {q['p'] * 100:.0f}%" if q["p"] is not None else ""))
                            for q in z["possible"]])
            known = _cards([_glued(c) for c in z["known"]])
            bits.append(f"{z['zone']}: {known or '?'}" + (f" (maybe {maybe})" if maybe and len(z["known"]) < z["size"] else ""))
        deco = ' text-decoration="line-through"' if p["out"] else ""
        lines(f'{"▶ " if p["turn"] else ""}{p["name"]}{" (out)" if p["out"] else ""}: {"; ".join(bits)}', "player",
              f' fill="{colour}" font-weight="{weight}"{deco}')
    top = y - 8
    rows = max((len(g["items"]) for g in groups), default=0)
    height = top + 24 + rows * cell_h + pad
    for gi, g in enumerate(groups):
        x = pad + gi * cell_w
        body.append(f'<text x="{x + 4}" y="{top + 14}" font-weight="bold">{esc(g["group"])}</text>')
        for ri, c in enumerate(g["items"]):
            cy = top + 24 + ri * cell_h
            fill = "#d9d4c7" if c["marks"] else "#ffffff"
            stroke = {"in": "#2a7a2a", "out": "#b33"}.get(c["status"] or "", "#888")
            body.append(f'<g class="space" data-id="{esc(c["id"])}"><rect x="{x + 2}" y="{cy}" width="{cell_w - 6}" '
                        f'height="{cell_h - 6}" rx="4" fill="{fill}" stroke="{stroke}"/>')
            if c["p"] is not None:
                body.append(f'<rect x="{x + 2}" y="{cy + cell_h - 10}" width="{(cell_w - 6) * c["p"]:.1f}" height="4" '
                            f'fill="{stroke}"/>')
            mark = {"in": " !", "out": " x"}.get(c["status"] or "", "")
            body.append(f'<text x="{x + 7}" y="{cy + 15}"><title>{esc(c["name"])}</title>{esc(shown[c["id"]])}</text>')
            body.append(f'<text x="{x + cell_w - 10}" y="{cy + 15}" text-anchor="end">{_pct(c["p"]).strip()}{mark}</text>')
            label = " ".join(c["marks"])
            for ti, t in enumerate(c["tokens"]):
                tx = x + 16 + ti * 30
                value = "?" if t["value"] is None else str(t["value"])
                face = "#fff" if t["face_up"] else "#333"
                ink = "#000" if t["face_up"] else "#fff"
                body.append(f'<circle cx="{tx}" cy="{cy + 27}" r="9" fill="{face}" stroke="#333"/>'
                            f'<text x="{tx}" y="{cy + 31}" text-anchor="middle" font-size="9" fill="{ink}">'
                            f'{esc(t["short"][:2])}{esc(value)}</text>')
            if label:
                body.append(f'<text x="{x + cell_w - 10}" y="{cy + 31}" text-anchor="end" font-style="italic">'
                            f'{esc(label)}</text>')
            body.append("</g>")
    end, end_h = end_svg(v["end"], pad, height, width) if v.get("end") else ([], 0)
    height += end_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{SVG_FONT}" role="img" '
           f'aria-label="{esc(v["rules"])}, move {v["move"]}">',
           f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>', *body, *end, "</svg>"]
    return "\n".join(out)


# -- the command ---------------------------------------------------------------------------


def run_show(args: argparse.Namespace) -> int:
    from .solve import viewpoint_of

    log, rules = parse_log(args.log, house=tuple(getattr(args, "house", ()) or ()))
    rep = replay(log, rules)
    moves = len(rep.steps)
    at = moves if args.at is None else args.at
    if not 0 <= at <= moves:
        raise DiagnosticError([Diagnostic("RL010", f"--at {args.at}: the log has {moves} moves", Position(args.log))])
    if getattr(args, "sheet", False):  # the note sheet (checker/sheet.py) instead of the table
        from .sheet import render_sheet_svg, render_sheet_text, sheet_view
        return _print(args, rep, sheet_view(rep, at, viewpoint_of(args, rep)), render_sheet_text, render_sheet_svg)
    return _print(args, rep, view(rep, at, viewpoint_of(args, rep)), render_text, render_svg)


def _print(args: argparse.Namespace, rep: Replay, v: dict[str, Any], text_of: Any, svg_of: Any) -> int:
    """A picture's data with the log's errors, printed in the format asked; 1 when the log has errors."""
    from .check import number_moves

    errors = rep.reporter.errors
    number_moves(errors, rep.log)
    v["errors"] = [d.to_json() for d in errors]
    if args.format == "json":
        print(json_text(v, indent=1, default=str))
    elif args.format == "svg":
        print(svg_of(v))
    else:
        width = terminal_width()
        text = text_of(v, width)
        if errors:
            text = fit(f"this log has {len(errors)} error(s) ('ruleslawyer check' says where)", width) + "\n" + text
        print(text)
    return 1 if errors or not v["consistent"] else 0
