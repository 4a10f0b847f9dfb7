"""Summaries with 95 % intervals, and differences between two runs.

Means: normal interval ``mean ± 1.96 s / sqrt(n)``.  Rates: Wilson score
interval.  A difference of two means: Welch's ``± 1.96 sqrt(s1²/n1 +
s2²/n2)``; of two rates: ``± 1.96 sqrt(p1 q1 / n1 + p2 q2 / n2)``, or
Newcombe's hybrid score interval (from the two Wilson intervals: better on
few games and at rates near 0 or 1).  A difference is *significant* when its
interval leaves out zero (each figure on its own: no correction for the
number of figures compared).  Paired outcomes: McNemar's exact test.

>>> round(mean_ci([1, 2, 3, 4])["mean"], 2), rate_ci(5, 10)["rate"]
(2.5, 0.5)
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["Z", "mean_ci", "rate_ci", "diff_means", "diff_rates", "newcombe_diff", "mcnemar_exact", "summarise"]

Z = 1.959963984540054


def mean_ci(values: Sequence[float], low: float | None = None, high: float | None = None) -> dict[str, Any]:
    """The mean and its normal 95 % interval, cut to the quantity's range [``low``, ``high``]
    when it has one (a share of a game is in [0, 1], a number of moves is not negative).

    >>> d = mean_ci([0.6, 1.0, 1.0, 1.0], high=1.0); round(d["mean"], 2), d["hi"]
    (0.9, 1.0)
    """
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "lo": None, "hi": None}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z * math.sqrt(var / n) if n > 1 else 0.0
    ordered = sorted(values)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    lo, hi = mean - half, mean + half
    lo, hi = lo if low is None else max(lo, low), hi if high is None else min(hi, high)
    return {"n": n, "mean": mean, "lo": lo, "hi": hi, "sd": math.sqrt(var),
            "median": median, "min": ordered[0], "max": ordered[-1]}


def rate_ci(k: int, n: int) -> dict[str, Any]:
    if n == 0:
        return {"k": k, "n": 0, "rate": None, "lo": None, "hi": None}
    p = k / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    # rounding may put a bound past the rate (0 wins in 3: a lower bound of 5.6e-17): kept within [0, 1]
    # and on its own side of the rate
    return {"k": k, "n": n, "rate": p, "lo": min(p, max(0.0, centre - half)), "hi": max(p, min(1.0, centre + half))}


def diff_means(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """B minus A, with its interval and whether it is significant."""
    ma, mb = mean_ci(a), mean_ci(b)
    if not ma["n"] or not mb["n"]:
        return {"a": ma["mean"], "b": mb["mean"], "diff": None, "lo": None, "hi": None, "significant": False}
    se = math.sqrt((ma["sd"] ** 2) / ma["n"] + (mb["sd"] ** 2) / mb["n"])
    d = mb["mean"] - ma["mean"]
    return {"a": ma["mean"], "b": mb["mean"], "diff": d, "lo": d - Z * se, "hi": d + Z * se,
            "significant": se > 0 and (d - Z * se > 0 or d + Z * se < 0) or (se == 0 and d != 0)}


def diff_rates(ka: int, na: int, kb: int, nb: int) -> dict[str, Any]:
    if not na or not nb:
        return {"a": None, "b": None, "diff": None, "lo": None, "hi": None, "significant": False}
    pa, pb = ka / na, kb / nb
    se = math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    d = pb - pa
    return {"a": pa, "b": pb, "diff": d, "lo": d - Z * se, "hi": d + Z * se,
            "significant": se > 0 and (d - Z * se > 0 or d + Z * se < 0) or (se == 0 and d != 0)}


def newcombe_diff(ka: int, na: int, kb: int, nb: int) -> dict[str, Any]:
    """A minus B (``ka`` of ``na`` against ``kb`` of ``nb``) with Newcombe's hybrid score 95 %
    interval (Newcombe 1998, method 10: from the Wilson interval of each rate), which stays
    within [-1, 1] and behaves at rates of 0 or 1 and on few games, where the normal interval
    does not; *significant* when it leaves out zero.

    >>> d = newcombe_diff(56, 70, 48, 80); round(d["diff"], 4), round(d["lo"], 4), round(d["hi"], 4)
    (0.2, 0.0524, 0.3339)
    """
    if not na or not nb:
        return {"a": None, "b": None, "diff": None, "lo": None, "hi": None, "significant": False}
    a, b = rate_ci(ka, na), rate_ci(kb, nb)
    pa, pb = a["rate"], b["rate"]
    d = pa - pb
    lo = d - math.sqrt((pa - a["lo"]) ** 2 + (b["hi"] - pb) ** 2)
    hi = d + math.sqrt((a["hi"] - pa) ** 2 + (pb - b["lo"]) ** 2)
    lo, hi = max(-1.0, min(d, lo)), min(1.0, max(d, hi))
    return {"a": pa, "b": pb, "diff": d, "lo": lo, "hi": hi, "significant": lo > 0 or hi < 0}


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """The two-sided p-value of McNemar's exact test on paired outcomes: of the pairs where
    exactly one side succeeded, ``only_a`` were A's and ``only_b`` B's; under no difference each
    is A's with chance 1/2 (a binomial test).

    >>> mcnemar_exact(0, 6), mcnemar_exact(3, 3)
    (0.03125, 1.0)
    """
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def summarise(records: Sequence[Mapping[str, Any]], seats: int, max_moves: int) -> dict[str, Any]:
    """The summary of games (records as :meth:`GameRecord.to_json`), in index order."""
    n = len(records)
    ends: dict[str, int] = {}
    for r in records:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    decided = [r for r in records if r["winners"]]
    wins = [sum(1 for r in decided if s in r["winners"]) for s in range(seats)]
    scored = [r for r in records if r["scores"] is not None]
    scores = None
    if scored:
        hist: dict[int, int] = {}
        for r in scored:
            for v in r["scores"]:
                hist[v] = hist.get(v, 0) + 1
        scores = {"by_seat": [mean_ci([r["scores"][s] for r in scored]) for s in range(seats)],
                  "winning": mean_ci([max(r["scores"]) for r in scored]),
                  "histogram": {str(k): hist[k] for k in sorted(hist)}}
    return {
        "games": n,
        "redrawn": sum(1 for r in records if r.get("redrawn")),
        "forced": sum(r.get("forced", 0) for r in records),
        "moves": mean_ci([r["moves"] for r in records], low=0),
        "rounds": mean_ci([r["rounds"] for r in records], low=0),
        "ends": {label: rate_ci(k, n) for label, k in sorted(ends.items(), key=lambda kv: (-kv[1], kv[0]))},
        "win_rate": [{"seat": s + 1, **rate_ci(wins[s], len(decided))} for s in range(seats)],
        "scores": scores,
        "kinds": _kinds(records),
        "determination": _determination(records, max_moves),
    }


def _kinds(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Moves by kind (and ``kind.param=value``, how a move was made where the rules weigh it):
    per game, with its interval, and the share of all moves (of all moves of its kind, for a value)."""
    names = sorted({k for r in records for k in r.get("kinds", {})})
    total = sum(r["moves"] for r in records)
    out: dict[str, Any] = {}
    for name in names:
        k = sum(r.get("kinds", {}).get(name, 0) for r in records)
        whole = total if "=" not in name else sum(r.get("kinds", {}).get(name.split(".")[0], 0) for r in records)
        out[name] = {"per_game": mean_ci([r.get("kinds", {}).get(name, 0) for r in records], low=0),
                     "moves": k, "share": k / whole if whole else None}
    return out


def _determination(records: Sequence[Mapping[str, Any]], max_moves: int) -> dict[str, Any] | None:
    tracked = [r for r in records if r["determined"]]
    if not tracked:
        return None
    out: dict[str, Any] = {"games": len(tracked)}
    for who in ("spectator", "winner"):
        rows = [r for r in tracked if who in r["determined"]]
        known = [r for r in rows if r["determined"][who] is not None]
        out[who] = {
            "games": len(rows),
            "known_by_end": rate_ci(len(known), len(rows)),
            "at_move": mean_ci([r["determined"][who] for r in known]),
            "moves_before_end": mean_ci([r["moves"] - r["determined"][who] for r in known], low=0),
            "share_of_game": mean_ci([r["determined"][who] / r["moves"] for r in known if r["moves"]],
                                     low=0, high=1),
        }
    longest = max((r["moves"] for r in tracked), default=0)
    curve = []
    for t in range(0, longest + 1):
        k = sum(1 for r in tracked if r["determined"].get("spectator") is not None
                and r["determined"]["spectator"] <= t)
        curve.append(k / len(tracked))
    out["curve"] = curve  # share of games whose solution the spectator knows after t moves
    return out


def flatten(values: Iterable[Any]) -> list[Any]:
    return [v for v in values]
