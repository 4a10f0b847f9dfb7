"""The end of a game as ``show`` and ``report`` present it: scores, winners, what was revealed.

Everything comes from the replay (:mod:`checker.replay`): the score table
the rule file's ``scoring:`` steps computed (:mod:`spec.scoring`), the
solution the log records or its observations leave, the cards the log's
``end:`` section shows and the tokens a ``reveal_all`` step turned face up.
Words are the rule file's (its nouns, the solution's words, the steps' ids);
the engine names no game.  :func:`end_view` is plain data (``--format json``),
:func:`end_lines` its text (not yet escaped: the caller escapes for where it
goes), :func:`end_svg` and :func:`end_html` draw it.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..spec.machine import State, Token
from ..spec.scoring import ScoreTable, winners_unscored
from .replay import Replay
from .textout import markup, svg_text_width, svg_wrap

__all__ = ["end_view", "end_lines", "reveal_tokens", "reveal_zones", "end_svg", "end_html", "END_CSS"]


def end_view(rep: Replay) -> dict[str, Any] | None:
    """The end of the replayed game (None while it has not ended)."""
    rules, state, table = rep.rules, rep.state, rep.table
    if not state.ended:
        return None
    tokens = rules.tokens
    noun, plural = (tokens.noun, tokens.plural) if tokens is not None else ("token", "tokens")
    words = {"noun": rules.solution_word("noun", "solution"), "token": noun, "tokens": plural}
    winners = list(table.winners) if table is not None else _unscored_winners(rep)
    points = [s.id for s in table.steps if s.kind == "points"] if table is not None else []
    scores = [{"player": p, "total": n, "points": {sid: k for sid, k in table.breakdown(p) if k}}
              for p, n in table.scores.items()] if table is not None and points else []
    solution = sorted(rep.solution, key=_order(rules)) if rep.solution is not None else \
        (list(table.solution) if table is not None and table.solution else None)
    shown = []
    for record in (rep.log.end.zones if rep.log.end is not None else ()):
        for player, cards in record.cards.items():
            shown.append({"key": record.key, "player": player or None,
                          "cards": [rules.name(c.value) for c in cards]})
    return {
        "winners": winners, "points_steps": points, "scores": scores,
        "solution": [rules.name(c) for c in solution] if solution is not None else None,
        "solution_ids": list(solution) if solution is not None else None,
        "shown": shown,
        "steps": [_step(rules, s, words) for s in table.steps] if table is not None else [],
        "revealed": [_token(rules, t) for s in (table.steps if table is not None else ()) for t in s.revealed],
        "scored": table is not None or rules.scoring is None,
        "words": words,
    }


def _unscored_winners(rep: Replay) -> list[str] | None:
    """The winners the rules give without scores (e.g. the last player left), else None: unknown."""
    if rep.rules.scoring is None:
        return None
    found = winners_unscored(rep.machine, rep.state)
    return list(found) if found is not None else None


def _order(rules: Any) -> Any:
    order = {c: i for i, c in enumerate(rules.items)}
    return lambda c: order.get(c, len(order))


def _token(rules: Any, t: Token) -> dict[str, Any]:
    """A token as the table saw it: a value only face up (one removed face down stays hidden,
    though the log may record it privately)."""
    return {"owner": t.owner, "space": rules.name(t.space), "value": t.value if t.face_up else None}


def _tokens_text(tokens: list[dict[str, Any]]) -> str:
    """Tokens by space: ``Space: Ann 1, Ben ?; Other: ...``."""
    by: dict[str, list[str]] = {}
    for t in tokens:
        by.setdefault(t["space"], []).append(f"{t['owner']} {'?' if t['value'] is None else t['value']}")
    return "; ".join(f"{space}: {', '.join(owners)}" for space, owners in by.items())


def _step(rules: Any, step: Any, words: Mapping[str, str]) -> dict[str, Any]:
    """One scoring step in words: what it showed, removed, turned up or gave."""
    if step.kind == "show_solution":
        text = "the solution is shown"
    elif step.kind == "remove":
        gone = [_token(rules, t) for t in step.removed]
        text = f"{len(gone)} {words['token'] if len(gone) == 1 else words['tokens']} removed" + (f" ({_tokens_text(gone)})" if gone else "")
    elif step.kind == "reveal_all":
        text = f"every {words['token']} left turned face up"
    else:
        given = [f"{p} {n}" for p, n in step.points.items() if n]
        text = "points: " + (", ".join(given) if given else "none")
    quote = step.cite.quote if step.cite is not None else None
    did = step.kind in ("show_solution", "reveal_all") or bool(step.removed) or any(step.points.values())
    return {"id": step.id, "kind": step.kind, "text": text, "quote": quote, "did": did}


def reveal_tokens(spaces: list[dict[str, Any]], state: State, end: Mapping[str, Any], table: ScoreTable | None) -> None:
    """Turn face up, in a view's spaces (:func:`checker.table.view`), the tokens the end revealed.

    A view's tokens on a space are listed in the order of the state's stack there, which is
    how they are matched with the tokens of the score table (by the move that placed them)."""
    if table is None or not end["revealed"]:
        return
    values = {t.order: t.value for s in table.steps for t in s.revealed}
    for group in spaces:
        for cell in group["items"]:
            for t, shown in zip(state.spaces.get(cell["id"], ()), cell["tokens"]):
                if t.order in values and values[t.order] is not None:
                    shown["value"], shown["face_up"] = values[t.order], True


def reveal_zones(players: list[dict[str, Any]], rep: Replay) -> None:
    """Fill in, in a view's players, the zones the log's ``end:`` shows everyone (a hand shown)."""
    shown = {(r.spec.zone, p): [rep.rules.name(c.value) for c in cards]
             for r in (rep.log.end.zones if rep.log.end is not None else ()) if r.spec.shown
             for p, cards in r.cards.items() if p}
    for row in players:
        for z in row["zones"]:
            cards = shown.get((z["zone"], row["name"]))
            if cards is not None and len(cards) == z["size"]:
                z.update(known=sorted(cards), possible=[], more=0)


def _names(players: list[str] | None) -> str:
    if players is None:
        return "not known (the scores are not computed)"
    return " and ".join(players) if players else "nobody"


def end_lines(end: Mapping[str, Any]) -> list[str]:
    """The end in lines of text (the caller escapes them for the terminal or the page)."""
    words = end["words"]
    lines = ["the end of the game:"]
    if end["solution"] is not None:
        lines.append(f"  the solution ({words['noun']}): {' · '.join(end['solution'])}")
    by_key: dict[str, list[str]] = {}
    for z in end["shown"]:
        if z["player"] is None and set(z["cards"]) == set(end["solution"] or ()):
            continue  # the solution's own zone: said above
        by_key.setdefault(z["key"], []).append((f"{z['player']}: " if z["player"] else "") + " · ".join(z["cards"]))
    lines.extend(f"  {key} shown: {'; '.join(held)}" for key, held in by_key.items())
    if end["revealed"]:
        lines.append(f"  {words['tokens']} turned face up: {_tokens_text(end['revealed'])}")
    lines.extend(f"  step {s['id']}: {s['text']}" for s in end["steps"] if s["did"])
    if end["scores"]:
        lines.append("  scores:")
        for row in end["scores"]:
            parts = " + ".join(f"{n} ({sid})" for sid, n in row["points"].items())
            lines.append(f"    {row['player']}: {row['total']}" + (f" = {parts}" if parts else ""))
    elif not end["scored"]:
        lines.append("  scores: not computed (the log does not record what the scoring needs)")
    lines.append(f"  winner: {_names(end['winners'])}")
    return lines


def end_svg(end: Mapping[str, Any], x: int, y: int, width: int) -> tuple[list[str], int]:
    """The end's lines as SVG text elements from ``y`` down, wrapped to ``width`` pixels;
    the elements and the height they take."""
    out, h = [f'<g class="end">'], 0
    for i, line in enumerate(end_lines(end)):
        indent = len(line) - len(line.lstrip())
        for j, piece in enumerate(svg_wrap(line.strip(), width - 2 * x - svg_text_width(" " * (indent + 4)))):
            weight = ' font-weight="bold"' if i == 0 or line.strip().startswith("winner") else ""
            dx = x + svg_text_width(" " * (indent + 4 * (j > 0)))
            out.append(f'<text x="{dx:g}" y="{y + h + 14}"{weight}>{markup(piece)}</text>')
            h += 18
    out.append("</g>")
    return out, h + 6


END_CSS = """
#end { margin: .6em 0; padding: .4em .8em; background: #f1ede2; border-left: 4px solid #2a7a2a; max-width: 60em; }
#end h2 { font-size: 1.1em; margin: .2em 0; }
#end table { border-collapse: collapse; }
#end td, #end th { padding: 1px 8px; text-align: left; }
#end td.n { text-align: right; font-variant-numeric: tabular-nums; }
#picture svg .status { display: none; }
"""


def end_html(end: Mapping[str, Any] | None) -> str:
    """The end as an HTML section (empty while the game has not ended), every name :func:`markup`."""
    if end is None:
        return ""
    parts = ['<section id="end"><h2>The end of the game</h2>',
             f'<p id="winners"><b>winner: {markup(_names(end["winners"]))}</b></p>']
    if end["scores"]:
        steps = end["points_steps"]
        head = "".join(f"<th>{markup(s)}</th>" for s in steps)
        rows = "".join(f'<tr><th>{markup(r["player"])}</th>' +
                       "".join(f'<td class="n">{r["points"].get(s, 0)}</td>' for s in steps) +
                       f'<td class="n"><b>{r["total"]}</b></td></tr>' for r in end["scores"])
        parts.append(f'<table id="scores"><tr><th>player</th>{head}<th>total</th></tr>{rows}</table>')
    details = [line.strip() for line in end_lines(end)[1:]  # the score rows are the table's
               if not line.startswith("    ") and line.strip() != "scores:" and not line.strip().startswith("winner:")]
    parts.append("<ul>" + "".join(f"<li>{markup(d)}</li>" for d in details) + "</ul>")
    parts.append("</section>")
    return "\n".join(parts)
