"""Time the subset dynamic program (solver/dp.py) on random Perfect Alibi games.

Usage::

    .venv/bin/python benchmarks/dp_bench.py [--players 3 4 5] [--questions 30] [--history 40]
                                            [--ref-steps 5] [--seed N] [--engine FILE]

For 3, 4 and 5 players, with and without the Rival variant, one random game
of ``--questions`` questions is generated from a random true deal (assistants
held and swapped, the Priest's private answers, the Cook's random draws, the
Captain's look at shown cards, the Rival's lies, wrong guesses).  Each
question is one step: the facts a viewpoint sees are added to its knowledge
and every answer is computed (count, each card's chance to be the missing
one, each card's chance to be in each zone).  The engine is timed per step
for the spectator and every player; the plain reference (a subset dynamic
program written below, forward and backward over the players, rebuilt from
all the facts at each step) on ``--ref-steps`` steps spread over the game,
where both must give the same answers.  Then the whole history (every prefix)
of a 5-player ``--history``-question game is timed for every viewpoint.
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Iterable
from itertools import combinations, permutations

import numpy as np

from ruleslawyer.solver.dp import DPKnowledge
from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
from ruleslawyer.spec.facts import And, Atom, Const, Fact, Not, Or, all_of, any_of, count, if_then_else, member

PLAYERS = ("Blue", "Green", "Red", "White", "Yellow")
LOCATIONS = ("L1", "L2", "L3", "L4")   # the rulebook names three of the four locations
TIMES = ("T1", "T2", "T3", "T4")
CARDS = tuple(f"{loc}-{t}" for loc in LOCATIONS for t in TIMES)
ASSISTANTS = ("Journalist", "Captain", "Psychiatrist", "Priest", "Cook")
HANDS = {3: 5, 4: 3, 5: 3}


def alibi_deal(players: int, rival: bool) -> Deal:
    """16 alibi cards: one missing, hands of 5/3/3, 3 face up with 4 players; Rival tiles."""
    names = PLAYERS[:players]
    zones = [Zone(f"hand:{p}", "hand", p, HANDS[players], "owner") for p in names]
    zones.append(Zone("missing", "missing", None, 1))
    if players == 4:
        zones.append(Zone("public", "public", None, 3, "everyone"))
    decks = [Deck("alibi", CARDS, tuple(zones))]
    if rival:
        tiles = [Zone(f"rival:{p}", "rival", p, 1, "owner") for p in names]
        if players < 5:
            tiles.append(Zone("rival-box", "rival-box", None, 5 - players))
        decks.append(Deck("rival", ASSISTANTS, tuple(tiles)))
    return Deal(tuple(decks), solution=("missing",), players=names)


# -- a random game --------------------------------------------------------------------------------


@dataclass
class Game:
    deal: Deal
    true: dict[str, str]
    setup: list[Fact]
    questions: list[list[Fact]] = field(default_factory=list)


def rules_game(players: int, rival: bool, questions: int, seed: int) -> Game:
    """A game of the rule file itself: a random legal log (tests/checker/alibi_games.py, written
    from the rulebook) replayed through rules/perfect-alibi.yaml, its facts grouped by move.

    The log is a referee's (every hand recorded); each viewpoint sees what its rules say.
    """
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    from ruleslawyer.checker.log import parse_log_text
    from ruleslawyer.checker.replay import replay
    from tests.checker.alibi_games import play

    for attempt in range(20):  # a game long enough: redraw a short one
        text = play(seed + 1000 * attempt, players, turns=2 * questions, rival=rival)
        log, rules = parse_log_text(text, str(root / "examples" / "perfect-alibi" / "bench.yaml"))
        rep = replay(log, rules)
        asked = [list(step.facts) for step in rep.steps if step.facts]
        if len(asked) >= questions:
            break
    true = {}
    for fact in rep.records:
        (card, zones, _w), = fact.formula.lin.terms
        true[card] = next(iter(zones))
    return Game(rep.deal, true, list(rep.records), asked[:questions])


def random_game(players: int, rival: bool, questions: int, seed: int) -> Game:
    """A true deal and ``questions`` truthful turns (lies where the Rival makes them due).

    Every random choice is drawn whether or not the Rival variant is on, so
    the game with and without it asks the same questions of the same deal.
    """
    rng = random.Random(seed)
    names = list(PLAYERS[:players])
    deal = alibi_deal(players, rival)
    cards = list(CARDS)
    rng.shuffle(cards)
    true = {cards[0]: "missing"}
    for i, p in enumerate(names):
        true |= {c: f"hand:{p}" for c in cards[1 + i * HANDS[players]:1 + (i + 1) * HANDS[players]]}
    true |= {c: "public" for c in cards[1 + players * HANDS[players]:]}
    tiles = rng.sample(ASSISTANTS, 5)
    rival_of = dict(zip(names, tiles))
    if rival:
        true |= {t: f"rival:{p}" for p, t in rival_of.items()}
        true |= {t: "rival-box" for t in tiles[players:]}
    holds = dict(zip(names, rng.sample(ASSISTANTS, players)))
    setup = [Fact(member(c, {z}) == 1, frozenset({z.split(":")[1]}), text="own hand")
             for c, z in true.items() if z.startswith("hand:")]
    setup += [Fact(member(c, {"public"}) == 1, text="face up") for c, z in true.items() if z == "public"]
    if rival:
        setup += [Fact(member(t, {f"rival:{p}"}) == 1, frozenset({p}), text="own Rival tile")
                  for p, t in rival_of.items()]
    game = Game(deal, true, setup)
    still_in = list(names)
    turn = 0
    while len(game.questions) < questions:
        asker = still_in[turn % len(still_in)]
        turn += 1
        target = rng.choice([p for p in names if p != asker])
        by, values = rng.choice(((0, LOCATIONS), (1, TIMES)))
        asked = set(rng.sample(values, rng.choice((1, 1, 2, 2, 3))))
        swap, swap_unused, lie_up, pick = rng.random() < 0.15, rng.random() < 0.5, rng.random() < 0.5, rng.random()
        guess = rng.random() < 0.03 and len(still_in) > 2
        if swap:
            unused = [a for a in ASSISTANTS if a not in holds.values()]
            if unused and swap_unused:
                holds[asker] = unused[int(pick * len(unused))]
            else:
                holds[asker], holds[target] = holds[target], holds[asker]
        matching = [c for c in CARDS if c.split("-")[by] in asked]
        cnt = count(matching, {f"hand:{target}"})
        truth = sum(true[c] == f"hand:{target}" for c in matching)
        assistant = holds[asker]
        lying = rival and rival_of[target] == assistant
        n = (truth + (1 if lie_up or truth == 0 else -1)) if lying else truth
        facts: list[Fact] = []
        tile_is = member(assistant, {f"rival:{target}"}) == 1

        def said(stated):  # what the true count must be for ``stated`` to be answered
            return if_then_else(tile_is, any_of([cnt == stated - 1, cnt == stated + 1]), cnt == stated) \
                if rival else cnt == stated
        shows = n >= 2 and holds[target] != "Psychiatrist"
        if assistant == "Priest":
            facts.append(Fact(said(n), frozenset({asker, target}), text="private answer"))
            if holds[target] != "Psychiatrist":
                shown = (if_then_else(tile_is, cnt >= 1, cnt >= 2) if rival else cnt >= 2) if shows else \
                    (if_then_else(tile_is, cnt <= 2, cnt <= 1) if rival else cnt <= 1)
                facts.append(Fact(shown, text="a card shown or not"))
        else:
            facts.append(Fact(said(n), text="answer"))
        if shows:
            in_hand = sorted(c for c in CARDS if true[c] == f"hand:{target}")
            if assistant == "Cook":
                card = in_hand[int(pick * len(in_hand))]
                facts.append(Fact(member(card, {f"hand:{target}"}) == 1, frozenset({asker}), text="Cook draw"))
            else:
                choice = [c for c in in_hand if c in matching]
                card = choice[int(pick * len(choice))]
                captain = {p for p, a in holds.items() if a == "Captain"}
                facts.append(Fact(member(card, {f"hand:{target}"}) == 1, frozenset({asker}) | captain,
                                  text="shown card"))
        if guess:
            wrong = [c for c in CARDS if true[c] != "missing"]
            facts.append(Fact(member(wrong[int(pick * len(wrong))], {"missing"}) == 0, frozenset({asker}),
                              text="wrong guess"))
            still_in.remove(asker)
        game.questions.append(facts)
    assert all(f.holds(true) for f in game.setup + [f for q in game.questions for f in q])
    return game


# -- the plain reference ----------------------------------------------------------------------------


def owner_of(fact: Fact) -> str | None:
    """The player whose hand or Rival tile the fact is about (None: the missing/face-up cards)."""
    owners = {z.split(":")[1] for z in fact.zones() if ":" in z}
    assert len(owners) <= 1, fact
    return owners.pop() if owners else None


def formula_values(formula, rows: dict[str, np.ndarray], card_index: dict[str, int]) -> np.ndarray:
    """The formula on every row: ``rows[zone]`` is a 0/1 matrix (rows x cards) of that zone's content."""
    if isinstance(formula, Const):
        return np.full(next(iter(rows.values())).shape[:-1], formula.truth)
    if isinstance(formula, Atom):
        total = 0
        for card, zones, w in formula.lin.terms:
            for z in zones:
                if z in rows and card in card_index:
                    total = total + w * rows[z][..., card_index[card]]
        return OPS_ARRAY[formula.op](total + np.zeros(next(iter(rows.values())).shape[:-1], np.int64), formula.value)
    if isinstance(formula, And):
        return np.logical_and.reduce([formula_values(f, rows, card_index) for f in formula.parts])
    if isinstance(formula, Or):
        return np.logical_or.reduce([formula_values(f, rows, card_index) for f in formula.parts])
    if isinstance(formula, Not):
        return ~formula_values(formula.part, rows, card_index)
    raise TypeError(formula)


OPS_ARRAY = {"==": np.equal, "!=": np.not_equal, "<=": np.less_equal, ">=": np.greater_equal,
             "<": np.less, ">": np.greater}


def masks_of(size: int, n: int) -> np.ndarray:
    return np.array([sum(1 << i for i in c) for c in combinations(range(n), size)], np.int64)


def bits_of(masks: np.ndarray, n: int) -> np.ndarray:
    return ((masks[:, None] >> np.arange(n)) & 1).astype(np.int64)


class PlainDP:
    """The reference: a plain subset dynamic program over the players, rebuilt at every step.

    Each player's possible (hand, Rival tile) pairs are filtered by that
    player's facts; the non-player cards (missing, face up) by theirs.  Then
    forward ``F[i][cards used, tiles used]`` over the players, backward
    ``B[i]`` from the non-player cards, and each hand's worlds are the sum over
    (cards used before, hand) pairs of forward x backward.  Numbers are
    float64, exact below 2**53.  Tables of pairs are built once per deal.
    """

    def __init__(self, deal: Deal):
        self.deal = deal
        self.players = deal.players
        alibi = deal.solution_deck
        self.cards = alibi.cards
        self.n = n = len(self.cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.hand = HANDS[len(self.players)]
        self.hands = masks_of(self.hand, n)
        self.hand_bits = bits_of(self.hands, n)
        rival = [d for d in deal.decks if d is not alibi]
        self.tiles = rival[0].cards if rival else ()
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        self.nt = max(1, len(self.tiles))
        self.tile_bits = np.eye(len(self.tiles), dtype=np.int64) if self.tiles else np.zeros((1, 0), np.int64)
        # the zones nobody owns, by their place in the deal (their names are the rule file's)
        self.missing_zone = deal.solution[0]
        self.public_zone = next((z.id for z in alibi.zones if z.owner is None and z.id != self.missing_zone
                                 and z.size), None)
        self.box_zone = next((z.id for d in rival for z in d.zones if z.owner is None and z.size), None)
        self.tile_family = next((z.family for d in rival for z in d.zones if z.owner is not None), "rival")
        face_up = alibi.zones[[z.id for z in alibi.zones].index(self.public_zone)].size if self.public_zone else 0
        rows = [(m, p) for m in range(n) for p in (masks_of(face_up, n) if face_up else [0]) if not p >> m & 1]
        self.missing = np.array([1 << m for m, _p in rows], np.int64)
        self.public = np.array([p for _m, p in rows], np.int64)
        self.table = self.missing | self.public
        self.steps = []  # per player: (prev mask, hand index, new mask) of every disjoint pair
        for i in range(len(self.players)):
            prev = masks_of(i * self.hand, n)
            a, h = np.nonzero((prev[:, None] & self.hands[None, :]) == 0)
            self.steps.append((prev[a], h, prev[a] | self.hands[h]))

    def valid_hands(self, player: str, facts: list[Fact]) -> np.ndarray:
        """(hands, tiles) bool: the pairs the player's facts allow."""
        rows = {f"hand:{player}": np.repeat(self.hand_bits[:, None, :], self.nt, axis=1)}
        index = dict(self.card_index)
        if self.tiles:
            rows[f"{self.tile_family}:{player}"] = np.broadcast_to(
                np.pad(self.tile_bits, ((0, 0), (self.n, 0)))[None, :, :], (len(self.hands), self.nt, self.n + self.nt))
            rows[f"hand:{player}"] = np.pad(rows[f"hand:{player}"], ((0, 0), (0, 0), (0, self.nt)))
            index |= {t: self.n + i for t, i in self.tile_index.items()}
        ok = np.ones((len(self.hands), self.nt), bool)
        for f in facts:
            ok &= formula_values(f.formula, rows, index)
        return ok

    def valid_table(self, facts: list[Fact]) -> np.ndarray:
        rows = {self.missing_zone: bits_of(self.missing, self.n)}
        if self.public_zone:
            rows[self.public_zone] = bits_of(self.public, self.n)
        ok = np.ones(len(self.table), bool)
        for f in facts:
            ok &= formula_values(f.formula, rows, self.card_index)
        return ok

    def solve(self, facts: list[Fact]) -> tuple[int, dict[str, float], dict[str, dict[str, float]]]:
        """Count, each card's chance to be missing, each card's chance per zone."""
        size, full = 1 << self.n, (1 << self.n) - 1
        states = 1 << len(self.tiles)
        by_owner: dict[str | None, list[Fact]] = {}
        for f in facts:
            by_owner.setdefault(owner_of(f), []).append(f)
        valid = [self.valid_hands(p, by_owner.get(p, [])) for p in self.players]
        table_ok = self.valid_table(by_owner.get(None, []))
        k = len(self.players)
        used = [[s for s in range(states) if s.bit_count() == i] if self.tiles else [0] for i in range(k + 1)]

        def moves(i):  # (tiles used before, tile taken by player i, its column)
            if not self.tiles:
                return [(0, 0, 0)]
            return [(s, 1 << t, t) for s in used[i] for t in range(len(self.tiles)) if not s >> t & 1]

        forward = [np.zeros((size, states))]
        forward[0][0, 0] = 1
        for i in range(k):
            prev, h, new = self.steps[i]
            f = np.zeros((size, states))
            for s, bit, t in moves(i):
                f[:, s | bit] += np.bincount(new, forward[i][prev, s] * valid[i][h, t], minlength=size)
            forward.append(f)
        # the non-player cards: whatever the players leave, split as the table rows allow
        g = np.bincount(self.table, table_ok.astype(float), minlength=size)
        left = full & ~np.arange(size)
        backward = [None] * (k + 1)
        backward[k] = np.repeat(g[left][:, None], states, axis=1)
        for i in reversed(range(k)):
            prev, h, new = self.steps[i]
            b = np.zeros((size, states))
            for s, bit, t in moves(i):
                b[:, s] += np.bincount(prev, valid[i][h, t] * backward[i + 1][new, s | bit], minlength=size)
            backward[i] = b
        total = float(backward[0][0, 0])
        chances: dict[str, dict[str, float]] = {c: {} for c in self.deal.cards}
        for i, p in enumerate(self.players):
            prev, h, new = self.steps[i]
            w = np.zeros((len(self.hands), self.nt))
            for s, bit, t in moves(i):
                w[:, t] += np.bincount(h, forward[i][prev, s] * backward[i + 1][new, s | bit],
                                       minlength=len(self.hands))
            w *= valid[i]
            for c, x in zip(self.cards, self.hand_bits.T @ w.sum(axis=1)):
                chances[c][f"hand:{p}"] = x / total
            for t, x in zip(self.tiles, w.sum(axis=0)):
                chances[t][f"{self.tile_family}:{p}"] = x / total
        through = table_ok * forward[k][full & ~self.table].sum(axis=1)
        for zone, masks in ((self.missing_zone, self.missing), (self.public_zone, self.public)):
            for c, x in zip(self.cards, bits_of(masks, self.n).T @ through):
                if zone == self.missing_zone or self.public_zone:
                    chances[c][zone] = x / total
        for t in self.tiles:
            if self.box_zone:
                chances[t][self.box_zone] = 1 - sum(chances[t].values())
        return int(total), {c: chances[c][self.missing_zone] for c in self.cards}, chances


# -- timing ------------------------------------------------------------------------------------------


def full_update(knowledge: DPKnowledge, facts: list[Fact]) -> DPKnowledge:
    """One step: the new facts, then every answer."""
    knowledge = knowledge.with_facts(facts)
    knowledge.count()
    knowledge.probabilities()
    knowledge.zone_probabilities()
    return knowledge


def sees(viewer: str | None):
    return (lambda f: f.public) if viewer is None else (lambda f: f.seen_by(viewer))


@dataclass
class Row:
    players: int
    rival: bool
    viewer: str | None
    steps: list[float | None]           # engine seconds per question (None: nothing new seen)
    ref: dict[int, float] = field(default_factory=dict)   # question -> reference seconds

    def median(self, only: Iterable[int] | None = None) -> float:
        picked = [t for i, t in enumerate(self.steps) if t is not None and (only is None or i in only)]
        return statistics.median(picked)


def time_engine(game: Game, viewer: str | None, repeat: int) -> list[float | None]:
    """Seconds per question (None: nothing new seen), the best of ``repeat`` passes over the game.

    Whole passes are repeated, rather than each step back to back, so that a
    burst of load from elsewhere on the machine spoils one pass, not every try.
    """
    visible = sees(viewer)
    knowledge = full_update(DPKnowledge.initial(game.deal), [f for f in game.setup if visible(f)])
    before, seen = [], []
    for question in game.questions:
        facts = [f for f in question if visible(f)]
        before.append(knowledge)
        seen.append(facts)
        knowledge = full_update(knowledge, facts)
    best: list[float | None] = [float("inf") if facts else None for facts in seen]
    for _ in range(repeat):
        for i, (knowledge, facts) in enumerate(zip(before, seen)):
            if facts:
                gc.collect()
                start = time.perf_counter()
                full_update(knowledge, facts)
                best[i] = min(best[i], time.perf_counter() - start)  # type: ignore[type-var]
    return best


def time_reference(game: Game, viewer: str | None, at: list[int], plain: PlainDP) -> dict[int, float]:
    """The reference at some questions; its answers must be the engine's."""
    visible = sees(viewer)
    out = {}
    for i in at:
        facts = [f for f in game.setup + [f for q in game.questions[:i + 1] for f in q] if visible(f)]
        gc.collect()
        start = time.perf_counter()
        total, missing, chances = plain.solve(facts)
        out[i] = time.perf_counter() - start
        k = DPKnowledge.initial(game.deal).with_facts(facts)
        assert k.count() == total, (k.count(), total)
        engine = k.zone_probabilities()
        assert all(abs(engine[c][z] - x) < 1e-9 for c, per in chances.items() for z, x in per.items())
        assert all(abs(k.probabilities()[c] - x) < 1e-9 for c, x in missing.items())
    return out


def history(game: Game) -> float:
    """Every prefix of the log, every viewpoint (spectator and each player): total seconds."""
    start = time.perf_counter()
    for viewer in (None, *game.deal.players):
        visible = sees(viewer)
        knowledge = full_update(DPKnowledge.initial(game.deal), [f for f in game.setup if visible(f)])
        for question in game.questions:
            knowledge = full_update(knowledge, [f for f in question if visible(f)])
    return time.perf_counter() - start


def by_assignments(game: Game, steps: int) -> tuple[list[float], list[float]]:
    """The spectator's Rival game two ways, per question: seconds of (hidden state, sum over assignments).

    The alternative to carrying the hidden tiles in the dynamic program: one
    knowledge per way to deal the Rival tiles to the players (each tile pinned,
    so no hidden state is left), all updated at every question, their counts
    and chances summed (a deal of the tiles the facts rule out is dropped).
    Both must give the same answers.
    """
    deal, players = game.deal, game.deal.players
    setup = [f for f in game.setup if f.public]
    hidden = next(d for d in deal.decks if d is not deal.solution_deck)
    family = next(z.family for z in hidden.zones if z.owner is not None)
    pinned = [DPKnowledge.initial(deal).with_facts(
        setup + [Fact(member(t, {f"{family}:{p}"}) == 1) for p, t in zip(players, tiles)])
        for tiles in permutations(hidden.cards, len(players))]
    state = full_update(DPKnowledge.initial(deal), setup)
    with_state, summed = [], []
    for question in game.questions[:steps]:
        facts = [f for f in question if f.public]
        start = time.perf_counter()
        state = full_update(state, facts)
        with_state.append(time.perf_counter() - start)
        start = time.perf_counter()
        pinned = [k for k in (k.with_facts(facts) for k in pinned) if k.count()]  # deals of tiles left
        total = sum(k.count() for k in pinned)
        chances: dict[str, dict[str, float]] = {}
        for k in pinned:
            k.probabilities()
            for c, per in k.zone_probabilities().items():
                for z, x in per.items():
                    chances.setdefault(c, {}).setdefault(z, 0.0)
                    chances[c][z] += x * k.count() / total
        summed.append(time.perf_counter() - start)
        assert total == state.count()
        assert all(abs(state.zone_probabilities()[c][z] - x) < 1e-9 for c, per in chances.items() for z, x in per.items())
    return with_state, summed


def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1e3:.2f}"


def engine_from(path: str) -> type:
    """``DPKnowledge`` of another copy of solver/dp.py, imported beside the installed one."""
    import importlib.util

    name = "ruleslawyer.solver._dp_compared"  # in the package: its relative imports resolve
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    print(f"engine: {path}")
    return module.DPKnowledge


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--history", type=int, default=40)
    parser.add_argument("--ref-steps", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--assign-steps", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--synthetic", action="store_true",
                        help="games generated here from a hand-built deal instead of the rule file's own games")
    parser.add_argument("--engine", metavar="FILE",
                        help="time the DPKnowledge of this copy of solver/dp.py instead (another version: "
                             "git show REV:solver/dp.py > FILE), to compare versions in one session")
    args = parser.parse_args(argv)
    if args.engine:
        global DPKnowledge
        DPKnowledge = engine_from(args.engine)
    make = random_game if args.synthetic else rules_game

    rows: list[Row] = []
    print(f"{args.questions}-question games ({'generated here' if args.synthetic else 'rules/perfect-alibi.yaml'}), "
          f"seed {args.seed}; engine: best of {args.repeat} per question, "
          f"median over the questions; reference on {args.ref_steps} questions")
    print()
    print("| players | Rival | viewpoint | engine median ms | engine max ms | engine, same questions | "
          "plain reference ms | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for players in args.players:
        for rival in (False, True):
            game = make(players, rival, args.questions, args.seed + players)
            plain = PlainDP(game.deal)
            for viewer in (None, *game.deal.players):
                row = Row(players, rival, viewer, time_engine(game, viewer, args.repeat))
                if viewer in (None, game.deal.players[0]):
                    seen = [i for i, t in enumerate(row.steps) if t is not None]
                    at = [seen[round(j * (len(seen) - 1) / max(1, args.ref_steps - 1))]
                          for j in range(min(args.ref_steps, len(seen)))]
                    row.ref = time_reference(game, viewer, sorted(set(at)), plain)
                rows.append(row)
                same = row.median(row.ref) if row.ref else None
                ref = statistics.median(row.ref.values()) if row.ref else None
                ratio = f"{same / ref:.4f}" if row.ref else "—"
                print(f"| {players} | {'yes' if rival else 'no'} | {viewer or 'spectator'} | {ms(row.median())} | "
                      f"{ms(max(t for t in row.steps if t is not None))} | {ms(same)} | {ms(ref)} | {ratio} |",
                      flush=True)
    print()
    print(f"Rival, spectator, first {args.assign_steps} questions: hidden tiles carried in the dynamic program "
          "vs one knowledge per deal of the tiles, summed")
    print()
    print("| players | assignments | hidden state, median ms | sum over assignments, median ms | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for players in args.players:
        state, summed = by_assignments(make(players, True, args.questions, args.seed + players),
                                       args.assign_steps)
        a, b = statistics.median(state), statistics.median(summed)
        print(f"| {players} | {len(list(permutations(ASSISTANTS, players)))} | {ms(a)} | {ms(b)} | {b / a:.1f} |",
              flush=True)
    print()
    whole = {rival: history(make(5, rival, args.history, args.seed)) for rival in (False, True)}
    for rival, seconds in whole.items():
        print(f"5 players, {args.history} questions, {'with' if rival else 'without'} Rival: whole history, "
              f"6 viewpoints: {seconds:.2f} s ({seconds / (6 * args.history) * 1e3:.2f} ms per prefix and viewpoint)")
    print()
    return goals(rows, whole)


def goals(rows: list[Row], whole: dict[bool, float]) -> int:
    """Print each goal with the figures it was judged on."""
    def spectator(players, rival):
        return next((r for r in rows if r.players == players and r.rival == rival and r.viewer is None), None)
    checks = []
    five = spectator(5, False)
    if five:
        ref = statistics.median(five.ref.values())
        checks.append((f"5p spectator: {ms(five.median(five.ref))} ms <= plain {ms(ref)} ms on the same questions, "
                       f"median {ms(five.median())} ms < 20 ms", five.median(five.ref) <= ref and five.median() < 0.020))
    for players in sorted({r.players for r in rows}):
        plain, rival = spectator(players, False), spectator(players, True)
        if plain and rival:
            factor = rival.median() / plain.median()
            checks.append((f"{players}p spectator with Rival {factor:.1f}x without (< 10x)", factor < 10))
    worst = max((r for r in rows if r.viewer is not None), key=lambda r: r.median(), default=None)
    if worst:
        checks.append((f"slowest player viewpoint: {worst.viewer} ({worst.players}p, "
                       f"{'Rival' if worst.rival else 'no Rival'}) {ms(worst.median())} ms < 5 ms",
                       worst.median() < 0.005))
    for rival, seconds in whole.items():
        checks.append((f"5p whole history {'with' if rival else 'without'} Rival {seconds:.2f} s < 10 s", seconds < 10))
    for text, ok in checks:
        print(f"{'met    ' if ok else 'NOT MET'}  {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
