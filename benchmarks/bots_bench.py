"""Bot strength: each bot's win rate against the others at the same table, seats rotated.

    .venv/bin/python benchmarks/bots_bench.py --game lady-alice --table greedy,random --games 40 [--variant 4p]
        [--seed 1] [--max-moves 500] [--legal-sample]

``--table A,B`` seats bot A at one seat and bot B at every other (a
``--table`` of more names seats them in turn).  Game ``i`` rotates the
table by ``i`` seats, so each bot plays every seat equally often (``--games``
a multiple of the number of players).  Each game is played by
:func:`lab.game.play_game` on its own stream (seed, index): the same games
with any number of runs.  For each bot name: its wins (a joint win counts for each
winner, as ``simulate``'s win rate by seat does) as a share of its seats,
with a Wilson 95 % interval (:func:`lab.stats.rate_ci`), against 1/n, the
rate of a seat at a table of equals.  A search bot's work is reported as
counted: claims weighed by playouts, playouts played, questions weighed
for the race and the solver counts they took, and games per
second (CPU time of this process) beside its budget.  ``--legal-sample``:
greedy's sample of a kind with more choices than it values, and the
informed bot's enumeration when its sample finds too few legal choices,
drawn among the legal choices only (``advice.LEGAL_SAMPLE`` and
``bots.STAGED_FALLBACK`` on: the staged listing): a before/after in one
build; a bot named ``NAME+legal`` (``--table greedy+legal,greedy``) makes
its own moves that way, the others theirs without: both at one table.

Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import time

from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.lab.search import SearchBot
from ruleslawyer.lab.stats import rate_ci
from ruleslawyer.spec.loader import load_rules


class _Legal:
    """A bot that makes each move with the flags of ``--legal-sample`` on, the others' moves
    with them as they are (a bot name ending in ``+legal``: both ways at the same table)."""

    def __init__(self, bot):
        self.bot = bot

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def _legal(self, method, turn):
        from ruleslawyer.lab import advice, bots

        kept = advice.LEGAL_SAMPLE, bots.STAGED_FALLBACK
        advice.LEGAL_SAMPLE = bots.STAGED_FALLBACK = True
        try:
            return method(turn)
        finally:
            advice.LEGAL_SAMPLE, bots.STAGED_FALLBACK = kept

    def choose(self, turn):
        return self._legal(self.bot.choose, turn)

    def interject(self, turn):
        return self._legal(self.bot.interject, turn)


def _bot(name: str, rules):
    """The bot of a table's name (``NAME+legal``: with the flags of ``--legal-sample`` on)."""
    if name.endswith("+legal"):
        return _Legal(parse_bots(name[:-len("+legal")], 1, rules=rules)[0])
    return parse_bots(name, 1, rules=rules)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="lady-alice")
    ap.add_argument("--variant")
    ap.add_argument("--table", default="greedy,random", help="the bot of the first seat, then the others'")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-moves", type=int, default=500)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--legal-sample", action="store_true",
                    help="greedy's sample of a kind with more choices than it values, and the informed bot's "
                         "enumeration when its sample finds too few legal, among the legal choices only "
                         "(advice.LEGAL_SAMPLE and bots.STAGED_FALLBACK on: the staged listing)")
    args = ap.parse_args()
    if args.legal_sample:
        from ruleslawyer.lab import advice, bots

        advice.LEGAL_SAMPLE = bots.STAGED_FALLBACK = True
    rules = load_rules(args.game, variant=args.variant)
    n = int(rules.param("players"))
    lab = Lab(rules)
    names = [s.strip() for s in args.table.split(",")]
    while len(names) < n:
        names.append(names[-1])
    bots = {name: _bot(name, rules) for name in dict.fromkeys(names)}
    seats = {name: 0 for name in bots}
    wins = {name: 0 for name in bots}
    ends: dict[str, int] = {}
    moves = 0
    start = time.process_time()
    for i in range(args.games):
        table = [names[(k - i) % n] for k in range(n)]  # rotated by i seats
        rec = play_game(lab, [bots[t] for t in table], args.seed, i, args.max_moves, track=False)
        for k, name in enumerate(table):
            seats[name] += 1
            if k in rec.winners:
                wins[name] += 1
        moves += rec.moves
        ends[rec.end.split(":")[0]] = ends.get(rec.end.split(":")[0], 0) + 1
    cpu = time.process_time() - start
    out = {"game": rules.canonical_name, "table": names, "games": args.games, "seed": args.seed,
           "cpu_seconds": round(cpu, 1), "games_per_cpu_second": round(args.games / cpu, 3) if cpu else None,
           "ends": ends, "moves_per_game": round(moves / args.games, 1) if args.games else None, "equal_share": 1 / n, "bots": {}}
    for name, bot in bots.items():
        d = rate_ci(wins[name], seats[name])
        out["bots"][name] = {"seats": seats[name], "wins": wins[name], "rate": d["rate"], "lo": d["lo"], "hi": d["hi"]}
        if isinstance(bot, SearchBot):
            out["bots"][name].update({"iterations": bot.iterations, "decisions_searched": bot.searched,
                                      "playouts": bot.playouts, "questions_raced": bot.raced,
                                      "race_counts": bot.race_counts})
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['game']}: {args.games} games, seed {args.seed}, table {', '.join(names)} (rotated); "
          f"{cpu:.1f} s CPU, {out['games_per_cpu_second']} games/s, {out['moves_per_game']} moves a game; a seat of equals wins 1/{n} = {100 / n:.1f} %")
    for name, d in out["bots"].items():
        extra = (f"; {d['decisions_searched']} claims weighed, {d['playouts']} playouts, "
                 f"{d['questions_raced']} questions weighed for the race, {d['race_counts']} solver counts "
                 f"(iterations={d['iterations']})" if "playouts" in d else "")
        print(f"  {name:<40} {100 * d['rate']:5.1f} %  [{100 * d['lo']:.1f}, {100 * d['hi']:.1f}]  "
              f"({d['wins']} wins in {d['seats']} seats){extra}")
    print("  ends: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))


if __name__ == "__main__":
    main()
