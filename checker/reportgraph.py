"""The report's graph: how many solutions are left, and the solution's entropy, per seat over the game.

Two panels over the same axis of moves (0: the deal), drawn by hand as one
inline SVG (the page may fetch nothing): the solutions left on a log scale,
and the entropy in bits (:func:`solver.entropy.solution_entropy`).  Each
seat is a line of its own colour; a stretch where the entropy is only an
upper bound (the solution's groups may be linked) is dashed, and the panel
says so.  A vertical cursor marks the move shown; the page's script moves
it (``data-left`` and ``data-step`` give a move's x) and underlines the seat
chosen (``data-seat``).  Every name goes through :func:`markup`; a name too
long for the legend is shortened there, whole in its ``<title>``.

>>> svg = graph_svg(["spectator", "Ann"], [[{"solutions": 4, "bits": 2.0, "exact": True},
...                                          {"solutions": 2, "bits": 1.0, "exact": False}]] * 2, "possible solution")
>>> svg.count('class="seat-line"'), "upper bound" in svg, svg.startswith("<svg")
(6, True, True)
"""

from __future__ import annotations

from math import ceil, log10
from typing import Any, Sequence

from .textout import markup

__all__ = ["graph_svg", "COLOURS"]

COLOURS = ("#1f5fa8", "#c0392b", "#2a7a2a", "#8e44ad", "#d35400", "#16808a", "#7a6a12", "#b0307a")
WIDTH, PANEL, LEFT, RIGHT, TOP, GAP = 640, 120, 56, 16, 10, 34
_CHAR = 0.62  # a character's width for the font size, generously (a sans-serif's is about 0.55)


def _ticks(top: float, most: int = 5) -> list[float]:
    """Round steps from 0 to at least ``top``."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / most
    mag = 10 ** int(log10(raw)) if raw >= 1 else 1
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    return [step * i for i in range(int(ceil(top / step)) + 1)]


def _short(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:max(1, chars - 1)] + "…"


def _legend(seats: Sequence[str], y: int) -> tuple[list[str], int]:
    """The seats' colours and names in rows that fit the width; the height it takes."""
    out, x, row = [], LEFT, 0
    for i, name in enumerate(seats):
        label = _short(name, 22)
        w = 22 + int(len(label) * 11 * _CHAR) + 14
        if x + w > WIDTH - RIGHT and x > LEFT:
            x, row = LEFT, row + 1
        yy = y + row * 16
        colour = COLOURS[i % len(COLOURS)]
        out.append(f'<g class="legend" data-seat="{i}"><title>{markup(name)}</title>'
                   f'<line x1="{x}" y1="{yy - 4}" x2="{x + 16}" y2="{yy - 4}" stroke="{colour}" stroke-width="3"/>'
                   f'<text x="{x + 20}" y="{yy}" font-size="11">{markup(label)}</text></g>')
        x += w
    return out, (row + 1) * 16


def _runs(points: list[tuple[float, float, bool] | None]) -> list[tuple[list[tuple[float, float]], bool]]:
    """Consecutive points as polylines, each solid (exact) or dashed (a bound); a gap at None."""
    runs: list[tuple[list[tuple[float, float]], bool]] = []
    prev: tuple[float, float, bool] | None = None
    for p in points:
        if p is None:
            prev = None
            continue
        if prev is None:
            runs.append(([(p[0], p[1])], p[2]))
        elif runs[-1][1] == p[2]:
            runs[-1][0].append((p[0], p[1]))
        else:
            runs.append(([(prev[0], prev[1]), (p[0], p[1])], p[2]))
        prev = p
    return runs


def graph_svg(seats: Sequence[str], series: Sequence[Sequence[dict[str, Any]]], noun: str) -> str:
    """The graph for ``seats`` (their names) and, per seat, one point per move: ``solutions``
    (None: not counted) and ``bits`` (None: no deal fits) with ``exact``; ``noun`` the
    rules' words for what is counted (a possible solution)."""
    steps = max((len(s) for s in series), default=1)
    span = WIDTH - LEFT - RIGHT
    dx = span / max(1, steps - 1)
    legend, legend_h = _legend(seats, TOP + 12)
    top1 = TOP + legend_h + 22
    top2 = top1 + PANEL + GAP + 16
    height = top2 + PANEL + 30
    most = max((s["solutions"] for ser in series for s in ser if s.get("solutions")), default=1)
    decades = max(1, int(ceil(log10(most))) if most > 1 else 1)
    bits = max((s["bits"] for ser in series for s in ser if s.get("bits") is not None), default=1.0)
    bit_ticks = _ticks(max(bits, 1.0))
    bound = any(s.get("bits") is not None and not s.get("exact", True) for ser in series for s in ser)

    def y1(n: float) -> float:
        return top1 + PANEL - PANEL * log10(max(n, 1)) / decades

    def y2(b: float) -> float:
        return top2 + PANEL - PANEL * b / bit_ticks[-1]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="graph-svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11" role="img" '
           f'aria-label="{markup(noun)}(s) left and entropy per seat" data-left="{LEFT}" data-step="{dx:.4f}">',
           f'<rect width="{WIDTH}" height="{height}" fill="#fbfaf6"/>', *legend]
    title2 = "entropy, in bits" + (" (dashed: an upper bound, the groups being linked)" if bound else "")
    for top, title in ((top1, f"{noun}(s) left (log scale)"), (top2, title2)):
        out.append(f'<text x="{LEFT}" y="{top - 6}" font-weight="bold">{markup(title)}</text>')
        out.append(f'<rect x="{LEFT}" y="{top}" width="{span}" height="{PANEL}" fill="#fff" stroke="#bbb"/>')
    for k in range(decades + 1):
        y = y1(10 ** k)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + span}" y2="{y:.1f}" stroke="#eee"/>'
                   f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{_count(10 ** k)}</text>')
    for b in bit_ticks:
        y = y2(b)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + span}" y2="{y:.1f}" stroke="#eee"/>'
                   f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{b:g}</text>')
    for m in _ticks(steps - 1, 8):
        if m > steps - 1:
            continue
        x = LEFT + m * dx
        out.append(f'<text x="{x:.1f}" y="{top2 + PANEL + 14}" text-anchor="middle">{m:g}</text>')
    out.append(f'<text x="{LEFT + span}" y="{top2 + PANEL + 27}" text-anchor="end">move</text>')
    for i, ser in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        counts = [(LEFT + k * dx, y1(s["solutions"]), True) if s.get("solutions") else None for k, s in enumerate(ser)]
        ents = [(LEFT + k * dx, y2(s["bits"]), bool(s.get("exact", True))) if s.get("bits") is not None else None
                for k, s in enumerate(ser)]
        for points in (counts, ents):
            for run, solid in _runs(points):
                pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
                dash = "" if solid else ' stroke-dasharray="4 3"'
                out.append(f'<polyline class="seat-line" data-seat="{i}" points="{pts}" fill="none" '
                           f'stroke="{colour}" stroke-width="1.5"{dash}/>')
    for top in (top1, top2):
        out.append(f'<line class="cursor" x1="{LEFT}" y1="{top}" x2="{LEFT}" y2="{top + PANEL}" stroke="#e0a800" '
                   f'stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


def _count(n: int) -> str:
    """A count for an axis: 1, 10, 100, 1k, 10k, 1M, 1e9..."""
    for size, unit in ((10 ** 9, "G"), (10 ** 6, "M"), (10 ** 3, "k")):
        if n >= size:
            return f"{n // size:g}{unit}"
    return str(n)
