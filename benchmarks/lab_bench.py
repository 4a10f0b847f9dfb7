"""The variant lab, measured: simulation speed, workers, informed bots, prove.

    .venv/bin/python benchmarks/lab_bench.py [--games 200] [--repeat 3] [--sim-baseline REV] [--rounds 10]
        [--scaling-games 1000] [--baseline REV] [--skip-scaling]

1. **Random-bot simulation, legal moves a second per core** (CPU time of this
   process) for Lady Alice 4p, random bots (kind weights as given), whole
   games with outcomes completed and moves applied, ``--repeat`` times (each
   with a new lab, its setup counted): the best, median and worst run (on a
   shared machine other work only ever slows a run down).  Then the same
   simulation by this tree and by the lab of ``--sim-baseline`` (default
   52c10b5, extracted with ``git archive`` as a package of its own), in
   blocks of 20 games played by each in turn, and the ratio: the machine's
   load falls on both alike.  Side by side, in the
   same run: the same games *replayed* (check + apply every move) through
   the state machine of this tree and through the state machine of
   ``--baseline`` (default: the commit the lab started from), extracted with
   ``git archive`` into a temporary package, and the ratio of the two.
2. **Informed-bot games a second** for each bundled game (one process).
3. **Scaling from 1 to 2 worker processes**: wall time of ``--scaling-games``
   games (default 1000) with ``--workers 1`` and ``--workers 2``
   (``ruleslawyer simulate``'s runner), and the ratio.  A worker process
   costs its start (the pool, the rule set loaded again); the games must
   outweigh it, as a run worth spreading over cores does.  On a machine
   shared with other work the ratio shows the load too: run it on a quiet
   machine.
4. **prove: states explored a second**, Lady Alice 3p, the shipped
   properties, depth 2.

Nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ruleslawyer.lab.bots import parse_bots  # noqa: E402
from ruleslawyer.lab.engine import Lab  # noqa: E402
from ruleslawyer.lab.game import play_game, seat_names  # noqa: E402
from ruleslawyer.lab.prove import load_properties, prove  # noqa: E402
from ruleslawyer.lab.simulate import Config, run  # noqa: E402
from ruleslawyer.spec.loader import load_rules  # noqa: E402
from ruleslawyer.spec.machine import Machine, Play  # noqa: E402

BASELINE = "e20a941"
#: The lab at the start of the session that took simulation past 14,500 moves a second.
SIM_BASELINE = "52c10b5"


def _extracted(rev: str, folders: list[str], package: str) -> Path | None:
    """``folders`` of ``rev`` as the package ``package`` of a temporary folder put on the
    import path (its folder returned), or None when git cannot give them."""
    try:
        data = subprocess.run(["git", "archive", rev, *folders], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    folder = Path(tempfile.mkdtemp(prefix="rl-baseline-"))
    pkg = folder / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(pkg, filter="data")
    sys.path.insert(0, str(folder))
    return pkg


def baseline_machine(rev: str):
    """The spec package of ``rev`` as a package of its own (None when git cannot give it)."""
    pkg = _extracted(rev, ["spec", "rules"], "rl_baseline")
    if pkg is None:
        return None
    loader = importlib.import_module("rl_baseline.spec.loader")
    machine = importlib.import_module("rl_baseline.spec.machine")
    return loader, machine, pkg / "rules"


def baseline_lab(rev: str):
    """The modules a simulation needs from the lab of ``rev`` (its spec, lab, solver, checker
    and rules as a package of its own), or None when git cannot give it."""
    if _extracted(rev, ["spec", "lab", "solver", "checker", "rules"], "rl_lab_baseline") is None:
        return None
    return [importlib.import_module(f"rl_lab_baseline.{m}") for m in ("spec.loader", "lab.engine", "lab.bots",
                                                                       "lab.game")]


def _player(loader, engine, bots_module, game, bots: str):
    rules = loader.load_rules("lady-alice", variant="4p")
    lab = engine.Lab(rules)
    spec = bots_module.parse_bots(bots, rules.param("players"), list(rules.moves))
    return lambda i: game.play_game(lab, spec, 1, i, 300, keep_log=False, track=False).moves


def interleaved(rev: str, bots: str, rounds: int, block: int = 20) -> tuple[float, float, int] | None:
    """The random-bot simulation of this tree and of ``rev``, in blocks of ``block`` games
    played by each in turn (the first block of a round alternating), the same games: moves a
    second of each (CPU time, all blocks) and the moves played; None without ``rev``."""
    modules = baseline_lab(rev)
    if modules is None:
        return None
    import ruleslawyer.lab.bots as b
    import ruleslawyer.lab.engine as e
    import ruleslawyer.lab.game as g
    import ruleslawyer.spec.loader as lo
    runs = {"now": _player(lo, e, b, g, bots), "then": _player(*modules, bots)}
    for play in runs.values():
        play(10 ** 6)  # each lab set up before the clock runs
    spent = dict.fromkeys(runs, 0.0)
    moves = dict.fromkeys(runs, 0)
    for r in range(rounds):
        order = list(runs) if r % 2 == 0 else list(reversed(runs))
        for name in order:
            t = time.process_time()
            moves[name] += sum(runs[name](i) for i in range(r * block, (r + 1) * block))
            spent[name] += time.process_time() - t
    return moves["now"] / spent["now"], moves["then"] / spent["then"], moves["now"]


def simulate_random(variant: str, games: int, bots: str, repeat: int = 1) -> tuple[int, list[float], list]:
    """The same ``games`` played ``repeat`` times, each time by a new lab (its setup counted):
    the moves of one run, the CPU time of each run, and the first games' moves kept."""
    rules = load_rules("lady-alice", variant=variant)
    seats = rules.param("players")
    spec = parse_bots(bots, seats, list(rules.moves))
    times = []
    for _ in range(repeat):
        moves = 0
        t = time.process_time()
        lab = Lab(rules)
        for i in range(games):
            rec = play_game(lab, spec, 1, i, 300, keep_log=False, track=False)
            moves += rec.moves
        times.append(time.process_time() - t)
    # the same games again, keeping their moves, for the replay comparison
    recorded = [_plays(lab, spec, i) for i in range(min(games, 60))]
    return moves, times, recorded


def _plays(lab: Lab, bots, index: int) -> list[Play]:
    from ruleslawyer.lab import game as g

    captured: list[Play] = []
    original = lab.apply

    def apply(state, play):
        out, rec = original(state, play)
        captured.append(play)
        return out, rec
    lab.apply = apply  # type: ignore[method-assign]
    try:
        g.play_game(lab, bots, 1, index, 300, keep_log=False, track=False)
    finally:
        del lab.apply
    return captured


def replay_rate(machine, plays_by_game, players, play_cls) -> float:
    n, t = 0, time.process_time()
    for plays in plays_by_game:
        state = machine.start(players, players[0])
        for p in plays:
            out = machine.play(state, play_cls(p.kind, p.actor, dict(p.args)))
            assert not out.violations, out.violations
            state = out.state
            n += 1
    return n / (time.process_time() - t)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--bots", default="random:accuse=0.05")
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--scaling-games", type=int, default=1000)
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="runs of part 1 (a new lab each; best, median, worst)")
    ap.add_argument("--sim-baseline", default=SIM_BASELINE,
                    help="a revision whose lab simulates in turn with this tree's (empty: none)")
    ap.add_argument("--rounds", type=int, default=10, help="rounds of the interleaved simulation")
    args = ap.parse_args(argv)

    print(f"1. random-bot simulation, Lady Alice 4p, {args.games} games, bots {args.bots}")
    moves, times, recorded = simulate_random("4p", args.games, args.bots, args.repeat)
    rates = sorted(moves / dt for dt in times)
    print(f"   simulate (lab, this tree): {moves} legal moves, {len(times)} run(s): best {min(times):.2f} s CPU = "
          f"{rates[-1]:,.0f} moves/s, median {statistics.median(rates):,.0f}, worst {rates[0]:,.0f}")
    if args.sim_baseline:
        found = interleaved(args.sim_baseline, args.bots, args.rounds)
        if found is None:
            print(f"   (simulation of {args.sim_baseline}: git cannot give it)")
        else:
            now_rate, then_rate, n = found
            print(f"   simulate, interleaved with {args.sim_baseline} ({args.rounds} rounds of 20 games each, {n} moves): "
                  f"this tree {now_rate:,.0f}, {args.sim_baseline} {then_rate:,.0f} moves/s: {now_rate / then_rate:.2f}x")
    players = seat_names(4)
    now = replay_rate(Machine(load_rules("lady-alice", variant="4p")), recorded, players, Play)
    print(f"   replay check+apply, this tree:    {now:,.0f} moves/s")
    base = baseline_machine(args.baseline)
    if base is not None:
        loader, machine, rules_then = base
        try:  # the baseline's code with the rule file of its own time (today's may use newer names)
            old_rules = loader.load_rules(str(rules_then / "lady-alice.yaml"), variant="4p")
        except Exception as exc:  # noqa: BLE001 - a baseline that cannot read its rules is reported, not fatal
            print(f"   (baseline {args.baseline} cannot load its rules: {str(exc).splitlines()[0]})")
        else:
            old = replay_rate(machine.Machine(old_rules), recorded, players, machine.Play)
            print(f"   replay check+apply, {args.baseline}:  {old:,.0f} moves/s   (this tree / baseline: "
                  f"{now / old:.2f}x; simulate (best) / baseline replay: {rates[-1] / old:.2f}x)")
    else:
        print("   (no baseline: git archive failed)")

    print("2. informed-bot games a second (one process, 4 informed bots, solution followed)")
    for name, variant in (("lady-alice", "4p"), ("perfect-alibi", None)):
        try:
            rules = load_rules(name, variant=variant)
        except Exception:  # noqa: BLE001 - a game not bundled in this tree
            continue
        lab = Lab(rules)
        seats = rules.param("players")
        spec = parse_bots("informed", seats, list(rules.moves))
        k = 3
        t = time.process_time()
        total = sum(play_game(lab, spec, 1, i, 400, track=True).moves for i in range(k))
        dt = time.process_time() - t
        print(f"   {rules.canonical_name}: {k} games, {total} moves in {dt:.1f} s CPU = {k / dt:.2f} games/s "
              f"({total / dt:.1f} moves/s)")

    if not args.skip_scaling:
        print(f"3. scaling: {args.scaling_games} random games, Lady Alice 4p, 1 and 2 worker processes (wall time)")
        config = Config("lady-alice", "4p", (), games=args.scaling_games, bots=args.bots, seed=3, max_moves=300,
                        sample=0, track=False)
        walls = {}
        import resource

        for workers in (1, 2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + time.process_time()
            t = time.perf_counter()
            run(config, workers=workers)
            walls[workers] = time.perf_counter() - t
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + time.process_time() - before
            print(f"   {workers} worker(s): {walls[workers]:.2f} s wall, {cpu:.2f} s CPU "
                  f"(cores busy on average: {cpu / walls[workers]:.2f})")
        print(f"   speed-up 1 -> 2 workers: {walls[1] / walls[2]:.2f}x  (load average now: "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")

    print("4. prove: Lady Alice 3p, examples/lady-alice/lab/properties.yaml, depth 2")
    rules = load_rules("lady-alice", variant="3p")
    spec = load_properties(str(ROOT / "examples" / "lady-alice" / "lab" / "properties.yaml"), rules)
    t = time.process_time()
    proof = prove(rules, spec, depth=2)
    dt = time.process_time() - t
    print(f"   {proof.states:,} states in {dt:.2f} s CPU = {proof.states / dt:,.0f} states/s; "
          f"{sum(r.holds for r in proof.results)} of {len(proof.results)} properties hold")


if __name__ == "__main__":
    main()
