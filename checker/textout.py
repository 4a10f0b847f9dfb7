"""Text that fits the terminal: its width, long lines wrapped (never cut), tables in bands.

Every text the command line prints goes through :func:`fit` (escaped by
:func:`spec.diagnostics.printable`: no name from a file can move the cursor, set
the title or reorder the line; wrapped to the terminal; to a pipe or a file,
diagnostics stay one line each for the tools that read them); what it prints
as JSON through :func:`json_text`, and names in SVG and HTML through
:func:`markup`.  Tables and pictures are laid out
for the terminal's width, 80 without one, by :func:`columns` (as many columns side by side as fit,
the rest in further bands below, a long name wrapped inside its cell).

>>> fit("a " * 50, 40).splitlines()[1].startswith("    a")
True
>>> fit("  " + "x" * 50, 40) == "  " + "x" * 50     # one long word: kept whole, indent and all
True
>>> print(columns([("Group A", [("Item with a long name", " 25.0%")]), ("Group B", [("Item", " 50.0%")])], 60))
Group A                        Group B
Item with a long name   25.0%  Item                    50.0%
>>> print(columns([("Group A", [("Item with a long name", " 25.0%")]), ("Group B", [("Item", " 50.0%")])], 40))
Group A
Item with a long name              25.0%
<BLANKLINE>
Group B
Item                               50.0%
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import textwrap
from typing import Any, Sequence

from ..spec.diagnostics import UNPRINTABLE, printable

__all__ = ["terminal_width", "wrap_width", "fit", "wrap_cell", "columns", "grid", "grid_fits", "markup", "json_text",
           "MIN_WIDTH", "STATUS_MARK", "SVG_FONT", "SVG_EM", "svg_text_width", "svg_wrap"]

#: A card's status mark in a table: certainly in the solution, certainly not.
STATUS_MARK = {"in": "!", "out": "x"}

#: No layout is made narrower than this.
MIN_WIDTH = 40


def terminal_width() -> int:
    """The terminal's width (``COLUMNS`` when set), 80 when there is no terminal."""
    cols = os.environ.get("COLUMNS", "")
    if cols.isdigit() and int(cols) > 0:
        return max(MIN_WIDTH, int(cols))
    return max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)


def wrap_width() -> int | None:
    """The width to wrap flowing text (diagnostics) to: the terminal's (``COLUMNS`` when set);
    None when the output goes to a file or a pipe, where lines stay whole for the tools that
    read them."""
    try:
        return terminal_width() if os.isatty(1) else None
    except OSError:  # pragma: no cover
        return None


def fit(text: str, width: int | None = None) -> str:
    """Every line no wider than ``width`` (default :func:`wrap_width`, and nothing changes
    without one): a long line wrapped under its own indent (+4), never cut.  Every line is
    :func:`printable` first, wrapped or not."""
    text = printable(text, lines=True)
    width = width or wrap_width()
    if width is None:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        indent = " " * min(lead + 4, width // 2)
        kept = _LOCATION.sub(lambda m: m.group(0).replace(" ", _GLUE), line.lstrip(" "))  # "file:1:2: error[X]:" whole
        wrapped = textwrap.wrap(kept, width, initial_indent=" " * lead, subsequent_indent=indent,
                                break_on_hyphens=False, break_long_words=False, drop_whitespace=True)
        out.extend(w.replace(_GLUE, " ") for w in wrapped or [line])
    return "\n".join(out)


_GLUE = "\x00"
_LOCATION = re.compile(r"^\S+:\d+:\d+: (?:error|warning|note|help)(?:\[\w+\])?:(?: move \d+:)?")


def wrap_cell(text: str, width: int) -> list[str]:
    """A cell's text on as many lines of ``width`` as it needs (words kept whole when they fit),
    :func:`printable`."""
    return textwrap.wrap(printable(text), max(width, 1), break_on_hyphens=False) or [""]


def columns(cols: Sequence[tuple[str, Sequence[tuple[str, str]]]], width: int, gap: int = 2,
            min_text: int = 14) -> str:
    """Columns of (name, suffix) cells under their titles, laid out for ``width``.

    The suffix (a chance, a mark) stays whole at the end of the cell's last
    line; the name wraps.  Columns that do not fit side by side go into
    further bands below.
    """
    if not cols:
        return ""
    cols = [(printable(t), [(printable(n), printable(s)) for n, s in cells]) for t, cells in cols]  # laid out as shown
    suffix_w = max((len(s) for _t, cells in cols for _n, s in cells), default=0)
    longest_word = max((len(w) for _t, cells in cols for n, _s in cells for w in n.split()), default=1)
    min_col = suffix_w + max(min_text, longest_word)
    per_band = max(1, min(len(cols), (width + gap) // (min_col + gap)))
    per_band = -(-len(cols) // -(-len(cols) // per_band))  # the bands as even as they can be
    col_w = max(min_col, (width - gap * (per_band - 1)) // per_band)
    bands = []
    for b in range(0, len(cols), per_band):
        band = cols[b:b + per_band]
        lines = ["".join(_pad(title, col_w, gap) for title, _cells in band).rstrip()]
        for row in range(max(len(cells) for _t, cells in band)):
            blocks = []
            for _title, cells in band:
                if row >= len(cells):
                    blocks.append([""])
                    continue
                name, suffix = cells[row]
                blocks.append(_cell(name, suffix, col_w, suffix_w))
            height = max(len(bl) for bl in blocks)
            for k in range(height):
                lines.append("".join(_pad(bl[k] if k < len(bl) else "", col_w, gap) for bl in blocks).rstrip())
        bands.append("\n".join(lines))
    return "\n\n".join(bands)


def _cell(name: str, suffix: str, col_w: int, suffix_w: int) -> list[str]:
    """A name and its suffix in a cell: the suffix right after the name when it fits on
    the last line, else on a line of its own, right-aligned."""
    text_w = max(col_w - suffix_w, 6)
    lines = wrap_cell(name, text_w)
    last = lines[-1]
    if len(last) + len(suffix) <= col_w and len(lines) == 1:
        lines[-1] = f"{last:<{text_w}}{suffix}" if len(last) <= text_w else last + suffix
    elif len(last) + len(suffix) <= col_w:
        lines[-1] = last + suffix
    else:
        lines.append(f"{suffix:>{col_w}}")
    return lines


def _pad(text: str, col_w: int, gap: int) -> str:
    return text.ljust(col_w + gap)


def grid(title: str, heads: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], width: int,
         gap: int = 2) -> str:
    """A table of rows (a name, then one short value per head) for ``width`` columns.

    The names wrap in their column; when even the values do not fit side by
    side, each row becomes a paragraph of ``head value`` pairs instead.

    >>> print(grid("card", ["A", "B"], [("Bar 6", ["50.0%", "50.0%"])], 40))
    card       A      B
    Bar 6  50.0%  50.0%
    >>> print(grid("card", ["Alice", "Bob"], [("Bar 6", ["50.0%", "50.0%"])], 12))
    Bar 6
      Alice 50.0%,
      Bob 50.0%
    """
    title, heads = printable(title), [printable(h) for h in heads]  # laid out as shown
    rows = [(printable(n), [printable(v) for v in values]) for n, values in rows]
    name_w, cell_w = _grid_widths(title, heads, rows, width, gap)
    if name_w is None:
        out = []
        for name, values in rows:
            out.append(name)
            pairs = ", ".join(f"{h}\x00{v.strip()}" for h, v in zip(heads, values))
            out.extend(line.replace("\x00", " ") for line in
                       textwrap.wrap(pairs, max(width - 2, 8), initial_indent="  ", subsequent_indent="  ",
                                     break_long_words=False, break_on_hyphens=False))
        return "\n".join(out)
    titles = textwrap.wrap(title, name_w, break_on_hyphens=False) or [""]  # a long title: its last line by the heads
    lines = [*titles[:-1], _row(titles[-1], heads, name_w, cell_w, gap)]
    for name, values in rows:
        names = textwrap.wrap(name, name_w, subsequent_indent="  ", break_on_hyphens=False) or [""]
        lines.append(_row(names[0], values, name_w, cell_w, gap))
        lines.extend(line.rstrip() for line in names[1:])
    return "\n".join(lines)


def _row(name: str, values: Sequence[str], name_w: int, cell_w: Sequence[int], gap: int) -> str:
    cells = [f"{v:>{w}}" for v, w in zip(values, cell_w)]
    return (f"{name:<{name_w}}" + " " * gap + (" " * gap).join(cells)).rstrip()


def grid_fits(title: str, heads: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], width: int,
              gap: int = 2) -> bool:
    """Whether :func:`grid` lays these rows out as a table (not as paragraphs) in ``width``."""
    return _grid_widths(title, heads, rows, width, gap)[0] is not None


def _grid_widths(title: str, heads: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], width: int,
                 gap: int) -> tuple[int | None, list[int]]:
    """The name column's width (None: too narrow for a table) and each value column's."""
    cell_w = [max(len(h), *(len(v[i]) for _n, v in rows)) for i, h in enumerate(heads)]
    values_w = sum(w + gap for w in cell_w)
    longest_word = max((len(w) for n in (title, *(n for n, _v in rows)) for w in (n.split() or [""])), default=1)
    natural = max(len(title), *(len(n) for n, _v in rows))
    name_w = min(natural, width - values_w)
    return (None if name_w < min(natural, max(longest_word + 2, 8)) else name_w), cell_w


#: The pictures' font size (px) and the width of a character in it, in ems: wider than sans-serif's
#: average (about 0.55 em), so text measured by it fits where a browser draws it.
SVG_FONT, SVG_EM = 12, 0.62


def svg_text_width(text: str, size: float = SVG_FONT) -> float:
    """The width in px that ``text`` takes in an SVG picture at ``size`` px, counted by characters.

    >>> svg_text_width("Bar 6 o'clock")
    96.72
    """
    return round(len(printable(text)) * size * SVG_EM, 2)


def svg_wrap(text: str, width_px: float, size: float = SVG_FONT) -> list[str]:
    """``text`` on as many lines as keep each within ``width_px`` at ``size`` px (words kept whole
    when they fit, :func:`wrap_cell`).

    >>> svg_wrap("Restaurant, Time 3 · Bar 6 o'clock", 150)
    ['Restaurant, Time 3 ·', "Bar 6 o'clock"]
    """
    return wrap_cell(text, int(width_px / (size * SVG_EM)))


def markup(text: str) -> str:
    r"""Text from a user's file inside SVG or HTML (text or a quoted attribute): :func:`printable`
    (XML 1.0 forbids most control characters; the rest would be invisible or reorder the text),
    then ``&``, ``<``, ``>`` and quotes escaped.

    >>> markup('<b a="1">C\x01at</b>')
    '&lt;b a=&quot;1&quot;&gt;C\\x01at&lt;/b&gt;'
    """
    return html.escape(printable(text))


_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in UNPRINTABLE if c != 0x0A}  # json.dumps escapes C0 itself


def json_text(value: Any, **options: Any) -> str:
    r"""``json.dumps`` (``ensure_ascii=False``: names as they are written) with every character of
    :data:`~spec.diagnostics.UNPRINTABLE` left by it (C1 controls, bidirectional overrides, lone
    surrogates) written as a ``\uXXXX`` escape: the same data, safe on a terminal and always encodable.

    >>> json_text({"name": "C\x9b2J\u202e\ud800"})
    '{"name": "C\\u009b2J\\u202e\\ud800"}'
    """
    return json.dumps(value, ensure_ascii=False, **options).translate(_JSON_ESCAPES)
