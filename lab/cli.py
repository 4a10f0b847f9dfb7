"""The variant lab's commands: ``simulate``, ``compare`` and ``prove``.

Installed beside the checker's commands through the ``ruleslawyer.commands``
entry point (the checker names none of them).  Bad input is a positioned
diagnostic and exit status 2; results exit 0; a sampled game log that does
not check clean, or a property that fails, exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, Sequence

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position
from .bots import BotSpecError, parse_bots

__all__ = ["add_commands", "HANDLERS"]

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_USAGE = 0, 1, 2
EXIT_INCOMPLETE = 4  # prove: its budget stopped the search before every state was checked
MAX_BUDGET = 100_000_000
MAX_GAMES = 1_000_000
MAX_MOVES = 100_000
MAX_WORKERS = 64
MAX_DEPTH = 64


def _run_options(p: argparse.ArgumentParser, compare: bool = False) -> None:
    p.add_argument("rules", metavar="RULES", help="a bundled rule set or a rule file")
    p.add_argument("--variant", help="3p, 4p, 5p (or a player count)")
    p.add_argument("--house", action="append", default=[], metavar="FILE", help="house-rule overlay (repeatable)")
    if compare:
        p.add_argument("--with", dest="with_", action="append", default=[], metavar="FILE", required=True,
                       help="the overlay(s) that make B from A (repeatable)")
    p.add_argument("--games", type=int, required=True, metavar="N", help="games to play (per rule set)")
    p.add_argument("--bots", default="random", metavar="SPEC",
                   help="a bot per seat, comma-separated, the last repeated: random, random:KIND=W;KIND=W, "
                        "informed, informed:TEMPERATURE (default: random)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the seed: one seed gives the same results on any number of workers (default 0)")
    p.add_argument("--max-moves", type=int, default=500, metavar="M", help="a game longer than this is cut")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes (or Dask workers)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local processes (default) or a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler (with --executor dask)")
    p.add_argument("--plots", metavar="DIR", help="write the plots (PNG and SVG) into this folder")
    p.add_argument("--logs", metavar="DIR", help="write the sampled games' logs into this folder")
    p.add_argument("--sample", type=int, default=3, metavar="K",
                   help="games written as logs and checked (the first K; default 3)")
    p.add_argument("--no-determination", action="store_true",
                   help="do not follow when the solution becomes known (faster)")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="a progress bar on standard error (auto: when it is a terminal)")


def add_commands(sub: Any) -> None:
    from ..checker.cli import _sub

    sim = _sub(sub, "simulate", "bots play N games of a rule set: lengths, ends, wins, scores",
               "Bots play N complete games through the state machine; the report gives each figure with "
               "its 95 % interval, and the first games are written as logs and checked.",
               ["ruleslawyer simulate {game} --games 200 --seed 1",
                "ruleslawyer simulate {game} --bots informed:0 --games 20 --format json"])
    _run_options(sim)
    sim.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    cmp_ = _sub(sub, "compare", "a rule set and a house variant on the same seeds, with intervals",
                "A (the rules with their --house overlays) and B (A with the --with overlays) on the same "
                "seeds and bots: each figure's difference B - A with its 95 % interval.",
                ["ruleslawyer compare {game} --with X.yaml --games 200 --plots lab-demo",
                 "ruleslawyer compare {game} --with X.yaml --games 100 --report report.md"])
    _run_options(cmp_, compare=True)
    cmp_.add_argument("--format", choices=("text", "json", "markdown", "html"), default="text",
                      help="text (default), json, markdown or html")
    cmp_.add_argument("--report", metavar="FILE", help="write a markdown (.md) or HTML (.html) report embedding the plots")
    prove = _sub(sub, "prove", "check properties over every reachable state up to a depth",
                 "Properties written in the rule language, checked over every state reachable within the "
                 "depth (from the start, or after the moves of the file's opening:); a violation is printed "
                 "as a log that check replays.",
                 ["ruleslawyer prove {game} --property properties.yaml --depth 3",
                  "ruleslawyer prove {game} --property p.yaml --counterexample c.yaml"])
    prove.add_argument("rules", metavar="RULES", help="a bundled rule set or a rule file")
    prove.add_argument("--variant", help="3p, 4p, 5p (or a player count)")
    prove.add_argument("--house", action="append", default=[], metavar="FILE", help="house-rule overlay (repeatable)")
    prove.add_argument("--property", required=True, metavar="FILE", help="a YAML file of properties")
    prove.add_argument("--depth", type=int, metavar="N",
                       help="moves explored from the start, or after the file's opening (default: the file's depth)")
    prove.add_argument("--budget", type=int, metavar="MOVES",
                       help="the moves the search may consider in all: each choice of a mover tried, each move "
                            "found (default: the file's budget:, else 20,000); reaching it stops the search, "
                            "exit status 4")
    prove.add_argument("--counterexample", metavar="FILE", help="write the first counterexample's log here")
    prove.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")


def _arg_error(option: str, message: str, column: int = 0) -> DiagnosticError:
    return DiagnosticError([Diagnostic("RL170", message, Position(option, 1, column + 1))])


def _check_range(name: str, value: int | None, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise _arg_error(name, f"{name} must be from {low} to {high:,}, not {value}")


def _config(args: argparse.Namespace, house: Sequence[str]) -> Any:
    from ..checker.capacity import load_usable
    from .simulate import Config

    _check_range("--games", args.games, 1, MAX_GAMES)
    _check_range("--max-moves", args.max_moves, 1, MAX_MOVES)
    _check_range("--workers", args.workers, 1, MAX_WORKERS)
    _check_range("--sample", args.sample, 0, 1000)
    if args.scheduler and args.executor != "dask":
        raise _arg_error("--scheduler", "--scheduler names a Dask scheduler: use it with --executor dask")
    rules = load_usable(args.rules, variant=args.variant, house=list(house))
    try:
        parse_bots(args.bots, int(rules.param("players")), list(rules.moves))
    except BotSpecError as exc:
        raise _arg_error("--bots", str(exc), exc.column) from None
    config = Config(args.rules, args.variant, tuple(house), args.games, args.bots, args.seed, args.max_moves,
                    min(args.sample, args.games), not args.no_determination)
    return config, rules


def _execute(config: Any, rules: Any, args: argparse.Namespace, label: str) -> Any:
    from .simulate import ExecutorError, Progress, run

    enabled = {"auto": None, "always": True, "never": False}[args.progress]
    try:
        with Progress(config.games, label, enabled) as bar:
            return run(config, args.workers, args.executor, args.scheduler, bar.advance, rules=rules)
    except ExecutorError as exc:
        raise DiagnosticError([Diagnostic("RL172", str(exc), Position("--executor", 1, 1))]) from None


def _write_logs(result: Any, folder: str | None, tag: str = "") -> list[str]:
    if not folder:
        return []
    os.makedirs(folder, exist_ok=True)
    paths = []
    for index, text, _status in result.logs:
        path = os.path.join(folder, f"game{tag}-{index:05d}.yaml")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        paths.append(path)
    return paths


def _simulate(args: argparse.Namespace) -> int:
    from .compare import write_plots

    config, rules = _config(args, args.house)
    result = _execute(config, rules, args, "simulate")
    plots = write_plots([result], [result.name], args.plots) if args.plots else []
    logs = _write_logs(result, args.logs)
    clean = all(s == 0 for _i, _t, s in result.logs)
    if args.format == "json":
        print(json.dumps({**result.to_json(), "plots": plots, "log_files": logs}, indent=1, ensure_ascii=False))
    else:
        print(simulate_text(result))
        for path in plots + logs:
            print(f"wrote {path}")
    return EXIT_CLEAN if clean else EXIT_VIOLATIONS


def _f(v: Any, digits: int = 2) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _ci(d: dict[str, Any], digits: int = 1) -> str:
    return f"{_f(d['mean'], digits)}  [{_f(d['lo'], digits)}, {_f(d['hi'], digits)}]" if d.get("n") else "-"


def _rate(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "-"
    return f"{100 * d['rate']:5.1f} %  [{100 * d['lo']:.1f}, {100 * d['hi']:.1f}]  ({d['k']} of {d['n']})"


def simulate_text(result: Any) -> str:
    s, c = result.summary, result.config
    lines = [f"{result.name}: {c.games} games, seed {c.seed}, bots {', '.join(result.bots)}, "
             f"at most {c.max_moves} moves (95 % intervals)",
             f"moves per game   {_ci(s['moves'])}   median {s['moves']['median']}, {s['moves']['min']}–{s['moves']['max']}",
             f"rounds per game  {_ci(s['rounds'])}"]
    if s.get("redrawn"):
        lines.append(f"games played again with another first player (their opening left only claims open): {s['redrawn']}")
    lines += ["", "how games end:"]
    for label, d in s["ends"].items():
        lines.append(f"  {_rate(d)}  {label}")
    lines += ["", "win rate by seat (seat 1 moves first; joint winners each count):"]
    for d in s["win_rate"]:
        lines.append(f"  seat {d['seat']}  {_rate(d)}")
    if s["scores"]:
        lines += ["", "score by seat:"]
        for i, d in enumerate(s["scores"]["by_seat"]):
            lines.append(f"  seat {i + 1}  {_ci(d)}")
        lines.append(f"  winning score  {_ci(s['scores']['winning'])}")
        lines.append("  scores: " + ", ".join(f"{k}: {v}" for k, v in s["scores"]["histogram"].items()))
    det = s["determination"]
    if det:
        lines += ["", "when the solution became known (moves played), against the end of the game:"]
        for who in ("spectator", "winner"):
            d = det[who]
            lines.append(f"  {who:<9}  known by the end {_rate(d['known_by_end'])}")
            if d["at_move"].get("n"):
                lines.append(f"             at move {_ci(d['at_move'])}, {_ci(d['moves_before_end'])} moves "
                             f"before the end ({_ci(d['share_of_game'], 2)} of the game)")
    clean = sum(1 for _i, _t, st in result.logs if st == 0)
    lines += ["", f"sampled game logs: {clean} of {len(result.logs)} check clean"]
    return "\n".join(lines)


def _compare(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from .compare import compare_json, compare_text, report_html, report_markdown, write_plots

    config_a, rules_a = _config(args, args.house)
    config_b, rules_b = _config(args, list(args.house) + list(args.with_))
    if int(rules_a.param("players")) != int(rules_b.param("players")):
        raise _arg_error("--with", "the two rule sets seat different numbers of players: compare like with like")
    a = _execute(config_a, rules_a, args, "A")
    b = _execute(replace(config_b), rules_b, args, "B")
    plots = write_plots([a, b], [f"A: {a.name}", f"B: {b.name}"], args.plots) if args.plots else []
    _write_logs(a, args.logs, "-a")
    _write_logs(b, args.logs, "-b")
    if args.report:
        base = os.path.dirname(os.path.abspath(args.report))
        text = report_html(a, b, plots, base) if args.report.endswith((".html", ".htm")) \
            else report_markdown(a, b, plots, base)
        with open(args.report, "w", encoding="utf-8") as fh:
            fh.write(text)
    if args.format == "json":
        print(json.dumps(compare_json(a, b, plots), indent=1, ensure_ascii=False))
    elif args.format == "markdown":
        print(report_markdown(a, b, plots, os.getcwd()))
    elif args.format == "html":
        print(report_html(a, b, plots, os.getcwd()), end="")
    else:
        print(compare_text(a, b))
        for path in plots + ([args.report] if args.report else []):
            print(f"wrote {path}")
    clean = all(s == 0 for res in (a, b) for _i, _t, s in res.logs)
    return EXIT_CLEAN if clean else EXIT_VIOLATIONS


def _prove(args: argparse.Namespace) -> int:
    from ..checker.capacity import load_usable
    from .prove import load_properties, prove, prove_json, prove_text

    _check_range("--depth", args.depth, 0, MAX_DEPTH)
    _check_range("--budget", args.budget, 1, MAX_BUDGET)
    rules = load_usable(args.rules, variant=args.variant, house=list(args.house))
    spec = load_properties(args.property, rules)
    result = prove(rules, spec, args.depth, rules_ref=args.rules, house=list(args.house), budget=args.budget)
    if args.counterexample:
        bad = next((r for r in result.results if r.counterexample is not None), None)
        if bad is not None:
            with open(args.counterexample, "w", encoding="utf-8") as fh:
                fh.write(bad.counterexample)
    if args.format == "json":
        print(json.dumps(prove_json(result), indent=1, ensure_ascii=False))
    else:
        print(prove_text(result))
    if not all(r.holds for r in result.results):
        return EXIT_VIOLATIONS
    return EXIT_CLEAN if result.complete else EXIT_INCOMPLETE


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "simulate": _simulate, "compare": _compare, "prove": _prove,
}
