"""The lab plays Perfect Alibi as its rulebook says, in every variant and with every house rule.

The expectations come from the rulebook (../shared/seeds/003_1da86d9dc815b4c2.txt) and
from plain counting over the cards a referee's log records, never from the lab itself:

* "Then draw four tiles and place them face up on the board." and "The colour of the
  first tile drawn indicates which player chooses an assistant first."
* "At the end of your turn, discard the chosen interrogation tile and draw a new one."
* an answer counts the target's cards having any element asked about ("How many alibi
  cards do you have with the Restaurant, the Bar and the Solarium taken together?"),
  and is the truth unless a Rival lie is due: "You lie by either subtracting 1 from or
  adding 1 to the correct answer.";
* "If your answer is 2 or more, you must also secretly show the questioner one of the
  cards that was asked about."; the Cook takes "a card at random from their hand";
* an informed bot ends the game only when the missing alibi is certain for it: each of
  its guesses is graded "certain" by the solver (Z3, ``solve --hindsight``) from what it
  had seen, and is right.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
import yaml

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.cli import main
from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.checker.solve import grade_claims
from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.lab.simulate import Config, run
from ruleslawyer.spec.loader import load_rules

GAME = "perfect-alibi"
VARIANTS = [(v, h) for v in ("3p", "4p", "5p") for h in ((), ("rival",), ("unforgiving",))]
#: Random bots that seldom guess or charge (so that games last and ask questions).
QUIET = "random:guess=0.02;accuse=0.02"
SEED = 5


@functools.lru_cache(maxsize=None)
def _lab(variant: str, house: tuple[str, ...]) -> Lab:
    """The lab as ``simulate`` runs it (outcomes found by Lab.draw; the listed and
    verified way is played in tests/lab/test_every_game.py)."""
    return Lab(load_rules(GAME, variant=variant, house=list(house)))


@functools.lru_cache(maxsize=None)
def _game(variant: str, house: tuple[str, ...], bots: str, index: int) -> Any:
    lab = _lab(variant, house)
    seats = lab.rules.param("players")
    return play_game(lab, parse_bots(bots, seats, list(lab.rules.moves)), SEED, index, 300, keep_log=True, track=True)


def _moves(rules: Any, log: str) -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]:
    """The log read plainly: its document, and each move as (kind, actor, the rest)."""
    doc = yaml.safe_load(log)
    moves = []
    for entry in doc["moves"]:
        kind = next(iter(entry))
        moves.append((kind, entry[kind], {k: v for k, v in entry.items() if k != kind}))
    return doc, moves


def _ids(rules: Any, component: str, names: Any) -> list[str]:
    names = names if isinstance(names, list) else [names]
    out = [rules.find(component, n) for n in names]
    assert None not in out, (component, names)
    return out  # type: ignore[return-value]


def _matching(rules: Any, asked: list[str]) -> set[str]:
    """The alibi cards with any element asked about (a location or a time)."""
    elements = set(_ids(rules, "locations", asked) if rules.find("locations", asked[0]) else _ids(rules, "times", asked))
    return {c for c in rules.components["alibis"].items
            if rules.items[c].attrs["location"] in elements or rules.items[c].attrs["time"] in elements}


def _check_against_the_rulebook(rules: Any, log: str, rival: bool) -> dict[str, int]:
    """Every rulebook expectation above that plain counting can check; what was seen, counted."""
    doc, moves = _moves(rules, log)
    hands = {p: set(_ids(rules, "alibis", cards)) for p, cards in doc["private"]["hand"].items()}
    colours = {p: rules.find("colours", c) for p, c in doc["setup"]["colours"].items()}
    seen = {"questions": 0, "lies": 0, "shown": 0, "drawn": 0}
    # the set-up: four tiles first; the first to choose has the first tile's colour
    assert [k for k, _a, _r in moves[:4]] == ["draw"] * 4, moves[:5]
    chooses = [a for k, a, _r in moves if k == "choose"]
    if chooses:
        assert colours[chooses[0]] == rules.find("colours", moves[0][2]["colour"])
    for i, (kind, actor, rest) in enumerate(moves):
        if kind != "ask":
            continue
        seen["questions"] += 1
        target, cards = rest["target"], _matching(rules, rest["asked"])
        true = len(hands[target] & cards)
        if "answer" in rest:
            if rival:
                assert abs(rest["answer"] - true) <= 1 and rest["answer"] >= 0, (i + 1, rest, true)
                seen["lies"] += rest["answer"] != true
            else:
                assert rest["answer"] == true, (i + 1, rest, true)
        if "shown" in rest:
            seen["shown"] += 1
            card = _ids(rules, "alibis", rest["shown"])[0]
            assert card in hands[target] and card in cards and rest.get("answer", 2) >= 2, (i + 1, rest)
        if "drawn" in rest:
            seen["drawn"] += 1
            assert _ids(rules, "alibis", rest["drawn"])[0] in hands[target], (i + 1, rest)
        if rest.get("via", "tile") in ("tile", "own-colour") and i + 1 < len(moves):
            nxt = moves[i + 1]
            # the asker draws a new tile at the end of the turn (or a guess ends the game first)
            assert (nxt[0], nxt[1]) == ("draw", actor) or (nxt[0] == "guess" and i + 2 == len(moves)), (i + 1, nxt)
    return seen


@pytest.mark.parametrize("variant,house", VARIANTS)
def test_simulated_games_check_clean_and_follow_the_rulebook(variant, house):
    rules = _lab(variant, house).rules
    seen = {"questions": 0, "lies": 0, "shown": 0}
    for index in range(3):
        rec = _game(variant, house, QUIET, index)
        report = check_text(rec.log, f"<{variant} {house} {index}>")
        assert report.status == 0, rec.log + report.format_text()
        assert rec.end.startswith(("guess", "accuse")), rec.end  # every game ends by the rules
        for k, v in _check_against_the_rulebook(rules, rec.log, "rival" in house).items():
            seen[k] = seen.get(k, 0) + v
    assert seen["questions"] > 0 and seen["shown"] > 0  # games of questions, not only guesses


def test_rival_games_lie():
    """Over a few Rival games, some answer is a lie (one more or one less than the truth)."""
    lies = 0
    for variant in ("3p", "4p", "5p"):
        rules = _lab(variant, ("rival",)).rules
        for index in range(3):
            lies += _check_against_the_rulebook(rules, _game(variant, ("rival",), QUIET, index).log, True)["lies"]
    assert lies > 0


def _claims(log: str, tmp_path: Any, name: str) -> list[dict[str, Any]]:
    path = tmp_path / f"{name}.yaml"
    path.write_text(log)
    parsed, rules = parse_log(str(path))
    return grade_claims(replay(parsed, rules))


@pytest.mark.parametrize("variant,house", [("3p", ()), ("3p", ("rival",)), ("3p", ("unforgiving",)),
                                           ("4p", ()), ("5p", ())])
@pytest.mark.heavy
def test_informed_bots_ask_and_guess_only_when_certain(variant, house, tmp_path):
    lab = _lab(variant, house)
    rec = _game(variant, house, "informed:0", 0)
    report = check_text(rec.log, "<informed>")
    assert report.status == 0, rec.log + report.format_text()
    _doc, moves = _moves(lab.rules, rec.log)
    kinds = [k for k, _a, _r in moves]
    assert kinds.count("ask") >= 2 and "accuse" not in kinds, rec.log
    _check_against_the_rulebook(lab.rules, rec.log, "rival" in house)
    guesses = [(i, rest) for i, (k, _a, rest) in enumerate(moves) if k == "guess"]
    assert guesses, rec.log  # the informed bots solve the case within the move limit
    for i, rest in guesses:
        assert rest["correct"] is True and i + 1 == len(moves), rec.log
    graded = _claims(rec.log, tmp_path, f"{variant}-informed")
    assert graded and all(g["when_made"] == "certain" for g in graded), graded
    winner = rec.determined.get("winner")
    assert winner is not None and winner < rec.moves  # known to the winner before the guess


def test_simulate_text_and_json(capsys):
    assert main(["simulate", GAME, "--variant", "3p", "--games", "6", "--seed", "2", "--bots", QUIET]) == 0
    text = capsys.readouterr().out
    assert text.startswith("perfect-alibi[players=3]: 6 games, seed 2") and "check clean" in text
    assert main(["simulate", GAME, "--games", "4", "--seed", "2", "--bots", QUIET, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "perfect-alibi[players=4]" and out["games"] == 4
    assert sum(e["k"] for e in out["ends"].values()) == 4 and len(out["win_rate"]) == 4
    assert out["logs"]["checked"] == out["logs"]["clean"] > 0


@pytest.mark.heavy
def test_the_same_seed_gives_the_same_results_with_one_or_two_workers():
    # 4 games: 2 a worker with two (6 took 12 s of CPU for the same point)
    config = Config(GAME, "5p", ("rival",), games=4, bots=QUIET, seed=9, max_moves=200, sample=2)
    one, two = run(config, workers=1), run(config, workers=2)
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]
    assert one.to_json() == two.to_json()
    assert all(s == 0 for _i, _t, s in one.logs)
