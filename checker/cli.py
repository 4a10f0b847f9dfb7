"""The ``ruleslawyer`` command line.

Exit status: 0 clean, 1 violations found, 2 unusable input or usage,
3 internal error.  Bad input never shows a Python traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from typing import Any, Callable, Sequence

from .. import __version__
from ..spec.codes import explain_generic
from ..spec.diagnostics import Diagnostic, DiagnosticError
from ..solver.errors import SolverError
from ..spec.loader import load_rules, validate_file
from .capacity import capacity_problems, load_usable
from ..spec.machine import RuleError
from ..spec.model import Ruleset

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"ruleslawyer: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    top = _Parser(prog="ruleslawyer", description="Rules-as-data verifier for hidden-information deduction games.")
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    rules = sub.add_parser("rules", help="validate, show or draw rule files")
    rsub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND", parser_class=_Parser)
    rsub.required = True
    val = rsub.add_parser("validate", help="check rule files and house overlays")
    val.add_argument("files", nargs="+", metavar="FILE")
    val.add_argument("--format", choices=("text", "json"), default="text")
    for name, helptext in (("show", "the resolved variant: every number and option and where it was set"),
                           ("graph", "the state machine as a diagram"),
                           ("explain", "where a rule comes from: its check and the rulebook sentence it cites")):
        p = rsub.add_parser(name, help=helptext)
        p.add_argument("rules", metavar="NAME_OR_FILE")
        p.add_argument("--variant", help="3p, 4p, 5p (or a player count)")
        p.add_argument("--house", action="append", default=[], metavar="FILE", help="house-rule overlay (repeatable)")
        if name == "show":
            p.add_argument("--format", choices=("text", "json"), default="text")
        elif name == "explain":
            p.add_argument("rule", nargs="?", metavar="RULE",
                           help="MOVE/REQUIREMENT id, code, parameter, option or scoring step")
        else:
            p.add_argument("--format", choices=("mermaid", "dot"), default="mermaid")

    check = sub.add_parser("check", help="check recorded game logs")
    check.add_argument("logs", nargs="+", metavar="LOG")
    check.add_argument("--strict", action="store_true", help="stop at the first violation")
    check.add_argument("--format", choices=("text", "json"), default="text")
    _allow_path(check)

    explain = sub.add_parser("explain", help="what a diagnostic code means")
    explain.add_argument("code")
    explain.add_argument("--rules", metavar="NAME_OR_FILE", help="look the code up in this rule set (default: every bundled one)")

    solve = sub.add_parser("solve", help="what is still possible after a log (see README)")
    solve.add_argument("log", metavar="LOG")
    solve.add_argument("--as", dest="viewer", metavar="NAME", help="a player's viewpoint")
    solve.add_argument("--omniscient", action="store_true")
    solve.add_argument("--at", type=int, metavar="MOVE", help="after this move (1-based; default: the last)")
    solve.add_argument("--explain", metavar="CARD", help="why a card is certain or ruled out (its name or any alias)")
    solve.add_argument("--hindsight", action="store_true", help="when each viewpoint could have known")
    solve.add_argument("--list", type=int, default=10, metavar="N", help="list the solutions when at most N remain")
    solve.add_argument("--format", choices=("text", "json"), default="text")
    _allow_path(solve)
    return top


def _allow_path(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                        help="a folder (besides the log's own) where the rule files and overlays a log "
                             "names may be (repeatable)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code not in (None, 0) else 0
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "rules": _rules, "check": _check, "explain": _explain, "solve": _solve,
    }
    try:
        return handlers[args.command](args)
    except DiagnosticError as exc:
        _print_diagnostics(exc.diagnostics, getattr(args, "format", "text"))
        return EXIT_USAGE
    except RuleError as exc:  # a rule of the rule file failed while a command ran it
        from .check import LIMIT, rule_failure

        diagnostic = rule_failure(exc)
        _print_diagnostics([diagnostic], getattr(args, "format", "text"))
        return EXIT_USAGE if diagnostic.code == LIMIT else EXIT_INTERNAL
    except SolverError as exc:  # a limit of the solver (too many worlds...)
        _print_diagnostics([Diagnostic("RL160", str(exc), None)], getattr(args, "format", "text"))
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_CLEAN
    except KeyboardInterrupt:
        return EXIT_INTERNAL
    except Exception:  # noqa: BLE001 - the last line of defence: say so, exit 3
        print("ruleslawyer: internal error (please report it with the input that caused it):", file=sys.stderr)
        print(traceback.format_exc(limit=-3), file=sys.stderr)
        return EXIT_INTERNAL


def _print_diagnostics(diags: Sequence[Diagnostic], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps([d.to_json() for d in diags], indent=1, ensure_ascii=False))
    else:
        for d in diags:
            print(d.format_text())


# -- rules -----------------------------------------------------------------

def _rules(args: argparse.Namespace) -> int:
    if args.rules_command == "validate":
        status, all_diags = EXIT_CLEAN, []
        for path in args.files:
            diags = validate_file(path, capacity_problems)
            all_diags.extend(diags)
            if diags:
                status = EXIT_USAGE
            elif args.format == "text":
                print(f"{path}: ok")
        _print_diagnostics(all_diags, args.format) if all_diags or args.format == "json" else None
        return status
    rules = load_usable(args.rules, variant=args.variant, house=args.house)
    if args.rules_command == "show":
        if args.format == "json":
            print(json.dumps(show_json(rules), indent=1, ensure_ascii=False))
        else:
            print(show_text(rules))
        return EXIT_CLEAN
    if args.rules_command == "explain":
        from .provenance import find, index, render

        if not args.rule:
            print(index(rules))
            return EXIT_CLEAN
        found = find(rules, args.rule)
        if not found:
            print(f"ruleslawyer: no rule '{args.rule}' in {rules.canonical_name} "
                  "(run 'ruleslawyer rules explain NAME' for the list)", file=sys.stderr)
            return EXIT_USAGE
        print(render(rules, found))
        return EXIT_CLEAN
    from .graph import dot, mermaid

    print(mermaid(rules) if args.format == "mermaid" else dot(rules), end="")
    return EXIT_CLEAN


def show_json(rules: Ruleset) -> dict[str, Any]:
    def where(pos: Any) -> str | None:
        return str(pos) if pos else None

    return {
        "name": rules.canonical_name, "game": rules.game, "title": rules.title, "variant": rules.variant,
        "house": list(rules.house), "files": list(rules.files),
        "parameters": {n: {"value": s.value, "set_by": s.set_by, "at": where(s.position),
                           "cite": s.cite.to_json() if s.cite else None} for n, s in rules.params.items()},
        "options": {n: {"value": o.value, "default": o.default, "values": list(o.values), "set_by": o.set_by,
                        "at": where(o.position), "ambiguity": o.ambiguity, "cite": o.cite.to_json()}
                    for n, o in rules.options.items()},
        "components": {c.id: {"noun": c.noun, "attributes": dict(c.attributes), "items": [
            {"id": i, "name": rules.items[i].name, "aliases": list(rules.items[i].aliases), **rules.items[i].attrs}
            for i in c.items]} for c in rules.components.values()},
        "phases": list(rules.flow.phases),
        "moves": {m.name: {"params": [p.name for p in m.params],
                           "requires": [{"id": r.id, "code": r.code, "cite": r.cite.to_json()} for r in m.requires]}
                  for m in rules.moves.values()},
    }


def show_text(rules: Ruleset) -> str:
    lines = [f"{rules.canonical_name} — {rules.title}, variant {rules.variant}"]
    if rules.house:
        lines.append("house rules: " + ", ".join(rules.house))
    lines.append("files: " + ", ".join(rules.files))
    lines.append("")
    lines.append("parameters:")
    width = max(len(n) for n in rules.params)
    for n, s in rules.params.items():
        lines.append(f"  {n:<{width}}  {_fmt(s.value):<16} {s.set_by:<16} {s.position or ''}")
    lines.append("")
    lines.append("options:")
    width = max((len(n) for n in rules.options), default=0)
    for n, o in rules.options.items():
        changed = "" if o.value == o.default else f" (default {_fmt(o.default)})"
        lines.append(f"  {n:<{width}}  {_fmt(o.value) + changed:<24} {o.set_by:<16} {o.position or ''}")
    lines.append("")
    for c in rules.components.values():
        if not c.items or c.attributes:
            continue
        lines.append(f"{c.id}:")
        for value in c.items:
            members = [i for comp in rules.components.values() for i in comp.items
                       if value in rules.items[i].attrs.values()]
            lines.append(f"  {rules.name(value)}: " + ", ".join(rules.name(i) for i in members)
                         if members else f"  {rules.name(value)}")
    lines.append("")
    lines.append("phases: " + ", ".join(rules.flow.phases))
    lines.append("moves:")
    for m in rules.moves.values():
        codes = sorted({r.code for r in m.requires})
        lines.append(f"  {m.name}({', '.join(p.name for p in m.params)})  checks {', '.join(codes) or '-'}")
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


# -- check, explain, solve ------------------------------------------------------

def _check(args: argparse.Namespace) -> int:
    from .check import check_log

    reports = [check_log(path, strict=args.strict, allow=args.allow_path) for path in args.logs]
    if args.format == "json":
        print(json.dumps([r.to_json() for r in reports], indent=1, ensure_ascii=False))
    else:
        for r in reports:
            print(r.format_text())
    return max((r.status for r in reports), default=EXIT_CLEAN)


def _explain(args: argparse.Namespace) -> int:
    text = explain_generic(args.code)
    if text is None:
        try:
            from .codes import explain as explain_game
        except ImportError:  # pragma: no cover - checker codes not built
            explain_game = None
        sets = [load_rules(args.rules)] if args.rules else None
        text = explain_game(args.code, sets) if explain_game else None
    if text is None:
        print(f"ruleslawyer: unknown code '{args.code}'", file=sys.stderr)
        return EXIT_USAGE
    print(text)
    return EXIT_CLEAN


def _solve(args: argparse.Namespace) -> int:
    from ..spec.paths import ALLOWED
    from .solve import run_solve

    token = ALLOWED.set(tuple(args.allow_path))
    try:
        return run_solve(args)
    finally:
        ALLOWED.reset(token)
