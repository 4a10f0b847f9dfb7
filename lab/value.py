"""``value``: what a mechanic is worth, by restricted play.

The value of a mechanic is the win rate a competent player loses when it is
forbidden to use it, at a table of players who may (Jaffe, Miller, Andersen,
Liu, Karlin, Popović, "Evaluating Competitive Game Balance with Restricted
Play", AIIDE 2012).  Each restriction is a move filter (:mod:`lab.filters`):
the bot of ``--bots``' first seat, with the filter added, plays against the
table's other bots; seats rotate (game *i* puts it at seat *i* mod *n*, seat 0
moving first) so that no seat's advantage counts for or against it.  The
baseline plays the same games (same seeds, so the same deals and the same
seats) with no filter.

For each restriction: the win rate of the restricted seat and of the same seat
in the baseline (a joint win counts, a game nobody wins is lost; Wilson
intervals), the loss (baseline minus restricted) with Newcombe's hybrid score
interval, *significant* when that interval leaves out zero, and, since the
games are paired by seed, McNemar's exact test on the games only one of the
two won.

Restrictions are written out (``--restrict NAME=EXPR``) or enumerated from a
move parameter of the rule file (``--restrict-by PARAMETER`` or
``KIND.PARAMETER``: one restriction per value the rules list for it, a choice,
an item, a face-down token's value), labelled with the rule file's own words
(an item's printed name, the tokens' noun).
"""

from __future__ import annotations

import difflib
import io
from dataclasses import dataclass
from typing import Any, Sequence

from ..spec.diagnostics import printable
from ..spec.model import Ruleset, decided_by
from .bots import BotSpecError
from .filters import FilterError, parse_filter
from .simulate import Result
from .stats import mcnemar_exact, newcombe_diff, rate_ci

__all__ = ["Restriction", "RestrictionError", "parse_restriction", "restrictions_by", "restricted_bots",
           "wins", "values", "value_json", "value_text", "render_plots", "MAX_RESTRICTIONS"]

#: The most restrictions one run measures.
MAX_RESTRICTIONS = 64


class RestrictionError(BotSpecError):
    """A restriction that cannot be used: its code and the column (0-based) in its text."""


@dataclass(frozen=True)
class Restriction:
    label: str     # in the game's words
    expr: str      # the filter: a move it is true of is never played


def parse_restriction(text: str, rules: Ruleset) -> Restriction:
    """``NAME=EXPR``: a label and a filter, the filter checked against the rules."""
    name, eq, expr = text.partition("=")
    if not eq or not name.strip():
        raise RestrictionError("a restriction is NAME=EXPR, e.g. \"no-pass=kind == 'pass'\"", 0)
    try:
        parse_filter(expr, rules, len(name) + 1)
    except FilterError as exc:
        raise RestrictionError(str(exc), exc.column, "RL176") from None
    return Restriction(name.strip(), expr.strip())


def _listed(rules: Ruleset, p: Any) -> list[Any] | None:
    """The values the rules list for a mover's parameter, or None."""
    if decided_by(p) != "mover":
        return None
    if p.type == "choice":
        return list(p.values)
    if p.type == "flag":
        return [True, False]
    if p.type == "item" and p.of in rules.components:
        return list(rules.components[p.of].items)
    if p.type == "token_value":
        from ..spec.machine import Machine

        return sorted(Machine(rules).supply)
    return None


def _label(rules: Ruleset, p: Any, value: Any) -> str:
    if p.type == "item":
        return rules.name(value)
    if p.type == "token_value" and rules.tokens is not None:
        return f"{rules.tokens.noun} of value {value}"
    return f"{p.name} {str(value).lower() if isinstance(value, bool) else value}"


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return "'" + str(value) + "'"


def restrictions_by(text: str, rules: Ruleset) -> list[Restriction]:
    """One restriction per value of a mover's parameter (``PARAMETER`` in every move that has it,
    or ``KIND.PARAMETER``): the bot never gives the parameter that value."""
    spec = text.strip()
    kind, dot, name = spec.rpartition(".")
    if dot and kind not in rules.moves:
        close = difflib.get_close_matches(kind, list(rules.moves), 1)
        hint = f": did you mean {close[0]}?" if close else f" (moves: {', '.join(rules.moves)})"
        raise RestrictionError(f"no move {kind!r} in these rules{hint}", 0)
    moves = [rules.moves[kind]] if dot else list(rules.moves.values())
    found = [(m, p) for m in moves for p in m.params if p.name == name]
    if not found:
        params = sorted({p.name for m in moves for p in m.params if _listed(rules, p)})
        close = difflib.get_close_matches(name, params, 1)
        hint = f": did you mean {close[0]}?" if close else f" (these have values to list: {', '.join(params) or 'none'})"
        raise RestrictionError(f"no move of these rules has a parameter {name!r}{hint}", len(kind) + len(dot))
    listed = [(p, _listed(rules, p)) for _m, p in found]
    usable = [(p, vals) for p, vals in listed if vals]
    if not usable:
        raise RestrictionError(f"the parameter {name!r} has no values the rules list for the mover to choose "
                               "(a choice, a flag, an item, a token's value)", len(kind) + len(dot))
    p0 = usable[0][0]
    order = list(dict.fromkeys(v for _p, vals in usable for v in vals))
    scope = f"kind == '{kind}' and " if dot else ""
    return [Restriction(_label(rules, p0, v), f"{scope}move.{name} == {_literal(v)}") for v in order]


def restricted_bots(table: str, expr: str | None) -> str:
    """The ``--bots`` of a restricted run: the table's first bot with the filter added, the
    table's other bots after it (the first repeated when it is the only one)."""
    from .bots import _split

    parts = [part for part, _c in _split(table, ",")]
    if expr is None:
        return table
    first = parts[0].strip()
    head = first.split(";", 1)[0]
    sep = ";" if ":" in head else ":"
    restricted = f"{first}{sep}forbid={expr};forced=play"  # a move the rules force is made (and counted)
    return ",".join([restricted] + (parts[1:] or [first]))


def wins(result: Result) -> list[bool]:
    """Per game (in order): whether the rotated first bot won (it sits at seat index mod n)."""
    n = result.seats
    return [r.index % n in r.winners for r in result.records]


def values(base: Result, runs: Sequence[tuple[Restriction, Result]]) -> list[dict[str, Any]]:
    """The figures of each restriction against the baseline."""
    b = wins(base)
    out = []
    for restriction, res in runs:
        r = wins(res)
        n = min(len(b), len(r))
        kb, kr = sum(b[:n]), sum(r[:n])
        only_base = sum(1 for x, y in zip(b, r) if x and not y)
        only_restricted = sum(1 for x, y in zip(b, r) if y and not x)
        loss = newcombe_diff(kb, n, kr, n)
        out.append({"restriction": restriction.label, "filter": restriction.expr, "games": n,
                    "restricted": rate_ci(kr, n), "baseline": rate_ci(kb, n),
                    "loss": {"value": loss["diff"], "lo": loss["lo"], "hi": loss["hi"]},
                    "significant": loss["significant"],
                    "paired": {"both": sum(1 for x, y in zip(b, r) if x and y), "only_baseline": only_base,
                               "only_restricted": only_restricted,
                               "mcnemar_p": mcnemar_exact(only_base, only_restricted)},
                    "forced": sum(r.forced for r in res.records),
                    "logs": {"checked": len(res.logs), "clean": sum(1 for _i, _t, s in res.logs if s == 0)}})
    return out


METHOD = ("the restricted bot (the first of --bots with the filter) at a rotated seat (game i: seat i mod n) "
          "against the others; the baseline: the same games without the filter. Win rate: games the seat won "
          "(a joint win counts, a game nobody won is lost), Wilson 95 % interval. Loss: baseline minus "
          "restricted, Newcombe's hybrid score 95 % interval; significant: that interval leaves out zero. "
          "McNemar's exact p: the paired games only one of the two won. Forced: moves the filter forbids that the "
          "restricted bot made because the rules left it no other (counted, per restriction).")


def value_json(base: Result, runs: Sequence[tuple[Restriction, Result]], plots: Sequence[str] = ()) -> dict[str, Any]:
    c = base.config
    b = wins(base)
    return {"rules": base.name, "games": c.games, "seed": c.seed, "bots": c.bots, "max_moves": c.max_moves,
            "method": METHOD, "baseline": {**rate_ci(sum(b), len(b)), "bots": base.bots,
                                           "logs": {"checked": len(base.logs),
                                                    "clean": sum(1 for _i, _t, s in base.logs if s == 0)}},
            "values": values(base, runs), "plots": list(plots)}


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}"


def value_text(base: Result, runs: Sequence[tuple[Restriction, Result]]) -> str:
    c = base.config
    b = wins(base)
    rb = rate_ci(sum(b), len(b))
    rows = values(base, runs)
    for r in rows:  # a label is the user's or the rule file's: escaped before it is measured
        r["restriction"] = printable(r["restriction"])
    lines = [f"{base.name}: the value of each restriction, {c.games} games each, seed {c.seed},",
             f"bots {c.bots}, at most {c.max_moves} moves; the restricted bot (the first of --bots) sits",
             "at seat i mod n in game i, the baseline plays the same games unrestricted",
             f"baseline win rate of that seat: {_pct(rb['rate'])} %  [{_pct(rb['lo'])}, {_pct(rb['hi'])}]  "
             f"({rb['k']} of {rb['n']})", "",
             "loss: baseline - restricted win rate, in points, with Newcombe's 95 % interval;",
             "* significant (that interval leaves out zero); p: McNemar's exact test on the paired games", ""]
    width = max([len(r["restriction"]) for r in rows] + [11])
    lines.append(f"  {'restriction':<{width}}  {'win rate':>8}  {'[95 %]':<13}  {'loss':>6}  {'[95 %]':<14}  "
                 f"{'p':>6}  games")
    for r in rows:
        w, loss = r["restricted"], r["loss"]
        mark = "*" if r["significant"] else " "
        lines.append(f"{mark} {r['restriction']:<{width}}  {_pct(w['rate']):>6} %  "
                     f"{'[' + _pct(w['lo']) + ', ' + _pct(w['hi']) + ']':<13}  {_pct(loss['value']):>6}  "
                     f"{'[' + _pct(loss['lo']) + ', ' + _pct(loss['hi']) + ']':<14}  "
                     f"{r['paired']['mcnemar_p']:>6.3f}  {r['games']}")
    lines.append("")
    for r in rows:
        forced = (f" (made {r['forced']} time(s) all the same: nothing else was legal)" if r["forced"] else "")
        lines.append(f"  {r['restriction']}: forbid={r['filter']}{forced}")
    clean = sum(1 for _i, _t, s in base.logs if s == 0) + sum(x["logs"]["clean"] for x in rows)
    checked = len(base.logs) + sum(x["logs"]["checked"] for x in rows)
    lines += ["", f"sampled game logs: {clean} of {checked} check clean"]
    return "\n".join(lines)


def _plain(text: str) -> str:
    """A label as matplotlib draws it literally (a ``$`` would start its mathematics)."""
    return printable(text).replace("\\", "\\\\").replace("$", r"\$")


def render_plots(base: Result, runs: Sequence[tuple[Restriction, Result]]) -> list[tuple[str, bytes]]:
    """``value``: each restriction's loss with its interval; ``winrate``: restricted win rates against
    the baseline's (its interval shaded); PNG and SVG each, as (file name, bytes)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = values(base, runs)
    b = wins(base)
    rb = rate_ci(sum(b), len(b))
    labels = [_plain(r["restriction"]) for r in rows]
    ys = list(range(len(rows)))[::-1]
    written: list[tuple[str, bytes]] = []

    def save(fig: Any, name: str) -> None:
        for ext in ("png", "svg"):
            buf = io.BytesIO()
            fig.savefig(buf, format=ext, dpi=100, bbox_inches="tight",
                        metadata={"Date": None} if ext == "svg" else None)
            written.append((f"{name}.{ext}", buf.getvalue()))
        plt.close(fig)

    height = 1.5 + 0.45 * len(rows)
    fig, ax = plt.subplots(figsize=(7, height))
    for y, r in zip(ys, rows):
        loss = r["loss"]
        v, lo, hi = 100 * loss["value"], 100 * max(-1.0, loss["lo"]), 100 * min(1.0, loss["hi"])
        ax.errorbar([v], [y], xerr=[[max(0.0, v - lo)], [max(0.0, hi - v)]], fmt="o", capsize=4,
                    color="C3" if r["significant"] else "C0")
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(ys, labels)
    ax.set_xlim(max(-100.0, ax.get_xlim()[0]), min(100.0, ax.get_xlim()[1]))  # a loss is within ±100 points
    ax.set_xlabel("win rate lost when forbidden (points; Newcombe 95 % interval)")
    ax.set_title(_plain(f"Value of each restriction: {base.name}, {base.config.games} games each"))
    save(fig, "value")

    fig, ax = plt.subplots(figsize=(7, height))
    if rb["n"]:
        ax.axvspan(100 * rb["lo"], 100 * rb["hi"], color="grey", alpha=0.2, label="baseline (95 %)")
        ax.axvline(100 * rb["rate"], color="grey", linewidth=1)
    for y, r in zip(ys, rows):
        w = r["restricted"]
        if w["n"]:
            v = 100 * w["rate"]
            ax.errorbar([v], [y], xerr=[[max(0.0, v - 100 * w["lo"])], [max(0.0, 100 * w["hi"] - v)]],
                        fmt="o", capsize=4, color="C0")
    ax.set_yticks(ys, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate of the restricted seat (%, Wilson 95 % interval)")
    ax.set_title("Restricted win rate against the baseline")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False)  # below: clear of the points
    save(fig, "winrate")
    return written
