"""``ruleslawyer play``: record a game at the table, one move at a time.

The recorder shows whose turn it is and the moves that are legal, reads a
move in the log's own syntax (``{MOVE: PLAYER, PARAM: VALUE}``, braces
optional; names are completed with Tab on a terminal), checks it at once
against the whole log so far, and appends it to the log file only when it
breaks no rule.  The log keeps its author's formatting (:mod:`checker.logedit`:
one new item after the last move, every other line as it was); its line
ends (CRLF) and byte-order mark are kept.

The log is a shared file, edited safely (:mod:`checker.files`): one session
at a time holds it (an advisory lock that says who holds it); before each
save the file on disk is compared with what was loaded (text added at its
end meanwhile is kept and the move checked again; any other change stops
the session, nothing written over it); each save writes a temporary file,
flushes it to disk and renames it over the log (the file a link points to),
with Ctrl-C and the ending signals held off until the move is saved and said
so.  A read-only log, or one with other names (hard links), is refused at
start; a write that fails ends the session with a diagnostic (exit status
2) and the move not recorded printed as the line to add.

A move typed without its player (``pass``) is the move of the player the
rules let make it now, the one whose turn it is first; names are saved as
printed (the rule file's spelling, the header's for a player), not as typed
(:mod:`checker.typed`).

It works for any rule file: what it knows of the game (the moves, their
parameters, the names) comes from the rules the log names.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import signal
import stat
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

from ..solver import queries
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean, printable
from ..spec.paths import ALLOWED, bare_name
from ..spec.source import LMap, parse_text, read_yaml
from .check import check_parsed, number_moves
from .consistency import solve_view
from .files import FileLock, LockHeld, real_path, remove_stale_temporaries, signals_held, write_atomically
from .interrupts import is_interrupt
from .log import parse_log_text
from .names import fold
from .logedit import LayoutError, add_record, append_at, append_move, new_log, record_key, remove_last, remove_last_move
from .nextmoves import next_lines, what_next
from .replay import replay
from .textout import fit, terminal_width
from .typed import missing_actor, respelt, with_actor

__all__ = ["run_play", "Recorder", "play_commands", "PlayCommand", "append_move", "remove_last_move", "new_log",
           "LayoutError", "EXIT_INTERRUPTED"]

#: The exit status of a session ended by Ctrl-C (128 + SIGINT, as a shell gives).
EXIT_INTERRUPTED = 130

#: The code of a log that play cannot edit safely (held, read-only, changed meanwhile...).
UNSAFE = "RL180"

HELP = """commands:
  a move, in the log's syntax:  MOVE: PLAYER   or   {MOVE: PLAYER, PARAM: VALUE}
  moves            the moves that are legal now
  undo             remove the last move of the log
  show [NAME]      the table now, seen by NAME (default: --as, else a spectator; 'all' for everything)
  solve [NAME]     what is still possible, seen by NAME (the same seats)
  private KEY: VALUE   record what you know of the deal in the log's private: section
                   (e.g. private hand: {Ann: [Rope, Hall]}), so that solve Ann uses it
{more}  help             this list
  quit             leave (every move recorded is already saved; Ctrl-D too)"""


# -- commands installed beside the checker's -------------------------------------------------

#: A command another package adds to the prompt: (its line in ``help``, its handler), the handler
#: called with the recorder and the rest of the line.
PlayCommand = tuple[str, Callable[["Recorder", str], None]]


def play_commands() -> dict[str, PlayCommand]:
    """The prompt's commands that command sets installed beside the checker add (entry points
    ``ruleslawyer.commands`` whose module has ``PLAY_COMMANDS``: the variant lab's ``hint``);
    the checker names none of them."""
    from importlib.metadata import entry_points

    found: dict[str, PlayCommand] = {}
    for ep in sorted(entry_points(group="ruleslawyer.commands"), key=lambda e: e.name):
        found.update(getattr(ep.load(), "PLAY_COMMANDS", None) or {})
    return found


# -- the session -------------------------------------------------------------------------------

_BOM = b"\xef\xbb\xbf"


class _Unsaved(Exception):
    """A save that did not happen: the session ends (exit status 2), nothing written over the log."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _unsafe(path: Path, st: os.stat_result) -> tuple[str, str] | None:
    """Why a log is not play's to rewrite, with a hint (None when it is)."""
    if not stat.S_ISREG(st.st_mode):
        return f"{path} is not a regular file", "play records in a plain file"
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        return (f"{path} is read-only (mode {stat.S_IMODE(st.st_mode):04o}): play does not rewrite it",
                f"make it writable (chmod u+w {path}) to record in it; 'ruleslawyer show {path}' follows a "
                "game without writing")
    if st.st_nlink > 1:
        return (f"{path} has {st.st_nlink} names (hard links): a save writes a new file and renames it over "
                "the log, which would leave the other names with the old text",
                f"record in a copy (cp {path} NEW.yaml), or remove the other names first")
    return None


def _write_problem(path: Path, exc: OSError) -> Diagnostic:
    """A write that failed, as a diagnostic (RL001, as for every file ruleslawyer cannot use)."""
    folder = path.parent if str(path.parent) else Path(".")
    hints = {errno.ENOENT: f"the folder {folder} does not exist", errno.ENOTDIR: f"{folder} is not a folder",
             errno.EACCES: f"the folder {folder} is not writable: each save writes a new file beside the log",
             errno.EPERM: f"the folder {folder} is not writable: each save writes a new file beside the log",
             errno.EROFS: f"{folder} is on a read-only file system",
             errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
             errno.EFBIG: "the file would be larger than this process may write"}
    return Diagnostic("RL001", f"cannot write {path}: {exc.strerror or exc}", Position(str(path)),
                      hint=hints.get(exc.errno or 0))


class Recorder:
    """One log file, its rules and its replay, kept up to date with every move.  The text is
    held with plain line ends; the file's own (CRLF) and its byte-order mark are put back on save."""

    def __init__(self, path: Path, house: tuple[str, ...] = (), out: TextIO | None = None):
        self.path = path
        self.viewer: str | None = None  # the seat the session asks from (--as): show, solve and hint's default
        self.extra: dict[str, PlayCommand] = {}
        self.real = real_path(path)
        self.house = house
        self.out = out
        self.text = ""
        self.loaded = b""
        self.bom = False
        self.crlf = False
        self.pending: tuple[str, str] | None = None  # ("move", text) being recorded, ("undo", text) being removed
        self.load()

    def say(self, text: str = "") -> None:
        print(fit(text, terminal_width()), file=self.out or sys.stdout, flush=True)

    def load(self, data: bytes | None = None) -> None:
        """Read the log (or take ``data``, its bytes read back before a save) and replay it."""
        if data is None:
            read_yaml(str(self.path))  # a file the checker reads (regular, bounded, UTF-8), or its diagnostic
            try:
                data = self.real.read_bytes()
            except OSError as exc:
                raise DiagnosticError([Diagnostic("RL001", f"cannot read {self.path}: {exc.strerror or exc}",
                                                  Position(str(self.path)))]) from None
        bom = data.startswith(_BOM)
        try:
            text = data[len(_BOM) if bom else 0:].decode("utf-8")
        except UnicodeDecodeError:
            raise DiagnosticError([Diagnostic("RL002", "bytes that are not UTF-8", Position(str(self.path)))]) from None
        crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
        if crlf:
            text = text.replace("\r\n", "\n")
        if re.search("\r(?!\n)", text):
            line = text.count("\n", 0, re.search("\r(?!\n)", text).start()) + 1
            raise DiagnosticError([Diagnostic(
                UNSAFE, f"{self.path} has a line that ends with a lone CR: play edits lines and does not know where "
                "this one ends", Position(str(self.path), line, 1), hint="end its lines with LF or CRLF")])
        log, rules = parse_log_text(text, str(self.path), house=self.house)
        self.log, self.rules = log, rules
        self.rep = replay(log, rules)
        self.text, self.loaded, self.bom, self.crlf = text, data, bom, crlf

    def encode(self, text: str) -> bytes:
        """The file's bytes for ``text``: its line ends and byte-order mark as they were."""
        body = (text.replace("\n", "\r\n") if self.crlf else text).encode("utf-8")
        return (_BOM if self.bom else b"") + body

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
            from .endgame import end_lines, end_view

            lines.append(f"the game is over after {len(self.log.moves)} moves")
            end = end_view(self.rep)
            if end is not None:  # the scores and the winner, as show gives them
                lines.extend(printable(line) for line in end_lines(end))
        else:
            lines.extend(next_lines(what_next(self.rep.machine, state, self.number)))
        return "\n".join(lines)

    def prompt(self) -> str:
        state = self.rep.state
        return f"move {self.number} ({'over' if state.ended else printable(state.turn)})> "

    # -- saving ----------------------------------------------------------------------------
    def refused(self, message: str, hint: str | None = None) -> _Unsaved:
        return _Unsaved(Diagnostic(UNSAFE, message, Position(str(self.path)), hint=hint))

    def on_disk(self) -> bytes | None:
        """The log's bytes now when text was added at its end since it was loaded (None when
        it is as loaded); raise :class:`_Unsaved` when it changed otherwise or may not be written."""
        try:
            st = os.stat(self.real)
            data = self.real.read_bytes()
        except FileNotFoundError:
            raise self.refused(f"{self.path} was removed or renamed since play loaded it: play does not "
                               "write it again") from None
        except OSError as exc:
            raise _Unsaved(Diagnostic("RL001", f"cannot read {self.path} back before the save: "
                                      f"{exc.strerror or exc}", Position(str(self.path)))) from None
        problem = _unsafe(self.path, st)
        if problem:
            raise self.refused(*problem)
        if data == self.loaded:
            return None
        if data.startswith(self.loaded):
            return data
        raise self.refused(f"{self.path} was changed on disk since play loaded it (not only added to at its end): "
                           "play does not write over it", "look at the change, then run play again")

    def commit(self, text: str, log: Any, rules: Any, said: str) -> bool:
        """Write ``text`` over the log and say ``said`` once it is saved, with Ctrl-C and the
        ending signals held off meanwhile.  False, nothing written, when text was added to the
        file meanwhile: it is loaded (kept) and the caller tries again on it."""
        data = self.encode(text)
        with signals_held():
            fresh = self.on_disk()
            if fresh is not None:
                try:
                    self.load(fresh)
                except DiagnosticError as exc:
                    raise self.refused(f"{self.path} was added to on disk since play loaded it, and no longer reads "
                                       f"({exc.diagnostics[0].format_text()}): play does not write over it",
                                       f"'ruleslawyer check {self.path}' says what is wrong") from None
                self.say(f"({self.path} was added to on disk meanwhile: kept, and read again)")
                return False
            try:
                write_atomically(self.real, data)
            except OSError as exc:
                raise _Unsaved(_write_problem(self.path, exc)) from None
            self.text, self.loaded, self.log, self.rules = text, data, log, rules
            self.pending = None
            self.say(said)
        self.rep = replay(log, rules)
        return True

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
        self.pending = ("move", move)
        try:
            parsed = parse_text(move, "<move>")
        except DiagnosticError as exc:
            self.say("not a move: " + "; ".join(d.message for d in exc.diagnostics))
            self.pending = None
            return False
        kinds = {fold(k): k for k in self.rules.moves}
        if not isinstance(parsed, LMap) or not any(fold(k) in kinds for k in parsed):
            self.say(f"not a move: a move is one of {', '.join(self.rules.moves)}, written as in the log, "
                     f"e.g. {self.example()} ('help' for the commands)")
            self.pending = None
            return False
        verb = missing_actor(parsed, kinds)
        if verb is not None:  # whose move: the one the rules let make it now
            kind = kinds[fold(verb)]
            actors = self.actors_of(kind)
            filled = with_actor(move, verb, actors[0]) if len(actors) == 1 else None
            if filled is None:
                if self.rep.state.ended:
                    self.say(f"not recorded: the game is over after {len(self.log.moves)} moves")
                elif not actors:
                    self.say(f"not recorded: nobody may {kind} now ('moves' lists the moves legal now)")
                else:
                    self.say(f"not recorded: whose {kind}? name the player: "
                             + " or ".join(f"{{{kind}: {printable(p)}, ...}}" for p in actors))
                self.pending = None
                return False
            move = filled
            self.pending = ("move", move)
        for _ in range(5):  # the file added to meanwhile: checked again on it
            checked = self.check_move(move)
            if checked is None:
                self.pending = None
                return False
            candidate, log, rules, move = checked
            self.pending = ("move", move)
            if self.commit(candidate, log, rules, f"recorded move {len(log.moves)}: {move}"):
                return True
        raise self.refused(f"{self.path} keeps changing on disk: play does not write over it")

    def record(self, section: str, line: str) -> bool:
        """Add a record (one line ``KEY: VALUE``) to the log's ``section:`` when the log reads
        with it and it contradicts nothing recorded; say why not otherwise."""
        for _ in range(5):  # the file added to meanwhile: done again on it
            try:
                candidate = add_record(self.text, section, line)
            except LayoutError as exc:
                self.say(f"not recorded: {exc}; add it to the {section}: section of {printable(str(self.path))} by hand")
                return False
            try:
                log, rules = parse_log_text(candidate, str(self.path), house=self.house)
            except DiagnosticError as exc:
                self.say("not recorded:")
                for d in exc.diagnostics:
                    self.say(d.format_text())
                return False
            report = check_parsed(log, rules)
            number_moves(report.diagnostics, log)
            before = {(d.code, d.message) for d in self.rep.reporter.errors}
            new = [d for d in report.errors if (d.code, d.message) not in before]
            if new:
                self.say("not recorded, no deal fits it and the log so far:")
                for d in new:
                    self.say(d.format_text())
                return False
            if self.commit(candidate, log, rules, f"recorded in {section}: {printable(line.strip())}"):
                return True
        raise self.refused(f"{self.path} keeps changing on disk: play does not write over it")

    def actors_of(self, kind: str) -> list[str]:
        """Who may make a move of this kind now, when the move does not say: the one the
        rules oblige to, else the one whose turn it is if they may, else all who may."""
        state, machine = self.rep.state, self.rep.machine
        if state.ended:
            return []
        due = [who for who, k in machine.due(state) if k == kind]
        if len(due) == 1:
            return due
        able = [p for p in state.active if machine.available(state, p, kind)]
        return [state.turn] if state.turn in able else able

    def check_move(self, move: str, respell: bool = True) -> tuple[str, Any, Any, str] | None:
        """(the log with the move, its log and rules, the move as saved: names as printed
        when ``respell``) when it breaks no rule; None, said why, otherwise."""
        try:
            candidate, at = append_at(self.text, move)
        except LayoutError as exc:
            self.say(f"not recorded: play cannot add a move to {self.path} as it is written ({exc}); "
                     f"add it by hand: - {move}")
            return None
        span = (at, at + len(move))

        starts = [0, *(m.end() for m in re.finditer("\n", candidate))]

        def mine(d: Diagnostic) -> bool:  # about the new move: its position within the move's text
            if d.position is None or not 0 < d.position.line <= len(starts):
                return False
            return span[0] <= starts[d.position.line - 1] + max(d.position.column - 1, 0) < span[1]

        line_no = candidate.count("\n", 0, at) + 1
        printed: dict[int, str] = {}  # offset in the move -> the name there as printed

        def seen(_written: Any, pos: Position | None, name: str) -> None:
            if pos is not None and pos.path == str(self.path) and 0 < pos.line <= len(starts):
                offset = starts[pos.line - 1] + max(pos.column - 1, 0)
                if span[0] <= offset < span[1]:
                    printed[offset - span[0]] = name

        try:
            log, rules = parse_log_text(candidate, str(self.path), house=self.house, on_name=seen)
        except DiagnosticError as exc:
            self.say("not recorded:")
            for d in [d for d in exc.diagnostics if mine(d)] or list(exc.diagnostics):
                self.say(_here(d, line_no))
            return None
        report = check_parsed(log, rules)
        number_moves(report.diagnostics, log)
        broken = [d for d in report.errors if mine(d)]
        if broken:
            self.say("not recorded, the move breaks a rule:")
            for d in broken:
                self.say(_here(d, line_no))
            return None
        as_printed = respelt(move, printed) if respell else move
        if as_printed != move:  # the same move, its names as printed: checked as it is saved
            return self.check_move(as_printed, respell=False) or (candidate, log, rules, move)
        return candidate, log, rules, move

    def undo(self) -> None:
        for _ in range(5):
            try:
                done = remove_last(self.text)
            except LayoutError as exc:
                self.say(f"cannot undo: play cannot remove the last move of {self.path} as it is written ({exc}); "
                         "remove it by hand")
                return
            if done is None:
                self.say("there is no move to undo")
                return
            before, removed = done
            before = before if before.endswith("\n") else before + "\n"
            try:
                log, rules = parse_log_text(before, str(self.path), house=self.house)
            except DiagnosticError as exc:
                self.say("cannot undo: the log would not read without its last move: "
                         + "; ".join(d.message for d in exc.diagnostics))
                return
            moves = list(self.log.moves)
            self.pending = ("undo", removed)
            if self.commit(before, log, rules, f"removed: {removed}"):
                return
            if list(self.log.moves) != moves:  # moves added meanwhile: the last is no longer the one seen
                self.pending = None
                self.say(f"nothing undone: the log now has {len(self.log.moves)} moves; 'undo' again removes "
                         "the last of them")
                return
        raise self.refused(f"{self.path} keeps changing on disk: play does not write over it")

    def example(self) -> str:
        moves = what_next(self.rep.machine, self.rep.state, self.number)["moves"]
        return moves[0]["text"] if moves else "{" + next(iter(self.rules.moves)) + ": NAME}"

    # -- seats -----------------------------------------------------------------------------
    def seat(self, name: str) -> queries.Viewpoint | None:
        name = name.strip() or (self.viewer or "")
        if not name:
            return queries.Viewpoint.spectator()
        if name.lower() in ("all", "omniscient"):
            return queries.Viewpoint.omniscient()
        found = next((p for p in self.log.header.players if p.lower() == name.lower()), None)
        if found is None:
            self.say(printable(f"no player '{name}': the players are {', '.join(self.log.header.players)}"))
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
        words += ["undo", "moves", "show ", "solve ", *(f"{w} " for w in self.extra), "help", "quit"]
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


class _Ended(Exception):
    """A signal that ends the session (TERM, HUP): raised where the session is, as Ctrl-C is."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _end(signum: int, _frame: object) -> None:
    raise _Ended(signum)


def run_play(args: argparse.Namespace) -> int:
    path = Path(args.log)
    made: list[Recorder] = []
    old = {}
    for name in ("SIGTERM", "SIGHUP"):  # ended as by Ctrl-C: the save finished, the lock let go, one line
        signum = getattr(signal, name, None)
        try:
            if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
                old[signum] = signal.signal(signum, _end)
        except ValueError:  # pragma: no cover - not the main thread: the signals keep their ways
            pass
    try:
        try:
            return _play(args, path, made)
        except Exception as exc:
            if is_interrupt(exc):  # a Ctrl-C that ctypes wrapped (see checker/interrupts.py)
                raise KeyboardInterrupt from exc
            raise
    except KeyboardInterrupt:  # one line, and what became of the move under way
        print("\n" + _interrupted(made[0] if made else None, path, "interrupted"), flush=True)
        return EXIT_INTERRUPTED
    except _Ended as exc:
        print("\n" + _interrupted(made[0] if made else None, path, f"ended by {signal.Signals(exc.signum).name}"),
              flush=True)
        return 128 + exc.signum
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)


def _interrupted(recorder: Recorder | None, path: Path, how: str) -> str:
    if recorder is None:
        return f"({how}: nothing recorded)"
    saved = f"the {len(recorder.log.moves)} moves in {path} are saved"
    if recorder.pending and recorder.pending[0] == "move":
        return f"({how}: {recorder.pending[1]} not recorded; {saved})"
    if recorder.pending:
        return f"({how}: nothing undone; {saved})"
    return f"({how}: {saved})"


def _overlays(refs: list[str] | tuple[str, ...], base: Path) -> list[str]:
    """House overlays as names, or as the files they are (relative to ``base``)."""
    return [r if bare_name(r) else os.path.realpath(base / r) for r in refs]


def _play(args: argparse.Namespace, path: Path, made: list[Recorder]) -> int:
    if not path.exists() and (not args.rules or not args.players):
        raise DiagnosticError([Diagnostic("RL010", f"{path} does not exist: a new log needs --rules and --players",
                                          Position(str(path)),
                                          hint="e.g. ruleslawyer play game.yaml --rules NAME --players Ann Ben Cat")])
    lock = FileLock(path)
    try:
        lock.acquire()
    except LockHeld as exc:
        raise DiagnosticError([Diagnostic(
            UNSAFE, f"{path} is held by another play session ({exc.holder.describe()}): one session at a time "
            "records in a log", Position(str(path)),
            hint=f"quit the other session first; 'ruleslawyer show {path}' follows the game without writing")]) from None
    except OSError as exc:
        raise DiagnosticError([_write_problem(path, exc)]) from None
    folders = tuple(str(Path(os.path.abspath(h)).parent) for h in args.house if not bare_name(h))
    token = ALLOWED.set((*ALLOWED.get(), *folders))  # overlays the command line names: the user's to read
    try:
        remove_stale_temporaries(path)  # a save killed before its rename: the log itself is whole
        return _session(args, path, made)
    finally:
        ALLOWED.reset(token)
        lock.release()


def _open(args: argparse.Namespace, path: Path) -> tuple[Recorder, bool]:
    """The recorder of an existing log, or of a new one made from the command line."""
    if not path.exists():
        base = Path(os.path.abspath(path)).parent
        house = [h if bare_name(h) else os.path.relpath(os.path.abspath(h), base) for h in args.house]
        sections = {"setup": list(getattr(args, "setup", []) or []), "private": list(getattr(args, "private", []) or [])}
        for option, records in sections.items():
            for record in records:
                try:
                    record_key(record)
                except LayoutError as exc:
                    raise DiagnosticError([Diagnostic("RL010", f"--{option} {record}: {exc}",
                                                      Position(f"--{option}"))]) from None
        try:
            write_atomically(path, new_log(args.rules, list(args.players), args.first, args.variant, house, sections))
        except OSError as exc:
            raise DiagnosticError([_write_problem(path, exc)]) from None
        try:
            return Recorder(path), True
        except DiagnosticError as exc:
            real_path(path).unlink()  # a header these rules cannot use: leave nothing behind
            raise DiagnosticError([*exc.diagnostics, Diagnostic(
                "RL010", f"{path} was not created: the header made of --rules, --players"
                + (", --setup" if sections["setup"] else "") + (", --private" if sections["private"] else "")
                + " does not read", Position(str(path)),
                hint=_setup_hint(args))]) from None
    if args.setup or args.private:
        print(f"ruleslawyer: {path} exists: --setup and --private are for a new log (in a session, "
              "'private KEY: VALUE' adds to its private: section)", file=sys.stderr)
    if args.rules or args.players or args.first or args.variant:
        print(f"ruleslawyer: {path} exists: its own header is used (--rules, --players, --first and "
              "--variant are for a new log)", file=sys.stderr)
    try:
        problem = _unsafe(path, os.stat(real_path(path)))
    except OSError:
        problem = None  # read_yaml says what is wrong
    if problem:
        raise DiagnosticError([Diagnostic(UNSAFE, problem[0], Position(str(path)), hint=problem[1])])
    recorder = Recorder(path)
    if args.house:
        named = list(recorder.log.header.house)
        if _overlays(named, path.parent) != _overlays(args.house, Path(".")):
            shown = ", ".join(named) if named else "none"
            raise DiagnosticError([Diagnostic(
                UNSAFE, f"--house {' '.join(args.house)} is not what {path} is played with: its header names "
                f"house: [{shown}], and a log is checked with the overlays its header names", Position(str(path)),
                hint="leave --house out (the header's overlays are used), or edit the header's house: first")])
    return recorder, False


def _setup_hint(args: argparse.Namespace) -> str:
    """What a new log's header may need: the setup: records its rules declare, each with the
    kind of value it takes (from the rule file), or a pointer to the game's examples."""
    from ..spec.loader import load_rules

    try:
        rules = load_rules(args.rules, variant=args.variant or str(len(args.players)), house=list(args.house))
    except DiagnosticError:
        return "write the header by hand (see the examples of the game), then run play on it"
    wanted = [f"{r.key} ({'each player: one of ' + r.component if r.component else 'the cards of ' + str(r.zone)})"
              for r in rules.records if r.section == "setup"]
    if not wanted:
        return "write the header by hand (see the examples of the game), then run play on it"
    return ("give each record of its setup: section with --setup 'KEY: VALUE' (this game's: "
            + ", ".join(wanted) + "), or write the header by hand (see the examples of the game)")


def _session(args: argparse.Namespace, path: Path, made: list[Recorder]) -> int:
    recorder, created = _open(args, path)
    made.append(recorder)
    viewer = getattr(args, "viewer", None)
    if viewer:
        players = recorder.log.header.players
        found = next((p for p in players if p.lower() == viewer.lower()), None)
        if found is None:
            near = did_you_mean(viewer, list(players))
            raise DiagnosticError([Diagnostic("RL010", f"--as {viewer}: not a player of {path}", Position(str(path)),
                                              hint=f"did you mean '{near}'?" if near else
                                              f"one of: {', '.join(players)}")])
        recorder.viewer = found
    recorder.extra = play_commands()
    interactive = sys.stdin.isatty()
    if interactive:
        _setup_readline(recorder)
    recorder.say(f"{'new log' if created else 'log'} {path}: {recorder.rules.canonical_name}, "
                 f"{len(recorder.log.moves)} moves so far ('help' for the commands)")
    recorder.say(recorder.status())
    try:
        _loop(recorder, interactive)
    except _Unsaved as exc:
        print(fit(exc.diagnostic.format_text()), flush=True)
        kind, text = recorder.pending or ("", "")
        if kind == "move":
            print(f"{text} is not recorded; to record it by hand, add this line to the moves of {path}:")
            print(f"  - {text}", flush=True)
        elif kind == "undo":
            print(f"nothing undone: the last move is still in {path}")
        print(f"the {len(recorder.log.moves)} moves recorded before are in {path} as they were", flush=True)
        return 2
    recorder.say(f"{len(recorder.log.moves)} moves in {path}")
    return 0


def _loop(recorder: Recorder, interactive: bool) -> None:
    while True:
        try:
            line = input(recorder.prompt()) if interactive else _read(recorder.prompt())
        except EOFError:
            recorder.say()
            return
        if line is None:
            return
        command, _, rest = line.strip().partition(" ")
        word = command.lower()
        if not line.strip():
            continue
        if word in ("quit", "exit", "q"):
            return
        if word in ("help", "?"):
            recorder.say(HELP.replace("{more}", "".join(f"  {h}\n" for h, _f in recorder.extra.values())))
        elif word in ("moves", "legal"):
            recorder.say(recorder.status())
        elif word == "undo":
            recorder.undo()
            recorder.say(recorder.status())
        elif word == "show" and ":" not in line:
            recorder.show(rest)
        elif word == "solve" and ":" not in line:
            recorder.solve(rest)
        elif word in recorder.extra and ":" not in line:
            recorder.extra[word][1](recorder, rest)
        elif word == "private" and rest.strip():
            recorder.record("private", rest)
        else:
            if recorder.try_move(line):
                recorder.say(recorder.status())


def _read(prompt: str) -> str | None:
    """A line from a pipe (no terminal): the prompt is still written, for a script to wait on."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")
