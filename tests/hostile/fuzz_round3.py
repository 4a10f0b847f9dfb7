"""Fuzzing round three (issue 25): ``play``, ``show``, ``report``, ``schema``,
``simulate``, ``compare``, ``prove``, ``fmt`` (and ``check --fix``/``--diff``, among fmt's inputs),
``suggest`` and ``value`` on random and mutated input.

    python -m tests.hostile.fuzz_round3 --count 5000 --seed 1 --jobs 2
    python -m tests.hostile.fuzz_round3 --count 100 --seed 7 --format json

Every input is one run of the command line (or, for ``play``, one scripted
session: random move lines, ``undo``, other commands, Ctrl-C at a random point,
sometimes a second session on the same log at once).  Each is a failure when:

* ``exit-3``: exit status 3 (internal error); ``exit-N``: a status other than
  0, 1, 2 or 130; ``signal-N``: killed by a signal (but Ctrl-C: see below);
* ``traceback``: "Traceback" in what it printed;
* ``cpu``: more than 20 s of CPU (``RLIMIT_CPU``: killed by SIGXCPU);
  ``memory``: more than 1 GiB of address space (``RLIMIT_AS``: a MemoryError)
  or of resident memory; ``hang``: no end within the wall timeout (a run that
  waits on something: the CPU limit bounds the work);
* ``lost-move``: after a play session, the log on disk lacks a move that a
  session said it recorded (or one the log had, not undone);
  ``unannounced-move``: the log holds a move no session said it recorded;
  ``log-damaged``: the log is no longer a YAML mapping with a list of moves.

A Ctrl-C (SIGINT) sent to a session must end it with exit status 0 or 130 and
no traceback.  Each input is made from ``--seed`` and its number alone, so a
finding is replayed with ``--seed S --only N`` (``--keep DIR`` keeps the files).

The limits are set in the child before it runs (``resource.setrlimit``, as a
``preexec_fn`` does).  By default the child is a fork of this process, which
has imported ruleslawyer once (an interpreter's start costs about 1 s of CPU,
more than most runs); ``--exec`` runs a fresh ``ruleslawyer`` for each input.
The mutators and the hostile values are those of ``test_fuzz.py``.

One piece (over 800 lines): the inputs it draws and the judge of their runs
share the case's files and scripts (a play session is judged against the
moves its script typed).
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import os
import random
import re
import select
import shlex
import shutil
import signal
import stat
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS threads in a process that forks
os.environ.setdefault("MPLBACKEND", "Agg")

import yaml  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "examples"
CORPUS = HERE / "corpus"
TINY = ROOT / "tests" / "lab" / "data"  # a deck small enough for report --advice within the CPU limit
ROUND3 = ROOT.parent / "shared" / "hostile-round3"  # the red team's files, when the checkout has them beside it

CPU_LIMIT = 20                     # seconds of CPU for one run
MEMORY_LIMIT = 1024 ** 3           # bytes of address space for one run
WALL_TIMEOUT = 300.0               # seconds: against a hang only (a quiet run takes about 1 s)
SESSION_STEP = 120.0               # seconds a play session may take to answer one line
COMMANDS = ("play", "show", "report", "schema", "simulate", "compare", "prove", "fmt", "suggest", "value")
KINDS = COMMANDS  # one kind of input per command


# -- the vocabulary (test_fuzz.py's) ---------------------------------------------------------

def _vocabulary() -> dict[str, Any]:
    from .test_fuzz import EXPR_TOKENS, FRAGMENTS, HOSTILE, OUT_OF_RANGE, _paths

    return {"expr": EXPR_TOKENS, "fragments": FRAGMENTS, "hostile": HOSTILE, "numbers": OUT_OF_RANGE, "paths": _paths}


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "", "ann", "Ann", "x" * 300, "\x1b]0;pwned\x07Ann", "\x1b[2JBen",
         "<!--<script>", "</script>", "a\x01b", "Zoë", "\u202eevil", "-", "--rules", "*", "{a: 1}", "[b]", "#c"]


def mutate(rng: random.Random, base: Any, voc: dict[str, Any], times: int | None = None) -> Any:
    """``base`` with one to three random mutations (test_fuzz.mutated, drawn with ``rng``)."""
    doc = copy.deepcopy(base)
    paths = [p for p in voc["paths"](doc) if p]
    for _ in range(times or rng.randint(1, 3)):
        if not paths:
            break
        path = rng.choice(paths)
        parent = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            key = path[-1]
            value = parent[key]
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(parent, (dict, list)):
            continue
        op = rng.choice(["delete", "retype", "rename", "duplicate", "number", "empty", "expression", "hostile"])
        if op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = rng.choice([None, True, 0, -1, 1.5, "x", [], {}, [1, "a"], {"k": None}])
        elif op == "rename" and isinstance(parent, dict):
            parent[rng.choice([f"{key}x", "unknown", "", "moves", "when"])] = parent.pop(key)
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif op == "number":
            parent[key] = rng.choice(voc["numbers"])
        elif op == "empty":
            parent[key] = rng.choice([[], {}, "", None])
        elif op == "hostile":
            parent[key] = rng.choice(voc["hostile"] + NAMES)
        elif op == "expression":
            text = value if isinstance(value, str) else ""
            cut = rng.randint(0, len(text))
            parent[key] = text[:cut] + rng.choice(voc["expr"]) + text[cut + rng.randint(0, 3):]
    return doc


def dump(doc: Any) -> str:
    return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                     allow_unicode=True, width=120)


# -- the inputs ---------------------------------------------------------------------------------

CLEAN_LOGS = sorted(EXAMPLES.glob("*/clean-*.yaml")) + sorted(EXAMPLES.glob("perfect-alibi/[ru]*-4p.yaml"))
OTHER_LOGS = sorted(EXAMPLES.glob("*/rulebook-*.yaml")) + sorted(EXAMPLES.glob("*/violations/*.yaml"))[::5]
HOSTILE_LOGS = sorted((CORPUS / "logs").glob("*.yaml"))[::3] + sorted(ROUND3.glob("*names*.yaml")) + \
    sorted(ROUND3.glob("svg-*.yaml")) + sorted(ROUND3.glob("report-*.yaml"))
PROPERTY_FILES = sorted(EXAMPLES.glob("*/lab/properties*.yaml")) + sorted(ROUND3.glob("prop-*.yaml"))
OVERLAYS = ["two-counters", "unlimited-cards", "no-repeat", "rival", "unforgiving", "no-early-accusation",
            "edition-fr", "nowhere", str(EXAMPLES / "lady-alice" / "lab" / "short-of-cards.yaml"),
            *map(str, sorted((CORPUS / "house").glob("*.yaml"))[::6])]
GAMES = ["lady-alice", "perfect-alibi"]
BOTS = ["random", "random:accuse=0.05", "random:accuse=0.1", "random:guess=0.02;accuse=0.02", "informed",
        "informed:0", "informed:1000", "random:accuse=1e308;suspect=1e308;place=1e308;pass=1e308",
        "random:pass=0;suspect=0;place=0;accuse=0", "random:accuse=-1", "random:nope=1", "", "random,informed",
        "random:accuse=nan", "random:accuse=inf", "x" * 200,
        # move filters (issue 23): good, unknown parameter, wrong case, bad syntax, all forbidden, not a truth
        "greedy:forbid=\"move.assistant == 'cook'\"", "random:forbid=move.asistant == 'cook'",
        "informed:0;forbid=move.assistant == 'Cook'", "random:forbid=move.via ==", "random:forbid=true",
        "random:forbid=kind", "random:accuse=0.5;forbid=kind == 'pass'", "random:forbid=", "greedy:forbid=(]",
        "random:forbid=true;forced=play", "random:forbid=\"move.assistant == 'cook'\";forced=play", "random:forced=",
        "greedy:forced=maybe", "random:forced=play;forced=stop",
        # value weights and the search bot (issue 23)
        "random:ask.via.final=0", "random:ask.via.fnal=1", "random:suggest.x.y=1", "random:ask.via.final=-2",
        # (a search bot that weighs nothing but certain claims: every run stays within its CPU limit)
        "search:iterations=1;floor=1", "search:iterations=0", "search:floor=1;iterations=2", "search:width=9",
        "search:iterations=1e9", "search:floor=1,random",
        # the race between questions (a search of one deal: within the CPU limit too)
        "search:iterations=1;floor=1;moves=2;race=0.5", "search:race=-1", "search:moves=65", "search:race=inf",
        # greedy's choices valued per kind (issue 23, branch staged)
        "greedy:choices=0", "greedy:choices=x", "greedy:risk=0.5;choices=2", "greedy:choices=1e9",
        # the search bot's choices valued per kind
        "search:choices=0", "search:choices=1e9", "search:iterations=1;floor=1;choices=2"]

# value (issue 23): restrictions by parameter and written out, sound and hostile; its cheap tables
VALUE_PARAMETERS = ["assistant", "place.value", "ask.via", "value", "assistent", "ask.nothing", "askk.via", "",
                    ".", "place.", "x" * 300, "\x1b[2J", "choose.assistant", "guess.card"]
VALUE_RESTRICTIONS = ["no-cook=move.assistant == 'cook'", "x=move.assistant == 'Cook'", "no-pass=kind == 'pass'",
                      "a$b$c=kind == 'accuse'", "\x1b]0;pwned\x07=true", "<script>=kind == 'draw'", "nothing",
                      "=true", "x=", "x=(]", "x=kind", "x=move.value == 2", "x=move.via == 'final'", "x=true",
                      "x=" + "(" * 200, "x=kind == 'pass' or kind == 'suspect'"]
VALUE_BOTS = ["random", "random:accuse=0.1", "random:guess=0.05;accuse=0.05", "random:accuse=0.1,random",
              "random:accuse=0.1;forbid=kind == 'pass'", "random:forbid=true", "smart", "",
              "random:forbid=true;forced=play", "random:forced=nope"]


@dataclass
class Case:
    """One input: the command line, the files it needs, and for play the scripts."""

    number: int
    kind: str
    seed: int = 0
    argv: list[str] = field(default_factory=list)
    folder: Path = Path(".")
    fifos: list[Path] = field(default_factory=list)
    log: Path | None = None                          # play: the log the sessions share
    base_moves: list[Any] = field(default_factory=list)  # play: the moves the log had (parsed)
    script_moves: list[str] = field(default_factory=list)  # play: the game the scripts type, move by move
    sessions: list[dict[str, Any]] = field(default_factory=list)  # play: {"argv", "start", "steps"}

    def command(self) -> str:
        return "ruleslawyer " + " ".join(shlex.quote(a) for a in self.argv)


def _log_text(path: Path, moves_kept: int | None, style: str) -> tuple[str, list[Any]]:
    """A clean log cut after some moves (its end: dropped), its moves written in ``style``."""
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("\nmoves:\n")
    lines = [x for x in rest.split("\n") if x.startswith("  - ")]
    moves = [x[4:] for x in lines]
    kept = moves if moves_kept is None else moves[:moves_kept]
    docs = [yaml.safe_load(m) for m in kept]
    if style == "flow-list":
        body = "moves: [" + ", ".join(kept) + "]\n"
    elif style == "flow-multiline":
        body = "moves: [\n" + ",\n".join("  " + m for m in kept) + "\n]\n" if kept else "moves: []\n"
    elif style == "block":
        items = []
        for d in docs:
            chunk = yaml.safe_dump([d], default_flow_style=None, sort_keys=False, allow_unicode=True, width=1000)
            items.append("".join("  " + x + "\n" for x in chunk.splitlines()))
        body = "moves:\n" + "".join(items) if kept else "moves: []\n"
    elif style == "dash-alone":  # "-" alone on its line, the move's keys under it
        items = []
        for d in docs:
            chunk = yaml.safe_dump(d, default_flow_style=None, sort_keys=False, allow_unicode=True, width=1000)
            items.append("  -\n" + "".join("    " + x + "\n" for x in chunk.splitlines()))
        body = "moves:\n" + "".join(items) if kept else "moves: []\n"
    else:
        body = "moves:\n" + "".join(f"  - {m}\n" for m in kept) if kept else "moves: []\n"
    out = head + "\n" + body
    if style == "crlf":
        out = out.replace("\n", "\r\n")
    elif style == "bom":
        out = "\ufeff" + out
    return out, docs


def _all_moves(path: Path) -> list[str]:
    rest = path.read_text(encoding="utf-8").partition("\nmoves:\n")[2]
    return [x[4:] for x in rest.split("\n") if x.startswith("  - ")]


class Maker:
    """Draws the inputs: one ``random.Random`` per input, from the seed and its number."""

    def __init__(self, seed: int, work: Path):
        self.seed = seed
        self.work = work
        self.voc = _vocabulary()
        self._docs: dict[Path, Any] = {}

    def doc(self, path: Path) -> Any:
        if path not in self._docs:
            self._docs[path] = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
        return self._docs[path]

    def case(self, number: int) -> Case:
        rng = random.Random(f"{self.seed}:{number}")
        kind = KINDS[rng.randrange(len(KINDS))]
        folder = self.work / f"case-{number:05d}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        case = Case(number, kind, seed=self.seed, folder=folder)
        getattr(self, "_" + kind)(rng, case)
        return case

    # -- shared pieces ---------------------------------------------------------------------
    def _a_log(self, rng: random.Random, case: Case, name: str = "game.yaml") -> Path:
        """A log in the case's folder: clean, cut short, of another kind, hostile or mutated."""
        target = case.folder / name
        pick = rng.random()
        if pick < 0.3:
            source = rng.choice(CLEAN_LOGS)
            moves = len(_all_moves(source))
            text, _ = _log_text(source, rng.randint(0, moves) if rng.random() < 0.6 else None,
                                rng.choice(["items", "items", "block", "flow-list", "crlf", "bom"]))
            if rng.random() < 0.3:
                text = text.replace("players: [", "players: [" + rng.choice(NAMES[9:14]).replace("\\", "") + "x, ", 0)
        elif pick < 0.5:
            text = rng.choice(OTHER_LOGS + HOSTILE_LOGS).read_text(encoding="utf-8", errors="replace")
        else:
            text = dump(mutate(rng, self.doc(rng.choice(CLEAN_LOGS + OTHER_LOGS[:4])), self.voc))
        target.write_text(text, encoding="utf-8", errors="surrogatepass")
        return target

    def _output(self, rng: random.Random, case: Case, log: Path | None, folder_wanted: bool) -> str:
        """Where an output goes: new, existing, of the wrong kind, a fifo, a link, the input log..."""
        f = case.folder / f"out-{len(list(case.folder.glob('out-*')))}"  # a folder per output: no clash
        f.mkdir()
        choice = rng.choice(["new", "new", "new", "existing-file", "existing-dir", "missing-parent", "under-a-file",
                             "fifo", "link-to-file", "dangling-link", "the-log", "device", "hostile-name", ""])
        if choice == "new":
            return str(f / ("out" if folder_wanted else rng.choice(["out.html", "out.md", "out.yaml", "out"])))
        if choice == "existing-file":
            (f / "there.txt").write_text("keep me\n")
            return str(f / "there.txt")
        if choice == "existing-dir":
            (f / "adir").mkdir(exist_ok=True)
            return str(f / "adir")
        if choice == "missing-parent":
            return str(f / "missing" / "deeper" / "out.html")
        if choice == "under-a-file":
            (f / "plain.txt").write_text("x\n")
            return str(f / "plain.txt" / "out.html")
        if choice == "fifo":
            os.mkfifo(f / "pipe")
            case.fifos.append(f / "pipe")
            return str(f / "pipe")
        if choice == "link-to-file":
            (f / "target.txt").write_text("the target\n")
            (f / "link.html").symlink_to(f / "target.txt")
            return str(f / "link.html")
        if choice == "dangling-link":
            (f / "dangling").symlink_to(f / "nowhere" / "x")
            return str(f / "dangling")
        if choice == "the-log" and log is not None:
            return str(log)
        if choice == "device":
            try:  # a node of our own (as /dev/null), never the system's
                os.mknod(f / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
                return str(f / "null")
            except OSError:
                return str(f / "out.html")
        if choice == "hostile-name":
            return str(f / rng.choice(["-", "*", ".", "..", "\x1b[2J.html", "a b;c.html", "out.html\n"]))
        return ""

    def _rules_arg(self, rng: random.Random, case: Case) -> str:
        if rng.random() < 0.8:
            return rng.choice(GAMES)
        pick = rng.random()
        if pick < 0.5:
            base = rng.choice([ROOT / "rules" / "lady-alice.yaml", ROOT / "rules" / "perfect-alibi.yaml"])
            path = case.folder / "mutated-rules.yaml"
            path.write_text(dump(mutate(rng, self.doc(base), self.voc)), encoding="utf-8", errors="surrogatepass")
            return str(path)
        return rng.choice(["lady-alise", "clue", "", str(case.folder), "/etc/passwd",
                           *map(str, sorted((CORPUS / "rules").glob("*.yaml"))[::8])])

    def _variant(self, rng: random.Random) -> list[str]:
        return ["--variant", rng.choice(["3p", "4p", "5p", "3", "9p", "x", ""])] if rng.random() < 0.6 else []

    def _seat(self, rng: random.Random) -> list[str]:
        pick = rng.random()
        if pick < 0.3:
            return ["--as", rng.choice(NAMES + ["Helen", "Gordon", "Blue", "Red"])]
        return ["--omniscient"] if pick < 0.5 else []

    def _house(self, rng: random.Random, flag: str = "--house") -> list[str]:
        return [flag, rng.choice(OVERLAYS)] if rng.random() < 0.3 else []

    # -- one kind of input per command -------------------------------------------------------------
    def _show(self, rng: random.Random, case: Case) -> None:
        log = self._a_log(rng, case)
        at = ["--at", str(rng.choice([0, 1, 3, 10, 999, -1, "x", 10 ** 30]))] if rng.random() < 0.5 else []
        fmt = ["--format", rng.choice(["text", "json", "svg"])] if rng.random() < 0.7 else []
        sheet = ["--sheet"] if rng.random() < 0.3 else []
        case.argv = ["show", str(log), *at, *self._seat(rng), *fmt, *sheet, *self._house(rng)]

    def _report(self, rng: random.Random, case: Case) -> None:
        advice = rng.random() < 0.25
        # --advice values every move (seconds a question of a bundled game): the tiny deck's game, sound or
        # mutated, keeps a run within the CPU limit; a bad --advice-budget is refused before any work
        log = self._tiny_log(rng, case) if advice else self._a_log(rng, case)
        opts = ["--advice"] if advice else []
        if rng.random() < (0.6 if advice else 0.05):
            opts += ["--advice-budget", str(rng.choice([1, 3, 50, 400, 0, -1, "x", "\u202e1", 10 ** 12]))]
        if rng.random() < 0.3:
            opts += ["--format", rng.choice(["text", "json"])]
        case.argv = ["report", str(log), "-o", self._output(rng, case, log, False), *self._seat(rng),
                     *self._house(rng), *opts]

    def _tiny_log(self, rng: random.Random, case: Case) -> Path:
        """The tiny deck's game (tests/lab/data), its rule file beside it; mutated half the time."""
        shutil.copy(TINY / "tiny-ask.yaml", case.folder / "tiny-ask.yaml")
        log = case.folder / "tiny-game.yaml"
        source = TINY / "tiny-game.yaml"
        if rng.random() < 0.5:
            log.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        else:
            log.write_text(dump(mutate(rng, self.doc(source), self.voc)), encoding="utf-8", errors="surrogatepass")
        return log

    def _schema(self, rng: random.Random, case: Case) -> None:
        players = ["--players", *rng.sample(NAMES, rng.randint(0, 6))] if rng.random() < 0.5 else []
        case.argv = ["schema", self._rules_arg(rng, case), *self._variant(rng), *self._house(rng), *players]

    def _lab(self, rng: random.Random, case: Case) -> list[str]:
        opts = ["--games", str(rng.choice([1, 1, 2, 3, 5, 0, -1, "x"])),
                "--max-moves", str(rng.choice([1, 10, 40, 80, 0, -5]))]
        if rng.random() < 0.7:
            opts += ["--bots", rng.choice(BOTS)]
        if rng.random() < 0.5:
            opts += ["--seed", str(rng.choice([0, 1, 7, -1, 2 ** 70, "x"]))]
        if rng.random() < 0.3:
            opts += ["--plots", self._output(rng, case, None, True)]
        if rng.random() < 0.3:
            opts += ["--logs", self._output(rng, case, None, True)]
        if rng.random() < 0.2:
            opts += ["--sample", str(rng.choice([0, 1, 3, 100, -1]))]
        if rng.random() < 0.1:
            opts += ["--workers", str(rng.choice([1, 2, 0, -1]))]
        if rng.random() < 0.2:
            opts.append("--no-determination")
        if rng.random() < 0.02:
            opts += ["--executor", "dask", "--scheduler", rng.choice(["not an address", "tcp://127.0.0.1:1"])]
        return opts

    def _simulate(self, rng: random.Random, case: Case) -> None:
        fmt = ["--format", rng.choice(["text", "json"])] if rng.random() < 0.5 else []
        case.argv = ["simulate", self._rules_arg(rng, case), *self._variant(rng), *self._house(rng),
                     *self._lab(rng, case), *fmt]

    def _compare(self, rng: random.Random, case: Case) -> None:
        fmt = ["--format", rng.choice(["text", "json", "markdown", "html"])] if rng.random() < 0.5 else []
        report = ["--report", self._output(rng, case, None, False)] if rng.random() < 0.3 else []
        case.argv = ["compare", self._rules_arg(rng, case), *self._variant(rng), *self._house(rng),
                     "--with", rng.choice(OVERLAYS), *self._lab(rng, case), *fmt, *report]

    def _value(self, rng: random.Random, case: Case) -> None:
        """Restrictions sound and hostile; cheap tables only (a run plays each restriction's games and
        the baseline's: a greedy table plays one short game against one restriction)."""
        restrict = []
        for _ in range(rng.choice([0, 1, 1, 2])):
            if rng.random() < 0.5:
                restrict += ["--restrict-by", rng.choice(VALUE_PARAMETERS)]
            else:
                restrict += ["--restrict", rng.choice(VALUE_RESTRICTIONS)]
        greedy = rng.random() < 0.1
        bots = ["--bots", "greedy"] if greedy else \
            (["--bots", rng.choice(VALUE_BOTS)] if rng.random() < 0.8 else [])  # none: greedy, the default
        if greedy or not bots:
            restrict = ["--restrict", rng.choice(VALUE_RESTRICTIONS)]
        games = str(rng.choice([1, 1, 2, 0, -1, "x"])) if bots and not greedy else "1"
        moves = str(rng.choice([10, 40, 80, 0, -5])) if bots and not greedy else "10"
        opts = ["--games", games, "--max-moves", moves]
        if rng.random() < 0.3:
            opts += ["--plots", self._output(rng, case, None, True)]
        if rng.random() < 0.2:
            opts += ["--logs", self._output(rng, case, None, True)]
        if rng.random() < 0.2:
            opts += ["--sample", str(rng.choice([0, 1, 3, -1]))]
        if rng.random() < 0.3:
            opts += ["--seed", str(rng.choice([0, 1, -1, 2 ** 70, "x"]))]
        fmt = ["--format", rng.choice(["text", "json"])] if rng.random() < 0.5 else []
        case.argv = ["value", self._rules_arg(rng, case), *self._variant(rng), *self._house(rng), *bots,
                     *restrict, *opts, *fmt]

    def _prove(self, rng: random.Random, case: Case) -> None:
        source = rng.choice(PROPERTY_FILES)
        path = case.folder / "properties.yaml"
        if rng.random() < 0.4:
            path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        else:
            path.write_text(dump(mutate(rng, self.doc(source), self.voc)), encoding="utf-8", errors="surrogatepass")
        game = "perfect-alibi" if "perfect-alibi" in str(source) else "lady-alice"
        depth = rng.choice(["0", "0", "0", "1", "1", "-1", "x", "2"] if rng.random() < 0.1 else ["0", "0", "1"])
        extra = ["--counterexample", self._output(rng, case, path, False)] if rng.random() < 0.3 else []
        fmt = ["--format", "json"] if rng.random() < 0.3 else []
        case.argv = ["prove", game if rng.random() < 0.9 else self._rules_arg(rng, case), *self._variant(rng),
                     *self._house(rng), "--property", str(path), "--depth", depth, *extra, *fmt]

    def _fmt(self, rng: random.Random, case: Case) -> None:
        log = self._a_log(rng, case)
        mode = rng.choice([[], [], ["--check"], ["--diff"]])
        fmt = ["--format", "json"] if rng.random() < 0.3 else []
        case.argv = ["fmt", str(log), *mode, *fmt, *self._house(rng)]
        if rng.random() < 0.4:  # check --fix and --diff rewrite a log as fmt does: the same inputs
            case.argv = ["check", str(log), rng.choice(["--fix", "--diff"]), *fmt, *self._house(rng)]

    def _suggest(self, rng: random.Random, case: Case) -> None:
        log = self._a_log(rng, case)
        at = ["--at", str(rng.choice([0, 1, 3, 10, 999, -1, "x"]))] if rng.random() < 0.5 else []
        top = ["--top", str(rng.choice([1, 3, 10, 0, -1, "x", 10 ** 9]))] if rng.random() < 0.4 else []
        seat = ["--as", rng.choice(NAMES + ["Helen", "Gordon", "Blue", "Ann"])] if rng.random() < 0.4 else []
        fmt = ["--format", "json"] if rng.random() < 0.3 else []
        budget = ["--budget", str(rng.choice([1, 10, 400, 0, -1, "x", 10 ** 12]))] if rng.random() < 0.3 else []
        case.argv = ["suggest", str(log), *at, *seat, *top, *fmt, *budget, *self._house(rng)]

    # -- play: scripted sessions ------------------------------------------------------------------------
    def _play(self, rng: random.Random, case: Case) -> None:
        source = rng.choice(CLEAN_LOGS)
        moves = _all_moves(source)
        log = case.folder / "game.yaml"
        case.log = log
        argv = ["play", str(log)]
        if rng.random() < 0.2:  # a new log
            players = yaml.safe_load(source.read_text())["players"]
            game = "perfect-alibi" if "perfect-alibi" in str(source) else "lady-alice"
            names = players if rng.random() < 0.7 else rng.sample(NAMES, rng.randint(1, 6))
            argv += ["--rules", game, "--players", *names]
            if rng.random() < 0.3:
                argv += ["--house", rng.choice(OVERLAYS[:6])]
            if rng.random() < 0.5:  # a set-up or private record given on the command line, sound or not
                record = rng.choice(["colours: {}", "hand: {Ann: [Zzyzx]}", "colours: [", "x" * 300 + ": 1",
                                     "hand: {\x1b]0;title\x07: []}", "colours: {Ann: Yellow}", ":"])
                argv += [rng.choice(["--setup", "--private"]), record]
            if game == "perfect-alibi":
                moves = []  # without its set-up (colours) a new Perfect Alibi log takes no move
        else:
            kept = rng.randint(0, len(moves))
            style = rng.choice(["items", "items", "block", "flow-list", "flow-multiline", "dash-alone", "crlf", "bom"])
            text, case.base_moves = _log_text(source, kept, style)
            log.write_text(text, encoding="utf-8", newline="")
            if rng.random() < 0.1:
                argv += ["--house", rng.choice(OVERLAYS[:6])]
        if rng.random() < 0.15:  # the session's seat (hint, show and solve's default): a player or not
            argv += ["--as", rng.choice([*NAMES, "ann", "Zed\x1b[31m", ""])]
        steps = [self._step(rng, moves) for _ in range(rng.randint(1, 14))]
        if rng.random() < 0.3:  # Ctrl-C somewhere: at a prompt, or while a line is being checked
            at = rng.randint(0, len(steps))
            steps.insert(at, ("interrupt", rng.choice([0.0, 0.0, 0.01, 0.05, 0.2])))
        case.script_moves = moves
        case.sessions = [{"argv": argv, "start": 0, "steps": steps}]
        if rng.random() < 0.35:  # a second session on the same log, started while the first one is open
            second = [self._step(rng, moves) for _ in range(rng.randint(1, 6))]
            case.sessions.append({"argv": ["play", str(log)], "start": rng.randint(0, len(steps)), "steps": second})
        case.argv = argv

    def _step(self, rng: random.Random, moves: list[str]) -> tuple[str, Any]:
        pick = rng.random()
        if pick < 0.6:
            return ("move", rng.choice(["true", "true", "true", "braces", "dash", "mutated"]))
        if pick < 0.75:
            return ("line", "undo")
        if pick < 0.82:
            return ("line", rng.choice(["moves", "help", "show", "solve", "show Ann", "solve nobody", "legal",
                                        "hint", "hint Ann", "hint all", "hint \x1b]0;x\x07"]))
        if pick < 0.95:
            return ("line", "".join(rng.choice(self.voc["fragments"]) for _ in range(rng.randint(0, 8)))
                    .replace("\n", " ").replace("\r", " "))
        return ("line", rng.choice(["", " ", "quit", "{pass: " + rng.choice(NAMES) + "}", "- {pass: Ben}"]))


# -- running a child ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    status: int | None      # exit status; None: killed by a signal
    signal: int | None
    output: str
    cpu: float
    rss_kb: int
    hung: bool = False


class Child:
    """A run of the command line under the limits: forked from this process (or exec'd)."""

    def __init__(self, argv: list[str], cwd: Path, exec_cli: bool, interactive: bool):
        out_r, out_w = os.pipe()
        in_r, in_w = os.pipe() if interactive else (os.open(os.devnull, os.O_RDONLY), -1)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            try:
                os.dup2(in_r, 0)
                os.dup2(out_w, 1)
                os.dup2(out_w, 2)
                os.closerange(3, 256)
                os.chdir(cwd)
                _limit()
                _child(argv, exec_cli)
            finally:
                os._exit(99)
        os.close(out_w)
        os.close(in_r)
        self.pid = pid
        self.out = out_r
        self.stdin = in_w
        os.set_blocking(out_r, False)
        self.buffer = b""
        self.result: tuple[int, Any] | None = None

    def pump(self, wait: float) -> bool:
        """Read what is there (waiting up to ``wait`` s); False once the output is closed."""
        ready, _, _ = select.select([self.out], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.out, 65536)
        except BlockingIOError:
            return True
        self.buffer += chunk
        return bool(chunk)

    def send(self, line: str) -> None:
        try:
            os.write(self.stdin, (line + "\n").encode("utf-8", "surrogatepass"))
        except OSError:
            pass  # it has gone: the outcome says why

    def close_input(self) -> None:
        if self.stdin >= 0:
            os.close(self.stdin)
            self.stdin = -1

    def reap(self) -> bool:
        if self.result is None:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.result = (status, usage)
        return self.result is not None

    def finish(self, timeout: float, drain: list[int] = ()) -> Outcome:
        self.close_input()
        deadline = time.monotonic() + timeout
        open_ = True
        while not self.reap() or open_:
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                os.close(self.out)
                return Outcome(None, signal.SIGKILL, self.text(), 0.0, 0, hung=True)
            for fd in drain:
                try:
                    os.read(fd, 65536)
                except (BlockingIOError, OSError):
                    pass
            open_ = self.pump(0.05) if open_ else False
            if not open_ and self.result is None:
                time.sleep(0.02)
        os.close(self.out)
        status, usage = self.result
        cpu = usage.ru_utime + usage.ru_stime
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        return Outcome(code, sig, self.text(), cpu, usage.ru_maxrss)

    def text(self) -> str:
        return self.buffer.decode("utf-8", "replace")


def _limit() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 5))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _child(argv: list[str], exec_cli: bool) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_")}
    env["COLUMNS"] = "100000"  # one line per message: "recorded move N: ..." never wrapped
    if exec_cli:
        script = Path(sys.executable).parent / "ruleslawyer"
        cmd = [str(script)] if script.exists() else [sys.executable, "-m", "ruleslawyer.checker"]
        os.execve(cmd[0], [*cmd, *argv], env)
    os.environ.clear()
    os.environ.update(env)
    # A fresh interpreter's standard streams on a pipe: UTF-8, stderr backslash-escaped.
    sys.stdin = open(0, "r", encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from ruleslawyer.checker.cli import main

    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:  # as the interpreter does: the traceback, then death by SIGINT
        traceback.print_exc()
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        status = 130
    except BaseException:  # noqa: BLE001 - as the interpreter does: the traceback, exit 1
        traceback.print_exc()
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(status if isinstance(status, int) else 1)


def _warm_up() -> None:
    """Import what the commands use, once, before forking (no threads started)."""
    import contextlib
    import io

    from ruleslawyer.checker import cli

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["--help"])
        for name in ("recorder", "table", "htmlreport", "solve", "check"):
            __import__(f"ruleslawyer.checker.{name}")
        for name in ("cli", "simulate", "compare", "prove"):
            __import__(f"ruleslawyer.lab.{name}")
        # The bundled rule sets' expressions compiled once (spec/expr.py keeps them by text):
        # every child builds its rule set as a fresh process would, without compiling them again.
        from ruleslawyer.spec.loader import load_rules, rules_dir

        for path in sorted(rules_dir().glob("*.yaml")):
            with contextlib.suppress(Exception):
                load_rules(str(path))


# -- judging an outcome ------------------------------------------------------------------------------


def judge(out: Outcome, interrupted: bool = False) -> list[tuple[str, str]]:
    """The failures of one run: (kind, detail)."""
    found: list[tuple[str, str]] = []
    tail = ("(after a Ctrl-C) " if interrupted else "") + out.output[-1500:]
    if out.hung:
        return [("hang", f"no end within {WALL_TIMEOUT:.0f} s")]
    if out.signal in (signal.SIGXCPU, signal.SIGKILL) or out.cpu >= CPU_LIMIT:
        found.append(("cpu", f"{out.cpu:.1f} s of CPU"))
    elif out.signal is not None:
        found.append((f"signal-{signal.Signals(out.signal).name}", tail))
    if "MemoryError" in out.output or out.rss_kb * 1024 >= MEMORY_LIMIT:
        found.append(("memory", f"{out.rss_kb} KB resident; {tail}"))
    if out.status == 3:
        found.append(("exit-3", tail))
    elif out.status is not None and out.status not in (0, 1, 2) and not (interrupted and out.status == 130):
        found.append((f"exit-{out.status}", tail))
    if "Traceback (most recent call last)" in out.output and out.status != 3:
        found.append(("traceback", tail))
    return found


def _move_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def _parse_move(text: str) -> Any:
    text = text.strip()
    if text.startswith("- "):
        text = text[2:]
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


# What a session says (at the start of a line, or just after the prompt it answers).
RECORDED = re.compile(r"(?:^|\)> )recorded move \d+: (.*)$", re.MULTILINE)
REMOVED = re.compile(r"(?:^|\)> )removed: (.*)$", re.MULTILINE)
PROMPT = re.compile(rb"move \d+ \([^\n]*\)> \Z")
NUMBER = re.compile(rb"move (\d+) \([^\n]*\)> \Z")


class Session:
    """One play session driven line by line: waits for the prompt, types, reads."""

    def __init__(self, spec: dict[str, Any], case: Case, moves: list[str], rng: random.Random, exec_cli: bool):
        self.spec = spec
        self.steps = list(spec["steps"])
        self.moves = moves
        self.rng = rng
        self.child = Child(spec["argv"], case.folder, exec_cli, interactive=True)
        self.interrupted = False
        self.done = False

    def wait_prompt(self) -> bool:
        """Until the prompt (True) or the end of the session (False)."""
        deadline = time.monotonic() + SESSION_STEP
        seen = len(self.child.buffer)
        while time.monotonic() < deadline:
            if PROMPT.search(self.child.buffer[-200:]) and len(self.child.buffer) >= seen:
                return True
            if not self.child.pump(0.05):
                return False
        return False

    def next_move(self, how: str) -> str:
        m = NUMBER.search(self.child.buffer[-200:])
        index = int(m.group(1)) - 1 if m else 0
        if not self.moves:
            return "{pass: Ann}"
        move = self.moves[min(index, len(self.moves) - 1)]
        if how == "braces":
            return move[1:-1]
        if how == "dash":
            return "- " + move
        if how == "mutated":
            words = re.split(r"(\W)", move)
            spots = [i for i, w in enumerate(words) if w.strip() and re.match(r"\w", w)]
            if spots:
                words[self.rng.choice(spots)] = str(self.rng.choice(NAMES[:8] + ["0", "9", "-1", "Baker", "compass"]))
            return "".join(words)
        return move

    def step(self) -> None:
        """One step of the script (the prompt has been seen)."""
        if not self.steps:
            self.done = True
            return
        what, arg = self.steps.pop(0)
        if what == "interrupt":
            if arg:
                self.child.send(self.next_move("true"))
                time.sleep(arg)
            os.kill(self.child.pid, signal.SIGINT)
            self.interrupted = True
            self.done = True
            return
        self.child.buffer += b"\n"  # the prompt just answered is not the next one
        self.child.send(self.next_move(arg) if what == "move" else arg)
        if arg == "quit":
            self.done = True

    def end(self) -> Outcome:
        return self.child.finish(SESSION_STEP)


def run_play(case: Case, moves: list[str], exec_cli: bool, cpu: list[float]) -> list[tuple[str, str]]:
    """Run a play case's sessions; the failures found (the sessions' CPU seconds added to ``cpu``)."""
    rng = random.Random(f"{case.seed}:{case.number}:sessions")
    first = Session(case.sessions[0], case, moves, rng, exec_cli)
    sessions = [first]
    second_spec = case.sessions[1] if len(case.sessions) > 1 else None
    steps_taken = 0
    while True:
        live = [s for s in sessions if not s.done]
        if second_spec is not None and (steps_taken >= second_spec["start"] or not live):
            sessions.append(Session(second_spec, case, moves, rng, exec_cli))
            second_spec = None
            continue
        if not live:
            break
        s = rng.choice(live)
        if s.wait_prompt():
            s.step()
            steps_taken += 1
        else:
            s.done = True
    found: list[tuple[str, str]] = []
    recorded: collections.Counter = collections.Counter()
    removed: collections.Counter = collections.Counter()
    unknown_removals = 0
    for i, s in enumerate(sessions):
        out = s.end()
        (case.folder / f"session-{i + 1}.out").write_text(f"$ {shlex.join(s.spec['argv'])}\n{out.output}")
        found += judge(out, s.interrupted)
        cpu.append(out.cpu)
        recorded.update(_move_key(_parse_move(m)) for m in RECORDED.findall(out.output))
        for text in REMOVED.findall(out.output):
            parsed = _parse_move(text)
            if isinstance(parsed, dict) and parsed:
                removed[_move_key(parsed)] += 1
            else:
                unknown_removals += 1
    if case.log is None or not case.log.exists():
        if recorded:
            found.append(("lost-move", f"the log is gone; recorded: {sorted(recorded)}"))
        return found
    try:
        doc = yaml.safe_load(case.log.read_bytes().decode("utf-8-sig"))
        final = doc.get("moves") if isinstance(doc, dict) else None
        if final is None:
            final = []
        if not isinstance(final, list):
            raise ValueError("moves: is not a list")
    except (yaml.YAMLError, UnicodeDecodeError, ValueError, AttributeError) as exc:
        found.append(("log-damaged", f"{type(exc).__name__}: {str(exc)[:200]}"))
        return found
    if not all(isinstance(m, dict) and m for m in final):
        found.append(("log-damaged", f"a move that is not a mapping: {[m for m in final if not isinstance(m, dict)][:3]}"))
        final = [m for m in final if isinstance(m, dict) and m]
    have = collections.Counter(_move_key(m) for m in final)
    base = collections.Counter(_move_key(m) for m in case.base_moves)
    lost = base + recorded - removed - have
    if sum(lost.values()) > unknown_removals:
        found.append(("lost-move", f"missing from the log: {sorted(lost)[:3]}"))
    extra = have - base - recorded
    if extra:
        found.append(("unannounced-move", f"in the log, never said recorded: {sorted(extra)[:3]}"))
    return found


# -- the driver -----------------------------------------------------------------------------------------


def run_case(maker: Maker, number: int, exec_cli: bool) -> dict[str, Any]:
    case = maker.case(number)
    start = time.monotonic()
    cpu: list[float] = []
    if case.kind == "play":
        found = run_play(case, case.script_moves, exec_cli, cpu)
    else:
        fifos = [os.open(p, os.O_RDONLY | os.O_NONBLOCK) for p in case.fifos]
        try:
            child = Child(case.argv, case.folder, exec_cli, interactive=False)
            out = child.finish(WALL_TIMEOUT, fifos)
            cpu.append(out.cpu)
            found = judge(out)
        finally:
            for fd in fifos:
                os.close(fd)
    return {"number": number, "kind": case.kind, "command": case.command(), "folder": str(case.folder),
            "sessions": len(case.sessions), "found": found, "wall": round(time.monotonic() - start, 2),
            "cpu": round(sum(cpu), 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100, help="inputs to run")
    ap.add_argument("--seed", type=int, default=0, help="the seed: the same seed and count give the same inputs")
    ap.add_argument("--first", type=int, default=0, help="the number of the first input")
    ap.add_argument("--only", type=int, nargs="*", help="run these inputs only (by number)")
    ap.add_argument("--jobs", type=int, default=1, help="processes running inputs side by side")
    ap.add_argument("--exec", dest="exec_cli", action="store_true", help="a fresh ruleslawyer for each input")
    ap.add_argument("--keep", metavar="DIR", help="keep every input's files in DIR (else only the failures')")
    ap.add_argument("--format", choices=["text", "json"], default="text")
    ap.add_argument("--shard", type=int, nargs=2, metavar=("I", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    numbers = args.only if args.only else list(range(args.first, args.first + args.count))
    if args.jobs > 1 and not args.shard:
        return _parallel(args, numbers)
    if args.shard:
        numbers = numbers[args.shard[0]::args.shard[1]]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="rl-fuzz3-"))
    if not args.exec_cli:
        _warm_up()
    maker = Maker(args.seed, work)
    results = []
    for n in numbers:
        r = run_case(maker, n, args.exec_cli)
        results.append(r)
        if not r["found"] and not args.keep:
            shutil.rmtree(r["folder"], ignore_errors=True)
    if not args.keep and not any(r["found"] for r in results):
        shutil.rmtree(work, ignore_errors=True)
    if args.shard:  # every result, to the process that merges the shards
        json.dump({"results": results}, sys.stdout, ensure_ascii=False)
        return 0
    summary = _summary(results, args.seed)
    if args.format == "json":
        json.dump(summary, sys.stdout, ensure_ascii=False)
        print()
    else:
        print(_text(summary))
    return 1 if summary["failures"] else 0


def _parallel(args: argparse.Namespace, numbers: list[int]) -> int:
    import subprocess

    base = [sys.executable, "-m", "tests.hostile.fuzz_round3", "--seed", str(args.seed), "--only", *map(str, numbers)]
    if args.exec_cli:
        base.append("--exec")
    if args.keep:
        base += ["--keep", args.keep]
    procs = [subprocess.Popen([*base, "--shard", str(i), str(args.jobs)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
             for i in range(args.jobs)]
    results: list[dict[str, Any]] = []
    for p in procs:
        out, _ = p.communicate()
        results += json.loads(out)["results"]
    summary = _summary(sorted(results, key=lambda r: r["number"]), args.seed)
    print(json.dumps(summary, ensure_ascii=False) if args.format == "json" else _text(summary))
    return 1 if summary["failures"] else 0


def _summary(results: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    kinds: collections.Counter = collections.Counter()
    cpu: collections.Counter = collections.Counter()
    example: dict[str, str] = {}
    for r in results:
        cpu[r["kind"]] += r["cpu"]
        for kind, _ in r["found"]:
            kinds[kind] += 1
            example.setdefault(kind, f"--seed {seed} --only {r['number']}  ({r['command'][:300]})")
    return {"inputs": len(results), "by_command": dict(collections.Counter(r["kind"] for r in results)),
            "play_sessions": sum(r["sessions"] for r in results),
            "cpu_by_command": {k: round(v, 1) for k, v in cpu.items()},
            "slowest": sorted(([r["cpu"], r["number"], r["kind"]] for r in results), reverse=True)[:5],
            "failures": sum(1 for r in results if r["found"]), "by_kind": dict(kinds), "examples": example,
            "results": [r for r in results if r["found"]] if len(results) > 1 else results}


def _text(summary: dict[str, Any]) -> str:
    lines = [f"CPU seconds by command: {summary['cpu_by_command']}; the most: {summary['slowest']}",
             f"{summary['inputs']} inputs ({', '.join(f'{k} {v}' for k, v in sorted(summary['by_command'].items()))}; "
             f"{summary['play_sessions']} play sessions): {summary['failures']} with a failure"]
    for kind, n in sorted(summary["by_kind"].items(), key=lambda kv: -kv[1]):
        lines.append(f"  {kind}: {n}, e.g. {summary['examples'][kind]}")
    for r in summary["results"][:20]:
        for kind, detail in r["found"]:
            lines.append(f"#{r['number']} {kind}: {r['command'][:200]}\n    {detail[-400:]!r}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
