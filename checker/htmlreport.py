"""One self-contained HTML page that steps through a game: ``ruleslawyer report``.

For every move (0: the deal, before the first move) the page holds the
picture of the table (:mod:`checker.table`, as SVG) and the chances of
every card from the chosen seat; a little script steps through them
(buttons, a slider, the arrow keys, a click on a move of the list).  The
page fetches nothing: styles, script, pictures and data are inline, and
its Content-Security-Policy forbids any request.  Every name is escaped for
where it is put (:func:`checker.textout.markup` in HTML and SVG, the data
block by :func:`script_json`): no name can end or comment out a script.

With ``--advice`` each move is reviewed from its mover's seat (the best move
by information beside the move played, its grade, each player's accuracy).
The checker does not value moves: the command set installed beside it that
can (an entry point ``ruleslawyer.commands`` whose module has
``REPORT_ADVICE``: the variant lab's :mod:`lab.review`) does, and the page
shows the plain data its review gives (:func:`advice_html`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, printable
from .endgame import END_CSS, end_html, end_view
from .log import parse_log
from .replay import Replay, replay
from ..solver import queries
from .reportgraph import graph_svg
from .table import render_svg, status_line, views
from .textout import fit, json_text, markup, terminal_width

__all__ = ["page", "report_seats", "seat_label", "run_report", "script_json", "advice_html", "MAX_ADVICE_BUDGET"]

#: The largest ``--advice-budget`` (solver counts a move) taken.
MAX_ADVICE_BUDGET = 10_000_000
#: The mark of each grade of a reviewed move in the list of moves, as analysis boards write them.
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

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
#moves li a { color: inherit; text-decoration: none; }
#moves li.noted::after { content: " #"; color: #888; }
#comments { white-space: pre-wrap; font-style: italic; color: #444; border-left: 3px solid #ccc; padding-left: .6em; }
#graph h2 { font-size: 1.1em; }
#graph-svg { cursor: pointer; max-width: 100%; height: auto; }
#graph-svg .seat-line { opacity: .5; }
#graph-svg .seat-line.chosen { opacity: 1; stroke-width: 3; }
#graph-svg .legend.chosen text { font-weight: bold; }
table.chances { border-collapse: collapse; font-size: .85em; margin-top: .8em; }
table.chances td, table.chances th { padding: 1px 8px; text-align: left; }
table.chances td.p { text-align: right; font-variant-numeric: tabular-nums; }
#advice { margin: .3em 0; max-width: 60em; overflow-wrap: anywhere; }
#moves li .mark { font-weight: bold; color: #b36b00; }
#moves li.blunder .mark, #moves li.mistake .mark { color: #b00; }
table.accuracy { border-collapse: collapse; font-size: .9em; }
table.accuracy td, table.accuracy th { padding: 1px 8px; text-align: right; }
table.accuracy td:first-child, table.accuracy th:first-child { text-align: left; overflow-wrap: anywhere; max-width: 16em; }
"""

_JS = """
(function () {
  const data = JSON.parse(document.getElementById('game-data').textContent);
  const pool = data.lines, last = data.moves.length;
  const $ = (id) => document.getElementById(id);
  // each seat's pictures: every step lines of the pool, told as runs of the step before's and new lines
  const seats = data.seats.map(function (seat) {
    let lines = [];
    return seat.steps.map(function (s) {
      const now = [];
      for (const op of s.svg) {
        if (Array.isArray(op)) { for (let i = op[0]; i < op[0] + op[1]; i++) { now.push(lines[i]); } }
        else { now.push(op); }
      }
      lines = now;
      return {lines: lines, status: s.status, p: s.p, m: s.m};
    });
  });
  let at = last, seat = data.seat;
  function pct(p) { return p === null || p === undefined ? '-' : (100 * p).toFixed(1) + '%'; }
  function fromHash() {
    const m = /^#(\\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  function show(n) {
    at = Math.max(0, Math.min(last, n));
    const s = seats[seat][at];
    $('picture').innerHTML = s.lines.map(function (i) { return pool[i]; }).join('\\n');
    $('move-number').textContent = String(at);
    const move = at > 0 ? data.moves[at - 1] : null;
    $('last-move').textContent = move ? move : '(the deal, before the first move)';
    $('comments').textContent = data.comments[at] ? data.comments[at].join('\\n') : '';
    $('comments').hidden = !data.comments[at];
    const review = data.advice && at > 0 ? data.advice[at - 1] : null;
    $('advice').textContent = review ? 'review: ' + review : '';
    $('advice').hidden = !review;
    $('status').textContent = s.status;
    $('link').setAttribute('href', '#' + at);
    $('slider').value = String(at);
    const rows = [];
    let k = 0;
    for (const g of data.groups) {
      rows.push('<tr><th colspan="2">' + g.group + '</th></tr>');
      for (const c of g.items) {
        const mark = {i: ' !', o: ' x'}[s.m[k]] || '';
        rows.push('<tr data-id="' + c.id + '"><td>' + c.name + '</td><td class="p">' + pct(s.p[k]) + mark + '</td></tr>');
        k += 1;
      }
    }
    $('chances').innerHTML = rows.join('');
    document.querySelectorAll('#moves li').forEach(function (li, i) {
      li.classList.toggle('current', i + 1 === at);
      li.classList.toggle('done', i + 1 < at);
    });
    const cur = document.querySelector('#moves li.current');
    if (cur) { const ol = $('moves'); ol.scrollTop = Math.max(0, cur.offsetTop - ol.offsetTop - ol.clientHeight / 2); }
    const g = $('graph-svg');
    if (g) {
      const x = String(parseFloat(g.dataset.left) + at * parseFloat(g.dataset.step));
      g.querySelectorAll('.cursor').forEach(function (c) { c.setAttribute('x1', x); c.setAttribute('x2', x); });
      g.querySelectorAll('[data-seat]').forEach(function (e) {
        e.classList.toggle('chosen', parseInt(e.dataset.seat, 10) === seat);
      });
    }
    if (fromHash() !== at) {
      try { history.replaceState(null, '', '#' + at); } catch (e) { location.hash = '#' + at; }
    }
  }
  $('first').onclick = function () { show(0); };
  $('prev').onclick = function () { show(at - 1); };
  $('next').onclick = function () { show(at + 1); };
  $('last').onclick = function () { show(last); };
  $('slider').oninput = function () { show(parseInt($('slider').value, 10)); };
  $('seat').onchange = function () { seat = parseInt($('seat').value, 10); show(at); };
  document.querySelectorAll('#moves li').forEach(function (li, i) { li.onclick = function () { show(i + 1); }; });
  const graph = $('graph-svg');
  if (graph) {
    graph.addEventListener('click', function (e) {
      const box = graph.getBoundingClientRect();
      const x = (e.clientX - box.left) * graph.viewBox.baseVal.width / box.width;
      show(Math.round((x - parseFloat(graph.dataset.left)) / parseFloat(graph.dataset.step)));
    });
  }
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.id === 'seat') { return; }
    if (e.key === 'ArrowRight') { show(at + 1); } else if (e.key === 'ArrowLeft') { show(at - 1); }
    else if (e.key === 'Home') { show(0); } else if (e.key === 'End') { show(last); }
  });
  window.addEventListener('hashchange', function () { const n = fromHash(); if (n !== null && n !== at) { show(n); } });
  window.ruleslawyer = {show: show, at: function () { return at; }, steps: last + 1,
                        seat: function (i) { if (i !== undefined) { seat = i; $('seat').value = String(i); show(at); } return seat; },
                        seats: data.seats.map(function (s) { return s.name; })};
  const start = fromHash();
  show(start === null ? last : start);
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


def report_seats(rep: Replay, chosen: Any = None) -> list[Any]:
    """The seats the page shows: the spectator, then each player some private fact of the log is
    seen by (one who sees nothing more sees what the spectator does), in seating order; the
    seat ``chosen`` (``--as``, ``--omniscient``) is added when it is not one of them."""
    facts = rep.facts()
    spectator = queries.Viewpoint.spectator()
    seats = [spectator] + [v for v in map(queries.Viewpoint.of_player, rep.players)
                           if any(v.sees(f) and not spectator.sees(f) for f in facts)]
    if chosen is not None and chosen not in seats:
        seats.append(chosen)
    return seats


def seat_label(viewpoint: Any) -> str:
    """A seat as the switcher names it: the player's name, or ``spectator`` / ``omniscient``."""
    return viewpoint.player if viewpoint.kind == "player" else viewpoint.kind


class _Pool:
    """Lines of the pictures, each kept once; a step is told from the step before as a list of
    ``[start, count]`` (that many lines of the step before, from ``start``) and line numbers of
    the pool (a line the step before did not have at that place): a line moved down by a wrapped
    row above it is still copied.

    >>> pool = _Pool()
    >>> pool.steps(["a\\nb\\nc", "a\\nx\\nb\\nc"])
    [[0, 1, 2], [[0, 1], 3, [1, 2]]]
    """

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def add(self, line: str) -> int:
        return self.index.setdefault(line, len(self.index))

    def steps(self, svgs: list[str]) -> list[list[Any]]:
        out: list[list[Any]] = []
        before: list[int] = []
        for svg in svgs:
            now = [self.add(line) for line in svg.split("\n")]
            where = {x: i for i, x in reversed(list(enumerate(before)))}  # a line's first place before
            ops: list[Any] = []
            for x in now:
                last = ops[-1] if ops and isinstance(ops[-1], list) else None
                if last is not None and last[0] + last[1] < len(before) and before[last[0] + last[1]] == x:
                    last[1] += 1
                elif x in where:
                    ops.append([where[x], 1])
                else:
                    ops.append(x)
            out.append(ops)
            before = now
        return out


def _seat_steps(pool: _Pool, vs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    pictures = pool.steps([render_svg(v) for v in vs])
    code = {"in": "i", "out": "o"}
    out = []
    for pic, v in zip(pictures, vs):
        items = [c for g in v["spaces"] for c in g["items"]]
        out.append({"svg": pic, "status": printable(status_line(v)),  # shown as text
                    "p": [None if c["p"] is None else round(c["p"], 4) for c in items],
                    "m": "".join(code.get(c["status"] or "", "-") for c in items)})
    return out


def _series(vs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"solutions": v["solutions"] if v["consistent"] else None,
             "bits": v["entropy"]["bits"] if v.get("entropy") else None,
             "exact": bool(v.get("entropy") and v["entropy"]["exact"])} for v in vs]


def advice_html(advice: dict[str, Any]) -> str:
    """The review's table: each player's accuracy, rated moves and grades (every name escaped)."""
    grades = list(advice["grade_names"])
    head = "".join(f"<th>{markup(h)}</th>" for h in ["player", "accuracy", "rated", *grades, "claims"])
    rows = []
    for p in advice["players"]:
        acc = "-" if p["accuracy"] is None else f"{100 * p['accuracy']:.1f} %"
        cells = [p["player"], acc, p["rated"], *(p[g] for g in grades), p["claims"]]
        rows.append("<tr>" + "".join(f"<td>{markup(str(c))}</td>" for c in cells) + "</tr>")
    stopped = f"<p>{markup(advice['stopped'])}</p>" if advice.get("stopped") else ""
    return (f'<section id="accuracy"><h2>Accuracy</h2>'
            f"<p>{markup(_advice_words(advice))}</p>{stopped}"
            f'<table class="accuracy"><tr>{head}</tr>{"".join(rows)}</table></section>')


def _advice_words(advice: dict[str, Any]) -> str:
    marks = ", ".join(f"{m} {g}" for g, m in MARKS.items())
    return (f"Each move from its mover's seat, the best move by information beside the move played "
            f"({advice['budget']:,} solver counts a move); accuracy: the bits a player's rated moves gave over "
            f"the bits the best moves would have given. Marks: {marks}.")


def page(rep: Replay, viewpoint: Any, comments: list[list[str]] | None = None,
         advice: dict[str, Any] | None = None) -> str:
    """The whole page for a replayed log: every seat of :func:`report_seats`, ``viewpoint``
    shown first; ``comments`` the log's, one list per move from 0 (:mod:`checker.comments`);
    ``advice`` the review of each move (``to_json()`` of the review ``report --advice`` gets)."""
    rules = rep.rules
    seats = report_seats(rep, viewpoint)
    pool = _Pool()
    per_seat = [views(rep, seat) for seat in seats]
    first = per_seat[0][0]
    groups = [{"group": markup(g["group"]),  # the page's script puts these into HTML
               "items": [{"id": markup(c["id"]), "name": markup(c["name"])} for c in g["items"]]}
              for g in first["spaces"]]
    notes = comments or [[] for _ in range(len(rep.steps) + 1)]
    data = script_json({
        "rules": rules.canonical_name, "seat": seats.index(viewpoint),
        "moves": [printable(v["last_move"] or "") for v in per_seat[0][1:]],  # shown as text
        "comments": [[printable(c) for c in n] or None for n in notes],
        "advice": [printable(m["says"]) for m in advice["moves"]] if advice else None,  # shown as text
        "groups": groups,
        "seats": [{"name": seat.name, "steps": _seat_steps(pool, vs)} for seat, vs in zip(seats, per_seat)],
        "lines": list(pool.index),
    })
    graph = graph_svg([seat_label(s) for s in seats], [_series(vs) for vs in per_seat], first["words"]["sets"])
    options = "".join(f'<option value="{i}"{" selected" if s == viewpoint else ""}>{markup(seat_label(s))}</option>'
                      for i, s in enumerate(seats))
    noted = {i for i, n in enumerate(notes) if n}
    graded = {m["move"]: m["grade"] for m in advice["moves"] if m["grade"] in MARKS} if advice else {}

    def item(s: Any) -> str:
        classes = " ".join(c for c in ("noted" if s.number in noted else "", graded.get(s.number, "")) if c)
        grade = graded.get(s.number)
        mark = f' <span class="mark" title="{grade}">{MARKS[grade]}</span>' if grade else ""
        attrs = f' class="{classes}"' if classes else ""
        return (f'<li value="{s.number}" title="line {s.position.line}"{attrs}>'
                f'<a href="#{s.number}">{markup(_move(rules, s))}</a>{mark}</li>')

    moves = "\n".join(item(s) for s in rep.steps)
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
<p>{markup(rules.canonical_name)}; {len(rep.steps)} moves.
<label>seen by <select id="seat" title="whose knowledge: the spectator's (what everyone saw) or a player's">{options}</select></label></p>
{err}
<div id="controls">
<button id="first" title="the deal (Home)">deal</button>
<button id="prev" title="previous move (←)">◀ prev</button>
<span>move <b id="move-number">0</b> of {len(rep.steps)}</span>
<button id="next" title="next move (→)">next ▶</button>
<button id="last" title="the last move (End)">end</button>
<input id="slider" type="range" min="0" max="{len(rep.steps)}" value="{len(rep.steps)}" aria-label="move">
</div>
<p>last move: <code id="last-move"></code> <a id="link" href="#0" title="a link to this move">#</a></p>
<p id="advice" hidden></p>
<p id="comments" hidden></p>
<p id="status"></p>
{end_html(end_view(rep))}
<div id="layout">
<div id="picture"></div>
<div id="side"><ol id="moves">
{moves}
</ol>
<table class="chances" id="chances"></table></div>
</div>
{advice_html(advice) if advice else ""}
<section id="graph"><h2>Over the game</h2>
{graph}
</section>
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


def _comments(path: str, rep: Replay) -> list[list[str]]:
    """The log's comments per move (:func:`checker.comments.move_comments`), read again from the file."""
    from ..spec.source import read_source
    from .comments import move_comments

    _raw, text = read_source(path)
    return move_comments(text, [s.position.line for s in rep.steps])


def _bad(log: str, message: str, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic("RL010", message, Position(log), hint=hint)])


def advice_budget(args: argparse.Namespace) -> int | None:
    """``--advice-budget``'s value (None: the default), a whole number from 1 to
    :data:`MAX_ADVICE_BUDGET`, given with ``--advice``; else RL010."""
    text = getattr(args, "advice_budget", None)
    if text is None:
        return None
    if not getattr(args, "advice", False):
        raise _bad(args.log, "--advice-budget is the budget of --advice: give --advice too",
                   hint="e.g. report game.yaml -o game.html --advice --advice-budget 2000")
    value = int(text) if text.strip().isascii() and text.strip().isdigit() else None
    if value is None or not 1 <= value <= MAX_ADVICE_BUDGET:
        raise _bad(args.log, f"--advice-budget {printable(text)}: the solver counts allowed for each move must be a "
                             f"whole number from 1 to {MAX_ADVICE_BUDGET:,}", hint="the default is 400")
    return value


def advisor(log: str) -> Callable[[Replay, int | None], Any]:
    """The review ``--advice`` asks for, from the command set installed beside the checker that
    offers it (``REPORT_ADVICE``; see the module's docstring); RL010 when none does."""
    from .cli import _plugins

    found = next((fn for fn in (getattr(p, "REPORT_ADVICE", None) for p in _plugins()) if fn is not None), None)
    if found is None:
        raise _bad(log, "--advice: no installed command set values moves (the variant lab does)")
    return found


def run_report(args: argparse.Namespace) -> int:
    from .solve import viewpoint_of

    from .outputs import check_file, write_file

    inputs = [args.log, *(getattr(args, "house", ()) or ())]
    check_file(args.output, inputs)  # before the work: a name that cannot be written is said at once
    budget = advice_budget(args)
    review = advisor(args.log) if getattr(args, "advice", False) else None
    log, rules = parse_log(args.log, house=tuple(getattr(args, "house", ()) or ()))
    rep = replay(log, rules)
    viewpoint = viewpoint_of(args, rep)
    reviewed = review(rep, budget) if review is not None else None  # the long part: before anything is written
    advice = reviewed.to_json() if reviewed is not None else None
    text = page(rep, viewpoint, _comments(args.log, rep), advice)
    write_file(args.output, text, inputs)
    seats = [seat_label(s) for s in report_seats(rep, viewpoint)]
    if getattr(args, "format", "text") == "json":
        print(json_text({"file": args.log, "output": args.output, "rules": rules.canonical_name,
                         "moves": len(rep.steps), "errors": len(rep.reporter.errors), "seats": seats,
                         "advice": advice}, indent=1))
    else:
        width = terminal_width()
        print(fit(printable(f"wrote {args.output}: {len(rep.steps)} moves, seen by {', '.join(seats)}"), width))
        if reviewed is not None:
            print(reviewed.text(width))
    return 1 if rep.reporter.errors else 0
