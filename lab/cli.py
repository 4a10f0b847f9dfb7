"""The variant lab's commands: ``simulate``, ``compare``, ``value``, ``prove`` and ``suggest``.

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

from ..checker.cli import add_house_option
from ..checker.textout import json_text
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, printable

# Each command imports what it runs (the bots, the state machine, numpy) when it runs:
# building the parser, as every command and ``ruleslawyer --version`` do, loads none of it.

__all__ = ["add_commands", "HANDLERS", "PLAY_COMMANDS", "REPORT_ADVICE", "VALIDATORS"]

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_USAGE = 0, 1, 2
EXIT_INCOMPLETE = 4  # prove: its budget stopped the search before every state was checked
MAX_BUDGET = 100_000_000
MAX_GAMES = 1_000_000
MAX_MOVES = 100_000
MAX_WORKERS = 64
MAX_DEPTH = 64


def _run_options(p: argparse.ArgumentParser, compare: bool = False, value: bool = False) -> None:
    p.add_argument("rules", metavar="RULES", help="a bundled rule set or a rule file")
    p.add_argument("--variant", help="3p, 4p, 5p (or a player count)")
    add_house_option(p, "a house-rule overlay, by name or file")
    if compare:
        add_house_option(p, "an overlay that makes B from A", flag="--with", dest="with_", required=True)
    p.add_argument("--games", type=int, required=True, metavar="N",
                   help="games to play (per restriction, and for the baseline)" if value
                   else "games to play (per rule set)")
    if value:
        p.add_argument("--bots", default="greedy", metavar="SPEC",
                       help="the table, as simulate reads it (default: greedy at every seat): the first bot is "
                            "the one restricted, and its seat rotates; e.g. --bots greedy:risk=0.8")
    else:
        p.add_argument("--bots", default="random", metavar="SPEC",
                       help="a bot per seat, comma-separated, the last repeated: random, random:KIND=W;KIND=W, "
                            "informed, informed:TEMPERATURE, greedy, greedy:risk=P;choices=N (e.g. greedy:choices=8: mover's choices "
                            "valued per kind), "
                            "search:iterations=N;floor=P;width=K;moves=K;race=W;choices=N, e.g. search:iterations=16;race=1 "
                            "(default: random); any bot takes filters, e.g. \"greedy:forbid=move.via == 'final'\" (a move the expression "
                            "is true of is never played)")
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
    if not value:  # value never follows it
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
    val = _sub(sub, "value", "what a mechanic is worth: the win rate a bot loses when forbidden to use it",
               "Restricted play (Jaffe et al. 2012): for each restriction, the first bot of --bots with the "
               "restriction's filter plays at a rotated seat against the others, and the same games unrestricted "
               "are the baseline; each loss of win rate comes with Newcombe's 95 % interval.",
               ["ruleslawyer value {game} --restrict-by KIND.PARAMETER --games 60 --seed 1",
                "ruleslawyer value {game} --restrict \"no-pass=kind == 'pass'\" --games 50",
                "ruleslawyer value {game} --restrict-by PARAMETER --games 20 --format json"])
    _run_options(val, value=True)
    val.add_argument("--restrict", action="append", default=[], metavar="NAME=EXPR",
                     help="a restriction: its name and a move filter the restricted bot obeys (repeatable), "
                          "e.g. --restrict \"no-pass=kind == 'pass'\"")
    val.add_argument("--restrict-by", action="append", default=[], metavar="PARAMETER",
                     help="one restriction per value of a mover's parameter, named as the rule file names them "
                          "(PARAMETER in every move that has it, or KIND.PARAMETER), e.g. --restrict-by place.value")
    val.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    prove = _sub(sub, "prove", "check properties over every reachable state up to a depth",
                 "Properties written in the rule language, checked over every state reachable within the "
                 "depth (from the start, or after the moves of the file's opening:); a violation is printed "
                 "as a log that check replays.",
                 ["ruleslawyer prove {game} --property properties.yaml --depth 3",
                  "ruleslawyer prove {game} --property p.yaml --counterexample c.yaml"])
    prove.add_argument("rules", metavar="RULES", help="a bundled rule set or a rule file")
    prove.add_argument("--variant", help="3p, 4p, 5p (or a player count)")
    add_house_option(prove, "a house-rule overlay, by name or file")
    prove.add_argument("--property", required=True, metavar="FILE", help="a YAML file of properties")
    prove.add_argument("--depth", type=int, metavar="N",
                       help="moves explored from the start, or after the file's opening (default: the file's depth)")
    prove.add_argument("--budget", type=int, metavar="MOVES",
                       help="the moves the search may consider in all: each choice of a mover tried, each move "
                            "found (default: the file's budget:, else 20,000); reaching it stops the search, "
                            "exit status 4")
    prove.add_argument("--counterexample", metavar="FILE", help="write the first counterexample's log here")
    prove.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    _suggest_options(_sub(sub, "suggest", "the mover's choices after a log, ranked by what they would tell",
                          "Replay a log and value every legal choice of the player to move: the chance of each "
                          "answer the seat would observe, the expected information (bits about the deal and "
                          "the solution), a claim's chance of being right, the expected worlds left.",
                          ["ruleslawyer suggest game.yaml", "ruleslawyer suggest game.yaml --as Gordon --at 12",
                           "ruleslawyer suggest game.yaml --top 3 --format json"]))


def _suggest_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", metavar="LOG", help="a game log file (YAML), complete or partial")
    p.add_argument("--as", dest="viewer", metavar="NAME",
                   help="the seat whose knowledge values the moves (default: the mover's; e.g. --as Gordon)")
    p.add_argument("--at", type=int, metavar="MOVE", help="after this move (1-based; default: the last; e.g. --at 12)")
    p.add_argument("--top", type=int, metavar="K", help="list the K best choices (default 10)")
    p.add_argument("--budget", metavar="N",
                   help="solver counts at most (default 400); past it a sample of the choices is valued")
    p.add_argument("--seed", type=int, metavar="S", help="the seed of that sample (default 0)")
    add_house_option(p, "a house-rule overlay to play the log with, besides the ones the log names")
    p.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                   help="a folder (besides the log's own) where the rule files a log names may be (repeatable)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")


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
    if args.scheduler:
        from .simulate import ExecutorError, check_address

        try:
            check_address(args.scheduler)  # before the rules are loaded: a bad address is said at once
        except ExecutorError as exc:
            raise DiagnosticError([Diagnostic("RL172", str(exc), Position("--scheduler", 1, 1))]) from None
    rules = load_usable(args.rules, variant=args.variant, house=list(house))
    from .bots import BotSpecError, parse_bots

    try:
        parse_bots(args.bots, int(rules.param("players")), rules=rules)
    except BotSpecError as exc:
        raise DiagnosticError([Diagnostic(exc.code, str(exc), Position("--bots", 1, exc.column + 1))]) from None
    config = Config(args.rules, args.variant, tuple(house), args.games, args.bots, args.seed, args.max_moves,
                    min(args.sample, args.games), not getattr(args, "no_determination", True),
                    log_dir=args.logs or None)
    return config, rules


def _execute(config: Any, rules: Any, args: argparse.Namespace, label: str,
             where: Position = Position("--bots", 1, 1)) -> Any:
    from .bots import BotError
    from .simulate import ExecutorError, Progress, run

    enabled = {"auto": None, "always": True, "never": False}[args.progress]
    try:
        with Progress(config.games, label, enabled) as bar:
            return run(config, args.workers, args.executor, args.scheduler, bar.advance, rules=rules)
    except ExecutorError as exc:
        raise DiagnosticError([Diagnostic("RL172", str(exc), Position("--executor", 1, 1))]) from None
    except BotError as exc:
        raise DiagnosticError([Diagnostic("RL170", str(exc), where)]) from None


def _inputs(args: argparse.Namespace) -> list[str]:
    """The files a command reads, never written over by its outputs."""
    return [f for f in (args.rules, *args.house, *getattr(args, "with_", ()), getattr(args, "property", None)) if f]


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse an output that cannot be written before the games are played (RL013)."""
    from ..checker.outputs import check_file, check_folder

    folders = [f for f in (getattr(args, "plots", None), getattr(args, "logs", None)) if f is not None]
    for folder in folders:
        check_folder(folder)
    made = {os.path.abspath(f) for f in folders}
    for name in (getattr(args, "report", None), getattr(args, "counterexample", None)):
        if name is None:
            continue
        parent = os.path.dirname(os.path.abspath(name))
        if parent in made and not os.path.isdir(parent):
            continue  # a report beside its plots (--plots DIR --report DIR/report.md): DIR is made first
        check_file(name, _inputs(args))


def _write_logs(result: Any, folder: str | None, inputs: Sequence[str], tag: str = "") -> list[str]:
    from ..checker.outputs import write_folder

    if not folder:
        return []
    return write_folder(folder, [(f"game{tag}-{index:05d}.yaml", text) for index, text, _s in result.logs], inputs)


def _allow_hint(configs: Sequence[Any], folder: str | None) -> str | None:
    """How to check the written logs when they name rule files outside their folder."""
    if not folder:
        return None
    outside = sorted({d for c in configs for d in c.allowed()
                      if os.path.relpath(d, os.path.abspath(folder)).startswith("..")})
    if not outside:
        return None
    return (f"the logs name rule files outside {folder}: check them with "
            + " ".join(f"--allow-path {d}" for d in outside))


def _simulate(args: argparse.Namespace) -> int:
    from ..checker.outputs import made_folder

    _check_outputs(args)
    with made_folder(args.logs):  # made first: the sampled logs are checked where they will be
        return _simulate_in(args)


def _simulate_in(args: argparse.Namespace) -> int:
    from .compare import write_plots

    config, rules = _config(args, args.house)
    result = _execute(config, rules, args, "simulate")
    inputs = _inputs(args)
    plots = write_plots([result], [result.name], args.plots, inputs) if args.plots else []
    logs = _write_logs(result, args.logs, inputs)
    clean = all(s == 0 for _i, _t, s in result.logs)
    hint = _allow_hint([config], args.logs)
    if args.format == "json":
        print(json_text({**result.to_json(), "plots": plots, "log_files": logs, "check_hint": hint}, indent=1))
    else:
        print(printable(simulate_text(result), lines=True))
        for path in plots + logs:
            print(printable(f"wrote {path}"))
        if hint:
            print(printable(hint))
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
    if s.get("forced"):
        lines.append(f"moves a bot's filters forbid, made as nothing else was legal (forced=play): {s['forced']}")
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
    if s.get("kinds"):
        lines += ["", "moves by kind (per game; share of all moves, of its kind's for a value):"]
        for name, d in s["kinds"].items():
            share = "-" if d["share"] is None else f"{100 * d['share']:5.1f} %"
            lines.append(f"  {share}  {_ci(d['per_game'])}  {name}")
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
    lines += problem_lines(result)
    return "\n".join(lines)


def problem_lines(result: Any) -> list[str]:
    """Why each sampled log that does not check clean does not."""
    lines = []
    for p in result.problems:
        lines.append(f"  game {p['game']} (exit status {p['status']}):")
        lines.extend("    " + line for text in p["text"] for line in text.splitlines())
    return lines


def _compare(args: argparse.Namespace) -> int:
    from ..checker.outputs import made_folder

    _check_outputs(args)
    with made_folder(args.logs):  # made first: the sampled logs are checked where they will be
        return _compare_in(args)


def _compare_in(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..checker.outputs import write_file
    from .compare import compare_json, compare_text, report_html, report_markdown, write_plots

    config_a, rules_a = _config(args, args.house)
    config_b, rules_b = _config(args, list(args.house) + list(args.with_))
    if int(rules_a.param("players")) != int(rules_b.param("players")):
        raise _arg_error("--with", "the two rule sets seat different numbers of players: compare like with like")
    a = _execute(config_a, rules_a, args, "A")
    b = _execute(replace(config_b), rules_b, args, "B")
    inputs = _inputs(args)
    plots = write_plots([a, b], [f"A: {a.name}", f"B: {b.name}"], args.plots, inputs) if args.plots else []
    logs = _write_logs(a, args.logs, inputs, "-a") + _write_logs(b, args.logs, inputs, "-b")
    if args.report:
        base = os.path.dirname(os.path.abspath(args.report))
        text = report_html(a, b, plots, base) if args.report.endswith((".html", ".htm")) \
            else report_markdown(a, b, plots, base)
        write_file(args.report, text, inputs)
    if args.format == "json":
        print(json_text({**compare_json(a, b, plots), "log_files": logs,
                         "check_hint": _allow_hint([config_a, config_b], args.logs)}, indent=1))
    elif args.format == "markdown":
        print(printable(report_markdown(a, b, plots, os.getcwd()), lines=True))
    elif args.format == "html":
        print(report_html(a, b, plots, os.getcwd()), end="")
    else:
        print(printable(compare_text(a, b), lines=True))
        for label, res in (("A", a), ("B", b)):
            if res.problems:
                print(f"{label}: sampled game logs that do not check clean:")
                print(printable("\n".join(problem_lines(res)), lines=True))
        for path in plots + logs + ([args.report] if args.report else []):
            print(printable(f"wrote {path}"))
        hint = _allow_hint([config_a, config_b], args.logs)
        if hint:
            print(printable(hint))
    clean = all(s == 0 for res in (a, b) for _i, _t, s in res.logs)
    return EXIT_CLEAN if clean else EXIT_VIOLATIONS


def _value(args: argparse.Namespace) -> int:
    from ..checker.outputs import made_folder

    _check_outputs(args)
    with made_folder(args.logs):  # made first: the sampled logs are checked where they will be
        return _value_in(args)


def _restrictions(args: argparse.Namespace, rules: Any) -> list[Any]:
    from .value import MAX_RESTRICTIONS, RestrictionError, parse_restriction, restrictions_by

    found = []
    for option, texts, parse in (("--restrict", args.restrict, parse_restriction),
                                 ("--restrict-by", args.restrict_by, restrictions_by)):
        for line, text in enumerate(texts, 1):
            try:
                made = parse(text, rules)
            except RestrictionError as exc:
                raise DiagnosticError([Diagnostic(exc.code, str(exc), Position(option, line, exc.column + 1))]) \
                    from None
            found.extend((r, Position(option, line, 1)) for r in (made if isinstance(made, list) else [made]))
    if not found:
        raise _arg_error("--restrict", "name a restriction: --restrict NAME=EXPR or --restrict-by PARAMETER "
                                       "(e.g. --restrict-by KIND.PARAMETER)")
    if len(found) > MAX_RESTRICTIONS:
        raise _arg_error("--restrict", f"{len(found)} restrictions: at most {MAX_RESTRICTIONS} a run")
    labels = [r.label for r, _where in found]
    twice = next((label for label in labels if labels.count(label) > 1), None)
    if twice is not None:
        raise _arg_error("--restrict", f"two restrictions are named {twice!r}: give each its own name")
    return found


def _value_in(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..checker.outputs import write_folder
    from .value import render_plots, restricted_bots, value_json, value_text

    config, rules = _config(args, args.house)
    restrictions = _restrictions(args, rules)
    base = _execute(replace(config, rotate=True), rules, args, "baseline")
    from .bots import BotSpecError, parse_bots

    tables = []
    for restriction, where in restrictions:  # each restricted table read before any game is played
        bots = restricted_bots(args.bots, restriction.expr)
        try:
            parse_bots(bots, int(rules.param("players")), rules=rules)
        except BotSpecError as exc:
            raise DiagnosticError([Diagnostic(exc.code, f"the restricted table: {exc}", where)]) from None
        tables.append(bots)
    runs = []
    for k, ((restriction, where), bots) in enumerate(zip(restrictions, tables), 1):  # a bot stuck: said there
        res = _execute(replace(config, bots=bots, rotate=True), rules, args, f"restriction {k} of {len(restrictions)}",
                       where)
        made = sum(r.filtered for r in res.records)
        if made and sum(r.forced for r in res.records) == made:
            raise DiagnosticError([Diagnostic(
                "RL170", f"restriction {printable(restriction.label)!r} forbids every move the restricted bot had to "
                f"make ({made} of {made} made all the same, as nothing else was legal): it restricts nothing", where)])
        runs.append((restriction, res))
    inputs = _inputs(args)
    plots = write_folder(args.plots, render_plots(base, runs), inputs) if args.plots else []
    logs = _write_logs(base, args.logs, inputs, "-baseline")
    for k, (_r, res) in enumerate(runs, 1):
        logs += _write_logs(res, args.logs, inputs, f"-r{k}")
    hint = _allow_hint([config], args.logs)
    if args.format == "json":
        print(json_text({**value_json(base, runs, plots), "log_files": logs, "check_hint": hint}, indent=1))
    else:
        print(printable(value_text(base, runs), lines=True))
        for label, res in [("baseline", base)] + [(r.label, res) for r, res in runs]:
            if res.problems:
                print(printable(f"{label}: sampled game logs that do not check clean:"))
                print(printable("\n".join(problem_lines(res)), lines=True))
        for path in plots + logs:
            print(printable(f"wrote {path}"))
        if hint:
            print(printable(hint))
    clean = all(s == 0 for res in [base] + [res for _r, res in runs] for _i, _t, s in res.logs)
    return EXIT_CLEAN if clean else EXIT_VIOLATIONS


def _prove(args: argparse.Namespace) -> int:
    from ..checker.capacity import load_usable
    from ..checker.outputs import log_ref, write_file
    from .prove import load_properties, prove, prove_json, prove_text

    _check_range("--depth", args.depth, 0, MAX_DEPTH)
    _check_range("--budget", args.budget, 1, MAX_BUDGET)
    _check_outputs(args)
    rules = load_usable(args.rules, variant=args.variant, house=list(args.house))
    spec = load_properties(args.property, rules)
    # the counterexample names the rule files relative to the folder it is written in (the current
    # folder when it is only printed)
    folder = (os.path.dirname(args.counterexample) if args.counterexample else "") or "."
    result = prove(rules, spec, args.depth, rules_ref=log_ref(args.rules, folder),
                   house=[log_ref(h, folder) for h in args.house], budget=args.budget)
    if args.counterexample:
        bad = next((r for r in result.results if r.counterexample is not None), None)
        if bad is not None:
            write_file(args.counterexample, bad.counterexample, _inputs(args))
    if args.format == "json":
        print(json_text(prove_json(result), indent=1))
    else:
        print(printable(prove_text(result), lines=True))
    if not all(r.holds for r in result.results):
        return EXIT_VIOLATIONS
    return EXIT_CLEAN if result.complete else EXIT_INCOMPLETE


def _suggest(args: argparse.Namespace) -> int:
    from ..spec.paths import ALLOWED
    from .suggest import run_suggest

    token = ALLOWED.set(tuple(args.allow_path))
    try:
        return run_suggest(args)
    finally:
        ALLOWED.reset(token)


def _endings(rules: Any) -> list[Diagnostic]:
    from .reach import ending_warnings

    return ending_warnings(rules)


def _hint(recorder: Any, rest: str) -> None:
    from .hint import hint

    hint(recorder, rest)


def _report_advice(rep: Any, budget: int | None) -> Any:
    from .review import review_game
    from .simulate import Progress

    with Progress(len(rep.steps), "advice") as bar:
        return review_game(rep, budget, advance=bar.advance)


#: What ``report --advice`` adds to the checker's report (:mod:`lab.review`, imported when used): the
#: review of a replayed log, move by move, within a budget of solver counts a move (None: the default);
#: it has ``to_json()`` and ``text(width)``.  A progress bar on standard error when it is a terminal.
REPORT_ADVICE: Callable[[Any, int | None], Any] = _report_advice

#: Commands the variant lab adds at ``play``'s prompt (:mod:`lab.hint`, imported when used).
PLAY_COMMANDS = {
    "hint": ("hint [NAME]      the best moves for the player to move, seen by NAME (default: --as, "
             "else a spectator)", _hint),
}

#: Further checks of each rule set ``rules validate`` loads (the checker finds them through the
#: ``ruleslawyer.commands`` entry point): an ending no short search reaches is a warning.
VALIDATORS: list[Callable[[Any], list[Diagnostic]]] = [_endings]

HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "simulate": _simulate, "compare": _compare, "prove": _prove, "suggest": _suggest, "value": _value,
}
