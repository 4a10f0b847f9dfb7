"""The ``ruleslawyer`` command line.

Exit status: 0 clean, 1 violations found, 2 unusable input or usage,
3 internal error, 130 interrupted (Ctrl-C).  Bad input never shows a Python
traceback.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
import json
import sys
import textwrap
import traceback
from typing import Any, Callable, Sequence

from typing import TYPE_CHECKING

from ..spec.diagnostics import Diagnostic, DiagnosticError, RuleError
from ..spec.facts import FactError
from ..solver.errors import SolverError
from .textout import fit, json_text, terminal_width

if TYPE_CHECKING:
    from ..spec.model import Ruleset

# What a command needs is imported when it runs (the rule loader, the solver, Z3,
# numpy): ``ruleslawyer --version`` and ``--help`` load none of it
# (benchmarks/startup_bench.py measures it).

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: Ctrl-C: the shell's status for a command ended by SIGINT (128 + 2).
EXIT_INTERRUPTED = 130


class _Help(argparse.HelpFormatter):
    """Descriptions wrapped to the terminal; an epilog of examples kept line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return "\n".join(indent + line for para in text.split("\n")
                         for line in (textwrap.wrap(para, max(width - len(indent), 20), break_on_hyphens=False) or [""]))

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), max(width, 20), break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"ruleslawyer: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


@functools.lru_cache(maxsize=1)
def _example_game() -> str:
    """A bundled rule set to name in the examples of ``--help`` (the engine names no game)."""
    from ..spec.paths import bundled_dir

    try:
        return sorted(p.stem for p in bundled_dir().glob("*.yaml"))[0]
    except (IndexError, OSError, RuntimeError):  # pragma: no cover - no bundled rules
        return "GAME"


def _sub(sub: Any, name: str, summary: str, description: str, examples: Sequence[str]) -> argparse.ArgumentParser:
    """A subcommand with its summary, a description and examples (``--help`` shows them)."""
    game = _example_game()
    epilog = "examples:\n" + "\n".join(f"  {e}".replace("{game}", game) for e in examples)
    return sub.add_parser(name, help=summary, description=description, epilog=epilog,
                          formatter_class=_Help)


FORMAT_HELP = "text (default) or json"


class OnceEach(argparse.Action):
    """A repeatable option taking one value each time (``--house a --house b``), so that it
    never takes the positional arguments after it; the same value twice is a usage error
    (an overlay applies once)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given = list(getattr(namespace, self.dest, None) or [])
        if values in given:
            parser.error(f"{option_string} {values} is given twice (each overlay applies once)")
        setattr(namespace, self.dest, [*given, values])


def add_house_option(p: argparse.ArgumentParser, help_text: str, flag: str = "--house", dest: str | None = None,
                     required: bool = False) -> None:
    """``--house FILE``, once per overlay (see :class:`OnceEach`)."""
    p.add_argument(flag, action=OnceEach, default=[], metavar="FILE", required=required,
                   help=f"{help_text}; once per overlay (e.g. {flag} a.yaml {flag} b.yaml)",
                   **({"dest": dest} if dest else {}))


def _house(p: argparse.ArgumentParser, what: str) -> None:
    add_house_option(p, f"a house-rule overlay to play {what} with, by name or file, besides the ones the log names")


def _viewpoint(p: argparse.ArgumentParser) -> None:
    view = p.add_mutually_exclusive_group()
    view.add_argument("--as", dest="viewer", metavar="NAME",
                      help="a player's viewpoint: the public facts and that player's own (e.g. --as Gordon)")
    view.add_argument("--omniscient", action="store_true",
                      help="every fact, hidden ones included (default: a spectator's, the public facts only)")


def build_parser(plugins: bool = True) -> argparse.ArgumentParser:
    """The command line; ``plugins=False``: the checker's own commands alone (the lab's, found
    through the installed packages' entry points, left out: reading them imports
    ``importlib.metadata``, a tenth of a ``check``)."""
    top = _Parser(prog="ruleslawyer", formatter_class=_Help,
                  description="Rules-as-data verifier for hidden-information deduction games.",
                  epilog="examples:\n  ruleslawyer check game.yaml\n  ruleslawyer solve game.yaml --as Gordon\n"
                         "  ruleslawyer COMMAND --help    (every command's options, with examples)")
    from .. import __version__

    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                     help="the version of ruleslawyer, then exit")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser,
                             help="what to do (ruleslawyer COMMAND --help for its options)")
    sub.required = True

    rules = _sub(sub, "rules", "validate, show, draw or explain rule files",
                 "Rule files and house-rule overlays: check them, show a resolved variant, draw its "
                 "state machine, or say where a rule comes from.",
                 ["ruleslawyer rules validate rules/{game}.yaml rules/house/*.yaml",
                  "ruleslawyer rules show {game} --variant 5p --house house.yaml",
                  "ruleslawyer rules explain {game} MOVE/REQUIREMENT"])
    rsub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND", parser_class=_Parser,
                                help="what to do with the rules (e.g. show)")
    rsub.required = True
    val = _sub(rsub, "validate", "check rule files and house overlays",
               "Load each file and report every problem (exit status 2 when one is found).",
               ["ruleslawyer rules validate rules/{game}.yaml", "ruleslawyer rules validate {game} house.yaml"])
    val.add_argument("files", nargs="+", metavar="FILE",
                     help="rule files or overlays, by path or bundled name (e.g. {game} house.yaml)")
    val.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    for name, helptext, desc, examples in (
            ("show", "the resolved variant: every number and option and where it was set",
             "The resolved rule set: its canonical name, every parameter and option with the file and "
             "line that set it, the components, phases and moves.",
             ["ruleslawyer rules show {game}", "ruleslawyer rules show {game} --variant 5p --house house.yaml",
              "ruleslawyer rules show {game} --format json"]),
            ("graph", "the state machine as a diagram",
             "The phases and moves as a Mermaid or Graphviz diagram.",
             ["ruleslawyer rules graph {game}", "ruleslawyer rules graph {game} --format dot | dot -Tsvg"]),
            ("explain", "where a rule comes from: its check and the rulebook sentence it cites",
             "A rule (MOVE/REQUIREMENT, its code, a parameter, an option or a scoring step) with what it "
             "checks and the rulebook sentence it cites; without RULE, the list of rules.",
             ["ruleslawyer rules explain {game}", "ruleslawyer rules explain {game} MOVE/REQUIREMENT",
              "ruleslawyer rules explain {game} CODE"])):
        p = _sub(rsub, name, helptext, desc, examples)
        p.add_argument("rules", metavar="NAME_OR_FILE", help="a bundled rule set by name, or a rule file (e.g. {game})")
        p.add_argument("--variant", help="the variant: its name or a number of players (e.g. 5p, or 5)")
        add_house_option(p, "a house-rule overlay, by name or file")
        if name == "show":
            p.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
        elif name == "explain":
            p.add_argument("rule", nargs="?", metavar="RULE",
                           help="MOVE/REQUIREMENT id, code, parameter, option or scoring step (e.g. a code)")
        else:
            p.add_argument("--format", choices=("mermaid", "dot"), default="mermaid",
                           help="mermaid (default) or dot (Graphviz)")

    check = _sub(sub, "check", "check recorded game logs",
                 "Replay each log through the rules and report every violation, one error per mistake "
                 "(file:line:col: error[CODE]: move N: message); a partial log ends with what comes next. "
                 "With --fix, the edits the checker is sure of are made in the log (the rest stay diagnostics). "
                 "Exit status: 0 clean (with --fix: once fixed), 1 violations, 2 unusable input.",
                 ["ruleslawyer check game.yaml", "ruleslawyer check game.yaml --house house.yaml --format json",
                  "ruleslawyer check examples/{game}/*.yaml --strict",
                  "ruleslawyer check --diff game.yaml", "ruleslawyer check --fix game.yaml"])
    check.add_argument("logs", nargs="+", metavar="LOG", help="game log files (YAML)")
    check.add_argument("--strict", action="store_true", help="stop at the first violation")
    mend = check.add_mutually_exclusive_group()
    mend.add_argument("--fix", action="store_true",
                      help="make the one edit each diagnostic suggests when the checker is sure of it (two moves "
                           "swapped, a missing pass, a move too many, the seating, a name's spelling), rewrite the "
                           "log in place and print the diff; the rest stay diagnostics (e.g. check --fix game.yaml)")
    mend.add_argument("--diff", action="store_true",
                      help="print the edits --fix would make as a unified diff; write nothing "
                           "(e.g. check --diff game.yaml)")
    _house(check, "every log")
    check.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    _allow_path(check)

    fmt = _sub(sub, "fmt", "rewrite logs in canonical form (names as printed, quotes only where needed)",
               "Rewrite each log in place with every name spelt as printed (aliases and other cases "
               "respelt) and strings quoted only where YAML needs it; comments, key order, line ends and "
               "every other byte stay.  The result is read again and must record the same game, else "
               "nothing is written.  Exit status: 0 done (with --check: every log formatted), 1 with "
               "--check when a log would be reformatted, 2 unusable input.",
               ["ruleslawyer fmt game.yaml", "ruleslawyer fmt --check examples/{game}/*.yaml",
                "ruleslawyer fmt --diff game.yaml", "ruleslawyer fmt game.yaml --format json"])
    fmt.add_argument("logs", nargs="+", metavar="LOG", help="game log files (YAML)")
    fmt.add_argument("--check", action="store_true",
                     help="write nothing; exit status 1 when a log is not formatted (for pre-commit)")
    fmt.add_argument("--diff", action="store_true", help="write nothing; print what would change as a unified diff")
    _house(fmt, "every log")
    fmt.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    _allow_path(fmt)

    explain = _sub(sub, "explain", "what a diagnostic code means",
                   "What a code means, the rule behind it with its citation, and a minimal example log.",
                   ["ruleslawyer explain CODE", "ruleslawyer explain CODE --rules house.yaml"])
    explain.add_argument("code", help="a diagnostic code (e.g. LG110, RL101)")
    explain.add_argument("--rules", metavar="NAME_OR_FILE",
                         help="look the code up in this rule set (default: every bundled one)")

    solve = _sub(sub, "solve", "what is still possible after a log, from a seat",
                 "Replay a log and answer from a viewpoint: how many solutions remain, each card's status "
                 "and chance, why a card is certain (--explain), when each player could have known "
                 "(--hindsight), what the others know (--others).  A log with errors is said so first, and the exit status is 1.",
                 ["ruleslawyer solve game.yaml", "ruleslawyer solve game.yaml --as Gordon --at 12",
                  "ruleslawyer solve game.yaml --explain CARD", "ruleslawyer solve game.yaml --hindsight --format json",
                  "ruleslawyer solve game.yaml --as Gordon --others"])
    solve.add_argument("log", metavar="LOG", help="a game log file (YAML), complete or partial")
    _viewpoint(solve)
    solve.add_argument("--at", type=int, metavar="MOVE", help="after this move (1-based; default: the last; e.g. --at 12)")
    solve.add_argument("--explain", metavar="CARD",
                       help="why a card is certain or ruled out, by its name or any alias (e.g. --explain CARD)")
    solve.add_argument("--hindsight", action="store_true",
                       help="for the spectator and each player, the first move after which the solution was known")
    solve.add_argument("--others", action="store_true",
                       help="from the seat (--as), each other player's chance of already knowing the solution and "
                            "the move at which they first could have (e.g. solve game.yaml --as Gordon --others)")
    solve.add_argument("--list", type=int, default=10, metavar="N",
                       help="list the solutions when at most N remain (default 10; e.g. --list 50)")
    _house(solve, "the log")
    solve.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)

    schema = _sub(sub, "schema", "the JSON Schema of logs for a rule set (for editors)",
                  "Write to standard output the JSON Schema of a game log for one resolved rule set: each "
                  "move its own subschema with its parameters, names as enums (aliases included), so that "
                  "an editor (yaml-language-server) completes and checks moves as they are typed.",
                  ["ruleslawyer schema {game} > {game}.log.schema.json",
                   "ruleslawyer schema {game} --variant 5p --players Ann Ben Cat Dan Eve",
                   "then, as the first line of a log:",
                   "  # yaml-language-server: $schema={game}.log.schema.json"])
    schema.add_argument("rules", metavar="RULES", help="a bundled rule set by name, or a rule file (e.g. {game})")
    schema.add_argument("--variant", help="the variant: its name or a number of players (e.g. 5p)")
    add_house_option(schema, "a house-rule overlay, by name or file")
    schema.add_argument("--players", nargs="+", metavar="NAME",
                        help="the players' names, to complete and check them too (e.g. --players Ann Ben Cat Dan)")

    show = _sub(sub, "show", "the table at a move, as text or SVG",
                "The table after a move: the spaces with their tokens, what is covered, the counts the "
                "rules keep, who is out and whose turn, each player's known and possible cards, and the "
                "chances of every card from a seat.  Text fits the terminal; --format svg draws it.",
                ["ruleslawyer show game.yaml", "ruleslawyer show game.yaml --at 12 --as Gordon",
                 "ruleslawyer show game.yaml --format svg > move-12.svg",
                 "ruleslawyer show game.yaml --sheet --as Gordon"])
    show.add_argument("log", metavar="LOG", help="a game log file (YAML), complete or partial")
    show.add_argument("--at", type=int, metavar="MOVE", help="after this move (0: the deal; default: the last; e.g. --at 12)")
    _viewpoint(show)
    _house(show, "the log")
    show.add_argument("--format", choices=("text", "json", "svg"), default="text",
                      help="text (default), json or svg (an image)")
    show.add_argument("--sheet", action="store_true",
                      help="the note sheet instead of the table: each card against each hand and zone, held, "
                           "not held or its chance, from the seat (e.g. --sheet --as Gordon)")

    report = _sub(sub, "report", "one HTML page that steps through a game",
                  "Write one self-contained HTML page (no network) that steps through the game move by "
                  "move, with the table and the chances after each move, the log's comments, and a graph of "
                  "the solutions left and their entropy. Every seat is in the page (the spectator and each "
                  "player the log has private facts of: a switcher); --as or --omniscient picks the one "
                  "shown first. game.html#12 opens at move 12. With --advice, each move is reviewed from its "
                  "mover's seat: the best move by information beside the move played, its grade, and each "
                  "player's accuracy (printed too).",
                  ["ruleslawyer report game.yaml -o game.html", "ruleslawyer report game.yaml -o game.html --as Gordon",
                   "ruleslawyer report game.yaml -o game.html --advice --format json",
                   "ruleslawyer report game.yaml -o game.html --advice --advice-budget 2000"])
    report.add_argument("log", metavar="LOG", help="a game log file (YAML), complete or partial")
    report.add_argument("-o", "--output", metavar="FILE", required=True, help="the HTML file to write (e.g. -o game.html)")
    _viewpoint(report)
    _house(report, "the log")
    report.add_argument("--advice", action="store_true",
                        help="review every move from its mover's seat: the best move by information beside the move "
                             "played, inaccuracies, mistakes and blunders, each player's accuracy; one advice a move, "
                             "so slow (e.g. report game.yaml -o game.html --advice)")
    report.add_argument("--advice-budget", metavar="N",
                        help="with --advice: solver counts at most for each move's advice (default 400); past it the "
                             "best move is the best of a sample of the choices (e.g. --advice-budget 2000)")
    report.add_argument("--format", choices=("text", "json"), default="text",
                        help="what is printed once the page is written: text (default) or json (e.g. --format json)")

    play = _sub(sub, "play", "record a game as it is played, move by move",
                "An interactive recorder: shows whose turn it is and the legal moves, reads a move in the "
                "log's own syntax (Tab completes names), checks it at once and appends it to the log file "
                "(atomically: a crash or Ctrl-C never loses a recorded move).  Commands: undo, moves, "
                "solve [NAME], show [NAME], hint [NAME] (the best moves for the player to move), "
                "private KEY: VALUE, help, quit.  A new LOG needs --rules and "
                "--players (and --setup when the rules want a setup: section).",
                ["ruleslawyer play game.yaml --rules {game} --players Ann Ben Cat Dan",
                 "ruleslawyer play game.yaml --rules {game} --players Ann Ben Cat\n"
                 "      --setup 'colours: {Ann: Yellow, Ben: Blue, Cat: Green}'\n"
                 "      --private 'hand: {Ann: [Rope, Hall]}'   (records the rules declare)",
                 "ruleslawyer play game.yaml            (go on with a log already started)",
                 "then type a move in the log's syntax:  MOVE: PLAYER, PARAM: VALUE"])
    play.add_argument("log", metavar="LOG", help="the game log file to append to (created when missing)")
    play.add_argument("--rules", metavar="NAME_OR_FILE", help="for a new log: the rule set (e.g. --rules {game})")
    play.add_argument("--players", nargs="+", metavar="NAME",
                      help="for a new log: the players in seating order, clockwise (e.g. --players Ann Ben Cat)")
    play.add_argument("--first", metavar="NAME", help="for a new log: who starts (default: the first player)")
    play.add_argument("--variant", help="for a new log: the variant (default: from the number of players)")
    play.add_argument("--as", dest="viewer", metavar="NAME",
                      help="the seat this session asks from: the default of show, solve and hint at the prompt "
                           "(default: a spectator; e.g. --as Ann)")
    add_house_option(play, "for a new log: a house-rule overlay")
    play.add_argument("--setup", action="append", default=[], metavar="RECORD",
                      help="for a new log: a record of its setup: section, one line KEY: VALUE (repeatable; "
                           "e.g. --setup 'colours: {Ann: Yellow, Ben: Blue, Cat: Green}')")
    play.add_argument("--private", action="append", default=[], metavar="RECORD",
                      help="for a new log: a record of its private: section, what you know of the deal, so that "
                           "solve from your seat uses it (repeatable; e.g. --private 'hand: {Ann: [Rope, Hall]}'; "
                           "during a session: private KEY: VALUE)")
    for p in (solve, show, report, play):
        _allow_path(p)
    for plugin in _plugins() if plugins else ():
        plugin.add_commands(sub)
    _name_examples(top, _example_game())
    return top


@functools.lru_cache(maxsize=1)
def _plugins() -> tuple[Any, ...]:
    """Command sets installed beside the checker (entry points ``ruleslawyer.commands``):
    each module has ``add_commands(subparsers)`` and ``HANDLERS`` (command -> handler).
    Looked up once per process (the installed packages' metadata is read to find them)."""
    from importlib.metadata import entry_points

    found = []
    for ep in sorted(entry_points(group="ruleslawyer.commands"), key=lambda e: e.name):
        found.append(ep.load())
    return tuple(found)


def _allow_path(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                        help="a folder (besides the log's own) where the rule files and overlays a log "
                             "names may be (repeatable; e.g. --allow-path ../rules)")


def _name_examples(parser: argparse.ArgumentParser, game: str) -> None:
    """``{game}`` in every help text of the parser and its subcommands: a bundled rule set."""
    for action in parser._actions:
        if action.help and "{game}" in action.help:
            action.help = action.help.replace("{game}", game)
        for sub in getattr(action, "choices", None) or {}:
            if isinstance(action.choices, dict) and isinstance(action.choices[sub], argparse.ArgumentParser):
                _name_examples(action.choices[sub], game)


class _Interrupts:
    """Ctrl-C, wherever it lands, ends the command as an interrupt.

    Python runs a finaliser (``__del__``, a weakref callback) with any
    exception it raises sent to ``sys.unraisablehook`` and dropped: a Ctrl-C
    that lands in one (Z3's objects are freed often) would be lost, or its
    half-done clean-up would print a traceback.  Inside this context a
    swallowed ``KeyboardInterrupt`` is sent again to the process, and after
    an interrupt the finalisers' errors are not printed (the process is
    ending).
    """

    def __init__(self) -> None:
        self.seen = False
        self._hook: Any = None
        self._handler: Any = None

    def __enter__(self) -> "_Interrupts":
        import signal

        self._hook = sys.unraisablehook
        sys.unraisablehook = self._unraisable
        try:
            self._handler = signal.signal(signal.SIGINT, self._on_signal)
        except (ValueError, OSError):  # not the main thread: the default handler stays
            self._handler = None
        return self

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.seen = True
        if frame is not None and frame.f_code is _Interrupts._unraisable.__code__:
            self._resend()  # raised here, the hook's caller would drop it
            return
        raise KeyboardInterrupt

    def _resend(self) -> None:
        # Not os.kill here: the handler would run inside this very hook, and be dropped with it.
        import os
        import signal
        import threading

        timer = threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGINT))
        timer.daemon = True
        timer.start()

    def _unraisable(self, info: Any) -> None:
        if isinstance(info.exc_value, KeyboardInterrupt):
            self.seen = True
            self._resend()
        elif not self.seen:
            self._hook(info)

    def __exit__(self, kind: Any, *exc: Any) -> None:
        import signal

        if kind is not None and issubclass(kind, KeyboardInterrupt):
            self.seen = True
        if self._handler is not None:
            try:
                signal.signal(signal.SIGINT, self._handler)
            except (ValueError, OSError):  # pragma: no cover
                pass
        if not self.seen:  # after an interrupt, finalisers still to run stay quiet
            sys.unraisablehook = self._hook


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with _Interrupts():
            return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C anywhere, the parser included: one line, 130
        return interrupted()


def interrupted() -> int:
    """Say that the command was interrupted (once, a second Ctrl-C ignored); the exit status."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not break the line
    except (ValueError, OSError):  # pragma: no cover - not the main thread
        pass
    try:
        print("ruleslawyer: interrupted", file=sys.stderr)
    except (OSError, ValueError):  # pragma: no cover - standard error closed
        pass
    return EXIT_INTERRUPTED


@functools.lru_cache(maxsize=2)
def _parser(plugins: bool = True) -> argparse.ArgumentParser:
    """The command line's parser, built once per process (a program running many commands in
    one process, as the tests do, parses each with it; parsing leaves it as it was)."""
    return build_parser(plugins)


def _main(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "rules": _rules, "check": _check, "fmt": _format_logs, "explain": _explain, "solve": _solve, "schema": _schema,
        "show": _show, "report": _report, "play": _play,
    }
    own = bool(words) and words[0] in handlers  # one of the checker's commands: no plugin needed
    parser = _parser(not own)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code not in (None, 0) else 0
    for plugin in () if own else _plugins():
        handlers.update(plugin.HANDLERS)
    try:
        from ..spec.paths import allowed_folder

        for folder in getattr(args, "allow_path", None) or ():
            allowed_folder(folder)
        return handlers[args.command](args)
    except DiagnosticError as exc:
        _print_diagnostics(exc.diagnostics, getattr(args, "format", "text"))
        return EXIT_USAGE
    except (RuleError, FactError) as exc:  # a rule of the rule file failed while a command ran it
        from .check import LIMIT, rule_failure

        # (a FactError: a fact a rule built cannot be counted, e.g. a choice among 0 where it holds)
        diagnostic = rule_failure(exc if isinstance(exc, RuleError) else RuleError(str(exc)))
        _print_diagnostics([diagnostic], getattr(args, "format", "text"))
        return EXIT_USAGE if diagnostic.code == LIMIT else EXIT_INTERNAL
    except SolverError as exc:  # a limit of the solver (too many worlds...)
        _print_diagnostics([Diagnostic("RL160", str(exc), None)], getattr(args, "format", "text"))
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_CLEAN
    except Exception as exc:  # noqa: BLE001 - the last line of defence: say so, exit 3
        from .interrupts import is_interrupt

        if is_interrupt(exc):  # a Ctrl-C that ctypes wrapped (see checker/interrupts.py)
            raise KeyboardInterrupt from exc
        print("ruleslawyer: internal error (please report it with the input that caused it):", file=sys.stderr)
        print(traceback.format_exc(limit=-3), file=sys.stderr)
        return EXIT_INTERNAL


def _print_diagnostics(diags: Sequence[Diagnostic], fmt: str) -> None:
    if fmt == "json":
        print(json_text([d.to_json() for d in diags], indent=1))
    else:
        for d in diags:
            print(fit(d.format_text()))


# -- rules -----------------------------------------------------------------

def _rules(args: argparse.Namespace) -> int:
    if args.rules_command == "validate":
        status, all_diags = EXIT_CLEAN, []
        checks = [check for plugin in _plugins() for check in getattr(plugin, "VALIDATORS", ())]

        def further(rules: Any) -> list[Diagnostic]:  # the installed command sets' checks (warnings)
            return [d for check in checks for d in check(rules)]

        for path in args.files:
            from ..spec.loader import validate_file

            diags = validate_file(path, further if checks else None)
            all_diags.extend(diags)
            if any(d.severity == "error" for d in diags):
                status = EXIT_USAGE
            elif args.format == "text":
                print(f"{path}: ok" + (f" ({len(diags)} warning(s))" if diags else ""))
        _print_diagnostics(all_diags, args.format) if all_diags or args.format == "json" else None
        return status
    from .capacity import load_usable

    rules = load_usable(args.rules, variant=args.variant, house=args.house)
    if args.rules_command == "show":
        if args.format == "json":
            print(json_text(show_json(rules), indent=1))
        else:
            print(show_text(rules, terminal_width()))
        return EXIT_CLEAN
    if args.rules_command == "explain":
        from .provenance import find, index, render

        if not args.rule:
            print(fit(index(rules, terminal_width())))
            return EXIT_CLEAN
        found = find(rules, args.rule)
        if not found:
            print(f"ruleslawyer: no rule '{args.rule}' in {rules.canonical_name} "
                  "(run 'ruleslawyer rules explain NAME' for the list)", file=sys.stderr)
            return EXIT_USAGE
        print(fit(render(rules, found)))
        return EXIT_CLEAN
    from .graph import dot, mermaid

    print(mermaid(rules) if args.format == "mermaid" else dot(rules), end="")  # a diagram's source: not wrapped
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


def show_text(rules: Ruleset, width: int = 80) -> str:
    """The resolved rule set for ``width`` columns: a setting and where it was set on one
    line when they fit, else the place on the next line."""
    def row(name: str, name_w: int, value: str, value_w: int, where: str) -> list[str]:
        head = f"  {name:<{name_w}}  {value}"
        one = f"  {name:<{name_w}}  {value:<{value_w}}  {where}"
        return [one] if len(one) <= width else [head, f"  {'':<{name_w}}  {where}"]

    lines = [f"{rules.canonical_name} — {rules.title}, variant {rules.variant}"]
    if rules.house:
        lines.append("house rules: " + ", ".join(rules.house))
    lines.append("files:")
    lines.extend(f"  {f}" for f in rules.files)  # one a line: the settings below name them by file name
    lines.append("")
    lines.append("parameters:")
    name_w = max(len(n) for n in rules.params)
    value_w = max(len(_fmt(s.value)) for s in rules.params.values())
    for n, s in rules.params.items():
        lines += row(n, name_w, _fmt(s.value), value_w, f"{s.set_by} {_where(s.position)}".rstrip())
    lines.append("")
    lines.append("options:")
    name_w = max((len(n) for n in rules.options), default=0)
    values = {n: _fmt(o.value) + ("" if o.value == o.default else f" (default {_fmt(o.default)})")
              for n, o in rules.options.items()}
    value_w = max((len(v) for v in values.values()), default=0)
    for n, o in rules.options.items():
        lines += row(n, name_w, values[n], value_w, f"{o.set_by} {_where(o.position)}".rstrip())
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
    return fit("\n".join(lines), width)


def _where(pos: Any) -> str:
    """A position by its file's name (the files are listed in full above it), line and column."""
    if not pos:
        return ""
    return f"{Path(pos.path).name}:{pos.line}:{pos.column}" if pos.line else Path(pos.path).name


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


# -- check, explain, solve ------------------------------------------------------

def _check(args: argparse.Namespace) -> int:
    from .check import check_log

    if args.fix or args.diff:
        from .checkfix import run_check_fix

        return run_check_fix(args)

    reports = [check_log(path, strict=args.strict, allow=args.allow_path, house=tuple(args.house))
               for path in args.logs]
    if args.format == "json":
        print(json_text([r.to_json() for r in reports], indent=1))
    else:
        for r in reports:
            print(fit(r.format_text()))
    return max((r.status for r in reports), default=EXIT_CLEAN)


def _format_logs(args: argparse.Namespace) -> int:
    from .fmt import run_fmt

    return _allowed(run_fmt, args)


def _explain(args: argparse.Namespace) -> int:
    from ..spec.codes import explain_generic
    from ..spec.loader import load_rules

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
    print(fit(text))
    return EXIT_CLEAN


def _solve(args: argparse.Namespace) -> int:
    from ..spec.paths import ALLOWED
    from .solve import run_solve

    token = ALLOWED.set(tuple(args.allow_path))
    try:
        return run_solve(args)
    finally:
        ALLOWED.reset(token)


def _allowed(run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command that reads a log with the folders ``--allow-path`` adds."""
    from ..spec.paths import ALLOWED

    token = ALLOWED.set(tuple(getattr(args, "allow_path", ()) or ()))
    try:
        return run(args)
    finally:
        ALLOWED.reset(token)


def _schema(args: argparse.Namespace) -> int:
    from ..spec.loader import load_rules
    from ..spec.logschema import rules_log_schema

    rules = load_rules(args.rules, variant=args.variant, house=args.house)
    print(json_text(rules_log_schema(rules, players=args.players), indent=1))
    return EXIT_CLEAN


def _show(args: argparse.Namespace) -> int:
    from .table import run_show

    return _allowed(run_show, args)


def _report(args: argparse.Namespace) -> int:
    from .htmlreport import run_report

    return _allowed(run_report, args)


def _play(args: argparse.Namespace) -> int:
    from .recorder import run_play

    return _allowed(run_play, args)
