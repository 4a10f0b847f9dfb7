"""``simulate``: N games by bots, on one process, local processes or a Dask cluster.

Games are cut into chunks of consecutive indices; each chunk is played by
a worker that loads the rules itself (by name or path, variant, overlays)
and returns plain records.  Records are put back in index order before
anything is counted, and every game draws from its own stream
(:func:`~ruleslawyer.lab.game.game_rng`), so one seed gives the same
results with 1 worker, 2 processes or a cluster.

Executors: ``local`` (``--workers K``: K processes, 1: this process) and
``dask`` (``--executor dask``: a ``LocalCluster`` of K worker processes,
or the cluster at ``--scheduler ADDRESS``; needs the ``cluster`` extra).
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..checker.check import check_text
from ..checker.files import signals_held
from ..spec.loader import load_rules
from ..spec.model import Ruleset
from ..checker.outputs import log_ref
from .bots import BotError, parse_bots
from .engine import Lab
from .game import GameRecord, play_game
from .stats import summarise

__all__ = ["Config", "Result", "run", "CHUNK", "ExecutorError", "check_address", "rotated"]

#: Games per task sent to a worker.
CHUNK = 8
#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 3
#: Diagnostics kept per sampled log that does not check clean (to say why).
PROBLEMS = 3


class ExecutorError(RuntimeError):
    """The chosen executor cannot run here (the extra is missing, the scheduler is unreachable)."""


@dataclass(frozen=True)
class Config:
    rules: str                      # a bundled name or a path
    variant: str | None = None
    house: tuple[str, ...] = ()
    games: int = 100
    bots: str = "random"
    seed: int = 0
    max_moves: int = 500
    sample: int = 3                 # games written as logs (the first ones) and checked
    track: bool = True              # follow when the solution becomes known
    log_dir: str | None = None      # where the sampled logs are written (None: the current folder)
    rotate: bool = False            # game i seats the first bot at seat i mod n, the others after it in order

    def log_refs(self) -> tuple[str | None, tuple[str, ...]]:
        """The ``rules:`` and ``house:`` of a sampled log: a file by its path relative to the
        folder the log is written in (so that ``check`` finds it), a bundled name as it is."""
        folder = self.log_dir or "."
        rules = log_ref(self.rules, folder) if os.path.isfile(self.rules) else None
        return rules, tuple(log_ref(h, folder) for h in self.house)

    def allowed(self) -> tuple[str, ...]:
        """The folders of the rule files given as files (the user's own choice: a sampled log may
        name them wherever they are)."""
        return tuple(dict.fromkeys(os.path.dirname(os.path.abspath(f)) for f in (self.rules, *self.house)
                                   if os.path.isfile(f)))


@dataclass
class Result:
    config: Config
    name: str                       # the rule set's canonical name
    seats: int
    bots: list[str]
    records: list[GameRecord]
    summary: dict[str, Any]
    logs: list[tuple[int, str, int]] = field(default_factory=list)  # (index, log text, check status)
    problems: list[dict[str, Any]] = field(default_factory=list)  # why a sampled log does not check clean

    def to_json(self) -> dict[str, Any]:
        c = self.config
        return {"rules": self.name, "games": c.games, "seed": c.seed, "bots": self.bots,
                "max_moves": c.max_moves, **self.summary,
                "logs": {"checked": len(self.logs), "clean": sum(1 for _i, _t, s in self.logs if s == 0),
                         "problems": self.problems}}


_LABS: dict[tuple[Any, ...], Lab] = {}


def lab_for(rules: str, variant: str | None, house: Sequence[str]) -> Lab:
    """The lab of a rule set (cached per process and thread: a lab keeps what it computed
    of the last state, so threads of a worker must not share one)."""
    key = (rules, variant, tuple(house), threading.get_ident())
    found = _LABS.get(key)
    if found is None:
        found = _LABS[key] = Lab(load_rules(rules, variant=variant, house=list(house)))
    return found


def _chunk_task(config: Config, indices: Sequence[int]) -> list[GameRecord]:
    lab = lab_for(config.rules, config.variant, config.house)
    seats = int(lab.rules.param("players"))
    bots = parse_bots(config.bots, seats, rules=lab.rules)
    refs = config.log_refs()
    out = []
    for i in indices:
        try:
            out.append(play_game(lab, rotated(bots, i) if config.rotate else bots, config.seed, i, config.max_moves, keep_log=i < config.sample,
                                 track=config.track, refs=refs))
        except BotError as exc:
            raise BotError(f"game {i} (seed {config.seed}): {exc}") from None
    return out


def rotated(bots: Sequence[Any], index: int) -> list[Any]:
    """The bots of game ``index`` when seats rotate: the first bot at seat ``index mod n`` (seat 0
    moves first), the others after it in their order, so each bot sits at every seat in turn.

    >>> rotated(["a", "b", "c"], 4)
    ['c', 'a', 'b']
    """
    n = len(bots)
    return [bots[(k - index) % n] for k in range(n)]


def _quiet_worker() -> None:
    """A worker process leaves Ctrl-C to the command (which stops it): no traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(games: int, size: int = CHUNK) -> list[list[int]]:
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def run(config: Config, workers: int = 1, executor: str = "local", scheduler: str | None = None,
        progress: Callable[[int], None] | None = None, rules: Ruleset | None = None) -> Result:
    """Play the games and summarise them; ``progress(k)`` is told of each k games done."""
    lab = lab_for(config.rules, config.variant, config.house) if rules is None else Lab(rules)
    seats = int(lab.rules.param("players"))
    bots = parse_bots(config.bots, seats, rules=lab.rules)
    chunks = _chunks(config.games)
    done: dict[int, list[GameRecord]] = {}
    if executor == "dask":
        results = _dask(config, chunks, workers, scheduler, progress)
        done = dict(enumerate(results))
    elif workers <= 1 or len(chunks) == 1:
        for i, chunk in enumerate(chunks):
            done[i] = _chunk_task(config, chunk)
            if progress:
                progress(len(chunk))
    else:
        from concurrent.futures import as_completed

        pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
        try:
            futures = {pool.submit(_chunk_task, config, chunk): i for i, chunk in enumerate(chunks)}
            for fut in as_completed(futures):
                i = futures[fut]
                done[i] = fut.result()
                if progress:
                    progress(len(chunks[i]))
        except BaseException:  # Ctrl-C or a failed game: the workers are stopped, nothing waited for
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    records = [r for i in sorted(done) for r in done[i]]
    summary = summarise([r.to_json() for r in records], seats, config.max_moves)
    result = Result(config, lab.rules.canonical_name, seats, [b.spec() for b in bots], records, summary)
    folder = config.log_dir or ""
    for r in records:
        if r.log is not None:
            report = check_text(r.log, os.path.join(folder, f"<simulated game {r.index}>"), allow=config.allowed())
            result.logs.append((r.index, r.log, report.status))
            if report.status != 0:
                shown = [d for d in report.diagnostics if d.severity == "error"][:PROBLEMS] or report.diagnostics[:1]
                result.problems.append({"game": r.index, "status": report.status,
                                        "diagnostics": [d.to_json() for d in shown],
                                        "text": [d.format_text() for d in shown]})
    return result


def _dask(config: Config, chunks: list[list[int]], workers: int, scheduler: str | None,
          progress: Callable[[int], None] | None) -> list[list[GameRecord]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ExecutorError("--executor dask needs Dask distributed: pip install 'ruleslawyer[cluster]'") from None
    cluster = None
    try:
        if scheduler:
            import dask

            check_address(scheduler)
            try:
                with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT}s"}):
                    client = Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise ExecutorError(f"no Dask scheduler answers at {scheduler}: {exc}") from None
        else:
            cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            client = Client(cluster)
        try:
            futures = [client.submit(_chunk_task, config, chunk, pure=False) for chunk in chunks]
            index = {f.key: i for i, f in enumerate(futures)}
            out: dict[int, list[GameRecord]] = {}
            for fut in as_completed(futures):
                i = index[fut.key]
                out[i] = fut.result()
                if progress:
                    progress(len(chunks[i]))
            return [out[i] for i in range(len(chunks))]
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def check_address(address: str) -> None:
    """Refuse at once an address Dask would spend its whole timeout failing to read."""
    try:
        from distributed.comm import parse_address
        from distributed.comm.addressing import parse_host_port
    except ImportError:
        raise ExecutorError("--executor dask needs Dask distributed: pip install 'ruleslawyer[cluster]'") from None

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host or any(c.isspace() for c in host) or not 0 < int(port) < 65536:
                raise ValueError("not a host and port")
    except (ValueError, TypeError) as exc:
        raise ExecutorError(f"{address!r} is not a scheduler address (e.g. tcp://HOST:8786): {exc}") from None


class Progress:
    """A progress bar on standard error when it is a terminal (rich); silent otherwise.

    Starting the bar swaps ``sys.stderr`` for rich's proxy, which draws the bar again
    under every line written through it; stopping it swaps it back.  A Ctrl-C in the
    middle of either would leave the proxy in place (the command's "interrupted" line
    then drawn with the bar under it, a bar drawn after the line): both are done with
    the ending signals held off (``signals_held``), and a bar whose start is interrupted
    is stopped before the interrupt goes on."""

    def __init__(self, total: int, label: str, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        self.total, self.label = total, label

    def __enter__(self) -> "Progress":
        if self.enabled and self.total > 0:
            try:
                with signals_held():
                    self._start()
            except BaseException:  # Ctrl-C held off until the bar was up: taken down again
                self.__exit__(None, None, None)
                raise
        return self

    def _start(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TimeRemainingColumn
        from rich.markup import escape as rich_escape

        bar = Bar("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), transient=True, console=_console())
        self._bar = bar
        bar.__enter__()
        self._task = bar.add_task(rich_escape(self.label), total=self.total)  # a label, not markup

    def advance(self, k: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, k)

    def __exit__(self, *exc: Any) -> None:
        with signals_held():
            bar, self._bar = self._bar, None
            if bar is not None:
                bar.__exit__(*exc)


def _console() -> Any:
    from rich.console import Console

    return Console(file=sys.stderr)


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def records_json(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    return [r.to_json() for r in records]
