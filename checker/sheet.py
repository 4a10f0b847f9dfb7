"""The note sheet: every card of the deal against every zone, from one seat (``show --sheet``).

A player's note sheet (a card x player grid) is built from the rule file
alone: for each deck of the deal, a row per card (grouped as the deal
groups them, else by the component's first attribute) and a column per zone
it is dealt into (each player's hand or secret tile, the solution's zone,
the rest of the table), in the order the rule file declares them.  Each
cell says what the seat knows: the card is held there (``✓``), is not
(``x``), or its chance of being there (the solver's zone probabilities,
:func:`checker.consistency.solve_view`); when nothing counts the deal, Z3's
status leaves ``?`` for a cell that is open.

:func:`sheet_view` is plain data (``--format json``), :func:`render_sheet_text`
fits it to the terminal (short column heads, then each card's shortest alias,
when the full names do not fit: said in a note, never cut), and
:func:`render_sheet_svg` draws it, its size taken from what it holds.
"""

from __future__ import annotations

from typing import Any

from ..solver import queries
from .consistency import solve_view
from .replay import Replay
from .table import card_groups, initials, short_name
from .textout import SVG_FONT, fit, grid, grid_fits, markup, svg_text_width

__all__ = ["sheet_view", "render_sheet_text", "render_sheet_svg", "MARKS"]

#: A cell of the sheet in text: held, not held, possible (no chance known), not known (no deal fits).
MARKS = {"held": "✓", "not held": "x", "possible": "?", "unknown": ""}

_EPS = 1e-9


def sheet_view(rep: Replay, at: int | None = None, viewpoint: queries.Viewpoint | None = None,
               solved: queries.SolveResult | None = None) -> dict[str, Any]:
    """The note sheet after move ``at`` (default: the last) from ``viewpoint`` (default: a spectator)."""
    rules, deal = rep.rules, rep.deal
    at = len(rep.steps) if at is None else at
    viewpoint = viewpoint or queries.Viewpoint.spectator()
    result = solved
    if result is None and deal.decks and deal.solution:
        result = solve_view(deal, rep.facts(at), viewpoint, max_solutions=0)
    consistent = result is None or result.consistent
    zprobs = (result.zone_probabilities or {}) if result is not None and consistent else {}
    zstatus = getattr(result, "zone_status", None) if result is not None and consistent else None
    decks = []
    for deck in deal.decks:
        zones = [z for z in deck.zones if z.size > 0]
        owned: dict[str, int] = {}
        for z in zones:
            if z.owner is not None:
                owned[z.owner] = owned.get(z.owner, 0) + 1
        heads = [{"id": z.id, "label": (z.owner if owned.get(z.owner or "", 0) == 1 else f"{z.owner} {z.family}")
                  if z.owner is not None else z.family, "owner": z.owner, "size": z.size,
                  "solution": z.id in deal.solution} for z in zones]
        groups = []
        for title, cards in card_groups(rules, list(deck.cards), deck):
            rows = []
            for c in cards:
                cells = [_cell(c, z.id, zprobs, zstatus, consistent and result is not None) for z in zones]
                rows.append({"id": c, "name": rules.name(c), "short": short_name(rules, c), "cells": cells})
            groups.append({"group": title, "cards": rows})
        decks.append({"deck": deck.id, "noun": rules.noun(deck.id) if deck.id in rules.components else deck.id,
                      "zones": heads, "groups": groups})
    last = rep.steps[at - 1].logged if 0 < at <= len(rep.steps) else None
    return {"rules": rules.canonical_name, "title": rules.title, "viewpoint": viewpoint.name,
            "move": at, "moves": len(rep.steps), "last_line": last.position.line if last is not None else None,
            "consistent": consistent, "counted": bool(zprobs), "players": list(rep.players), "decks": decks}


def _cell(card: str, zone: str, zprobs: dict[str, Any], zstatus: dict[str, Any] | None, known: bool) -> dict[str, Any]:
    """One cell: its state (held, not held, chance, possible, unknown) and its chance when counted."""
    if not known:
        return {"zone": zone, "state": "unknown", "p": None}
    if zstatus:
        st = zstatus.get(card, {}).get(zone, "out")
        return {"zone": zone, "state": {"in": "held", "out": "not held"}.get(st, "possible"), "p": None}
    p = float(zprobs.get(card, {}).get(zone, 0.0))
    state = "held" if p >= 1 - _EPS else "not held" if p <= _EPS else "chance"
    return {"zone": zone, "state": state, "p": 1.0 if state == "held" else 0.0 if state == "not held" else p}


def cell_text(cell: dict[str, Any]) -> str:
    """A cell as the sheet prints it: a mark, or a chance in whole percent (never 0% or 100% for an open cell).

    >>> cell_text({"state": "chance", "p": 0.004}), cell_text({"state": "chance", "p": 0.3}), cell_text({"state": "held"})
    ('<1%', '30%', '✓')
    """
    if cell["state"] != "chance":
        return MARKS[cell["state"]]
    pct = cell["p"] * 100
    return "<1%" if pct < 1 else ">99%" if pct > 99 else f"{pct:.0f}%"


def _heads(s: dict[str, Any], deck: dict[str, Any], short: bool) -> list[str]:
    if not short:
        return [z["label"] for z in deck["zones"]]
    abbrev = initials(s["players"])
    return [abbrev.get(z["owner"], z["label"]) if z["owner"] is not None and z["label"] == z["owner"] else z["label"]
            for z in deck["zones"]]


def _rows(deck: dict[str, Any], short: bool) -> list[tuple[str, list[str]]]:
    rows: list[tuple[str, list[str]]] = []
    several = len(deck["groups"]) > 1
    for g in deck["groups"]:
        if several:
            rows.append((f"{g['group']}:", ["" for _ in deck["zones"]]))
        for r in g["cards"]:
            rows.append((("  " if several else "") + (r["short"] if short else r["name"]),
                         [cell_text(c) for c in r["cells"]]))
    return rows


def render_sheet_text(s: dict[str, Any], width: int = 80) -> str:
    """The sheet for a terminal of ``width`` columns, every name :func:`printable`: each deck a table,
    with short heads (players' initials) and then short card names (their shortest alias) only when
    the full ones do not fit, and a note saying so."""
    lines = [fit(f"{s['rules']} — note sheet after move {s['move']} of {s['moves']}, seen by {s['viewpoint']}", width)]
    if not s["consistent"]:
        lines.append("no deal fits what this seat saw: the log is inconsistent ('ruleslawyer check' says where)")
    for deck in s["decks"]:
        title = f"{deck['noun']} ({len([r for g in deck['groups'] for r in g['cards']])})"
        notes = []
        for short_heads, short_names in ((False, False), (True, False), (True, True)):
            heads, rows = _heads(s, deck, short_heads), _rows(deck, short_names)
            if grid_fits(title, heads, rows, width):
                break
        if short_heads:
            notes.append("players by their initials")
        if short_names:
            notes.append("cards by their shortest alias")
        lines.append("")
        lines.append(_bands(title, heads, rows, width))
        if notes:
            lines.append(fit(f"({'; '.join(notes)}, to fit {width} columns)", width))
    lines.append("")
    legend = "✓ held, x not held, N% its chance from this seat" if s["counted"] else \
        "✓ held, x not held, ? possible (chances not counted for this deal)"
    lines.append(fit(legend, width))
    return "\n".join(lines)


def _bands(title: str, heads: list[str], rows: list[tuple[str, list[str]]], width: int) -> str:
    """The table in one band when it fits, else its columns in as few bands as fit side by side
    (each band repeats the card names), and only as a last resort :func:`grid`'s paragraphs."""
    for per in range(len(heads), 0, -1):
        bands = [range(i, min(i + per, len(heads))) for i in range(0, len(heads), per)]
        parts = [([heads[i] for i in b], [(n, [v[i] for i in b]) for n, v in rows]) for b in bands]
        if all(grid_fits(title, h, r, width) for h, r in parts):
            return "\n\n".join(grid(title, h, r, width) for h, r in parts)
    return grid(title, heads, rows, width)


def render_sheet_svg(s: dict[str, Any]) -> str:
    """The sheet as a self-contained SVG: a grid per deck, as wide as its longest card name and heads
    need (measured by :func:`svg_text_width`), every name through :func:`markup`."""
    pad, row_h, size = 10, 18, SVG_FONT
    title = f"{s['title']} — note sheet after move {s['move']} of {s['moves']}, seen by {s['viewpoint']}"
    parts: list[str] = []
    y = 24
    width = 2 * pad + svg_text_width(title, 15)
    for deck in s["decks"]:
        names = [r["name"] for g in deck["groups"] for r in g["cards"]] + [g["group"] for g in deck["groups"]]
        name_w = max([svg_text_width(n, size) for n in names] + [svg_text_width(deck["noun"], size)]) + 16
        col_w = [max(svg_text_width(z["label"], size), svg_text_width("100%", size)) + 14 for z in deck["zones"]]
        width = max(width, 2 * pad + name_w + sum(col_w))
        y += 14
        parts.append(f'<g class="deck" data-deck="{markup(deck["deck"])}">')
        parts.append(f'<text x="{pad}" y="{y + row_h - 5}" font-weight="bold">{markup(deck["noun"])}</text>')
        x = pad + name_w
        for z, w in zip(deck["zones"], col_w):
            bold = ' font-weight="bold"' if z["solution"] else ""
            parts.append(f'<text x="{x + w / 2:.1f}" y="{y + row_h - 5}" text-anchor="middle"{bold}>{markup(z["label"])}</text>')
            x += w
        y += row_h
        for g in deck["groups"]:
            if len(deck["groups"]) > 1:
                parts.append(f'<text x="{pad}" y="{y + row_h - 5}" font-style="italic">{markup(g["group"])}</text>')
                y += row_h
            for i, r in enumerate(g["cards"]):
                shade = "#f1ede2" if i % 2 == 0 else "#fbfaf6"
                parts.append(f'<g class="card" data-id="{markup(r["id"])}"><rect x="{pad}" y="{y}" '
                             f'width="{name_w + sum(col_w):.1f}" height="{row_h}" fill="{shade}"/>')
                parts.append(f'<text x="{pad + 8}" y="{y + row_h - 5}">{markup(r["name"])}</text>')
                x = pad + name_w
                for c, w in zip(r["cells"], col_w):
                    ink = {"held": "#2a7a2a", "not held": "#b33"}.get(c["state"], "#000")
                    if c["state"] == "chance":
                        parts.append(f'<rect x="{x + 2:.1f}" y="{y + 2}" width="{(w - 4) * c["p"]:.1f}" '
                                     f'height="{row_h - 4}" fill="#cfd8e8"/>')
                    parts.append(f'<text x="{x + w / 2:.1f}" y="{y + row_h - 5}" text-anchor="middle" '
                                 f'fill="{ink}">{markup(cell_text(c))}</text>')
                    x += w
                parts.append("</g>")
                y += row_h
        parts.append("</g>")
    legend = "✓ held, x not held, N% its chance from this seat" if s["counted"] else "✓ held, x not held, ? possible"
    width = max(width, 2 * pad + svg_text_width(legend, size))
    y += 8
    parts.append(f'<text x="{pad}" y="{y + 12}">{markup(legend)}</text>')
    height = y + 22
    width = int(width + 0.5)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{size}" role="img" '
            f'aria-label="{markup(s["rules"])}, note sheet, move {s["move"]}">',
            f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
            f'<text x="{pad}" y="18" font-size="15" font-weight="bold">{markup(title)}</text>']
    return "\n".join(head + parts + ["</svg>"])
