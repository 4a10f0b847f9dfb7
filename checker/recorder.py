"""``ruleslawyer play``: record a game at the table, one move at a time.

The recorder shows whose turn it is and the moves that are legal, reads a
move in the log's own syntax (``{MOVE: PLAYER, PARAM: VALUE}``, braces
optional; names are completed with Tab on a terminal), checks it at once
against the whole log so far, and appends it to the log file only when it
breaks no rule.  The log keeps its author's formatting: a move is one new
line after the last move, never a re-dump of the YAML.  Every save writes a
temporary file in the same folder, flushes it to disk and renames it over
the log (:mod:`checker.files`), with Ctrl-C held off meanwhile: a crash or
an interrupt never loses or corrupts a recorded move.

It works for any rule file: what it knows of the game (the moves, their
parameters, the names) comes from the rules the log names.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from ..solver import queries
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position
from ..spec.source import LMap, parse_text, read_yaml
from .check import check_parsed, number_moves
from .consistency import solve_view
from .files import stale_temporaries, write_atomically
from .log import parse_log_text
from .nextmoves import next_lines, what_next
from .replay import replay
from .textout import fit, terminal_width
from .writer import scalar

__all__ = ["run_play", "Recorder", "append_move", "remove_last_move", "new_log"]

HELP = """commands:
  a move, in the log's syntax:  MOVE: PLAYER   or   {MOVE: PLAYER, PARAM: VALUE}
  moves            the moves that are legal now
  undo             remove the last move of the log
  show [NAME]      the table now, seen by NAME (default: a spectator; 'all' for everything)
  solve [NAME]     what is still possible, seen by NAME (the same seats)
  help             this list
  quit             leave (every move recorded is already saved; Ctrl-D too)"""


# -- the log's text ------------------------------------------------------------------------


def new_log(rules: str, players: list[str], first: str | None = None, variant: str | None = None,
            house: list[str] | None = None) -> str:
    """The header of a new log, with an empty list of moves."""
    lines = [f"rules: {scalar(rules)}"]
    if variant:
        lines.append(f"variant: {scalar(variant)}")
    if house:
        lines.append("house: [" + ", ".join(scalar(h) for h in house) + "]")
    lines.append("players: [" + ", ".join(scalar(p) for p in players) + "]")
    if first:
        lines.append(f"first: {scalar(first)}")
    lines.append("moves: []")
    return "\n".join(lines) + "\n"


def _moves_block(text: str) -> tuple[list[str], int | None, int, list[int]]:
    """(lines, index of the ``moves:`` line, index just past its block, item start indexes)."""
    doc = parse_text(text, "<log>")
    lines = text.split("\n")
    if not isinstance(doc, LMap) or "moves" not in doc:
        return lines, None, len(lines), []
    key = doc.key_position("moves")
    start = key.line - 1 if key else None
    after = [doc.key_position(k).line - 1 for k in doc if doc.key_position(k) and start is not None
             and doc.key_position(k).line - 1 > start]
    end = min(after) if after else len(lines)
    seq = doc["moves"]
    items = [seq.pos_of(i).line - 1 for i in range(len(seq))] if isinstance(seq, list) and seq else []
    return lines, start, end, items


def _last_content(lines: list[str], lo: int, hi: int) -> int:
    """The last line in [lo, hi) that is neither blank nor only a comment (lo when none)."""
    for n in range(hi - 1, lo - 1, -1):
        stripped = lines[n].strip()
        if stripped and not stripped.startswith("#"):
            return n
    return lo


def append_move(text: str, move: str) -> tuple[str, int]:
    """The log with one more move line after the last move; (new text, its 1-based line)."""
    if not text.endswith("\n"):
        text += "\n"
    lines, start, end, items = _moves_block(text)
    if lines and lines[-1] == "":
        lines = lines[:-1]
        end = min(end, len(lines))
    if start is None:  # no moves: key: one before end:, if there is one
        at = next((n for n, line in enumerate(lines) if re.match(r"^end\s*:", line)), len(lines))
        lines[at:at] = ["moves:", f"  - {move}"]
        return "\n".join(lines) + "\n", at + 2
    if items:
        indent = re.match(r"^(\s*)-", lines[items[-1]])
        prefix = indent.group(1) if indent else "  "
        at = _last_content(lines, items[-1], end) + 1
    else:
        lines[start] = re.sub(r"^(moves\s*:)\s*\[\s*\]", r"\1", lines[start])
        prefix = "  "
        at = start + 1
    lines.insert(at, f"{prefix}- {move}")
    return "\n".join(lines) + "\n", at + 1


def remove_last_move(text: str) -> str | None:
    """The log without its last move (None when it has none)."""
    lines, start, end, items = _moves_block(text)
    if start is None or not items:
        return None
    last = _last_content(lines, items[-1], end)
    del lines[items[-1]:last + 1]
    if len(items) == 1:
        lines[start] = re.sub(r"^(moves\s*:)\s*$", r"\1 []", lines[start].rstrip())
    return "\n".join(lines)


# -- the session -------------------------------------------------------------------------------


@contextmanager
def _no_interrupt() -> Iterator[None]:
    """Ctrl-C held off while a save is under way (delivered after it)."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not the main thread / no signals
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Recorder:
    """One log file, its rules and its replay, kept up to date with every move."""

    def __init__(self, path: Path, house: tuple[str, ...] = (), out: TextIO | None = None):
        self.path = path
        self.house = house
        self.out = out
        self.text = ""
        self.load()

    def say(self, text: str = "") -> None:
        print(fit(text, terminal_width()), file=self.out or sys.stdout, flush=True)

    def load(self) -> None:
        read_yaml(str(self.path))  # a file the checker reads (regular, bounded, UTF-8), or its diagnostic
        self.text = self.path.read_text(encoding="utf-8-sig")
        self.log, self.rules = parse_log_text(self.text, str(self.path), house=self.house)
        self.rep = replay(self.log, self.rules)

    @property
    def number(self) -> int:
        return len(self.log.moves) + 1

    def status(self) -> str:
        state = self.rep.state
        errors = self.rep.reporter.errors
        lines = []
        if errors:
            lines.append(f"(the log has {len(errors)} error(s) before this point: 'ruleslawyer check "
                         f"{self.path}' says where)")
        if state.ended:
            lines.append(f"the game is over after {len(self.log.moves)} moves")
        else:
            lines.extend(next_lines(what_next(self.rep.machine, state, self.number)))
        return "\n".join(lines)

    def prompt(self) -> str:
        state = self.rep.state
        return f"move {self.number} ({'over' if state.ended else state.turn})> "

    # -- a move --------------------------------------------------------------------------
    def normalise(self, line: str) -> str:
        text = line.strip()
        if text.startswith("- "):
            text = text[2:].strip()
        if not text.startswith("{"):
            text = "{" + text + "}"
        return text

    def try_move(self, line: str) -> bool:
        """Check a move against the log so far; record it when it breaks no rule."""
        move = self.normalise(line)
        try:
            parsed = parse_text(move, "<move>")
        except DiagnosticError as exc:
            self.say("not a move: " + "; ".join(d.message for d in exc.diagnostics))
            return False
        kinds = {k.lower() for k in self.rules.moves}
        if not isinstance(parsed, LMap) or not any(str(k).lower() in kinds for k in parsed):
            self.say(f"not a move: a move is one of {', '.join(self.rules.moves)}, written as in the log, "
                     f"e.g. {self.example()} ('help' for the commands)")
            return False
        candidate, line_no = append_move(self.text, move)
        try:
            log, rules = parse_log_text(candidate, str(self.path), house=self.house)
        except DiagnosticError as exc:
            mine = [d for d in exc.diagnostics if d.position is None or d.position.line == line_no] or list(exc.diagnostics)
            self.say("not recorded:")
            for d in mine:
                self.say(_here(d, line_no))
            return False
        report = check_parsed(log, rules)
        number_moves(report.diagnostics, log)
        mine = [d for d in report.errors if d.position is not None and d.position.line == line_no]
        if mine:
            self.say("not recorded, the move breaks a rule:")
            for d in mine:
                self.say(_here(d, line_no))
            return False
        self.save(candidate)
        self.say(f"recorded move {len(self.log.moves)}: {move}")
        return True

    def save(self, text: str) -> None:
        with _no_interrupt():
            write_atomically(self.path, text)
        self.load()

    def undo(self) -> None:
        before = remove_last_move(self.text)
        if before is None:
            self.say("there is no move to undo")
            return
        last = self.log.moves[-1].position.line if self.log.moves else 0
        removed = self.text.split("\n")[last - 1].strip() if last else ""
        self.save(before if before.endswith("\n") else before + "\n")
        self.say(f"removed: {removed}")

    def example(self) -> str:
        moves = what_next(self.rep.machine, self.rep.state, self.number)["moves"]
        return moves[0]["text"] if moves else "{" + next(iter(self.rules.moves)) + ": NAME}"

    # -- seats -----------------------------------------------------------------------------
    def seat(self, name: str) -> queries.Viewpoint | None:
        name = name.strip()
        if not name:
            return queries.Viewpoint.spectator()
        if name.lower() in ("all", "omniscient"):
            return queries.Viewpoint.omniscient()
        found = next((p for p in self.log.header.players if p.lower() == name.lower()), None)
        if found is None:
            self.say(f"no player '{name}': the players are {', '.join(self.log.header.players)}")
            return None
        return queries.Viewpoint.of_player(found)

    def show(self, name: str) -> None:
        from .table import render_text, view

        seat = self.seat(name)
        if seat is not None:
            self.say(render_text(view(self.rep, None, seat), terminal_width()))

    def solve(self, name: str) -> None:
        from .solve import render_text

        seat = self.seat(name)
        if seat is None or self.rules.deal is None or self.rules.deal.solution is None:
            if seat is not None:
                self.say("these rules hide no solution to solve")
            return
        result = solve_view(self.rep.deal, self.rep.facts(), seat, max_solutions=10)
        out = {"rules": self.rules.canonical_name, "viewpoint": seat.name, "after_move": len(self.log.moves),
               "errors": [], "solve": result.to_json()}
        width = terminal_width()
        self.say(render_text(self.rules, self.rep, out, width))

    # -- names for Tab -------------------------------------------------------------------------
    def words(self) -> list[str]:
        rules = self.rules
        words = [f"{m}: " for m in rules.moves]
        words += [f"{p.name}: " for m in rules.moves.values() for p in m.params]
        words += list(self.log.header.players)
        used = {c for m in rules.moves.values() for p in m.params
                for c in (tuple(getattr(p, "components", ()) or ()) or ((p.of,) if p.of else ()))}
        if rules.tokens is not None:
            used.add(rules.tokens.on)
        for comp in sorted(c for c in used if c in rules.components):
            for i in rules.components[comp].items:
                words += [rules.items[i].name, *rules.items[i].aliases]
        words += ["undo", "moves", "show ", "solve ", "help", "quit"]
        return list(dict.fromkeys(words))


def _here(d: Diagnostic, line: int) -> str:
    """A diagnostic about the move being tried: its position on the line it would have had."""
    text = d.format_text()
    return text.replace(f"{d.position}: ", f"(line {line}) ", 1) if d.position else text


def _completer(words: Callable[[], list[str]]) -> Callable[[str, int], str | None]:
    matches: list[str] = []

    def complete(text: str, state: int) -> str | None:
        nonlocal matches
        if state == 0:
            lead = text[:len(text) - len(text.lstrip())]
            stem = text.strip()
            known = words()
            matches = [lead + w for w in known if w.startswith(stem)] or \
                [lead + w for w in known if w.lower().startswith(stem.lower())]  # the case as typed first
        return matches[state] if state < len(matches) else None

    return complete


def _setup_readline(recorder: Recorder) -> None:
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python without readline: no Tab
        return
    readline.set_completer_delims("{},[]:")
    readline.set_completer(_completer(recorder.words))
    readline.parse_and_bind("tab: complete")


# -- the command -------------------------------------------------------------------------------


def run_play(args: argparse.Namespace) -> int:
    path = Path(args.log)
    for stale in stale_temporaries(path):  # a save killed before its rename: the log itself is whole
        try:
            stale.unlink()
        except OSError:
            pass
    if not path.exists():
        if not args.rules or not args.players:
            raise DiagnosticError([Diagnostic("RL010", f"{path} does not exist: a new log needs --rules and --players",
                                              Position(str(path)),
                                              hint="e.g. ruleslawyer play game.yaml --rules NAME --players Ann Ben Cat")])
        write_atomically(path, new_log(args.rules, list(args.players), args.first, args.variant, list(args.house)))
        created = True
    else:
        if args.rules or args.players or args.first or args.variant:
            print(f"ruleslawyer: {path} exists: its own header is used (--rules, --players, --first and "
                  "--variant are for a new log)", file=sys.stderr)
        created = False
    try:
        recorder = Recorder(path, tuple(args.house) if not created else ())
    except DiagnosticError as exc:
        if not created:
            raise
        path.unlink()  # a header these rules cannot use: leave nothing behind
        raise DiagnosticError([*exc.diagnostics, Diagnostic(
            "RL010", f"{path} was not created: these rules need more in a log's header than --rules and --players",
            Position(str(path)), hint="write the header by hand (see the examples of the game), then run play on it")]) from None
    interactive = sys.stdin.isatty()
    if interactive:
        _setup_readline(recorder)
    recorder.say(f"{'new log' if created else 'log'} {path}: {recorder.rules.canonical_name}, "
                 f"{len(recorder.log.moves)} moves so far ('help' for the commands)")
    recorder.say(recorder.status())
    while True:
        try:
            line = input(recorder.prompt()) if interactive else _read(recorder.prompt())
        except EOFError:
            recorder.say()
            break
        except KeyboardInterrupt:
            recorder.say("\n(interrupted: every move recorded is saved)")
            break
        if line is None:
            break
        command, _, rest = line.strip().partition(" ")
        word = command.lower()
        if not line.strip():
            continue
        if word in ("quit", "exit", "q"):
            break
        if word in ("help", "?"):
            recorder.say(HELP)
        elif word in ("moves", "legal"):
            recorder.say(recorder.status())
        elif word == "undo":
            recorder.undo()
            recorder.say(recorder.status())
        elif word == "show" and ":" not in line:
            recorder.show(rest)
        elif word == "solve" and ":" not in line:
            recorder.solve(rest)
        else:
            if recorder.try_move(line):
                recorder.say(recorder.status())
    recorder.say(f"{len(recorder.log.moves)} moves in {path}")
    return 0


def _read(prompt: str) -> str | None:
    """A line from a pipe (no terminal): the prompt is still written, for a script to wait on."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")
