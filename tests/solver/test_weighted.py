"""Weighted facts: a card shown taken as drawn at random among the named cards the player holds.

The oracle is a plain weighted enumeration written here: itertools over every deal of a
small Clue deck (9 and 12 cards), each world kept when the answers fit it, with the weight
the rule gives it from the suggester's seat: 1 / (named cards the player who showed holds).
Every engine must give the same chances; "deals fit" stays the unweighted number.
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.enumerate import FullKnowledge, ProjectedKnowledge
from ruleslawyer.solver.queries import Viewpoint
from ruleslawyer.solver.sampled import SampledKnowledge
from ruleslawyer.solver.zones import ZoneKnowledge
from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
from ruleslawyer.spec.facts import Fact, count, member

from .clue_helpers import ENVELOPE, clue_deal, hand

ROOT = Path(__file__).resolve().parents[2]


def plain_worlds(deal: Deal):
    """Every deal of a Clue-shaped deck: (card -> zone), by itertools alone."""
    (deck,) = deal.decks
    groups = deck.constraints[0].groups
    hands = [z for z in deck.zones if z.id != ENVELOPE]
    for envelope in itertools.product(*groups):
        rest = [c for c in deck.cards if c not in envelope]

        def fill(cards, zones):
            if not zones:
                yield {}
                return
            for chosen in itertools.combinations(cards, zones[0].size):
                left = [c for c in cards if c not in chosen]
                for tail in fill(left, zones[1:]):
                    yield {**dict.fromkeys(chosen, zones[0].id), **tail}

        for tail in fill(rest, hands):
            yield {**dict.fromkeys(envelope, ENVELOPE), **tail}


def a_game(deal: Deal, seed: int, suggestions: int):
    """Answers to random suggestions from a random true deal, as plain records:
    (suggester, player asked, the three cards, what they did, the card shown)."""
    rng = random.Random(seed)
    worlds = list(plain_worlds(deal))
    true = rng.choice(worlds)
    groups = deal.decks[0].constraints[0].groups
    players = deal.players
    records = []
    for _ in range(suggestions):
        by = rng.choice(players)
        triple = [rng.choice(g) for g in groups]
        start = players.index(by)
        for step in range(1, len(players)):
            p = players[(start + step) % len(players)]
            held = [c for c in triple if true[c] == hand(p)]
            if not held:
                records.append((by, p, triple, "cannot", None))
                continue
            records.append((by, p, triple, "show", rng.choice(held)))
            break
    return true, records


def expected(deal: Deal, records, seat: str) -> tuple[int, dict[str, dict[str, Fraction]]]:
    """Deals fitting what ``seat`` saw, and each card's chance per zone, weighted by hand."""
    mass: dict[str, dict[str, Fraction]] = {c: {} for c in deal.cards}
    total, fitting = Fraction(0), 0
    for world in plain_worlds(deal):
        weight = Fraction(1)
        for by, p, triple, did, card in records:
            named_held = [c for c in triple if world[c] == hand(p)]
            if did == "cannot" and named_held:
                break
            if did == "show":
                if not named_held:
                    break
                if by == seat:  # the suggester saw the card: chance 1 / (named cards held)
                    if world[card] != hand(p):
                        break
                    weight /= len(named_held)
        else:
            fitting += 1
            total += weight
            for c, z in world.items():
                mass[c][z] = mass[c].get(z, Fraction(0)) + weight
    return fitting, {c: {z: m / total for z, m in zs.items()} for c, zs in mass.items()}


def facts_of(records, seat: str, weighted: bool = True) -> list[Fact]:
    """The facts the seat sees, in the engines' vocabulary (the weight on the card seen)."""
    out = []
    for by, p, triple, did, card in records:
        if did == "cannot":
            out.append(Fact(count(triple, {hand(p)}) == 0))
            continue
        out.append(Fact(count(triple, {hand(p)}) >= 1))
        if by == seat:
            out.append(Fact(member(card, {hand(p)}) == 1, frozenset({by}),
                            likelihood=count(triple, {hand(p)}) if weighted else None))
    return out


def close(engine_chances, exact, deal) -> None:
    for c in deal.cards:
        for z in deal.deck_of(c).zone_ids():
            assert float(engine_chances[c][z]) == pytest.approx(float(exact[c].get(z, 0)), abs=1e-9), (c, z)


DECKS = [clue_deal((3, 3, 3), 3), clue_deal((3, 3, 3), 4), clue_deal((4, 4, 4), 3)]


@functools.lru_cache(maxsize=None)
def _seen_by_ann(deck: int, seed: int):
    """``a_game`` of six suggestions on ``DECKS[deck]`` and its ``expected`` answers from Ann's seat:
    the same plain enumeration for the tests below that weigh that game, made once."""
    true, records = a_game(DECKS[deck], seed, suggestions=6)
    return true, records, expected(DECKS[deck], records, "Ann")


@pytest.mark.parametrize("deal", DECKS, ids=["9 cards 3p", "9 cards 4p", "12 cards 3p"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_engine_weighs_as_the_plain_enumeration_from_the_suggesters_seat(deal, seed):
    seat = "Ann"
    _true, records, (fitting, exact) = _seen_by_ann(next(i for i, d in enumerate(DECKS) if d is deal), seed)
    facts = facts_of(records, seat)
    assert any(f.weighted for f in facts) or not any(r[0] == seat and r[3] == "show" for r in records)
    engines = [FullKnowledge.initial(deal), ZoneKnowledge.initial(deal), initial(deal)]
    if len(deal.cards) == 9:
        engines.append(BruteKnowledge.initial(deal))
    for engine in engines:
        k = engine.with_facts(facts)
        assert k.count() == fitting, type(k).__name__  # deals, unweighted
        close(k.zone_probabilities(), exact, deal)
        envelope = k.probabilities()
        for c in deal.cards:
            assert envelope[c] == pytest.approx(float(exact[c].get(ENVELOPE, 0)), abs=1e-9)


def test_a_seat_that_did_not_see_the_card_is_not_weighed():
    deal = DECKS[0]
    _true, records = a_game(deal, 5, suggestions=6)
    spectator = [f for f in facts_of(records, "Ann") if f.viewers is None]
    fitting, exact = expected(deal, records, "nobody")
    k = ZoneKnowledge.initial(deal).with_facts(spectator)
    assert k.count() == fitting
    close(k.zone_probabilities(), exact, deal)


def test_responder_holding_two_of_three_named_cards_weighs_a_half():
    # Bob holds 2 of the 4 cards a, b, c, d; Ann named a, b, c and was shown a.  Worlds where Bob
    # holds a: {a,b} and {a,c} (two named cards held: weight 1/2 each) and {a,d} (one: weight 1).
    # P(b in Bob) = (1/2) / (1/2 + 1/2 + 1) = 1/4 (1/3 unweighted); P(d in Bob) = 1/2.
    deck = Deck("d", ("a", "b", "c", "d"), (Zone("hand:Bob", "hand", "Bob", 2, "owner"), Zone("rest", "rest", None, 2)))
    deal = Deal((deck,), solution=("rest",), players=("Bob",))
    shown = Fact(member("a", {"hand:Bob"}) == 1, frozenset({"Ann"}), likelihood=count("abc", {"hand:Bob"}))
    for k in (BruteKnowledge.initial(deal), initial(deal), FullKnowledge.initial(deal)):
        k = k.with_fact(shown)
        assert k.count() == 3
        chances = k.zone_probabilities()
        assert float(chances["b"]["hand:Bob"]) == pytest.approx(1 / 4)
        assert float(chances["d"]["hand:Bob"]) == pytest.approx(1 / 2)
    unweighted = initial(deal).with_fact(Fact(shown.formula, shown.viewers))
    assert unweighted.zone_probabilities()["b"]["hand:Bob"] == pytest.approx(1 / 3)
    assert shown.divisor({"a": "hand:Bob", "b": "hand:Bob", "c": "rest", "d": "rest"}) == 2


def test_the_projected_engine_hands_a_weighted_fact_on():
    deck = Deck("d", ("a", "b", "c", "d"), (Zone("hand:Bob", "hand", "Bob", 2, "owner"), Zone("rest", "rest", None, 2)))
    deal = Deal((deck,), solution=("hand:Bob",), players=("Bob",))
    k = initial(deal)
    assert isinstance(k, ProjectedKnowledge)
    k = k.with_fact(Fact(member("a", {"hand:Bob"}) == 1, likelihood=count("abc", {"hand:Bob"})))
    assert not isinstance(k, ProjectedKnowledge)
    assert k.probabilities()["b"] == pytest.approx(1 / 4)


def test_sampled_estimates_weigh_and_their_interval_holds_the_exact_chance():
    deal = DECKS[0]
    _true, records, (_fitting, exact) = _seen_by_ann(0, 2)
    k = SampledKnowledge.initial(deal).with_facts(facts_of(records, "Ann"))
    # (rejection only: the chain mixes poorly on this small deck with or without weights)
    for force in ("rejection",):
        est = k.estimates(samples=2000, seed=7, force=force)
        inside = sum(lo - 1e-9 <= float(exact[c].get(z, 0)) <= hi + 1e-9
                     for c, zs in est.zone_intervals().items() for z, (lo, hi) in zs.items())
        cells = sum(len(zs) for zs in est.zone_intervals().values())
        assert inside >= 0.9 * cells, (force, inside, cells)


# -- the rule file: Clue's option shown_card, end to end ----------------------------------------


def test_clue_log_solved_with_the_option_on_weighs_the_suggesters_shown_cards():
    """clean-3p.yaml from Ann's seat after move 30, by a weighted enumeration of every deal
    Ann's hand leaves (184,800), the weights from the log's moves by hand."""
    path = ROOT / "examples/clue/clean-3p.yaml"
    log, rules = parse_log(str(path), house=("shown-at-random",))
    rep = replay(log, rules)
    assert rep.reporter.errors == []
    at = 30
    seen = [f for f in rep.facts(at) if Viewpoint.of_player("Ann").sees(f)]
    assert sum(f.weighted for f in seen) == 3
    plain_log, plain_rules = parse_log(str(path))
    assert not any(f.weighted for f in replay(plain_log, plain_rules).facts(at))
    # The weights, from the moves: each card shown to Ann weighs 1 / (named cards the player holds).
    doc = yaml.safe_load(path.read_text())
    spec = yaml.safe_load((ROOT / "rules/clue.yaml").read_text())
    ids = {c["name"]: c["id"] for c in spec["components"]["cards"]["list"]}
    kinds = {k: [c["id"] for c in spec["components"]["cards"]["list"] if c["category"] == k]
             for k in ("suspect", "weapon", "room")}
    shows, named = [], None
    for move in doc["moves"][:at]:
        if "suggest" in move:
            named, by = [ids[move[k]] for k in ("suspect", "weapon", "room")], move["suggest"]
        if "show" in move and by == "Ann":
            shows.append((move["show"], named, ids[move["card"]]))
    assert len(shows) == 3
    mine = {ids[n] for n in doc["private"]["hand"]["Ann"]}
    zone = {"envelope": "envelope", "Ben": "hand:Ben", "Cat": "hand:Cat", "Ann": "hand:Ann"}
    mass: dict[str, dict[str, Fraction]] = {}
    total, fitting = Fraction(0), 0
    for env in itertools.product(*([c for c in kinds[k] if c not in mine] for k in kinds)):
        rest = [c for ids_ in kinds.values() for c in ids_ if c not in mine and c not in env]
        for ben in itertools.combinations(rest, 6):
            world = {**dict.fromkeys(mine, "hand:Ann"), **dict.fromkeys(env, "envelope"),
                     **dict.fromkeys(rest, "hand:Cat"), **dict.fromkeys(ben, "hand:Ben")}
            if not all(f.holds(world) for f in seen):
                continue
            weight = Fraction(1)
            for who, cards, _card in shows:
                weight /= sum(world[c] == zone[who] for c in cards)
            fitting += 1
            total += weight
            for c in env:
                mass.setdefault(c, {})["envelope"] = mass.get(c, {}).get("envelope", Fraction(0)) + weight
    from ruleslawyer.checker.consistency import solve_view
    result = solve_view(rep.deal, rep.facts(at), Viewpoint.of_player("Ann"), max_solutions=20).to_json()
    assert result["count"] == fitting
    for c, p in result["probabilities"].items():
        assert p == pytest.approx(float(mass.get(c, {}).get("envelope", 0) / total), abs=1e-9), c


@pytest.mark.parametrize("chosen, says", [
    ("\"'three'\"", "a count of cards"),
    ("\"count(hand(actor), vars.asking['cards']) - 1\"", "a choice among fewer than one possibility"),
], ids=["not a count", "a choice among 0 where the fact holds"])
def test_a_chosen_among_the_engines_cannot_use_is_a_diagnostic_not_a_traceback(tmp_path, chosen, says):
    from ..conftest import cli

    text = (ROOT / "rules/clue.yaml").read_text()
    old = "chosen_among: \"count(hand(actor), vars.asking['cards']) if options.shown_card == 'uniform' else none\""
    assert old in text
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources/clue-summary.txt").write_text((ROOT / "rules/sources/clue-summary.txt").read_text())
    (tmp_path / "clue.yaml").write_text(text.replace(old, f"chosen_among: {chosen}"))
    log = (ROOT / "examples/clue/clean-3p.yaml").read_text().replace("rules: clue\n", "rules: clue.yaml\n")
    (tmp_path / "game.yaml").write_text(log)
    run = cli("solve", str(tmp_path / "game.yaml"), "--as", "Ann", "--at", "14")  # only output and status read
    said = run.stderr + run.stdout
    assert "Traceback" not in said
    assert "error[RL900]" in said and says in said
    assert run.returncode == 3  # a rule that fails while a log is replayed: RL900, as every other rule


# -- a Rival's lie drawn at random (digest A19's alternative), on the reduced Perfect Alibi ---------

LIE_OPTION = '''  lie_direction:
    values: [any, uniform]
    default: any
    cite: {src: rulebook, quote: "You lie by either subtracting 1 from or adding 1 to the correct answer."}
deal:
'''
LIE_CHOICES = '''        says: "{move.target} answered {move.answer} to {actor}"
        chosen_among: "[lies(actor, move.target) and true_count(move.target, move.asked) >= 1, lies(actor, move.target), not lies(actor, move.target)] if options.lie_direction == 'uniform' else none"
'''


def reduced_alibi_with_random_lies(tmp_path: Path):
    """The reduced Perfect Alibi of tests/spec/data, its answer weighed under lie_direction
    'uniform' (the liar takes 1 away when they can, or adds 1: each open direction as likely)."""
    from tests.spec.test_reduced_game import DATA, HEAD, MOVES

    text = (DATA / "reduced-alibi.yaml").read_text()
    assert text.count("\ndeal:\n") == 1 and text.count('        says: "{move.target} answered {move.answer} to {actor}"\n') == 1
    text = text.replace("\ndeal:\n", "\n" + LIE_OPTION, 1)
    text = text.replace('        says: "{move.target} answered {move.answer} to {actor}"\n', LIE_CHOICES, 1)
    (tmp_path / "reduced-alibi.yaml").write_text(text)
    (tmp_path / "random-lies.yaml").write_text("ruleslawyer: 1\nextends: reduced-alibi.yaml\nname: random-lies\n"
                                               "options:\n  rival: true\n  lie_direction: uniform\n")
    from ruleslawyer.checker.log import parse_log_text

    head = HEAD.replace("house: [reduced-alibi-rival.yaml]", "house: [random-lies.yaml]")
    log, rules = parse_log_text(head + MOVES, str(tmp_path / "game.yaml"))
    return replay(log, rules)


def brute_zones(deal: Deal, facts):
    return BruteKnowledge.initial(deal).with_facts(facts).zone_probabilities()


def alibi_worlds(deal: Deal):
    """Every (deal, Rival tiles) world of the reduced game, by itertools alone."""
    alibis, tiles = deal.decks
    for order in itertools.permutations(alibis.cards):
        world, at = {}, 0
        for z in alibis.zones:
            chosen = order[at:at + z.size]
            if list(chosen) != sorted(chosen):
                break  # each set of cards in a zone once: in increasing order only
            world.update(dict.fromkeys(chosen, z.id))
            at += z.size
        else:
            for tile_order in itertools.permutations(tiles.cards):
                yield {**world, **{t: z.id for t, z in zip(tile_order, tiles.zones)}}


@pytest.mark.parametrize("seat", ["spectator", "omniscient", "Ann", "Bob", "Cat"])
def test_rival_lies_at_random_weigh_as_the_plain_enumeration(tmp_path, seat):
    from tests.spec.test_reduced_game import MOVES

    rep = reduced_alibi_with_random_lies(tmp_path)
    assert rep.reporter.errors == []
    view = Viewpoint.parse(seat if seat in ("spectator", "omniscient") else f"player:{seat}")
    facts = [f for f in rep.facts() if view.sees(f)]
    assert any(f.weighted for f in rep.facts())
    # The asks, from the log: (asker, target, locations asked, answer); the assistants chosen.
    held = {"Ann": "priest", "Bob": "cook", "Cat": "captain"}
    asks = []
    for line in MOVES.splitlines():
        move = yaml.safe_load(line.split("#")[0].strip()[2:])
        if "ask" in move:
            asks.append((move["ask"], move["target"], [a.lower() for a in move["asked"]], move["answer"]))
    seen_asks = [a for a in asks if seat in ("omniscient", a[0], a[1]) or held[a[0]] != "priest"]
    mass: dict[str, Fraction] = {}
    total, fitting = Fraction(0), 0
    for world in alibi_worlds(rep.deal):
        if not all(f.holds(world) for f in facts):
            continue
        weight = Fraction(1)
        for asker, target, asked, _answer in seen_asks:
            n = sum(1 for c, z in world.items() if z == f"hand:{target}" and c.split("-")[0] in asked)
            if world[held[asker]] == f"tile:{target}":  # a lie is due: 1 away (if n >= 1) or 1 more
                weight /= 2 if n >= 1 else 1
        fitting += 1
        total += weight
        for c, z in world.items():
            if z == "missing":
                mass[c] = mass.get(c, Fraction(0)) + weight
    from ruleslawyer.solver.dp import DPKnowledge

    for k in (initial(rep.deal), DPKnowledge.initial(rep.deal)):
        k = k.with_facts(facts)
        assert isinstance(k, DPKnowledge) or k is not None
        assert k.count() == fitting
        for c, p in k.probabilities().items():
            assert p == pytest.approx(float(mass.get(c, 0) / total), abs=1e-9), c
    assert isinstance(k, DPKnowledge)  # the dynamic program weighs a fact about one owner's zones
    for c, zs in brute_zones(rep.deal, facts).items():
        for z, q in zs.items():
            assert k.zone_probabilities()[c][z] == pytest.approx(float(q), abs=1e-9), (c, z)
    brute = BruteKnowledge.initial(rep.deal).with_facts(facts)
    assert brute.probabilities() == pytest.approx({c: float(mass.get(c, 0) / total) for c in brute.probabilities()})


@pytest.mark.parametrize("path", ["small sets", "every subset"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_zone_engine_weighs_as_the_plain_enumeration_by_either_way_of_counting_the_envelope(
        path, seed, monkeypatch):
    """The envelope counted through its small sets or through every subset of its cards
    (solver/zones.py), with the card shown weighed, and a weighed fact on the envelope itself
    (a player looks at an envelope card drawn at random among two named ones)."""
    from ruleslawyer.solver import zones

    monkeypatch.setattr(zones, "_SMALL_MIN_CARDS", 0 if path == "small sets" else 64)
    monkeypatch.setattr(zones, "_SMALL_SHARE", 0 if path == "small sets" else 1)
    for index, deal in enumerate(DECKS):
        true, records, (fitting, exact) = _seen_by_ann(index, seed)
        k = ZoneKnowledge.initial(deal).with_facts(facts_of(records, "Ann"))
        assert k.count() == fitting
        close(k.zone_probabilities(), exact, deal)
    deal = DECKS[0]
    true, records = a_game(deal, seed, suggestions=4)
    named = [c for c in deal.cards if true[c] == ENVELOPE][:1] + ["w2" if true["w2"] != ENVELOPE else "w3"]
    looked = Fact(count(named, {ENVELOPE}) >= 1, frozenset({"Ann"}), likelihood=count(named, {ENVELOPE}))
    facts = facts_of(records, "Ann") + [looked]
    slow, fast = BruteKnowledge.initial(deal).with_facts(facts), ZoneKnowledge.initial(deal).with_facts(facts)
    assert fast.count() == slow.count()
    close(fast.zone_probabilities(), slow.zone_probabilities(), deal)
