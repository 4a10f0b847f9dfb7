"""One self-contained HTML page that steps through a game: ``ruleslawyer report``.

For every move (0: the deal, before the first move) the page holds the
picture of the table (:mod:`checker.table`, as SVG) and the chances of
every card from the chosen seat; a little script steps through them
(buttons, a slider, the arrow keys, a click on a move of the list).  The
page fetches nothing: styles, script, pictures and data are inline, and
its Content-Security-Policy forbids any request.  Every name is escaped for
where it is put (:func:`checker.textout.markup` in HTML and SVG, the data
block by :func:`script_json`): no name can end or comment out a script.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..spec.diagnostics import printable
from .endgame import END_CSS, end_html, end_view
from .log import parse_log
from .replay import Replay, replay
from .table import render_svg, status_line, views
from .textout import fit, json_text, markup

__all__ = ["page", "run_report", "script_json"]

_CSS = """
body { font-family: sans-serif; margin: 1em 2em; background: #fbfaf6; color: #222; }
h1 { font-size: 1.3em; margin-bottom: .2em; }
#controls { margin: .6em 0; display: flex; gap: .4em; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 1em; padding: .2em .7em; }
#slider { flex: 1; min-width: 12em; }
#layout { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
#side { max-width: 34em; }
#moves { max-height: 24em; overflow-y: auto; font-family: monospace; font-size: .8em; margin: 0; padding-left: 3em; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.current { background: #ffe58a; }
#moves li.done { color: #555; }
#status { margin: .3em 0; }
#errors { color: #a00; }
table.chances { border-collapse: collapse; font-size: .85em; margin-top: .8em; }
table.chances td, table.chances th { padding: 1px 8px; text-align: left; }
table.chances td.p { text-align: right; font-variant-numeric: tabular-nums; }
"""

_JS = """
(function () {
  const data = JSON.parse(document.getElementById('game-data').textContent);
  const steps = data.steps;
  let at = steps.length - 1;
  const $ = (id) => document.getElementById(id);
  function pct(p) { return p === null || p === undefined ? '-' : (100 * p).toFixed(1) + '%'; }
  function show(n) {
    at = Math.max(0, Math.min(steps.length - 1, n));
    const s = steps[at];
    $('picture').innerHTML = s.svg;
    $('move-number').textContent = String(at);
    $('last-move').textContent = s.last_move ? s.last_move : '(the deal, before the first move)';
    $('status').textContent = s.status;
    $('slider').value = String(at);
    const rows = [];
    for (const g of s.chances) {
      rows.push('<tr><th colspan="2">' + g.group + '</th></tr>');
      for (const c of g.items) {
        rows.push('<tr data-id="' + c.id + '"><td>' + c.name + '</td><td class="p">' + pct(c.p) + (c.mark || '') + '</td></tr>');
      }
    }
    $('chances').innerHTML = rows.join('');
    document.querySelectorAll('#moves li').forEach(function (li, i) {
      li.className = (i + 1 === at) ? 'current' : (i + 1 < at ? 'done' : '');
    });
    const cur = document.querySelector('#moves li.current');
    if (cur) { const ol = $('moves'); ol.scrollTop = Math.max(0, cur.offsetTop - ol.offsetTop - ol.clientHeight / 2); }
  }
  $('first').onclick = function () { show(0); };
  $('prev').onclick = function () { show(at - 1); };
  $('next').onclick = function () { show(at + 1); };
  $('last').onclick = function () { show(steps.length - 1); };
  $('slider').oninput = function () { show(parseInt($('slider').value, 10)); };
  document.querySelectorAll('#moves li').forEach(function (li, i) { li.onclick = function () { show(i + 1); }; });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') { show(at + 1); } else if (e.key === 'ArrowLeft') { show(at - 1); }
    else if (e.key === 'Home') { show(0); } else if (e.key === 'End') { show(steps.length - 1); }
  });
  window.ruleslawyer = {show: show, at: function () { return at; }, steps: steps.length};
  show(at);
})();
"""


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def script_json(value: Any) -> str:
    r"""JSON to embed in a ``<script>`` element: :func:`json_text` (U+2028/9 escaped too) with
    ``<``, ``>`` and ``&`` written ``\u003c``, ``\u003e``, ``\u0026``, so that no string in it can
    end the element (``</script>``) or open a comment (``<!--``) that swallows the page's script.
    Outside strings JSON holds none of them: the data read back is the same.

    >>> script_json({"name": "<!--<script></script>&"})
    '{"name": "\\u003c!--\\u003cscript\\u003e\\u003c/script\\u003e\\u0026"}'
    """
    return json_text(value).translate(_SCRIPT_SAFE)


def _step(at: int, v: dict[str, Any]) -> dict[str, Any]:
    mark = {"in": " !", "out": " x"}
    chances = [{"group": markup(g["group"]),  # the page's script puts these into HTML
                "items": [{"id": markup(c["id"]), "name": markup(c["name"]), "p": c["p"],
                           "mark": mark.get(c["status"] or "", "")} for c in g["items"]]} for g in v["spaces"]]
    return {"move": at, "last_move": printable(v["last_move"]) if v["last_move"] else None,  # shown as text
            "status": printable(status_line(v)), "svg": render_svg(v), "chances": chances}


def page(rep: Replay, viewpoint: Any) -> str:
    """The whole page for a replayed log, seen from ``viewpoint``."""
    rules = rep.rules
    steps = [_step(at, v) for at, v in enumerate(views(rep, viewpoint))]
    data = script_json({"rules": rules.canonical_name, "viewpoint": viewpoint.name, "steps": steps})
    moves = "\n".join(f'<li value="{s.number}" title="line {s.position.line}">{markup(_move(rules, s))}</li>'
                      for s in rep.steps)
    errors = rep.reporter.errors
    err = ""
    if errors:
        items = "".join(f"<li>{markup(d.format_text())}</li>" for d in errors[:10])
        err = f'<div id="errors"><p>this log has {len(errors)} error(s):</p><ul>{items}</ul></div>'
    title = page_title(rep)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{markup(title)}</title>
<style>{_CSS}{END_CSS}</style>
</head>
<body>
<h1>{markup(title)}</h1>
<p>{markup(rules.canonical_name)}, seen by <b>{markup(viewpoint.name)}</b>; {len(rep.steps)} moves.</p>
{err}
<div id="controls">
<button id="first" title="the deal (Home)">deal</button>
<button id="prev" title="previous move (←)">◀ prev</button>
<span>move <b id="move-number">0</b> of {len(rep.steps)}</span>
<button id="next" title="next move (→)">next ▶</button>
<button id="last" title="the last move (End)">end</button>
<input id="slider" type="range" min="0" max="{len(rep.steps)}" value="{len(rep.steps)}" aria-label="move">
</div>
<p>last move: <code id="last-move"></code></p>
<p id="status"></p>
{end_html(end_view(rep))}
<div id="layout">
<div id="picture"></div>
<div id="side"><ol id="moves">
{moves}
</ol>
<table class="chances" id="chances"></table></div>
</div>
<script type="application/json" id="game-data">{data}</script>
<script>{_JS}</script>
</body>
</html>
"""


def page_title(rep: Replay) -> str:
    """The log's own ``title:`` when it has one, else the game's title and the file's name."""
    own = rep.log.header.title
    return f"{own} ({rep.rules.title})" if own else f"{rep.rules.title}: {Path(rep.log.path).name}"


def _move(rules: Any, step: Any) -> str:
    from .writer import move_text

    return move_text(rules, step.play)


def run_report(args: argparse.Namespace) -> int:
    from .solve import viewpoint_of

    from .outputs import check_file, write_file

    inputs = [args.log, *(getattr(args, "house", ()) or ())]
    check_file(args.output, inputs)  # before the work: a name that cannot be written is said at once
    log, rules = parse_log(args.log, house=tuple(getattr(args, "house", ()) or ()))
    rep = replay(log, rules)
    text = page(rep, viewpoint_of(args, rep))
    write_file(args.output, text, inputs)
    print(fit(f"wrote {args.output}: {len(rep.steps)} moves, seen by {viewpoint_of(args, rep).name}"))
    return 1 if rep.reporter.errors else 0
