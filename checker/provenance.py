"""Where a rule comes from: ``ruleslawyer rules explain``.

Finds a rule by ``move/requirement`` id, by code
(``LA212``), or by parameter or option name, and shows what it checks with
the rulebook sentence it cites, located in the source file by line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..spec.loader import source_path
from ..spec.model import Cite, Ruleset
from .citations import find_line, recorded_line


@dataclass(frozen=True)
class Found:
    kind: str
    name: str
    lines: tuple[str, ...]
    cite: Cite | None


def locate(rules: Ruleset, cite: Cite) -> tuple[str, int] | None:
    """(file, line) where the quoted sentence starts in its source, if found.

    Searched in the rulebook where it is there (a checkout), else read from
    the quote index installed with the rules (rulebooks are not installed).
    """
    try:
        path = source_path(rules, cite.src)
    except KeyError:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        line = recorded_line(path.name, cite.quote)
        return (path.name, line) if line is not None else None
    line = find_line(text, cite.quote)
    return (str(path), line) if line is not None else None


def find(rules: Ruleset, query: str) -> list[Found]:
    out: list[Found] = []
    q = query.strip()
    requires = [("flow", r) for r in rules.flow.requires] + [(m.name, r) for m in rules.moves.values() for r in m.requires]
    for owner, req in requires:
        if q.upper() == req.code or q in (f"{owner}/{req.id}", req.id):
            lines = [f"checks: {req.expr.source}"]
            if req.when is not None:
                lines.insert(0, f"when:   {req.when.source}")
            lines.append(f"code:   {req.code}")
            out.append(Found("requirement", f"{owner}/{req.id}", tuple(lines), req.cite))
    if q in rules.params:
        s = rules.params[q]
        out.append(Found("parameter", q, (f"value:  {s.value} (set by {s.set_by} at {s.position})",), s.cite))
    if q in rules.options:
        o = rules.options[q]
        lines = [f"value:  {o.value} (default {o.default}; values {list(o.values)}; set by {o.set_by})"]
        if o.ambiguity:
            lines.append(f"ambiguity: {o.ambiguity}")
        out.append(Found("option", q, tuple(lines), o.cite))
    if q in rules.moves:
        m = rules.moves[q]
        lines = [f"parameters: {', '.join(p.name for p in m.params) or '-'}",
                 f"requires: {', '.join(f'{r.id} ({r.code})' for r in m.requires) or '-'}"]
        for ob in m.observe:
            lines.append(f"observes (seen by {ob.seen_by.source}): {ob.fact.source}")
        out.append(Found("move", q, tuple(lines), m.cite))
    for step in rules.scoring.steps:
        if q == step.id or q == f"scoring/{step.id}":
            detail = step.expr.source if step.expr is not None else step.kind
            out.append(Found("scoring step", step.id, (f"{step.kind}: {detail}",), step.cite))
    return out


def render(rules: Ruleset, found: list[Found]) -> str:
    blocks = []
    for f in found:
        lines = [f"{f.kind} {f.name} ({rules.canonical_name})", *(f"  {line}" for line in f.lines)]
        if f.cite is not None and f.cite.src not in rules.sources:
            lines.append(f"  from {f.cite.src}: \"{f.cite.quote}\"")
        elif f.cite is not None:
            where = locate(rules, f.cite)
            at = f"{Path(where[0]).name}:{where[1]}" if where else f"{f.cite.src} (quote not found)"
            lines.append(f"  cites {at}: \"{f.cite.quote}\"")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def index(rules: Ruleset, width: int = 80) -> str:
    """One line per rule: its id, code and the start of its quote (cut to fit ``width``, with
    an ellipsis)."""
    n = max(20, width - 43)
    lines = []
    for owner, reqs in [("flow", rules.flow.requires)] + [(m.name, m.requires) for m in rules.moves.values()]:
        for r in reqs:
            lines.append(f"{owner + '/' + r.id:<32} {r.code}  \"{_cut(r.cite.quote, n)}\"")
    for name, o in rules.options.items():
        lines.append(f"{name:<32} option  \"{_cut(o.cite.quote, n)}\"")
    return "\n".join(lines)


def _cut(quote: str, n: int = 60) -> str:
    """The start of a quote, with an ellipsis when it was cut (at a word when one ends near).

    >>> _cut("a short one"), _cut("word " * 20, 12)
    ('a short one', 'word word…')
    """
    if len(quote) <= n:
        return quote
    head = quote[:n]
    space = head.rfind(" ")
    return (head[:space] if space > n // 2 else head).rstrip(" ,;:") + "…"
