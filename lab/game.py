"""One simulated game: a deal, bots at the seats, the state machine, a record.

Every random draw of game ``index`` under seed ``seed`` comes from one
stream, ``random.Random(f"ruleslawyer-lab:{seed}:{index}")``: the deal, the
bots' choices, the outcomes filled in.  A game is therefore the same
whoever plays it, in whichever process, in whichever order.

The seats are named ``P1``, ``P2``...; ``P1`` moves first (the rule file's
``flow: start:`` may say otherwise), unless the game is played again with
another first player (see :func:`play_game`); seat numbers in the record count from the first player.  The record keeps plain data only
(it crosses process boundaries).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping, Sequence

from ..checker.writer import EndSection, format_log
from ..solver.engines import initial
from ..solver.errors import SolverError
from ..spec.deal import random_world
from ..spec.expr import evaluations
from ..spec.facts import Fact
from ..spec.machine import Play, State
from ..spec.model import Ruleset
from ..spec.scoring import ScoreTable, UnknownValues, score, winners_unscored
from .bots import Bot, Turn, unfiltered
from .engine import Lab, declared_ends, solution_of, start_facts

__all__ = ["GameRecord", "play_game", "declared_ends", "seat_names", "CUT", "STUCK", "game_rng", "opening",
           "public_setup"]

#: How a game that did not end by a rule ends.
CUT = "cut at the move limit"
STUCK = "stuck: no legal move"


def seat_names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def game_rng(seed: int, index: int) -> random.Random:
    """The one random stream of a game (see the module's docstring)."""
    return random.Random(f"ruleslawyer-lab:{seed}:{index}")


@dataclass
class GameRecord:
    index: int
    moves: int
    rounds: int
    end: str                         # the declared end that fired, CUT or STUCK
    winners: list[int]               # seat numbers (0-based)
    scores: list[int] | None         # by seat, when the rules score
    determined: dict[str, int | None]  # viewpoint -> moves after which the solution was known
    log: str | None = None
    kinds: dict[str, int] = field(default_factory=dict)  # moves made, by kind
    redrawn: int = 0                 # times the game was played again with another first player (see play_game)
    forced: int = 0                  # moves a bot's filters forbid, made as nothing else was legal (forced=play)
    filtered: int = 0                # moves chosen by bots with filters, the forced ones included

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("log")
        return out


def _setup(lab: Lab, players: Sequence[str], world: Mapping[str, str], rng: random.Random) -> dict[str, Any]:
    """The public set-up a log records before the moves, drawn at random (rule files that declare one)."""
    out: dict[str, Any] = {}
    for rec in lab.rules.records:
        if rec.section != "setup" or rec.kind != "player_item":
            continue
        items = list(lab.rules.components[rec.component].items)  # type: ignore[attr-defined]
        if getattr(rec, "distinct", False):
            chosen = rng.sample(items, len(players))
        else:
            chosen = [rng.choice(items) for _ in players]
        out[rec.key] = dict(zip(players, chosen))
    return out


def play_game(lab: Lab, bots: Sequence[Bot], seed: int, index: int, max_moves: int,
              keep_log: bool = False, track: bool = True,
              refs: tuple[str | None, Sequence[str]] | None = None) -> GameRecord:
    """Play one game to its end (or ``max_moves``); ``track``: follow when the solution is known;
    ``refs``: the ``rules:`` and ``house:`` its log names (default: the rule set's own names).

    The first player is ``P1``.  When the opening leaves no move open to
    anyone but claims (the rules tie the first player to a chance outcome of
    the opening, say), the game is played again from the same stream (the
    same deal, the same opening) with the next player first, up to once per
    player; the record says how often.
    """
    n = len(bots)
    with evaluations():
        for attempt in range(n):
            rec = _play_once(lab, bots, seed, index, max_moves, keep_log, track, attempt, refs)
            if rec.end != STUCK or rec.moves > OPENING * n:
                break
    return rec


@dataclass
class _Filtered:
    """A game's moves by bots with filters (``made``), and of those the ones their filters forbid,
    made as nothing else was legal (``forced``, see :func:`bots.unfiltered`)."""

    made: int = 0
    forced: int = 0


#: A game stuck within this many moves per player was stuck by its opening (and is played again).
OPENING = 3


def _play_once(lab: Lab, bots: Sequence[Bot], seed: int, index: int, max_moves: int,
               keep_log: bool, track: bool, attempt: int,
               refs: tuple[str | None, Sequence[str]] | None = None) -> GameRecord:
    rules, machine = lab.rules, lab.machine
    rng = game_rng(seed, index)  # the same stream at each attempt: the same deal and opening, another first
    players = seat_names(len(bots))
    n = len(players)
    first = players[attempt]
    deal = machine.deal(players)
    world, setup = opening(lab, players, rng)
    state = machine.start(players, first, setup=setup) if setup else machine.start(players, first)
    seat = {p: (i - attempt) % n for i, p in enumerate(players)}  # seat 0 moves first
    by_player = {p: bots[seat[p]] for p in players}
    need_views = track or any(b.needs_view for b in bots)
    views: dict[str, Any] = {}
    determined: dict[str, int | None] = {}
    history: list[Fact] = []  # every fact so far, with who saw it (a search bot determinises from its own)
    if need_views and deal.solution:
        try:
            base = initial(deal)
            facts = start_facts(deal, world)
            history.extend(facts)
            views["spectator"] = base.with_facts(f for f in facts if f.viewers is None)
            for p in players:
                views[p] = base.with_facts(f for f in facts if f.viewers is None or p in f.viewers)
            determined = {name: (0 if k.determined() else None) for name, k in views.items()}
        except SolverError:
            views = {}
    interjectors = [p for p in players if by_player[p].needs_view]
    plays: list[Play] = []
    kinds: dict[str, int] = {}
    filters = _Filtered()
    rounds, end = 1, None
    ended_by = None
    while not state.ended:
        if len(plays) >= max_moves:
            end = CUT
            break
        play = None
        for p in interjectors:  # a certain claim out of turn
            view = views.get(p)
            if p == state.turn or p in state.out or view is None or not view.determined():
                continue
            kinds_open = lab.open_kinds(state, p)
            if any(lab.kinds[k].claims for k in kinds_open):
                play = by_player[p].interject(Turn(lab, state, p, kinds_open, world, rng, deal, view))
                if play is not None:
                    break
        if play is None and lab.has_due:
            play = _due(lab, state, by_player, world, rng, deal, views, history, filters)
            if play is False:
                end = STUCK
                break
        if play is None:
            # the player whose turn it is moves when a move that claims nothing is open to them
            open_ = lab.actors(state, [state.turn])
            if lab.claims_only(open_.get(state.turn, ())):
                open_ = lab.actors(state)
                if attempt < n - 1 and len(plays) <= OPENING * n and \
                        all(lab.claims_only(ks) for ks in open_.values()):
                    end = STUCK  # the opening left nothing but claims open: played again
                    break
            actor = lab.mover(state, open_, rng)
            if actor is None:
                end = STUCK
                break
            bot = by_player[actor]
            turn = Turn(lab, state, actor, open_[actor], world, rng, deal, views.get(actor), history=history)
            play = bot.choose(turn)
            if play is None:
                play = unfiltered(bot, turn)
                if play is None:
                    end = STUCK
                    break
                filters.forced += 1
            filters.made += bool(bot.forbid)
        facts = machine.observations(state, play, source=len(plays)) if views else []
        out, recorded = lab.apply(state, play)
        if out.violations:  # pragma: no cover - a bug of the lab or of the rules
            raise AssertionError(f"the lab played an illegal move {play}: {out.violations}")
        plays.append(recorded)
        kinds[play.kind] = kinds.get(play.kind, 0) + 1
        for key in lab.counted_values.get(play.kind, ()):  # how a move was made, where the rules weigh it
            value = f"{play.kind}.{key[0]}={play.args.get(key[0], key[1])}"
            kinds[value] = kinds.get(value, 0) + 1
        if out.state.turn != state.turn and out.state.turn == first:
            rounds += 1
        state = out.state
        ended_by = out.ended_by
        if views:
            history.extend(facts)
            _learn(views, determined, facts, len(plays))
    if end is None:
        end = lab.end_labels.get(id(ended_by), "ended") if ended_by is not None else "ended"
    solution = solution_of(deal, world)
    table, winners = _result(lab, state, solution)
    winner_seats = sorted(seat[w] for w in winners if w in seat)
    by_seat = sorted(players, key=seat.__getitem__)
    record_det = {"spectator": determined.get("spectator")} if views else {}
    if views:
        if len(winner_seats) == 1:
            record_det["winner"] = determined.get(by_seat[winner_seats[0]])
        record_det["players"] = [determined.get(p) for p in by_seat]  # type: ignore[assignment]
    rec = GameRecord(index, len(plays), rounds, end, winner_seats,
                     [table.scores.get(p, 0) for p in by_seat] if table is not None else None,
                     record_det, kinds=kinds, redrawn=attempt, forced=filters.forced, filtered=filters.made)
    if keep_log:
        rec.log = game_log(lab, players, plays, world, deal, state, table, setup, first,
                           title=f"simulated game {index} (seed {seed})", refs=refs)
    return rec


def _due(lab: Lab, state: State, by_player: Mapping[str, Bot], world: Mapping[str, str], rng: random.Random,
         deal: Any, views: Mapping[str, Any], history: Sequence[Fact] = (), filters: "_Filtered | None" = None,
         ) -> Play | None | bool:
    """A move the rules oblige someone to make now (the first player's), or None; False when it
    cannot be made.  A move whose parameters are all outcomes is completed by the lab itself
    (no one chooses anything: the same draws whoever sits there).  When several kinds are due
    from that player, the hidden deal may decide which applies (a player asked says "cannot"
    or shows a card, as their hand says): the outcome-only kinds are completed against the
    deal, and one of those that can be made is drawn; kinds with choices go to the bot."""
    due = lab.due(state)
    if not due:
        return None
    actor = due[0][0]
    kinds = [k for p, k in due if p == actor]
    chosen = [k for k in kinds if lab.kinds[k].mover]
    plays = []
    for kind in (k for k in kinds if not lab.kinds[k].mover):
        play = lab.complete(state, actor, kind, {}, world, rng)
        if play is not None:
            plays.append(play)
    if plays and not chosen:
        return plays[0] if len(plays) == 1 else plays[rng.randrange(len(plays))]
    if chosen:
        turn = Turn(lab, state, actor, chosen, world, rng, deal, views.get(actor), due=True, history=history)
        bot = by_player[actor]
        play = bot.choose(turn)
        if play is None:
            play = unfiltered(bot, turn)
            if play is not None and filters is not None:
                filters.forced += 1
        if play is not None:
            if filters is not None:
                filters.made += bool(bot.forbid)
            return play
    return plays[0] if plays else False


def _learn(views: dict[str, Any], determined: dict[str, int | None], facts: Sequence[Fact], n: int) -> None:
    for name, k in views.items():
        seen = [f for f in facts if f.viewers is None or (name != "spectator" and name in f.viewers)]
        if not seen:
            continue
        k = k.with_facts(seen)
        views[name] = k
        if determined.get(name) is None and k.consistent() and k.determined():
            determined[name] = n


def _result(lab: Lab, state: State, solution: Sequence[str]) -> tuple[ScoreTable | None, list[str]]:
    rules = lab.rules
    if not state.ended or rules.scoring is None:
        return None, []
    if any(s.kind == "points" for s in rules.scoring.steps):
        try:
            table = score(lab.machine, state, solution)
            return table, list(table.winners)
        except UnknownValues:
            pass
    return None, list(winners_unscored(lab.machine, state) or [])


def game_log(lab: Lab, players: Sequence[str], plays: Sequence[Play], world: Mapping[str, str], deal: Any,
             state: State, table: ScoreTable | None, setup: Mapping[str, Any], first: str,
             title: str | None = None, refs: tuple[str | None, Sequence[str]] | None = None) -> str:
    """The game as a log with every private fact (a referee's log) and, when it ended, its end."""
    rules = lab.rules
    held = _zones_by_family(deal, world)
    private = {r.zone: held.get(r.zone, {}) for r in rules.records if r.section == "private" and r.kind == "zone"}
    end = None
    if state.ended:
        zones = {r.zone: held.get(r.zone, {}) for r in rules.records if r.section == "end" and r.kind == "zone"}
        end = EndSection(zones, {}, dict(table.scores) if table is not None else {},
                         list(table.winners) if table is not None else list(winners_unscored(lab.machine, state) or []))
    rules_ref, house = refs if refs is not None else (None, rules.house)
    return format_log(rules, list(players), plays, first=first, rules_ref=rules_ref, variant=rules.variant,
                      house=list(house), title=title, private_zones=private, end=end,
                      setup=public_setup(rules, setup, deal, world))


def public_setup(rules: Ruleset, setup: Mapping[str, Any], deal: Any, world: Mapping[str, str]) -> dict[str, Any]:
    """The ``setup:`` section of a log: each player's item, the cards of the zones everyone sees."""
    held = _zones_by_family(deal, world)
    public: dict[str, Any] = {}
    for rec in rules.records:
        if rec.section != "setup":
            continue
        if rec.kind == "player_item" and rec.key in setup:
            public[rec.key] = setup[rec.key]
        elif rec.kind == "zone":
            public[rec.key] = held.get(rec.zone, [])
    return public


def opening(lab: Lab, players: Sequence[str], rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
    """A deal drawn as the shuffle draws it and the public set-up drawn with it."""
    deal = lab.machine.deal(players)
    world = random_world(deal, rng)
    return world, _setup(lab, players, world, rng)


def _zones_by_family(deal: Any, world: Mapping[str, str]) -> dict[str, Any]:
    """Zone family -> owner -> card (a zone of one card) or cards; a zone nobody owns:
    family -> its card or cards."""
    out: dict[str, Any] = {}
    for d in deal.decks:
        for z in d.zones:
            cards = [c for c in d.cards if world.get(c) == z.id]
            held = cards[0] if z.size == 1 and len(cards) == 1 else cards
            if z.owner is None:
                out[z.family] = held
            else:
                out.setdefault(z.family, {})[z.owner] = held
    return out
