"""``compare``: two rule sets on the same seeds and bots, side by side.

Game ``i`` of both runs draws from the same stream (same seed, same
index): the same deal when the two rule sets deal alike, the same bots.
Each figure of :func:`~ruleslawyer.lab.stats.summarise` is compared, B
minus A, with its 95 % interval and whether it is significant.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from ..checker.textout import markup
from .simulate import Result
from .stats import diff_means, diff_rates

__all__ = ["differences", "compare_json", "compare_text", "report_markdown", "report_html", "write_plots"]


def _values(result: Result, key: str) -> list[float]:
    return [getattr(r, key) for r in result.records]


def differences(a: Result, b: Result) -> list[dict[str, Any]]:
    out = []

    def add(figure: str, d: dict[str, Any]) -> None:
        out.append({"figure": figure, **d})

    add("moves per game", diff_means(_values(a, "moves"), _values(b, "moves")))
    add("rounds per game", diff_means(_values(a, "rounds"), _values(b, "rounds")))
    na, nb = len(a.records), len(b.records)
    for label in sorted(set(a.summary["ends"]) | set(b.summary["ends"])):
        ka = a.summary["ends"].get(label, {}).get("k", 0)
        kb = b.summary["ends"].get(label, {}).get("k", 0)
        add(f"ends: {label}", diff_rates(ka, na, kb, nb))
    for sa, sb in zip(a.summary["win_rate"], b.summary["win_rate"]):
        add(f"win rate, seat {sa['seat']}", diff_rates(sa["k"], sa["n"], sb["k"], sb["n"]))
    if a.summary["scores"] and b.summary["scores"]:
        ra = [r for r in a.records if r.scores is not None]
        rb = [r for r in b.records if r.scores is not None]
        for s in range(min(a.seats, b.seats)):
            add(f"score, seat {s + 1}", diff_means([r.scores[s] for r in ra], [r.scores[s] for r in rb]))
        add("winning score", diff_means([max(r.scores) for r in ra], [max(r.scores) for r in rb]))
    da, db = a.summary["determination"], b.summary["determination"]
    if da and db:
        for who in ("spectator", "winner"):
            ka, kb = da[who]["known_by_end"], db[who]["known_by_end"]
            add(f"solution known to the {who} by the end", diff_rates(ka["k"], ka["n"], kb["k"], kb["n"]))
            ra = [r.determined[who] for r in a.records if r.determined.get(who) is not None]
            rb = [r.determined[who] for r in b.records if r.determined.get(who) is not None]
            add(f"move at which the {who} knows the solution", diff_means(ra, rb))
    return out


def compare_json(a: Result, b: Result, plots: Sequence[str] = ()) -> dict[str, Any]:
    return {"a": a.to_json(), "b": b.to_json(), "differences": differences(a, b), "plots": list(plots)}


def _num(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def compare_text(a: Result, b: Result) -> str:
    lines = [f"A: {a.name}", f"B: {b.name}",
             f"{a.config.games} games each, seed {a.config.seed}, bots {', '.join(a.bots)}; "
             "B - A with its 95 % interval; * significant", ""]
    rows = differences(a, b)
    width = max(len(r["figure"]) for r in rows)
    lines.append(f"  {'':<{width}}  {'A':>8} {'B':>8} {'B - A':>8}  interval")
    for r in rows:
        mark = "*" if r["significant"] else " "
        lines.append(f"{mark} {r['figure']:<{width}}  {_num(r['a']):>8} {_num(r['b']):>8} {_num(r['diff']):>8}"
                     f"  [{_num(r['lo'])}, {_num(r['hi'])}]")
    for label, res in (("A", a), ("B", b)):
        clean = sum(1 for _i, _t, s in res.logs if s == 0)
        lines.append(f"{label}: {clean} of {len(res.logs)} sampled game logs check clean")
    return "\n".join(lines)


def report_markdown(a: Result, b: Result, plots: Sequence[str], base: str) -> str:
    rows = differences(a, b)
    out = [f"# {a.name} against {b.name}", "",
           f"{a.config.games} games each on the same seeds (seed {a.config.seed}), bots {', '.join(a.bots)}, "
           f"at most {a.config.max_moves} moves. B − A with its 95 % interval; **bold**: significant.", "",
           "| figure | A | B | B − A | 95 % interval |", "| --- | ---: | ---: | ---: | --- |"]
    for r in rows:
        cell = f"**{_num(r['diff'])}**" if r["significant"] else _num(r["diff"])
        out.append(f"| {r['figure']} | {_num(r['a'])} | {_num(r['b'])} | {cell} | [{_num(r['lo'])}, {_num(r['hi'])}] |")
    out.append("")
    for p in plots:
        if p.endswith(".png"):
            out.append(f"![{os.path.basename(p)}]({os.path.relpath(p, base)})")
            out.append("")
    return "\n".join(out)


def report_html(a: Result, b: Result, plots: Sequence[str], base: str) -> str:
    rows = differences(a, b)
    esc = markup
    body = [f"<h1>{esc(a.name)} against {esc(b.name)}</h1>",
            f"<p>{a.config.games} games each on the same seeds (seed {a.config.seed}), bots "
            f"{esc(', '.join(a.bots))}, at most {a.config.max_moves} moves. B − A with its 95 % interval; "
            "<b>bold</b>: significant.</p>",
            "<table><tr><th>figure</th><th>A</th><th>B</th><th>B − A</th><th>95 % interval</th></tr>"]
    for r in rows:
        d = f"<b>{_num(r['diff'])}</b>" if r["significant"] else _num(r["diff"])
        body.append(f"<tr><td>{esc(r['figure'])}</td><td>{_num(r['a'])}</td><td>{_num(r['b'])}</td>"
                    f"<td>{d}</td><td>[{_num(r['lo'])}, {_num(r['hi'])}]</td></tr>")
    body.append("</table>")
    for p in plots:
        if p.endswith(".svg"):
            body.append(f'<figure><img src="{esc(os.path.relpath(p, base))}" alt="{esc(os.path.basename(p))}">'
                        "</figure>")
    style = "body{font-family:sans-serif;max-width:60em;margin:auto}td,th{padding:2px 8px;border-bottom:1px solid #ddd}"
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(a.name)} against {esc(b.name)}</title>"
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")


def write_plots(results: Sequence[Result], labels: Sequence[str], folder: str,
                inputs: Sequence[str] = ()) -> list[str]:
    """Game lengths overlaid, win rate by seat, determination curve: PNG and SVG each, written
    into ``folder`` through :func:`~ruleslawyer.checker.outputs.write_folder` (all or nothing)."""
    from ..checker.outputs import write_folder

    return write_folder(folder, render_plots(results, labels), inputs)


def render_plots(results: Sequence[Result], labels: Sequence[str]) -> list[tuple[str, bytes]]:
    """The plots of :func:`write_plots` as (file name, bytes)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written: list[tuple[str, bytes]] = []

    def save(fig: Any, name: str) -> None:
        for ext in ("png", "svg"):
            buf = io.BytesIO()
            fig.savefig(buf, format=ext, dpi=100, metadata={"Date": None} if ext == "svg" else None)
            written.append((f"{name}.{ext}", buf.getvalue()))
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    top = max((r.moves for res in results for r in res.records), default=1)
    bins = range(0, top + 2, max(1, (top + 1) // 30))
    for res, label in zip(results, labels):
        ax.hist([r.moves for r in res.records], bins=list(bins), alpha=0.5, label=label)
    ax.set_xlabel("moves per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend()
    save(fig, "lengths")

    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(results))
    for k, (res, label) in enumerate(zip(results, labels)):
        rates = res.summary["win_rate"]
        xs = [s["seat"] + (k - (len(results) - 1) / 2) * width for s in rates]
        ys = [s["rate"] or 0 for s in rates]
        err = [[max(0.0, (s["rate"] or 0) - (s["lo"] or 0)) for s in rates],
               [max(0.0, (s["hi"] or 0) - (s["rate"] or 0)) for s in rates]]
        ax.bar(xs, ys, width=width, yerr=err, capsize=3, label=label)
    ax.set_xlabel("seat (1 moves first)")
    ax.set_ylabel("win rate (95 % interval)")
    ax.set_title("Win rate by seat")
    ax.legend()
    save(fig, "winrate")

    fig, ax = plt.subplots(figsize=(7, 4))
    drawn = 0
    for res, label in zip(results, labels):
        det = res.summary["determination"]
        if det:
            ax.plot(range(len(det["curve"])), det["curve"], label=label)
            drawn += 1
    ax.set_xlabel("moves played")
    ax.set_ylabel("share of games")
    ax.set_ylim(0, 1)
    ax.set_title("Solution known to the spectator")
    if drawn:
        ax.legend()
    else:  # an empty legend is a warning on stderr; say why the plot is empty instead
        ax.text(0.5, 0.5, "no game tracked what the spectator knew", ha="center", va="center",
                transform=ax.transAxes)
    save(fig, "determination")
    return written
