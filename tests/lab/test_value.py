"""Issue 23, restricted play: ``value`` measures what a mechanic is worth (Jaffe et al., AIIDE 2012).

The expectations come from elsewhere than the code: Newcombe's published intervals, binomial
tails counted by hand, the rule files' own words read with a YAML parser, the moves of the
sampled logs, and win counts tallied by hand over records built for the test."""

from __future__ import annotations

import doctest
import json
import re
import math

import pytest
import yaml

from ruleslawyer.checker.cli import main
from ruleslawyer.lab import simulate, stats, value
from ruleslawyer.lab.game import GameRecord
from ruleslawyer.lab.simulate import Config, Result, rotated
from ruleslawyer.lab.stats import mcnemar_exact, newcombe_diff
from ruleslawyer.lab.value import Restriction, restricted_bots, restrictions_by, values
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT


def _run(argv, capsys):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text, text
    return status, out.out, text


@pytest.mark.parametrize("module", [stats, simulate, value])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


# -- the statistics -------------------------------------------------------------------------------

@pytest.mark.parametrize("counts, lo, hi", [
    # Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10 (hybrid score)
    ((56, 70, 48, 80), 0.0524, 0.3339),
    ((9, 10, 3, 10), 0.1705, 0.8090),
    ((5, 56, 0, 29), -0.0381, 0.1926),
    ((0, 10, 0, 20), -0.1611, 0.2775),
    ((0, 10, 0, 10), -0.2775, 0.2775),
    ((10, 10, 0, 20), 0.6791, 1.0),
])
def test_newcombe_interval_matches_the_published_one(counts, lo, hi):
    d = newcombe_diff(*counts)
    assert round(d["lo"], 4) == lo and round(d["hi"], 4) == hi
    assert d["significant"] == (lo > 0 or hi < 0)
    assert -1 <= d["lo"] <= d["diff"] <= d["hi"] <= 1


def test_mcnemar_exact_is_the_two_sided_binomial_tail():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 6) == 2 / 64                  # both tails of 6 fair coins all alike
    assert mcnemar_exact(9, 1) == 2 * (1 + 10) / 1024     # P(X <= 1) of Bin(10, 1/2), twice
    assert mcnemar_exact(5, 5) == 1.0
    assert math.isclose(mcnemar_exact(2, 8), 2 * (1 + 10 + 45) / 1024)


# -- seats, bots, restrictions from the rule file -----------------------------------------------

def test_rotation_puts_the_first_bot_at_every_seat_in_turn():
    bots = ["R", "a", "b", "c"]
    for i in range(8):
        seated = rotated(bots, i)
        assert seated.index("R") == i % 4
        assert sorted(seated) == sorted(bots)


def test_the_restricted_table_adds_the_filter_to_the_first_bot_only():
    assert restricted_bots("greedy", "move.x == 1") == "greedy:forbid=move.x == 1;forced=play,greedy"
    assert restricted_bots("greedy:risk=0.8,random", "move.x == 1") == \
        "greedy:risk=0.8;forbid=move.x == 1;forced=play,random"
    assert restricted_bots("random", None) == "random"


def _yaml(game):
    return yaml.safe_load((ROOT / "rules" / f"{game}.yaml").read_text(encoding="utf-8"))


def test_every_assistant_is_a_restriction_named_as_the_rule_file_names_it():
    doc = _yaml("perfect-alibi")
    listed = doc["components"]["assistants"]["list"]
    found = restrictions_by("assistant", load_rules("perfect-alibi"))
    assert [r.label for r in found] == [a["name"] for a in listed]
    assert [r.expr for r in found] == [f"move.assistant == '{a['id']}'" for a in listed]


def test_every_counter_value_is_a_restriction_in_the_game_s_words():
    doc = _yaml("lady-alice")
    supply = sorted(doc["parameters"]["counter_values"]["value"])  # zero, one and two (the rulebook)
    found = restrictions_by("place.value", load_rules("lady-alice"))
    assert [r.label for r in found] == [f"{doc['tokens']['noun']} of value {v}" for v in supply]
    assert [r.expr for r in found] == [f"kind == 'place' and move.value == {v}" for v in supply]


def test_wins_count_the_rotated_seat_and_pair_the_games():
    """Records made by hand (3 seats): game i's restricted bot sits at seat i mod 3."""
    def result(winners):
        records = [GameRecord(i, 10, 1, "end", w, None, {}) for i, w in enumerate(winners)]
        return Result(Config("x", games=len(records)), "x", 3, [], records, {})

    base = result([[0], [2], [2], [1], [1], []])     # the seat (0, 1, 2, 0, 1, 2) won in games 0, 2, 4
    restricted = result([[0], [1], [0], [1], [0], [2]])  # ... in games 0, 1, 5
    [row] = values(base, [(Restriction("r", "true"), restricted)])
    assert row["baseline"]["k"] == 3 and row["restricted"]["k"] == 3 and row["games"] == 6
    assert row["paired"] == {"both": 1, "only_baseline": 2, "only_restricted": 2, "mcnemar_p": 1.0}
    assert row["loss"]["value"] == 0 and not row["significant"]


# -- the command ----------------------------------------------------------------------------------

def _restricted_player(log_text, index):
    """The log's player at seat index mod n, counting from the first player (seat 0; a log names
    ``first:`` only when it is not the first of ``players:``)."""
    log = yaml.safe_load(log_text)
    players = log["players"]
    return players[(players.index(log.get("first", players[0])) + index % len(players)) % len(players)]


def _assistants(log_text, player):
    moves = yaml.safe_load(log_text)["moves"]
    return [str(m["assistant"]).lower() for m in moves
            if (m.get("choose") == player or m.get("swap") == player) and "assistant" in m]


def test_a_restricted_seat_never_takes_its_assistant_and_every_log_checks_clean(tmp_path, capsys):
    """Random bots (cheap): the Cook and the Priest forbidden in turn, 8 games each, every game
    sampled.  The baseline's same seats do take them, so the filter is what keeps them away."""
    status, out, text = _run(["value", "perfect-alibi", "--variant", "3p", "--restrict-by", "assistant",
                              "--games", "8", "--sample", "8", "--bots", "random:guess=0.05;accuse=0.02",
                              "--max-moves", "150", "--logs", tmp_path, "--format", "json", "--seed", "3"], capsys)
    assert status == 0, text
    doc = json.loads(out)
    assert [v["restriction"] for v in doc["values"]] == ["Journalist", "Captain", "Psychiatrist", "Priest", "Cook"]
    assert all(v["games"] == 8 and v["logs"] == {"checked": 8, "clean": 8} for v in doc["values"])
    assert doc["baseline"]["logs"] == {"checked": 8, "clean": 8}
    taken_in_baseline = []
    for k, v in enumerate(doc["values"], 1):
        forbidden = v["filter"].split("'")[1]
        assert v["forced"] == 0  # in 3 players two assistants lie unused: a choice always remains
        for i in range(8):
            log = (tmp_path / f"game-r{k}-{i:05d}.yaml").read_text(encoding="utf-8")
            assert forbidden not in _assistants(log, _restricted_player(log, i)), log
            base = (tmp_path / f"game-baseline-{i:05d}.yaml").read_text(encoding="utf-8")
            taken_in_baseline += _assistants(base, _restricted_player(base, i))
    assert {"cook", "priest"} <= set(taken_in_baseline)


def test_with_five_players_a_forbidden_assistant_the_rules_force_is_taken_and_counted(tmp_path, capsys):
    """"In a 5-player game there are no unused assistants" (the rulebook): a player whose assistant
    is taken must choose the one just put down, the Cook too.  The restricted bot then takes it
    (rather than stopping the run), and the run counts it: as many times as the logs show the
    restricted seat taking the Cook, which it does no other way."""
    status, out, text = _run(["value", "perfect-alibi", "--variant", "5p", "--restrict", "cook=move.assistant == 'cook'",
                              "--games", "6", "--sample", "6", "--bots", "random:guess=0.05;accuse=0.02",
                              "--max-moves", "200", "--logs", tmp_path, "--seed", "1"], capsys)
    assert status == 0, text
    assert "sampled game logs: 12 of 12 check clean" in text, text
    made = re.search(r"cook: forbid=move.assistant == 'cook' \(made (\d+) time\(s\) all the same: nothing else was legal\)",
                     out)
    assert made, out
    taken = 0
    for i in range(6):
        log = (tmp_path / f"game-r1-{i:05d}.yaml").read_text(encoding="utf-8")
        taken += _assistants(log, _restricted_player(log, i)).count("cook")
    assert int(made.group(1)) == taken and taken > 0


def test_greedy_restricted_from_a_counter_value_never_places_it(tmp_path, capsys):
    status, out, text = _run(["value", "lady-alice", "--variant", "3p", "--restrict", "no-two=move.value == 2",
                              "--games", "2", "--sample", "2", "--logs", tmp_path, "--format", "json"], capsys)
    assert status == 0, text
    [row] = json.loads(out)["values"]
    assert row["restriction"] == "no-two" and row["logs"] == {"checked": 2, "clean": 2}
    placed_by_others = []
    for i in range(2):
        text = (tmp_path / f"game-r1-{i:05d}.yaml").read_text(encoding="utf-8")
        me = _restricted_player(text, i)
        placed = [(m["place"], m["value"]) for m in yaml.safe_load(text)["moves"] if "place" in m]
        assert 2 not in [v for p, v in placed if p == me], text
        placed_by_others += [v for p, v in placed if p != me]
    assert 2 in placed_by_others  # the other greedy seats do place twos


def test_text_and_plots(tmp_path, capsys):
    status, out, text = _run(["value", "lady-alice", "--variant", "3p", "--bots", "random:accuse=0.1",
                              "--restrict", "a$b$c=kind == 'accuse'", "--restrict", "no-pass=kind == 'pass'",
                              "--games", "3", "--max-moves", "60", "--plots", tmp_path / "plots"], capsys)
    assert status == 0, text
    assert "a$b$c" in out and "Newcombe" in out and "McNemar" in out
    assert "sampled game logs: 9 of 9 check clean" in out
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == \
        ["value.png", "value.svg", "winrate.png", "winrate.svg"]


@pytest.mark.parametrize("argv, code, where", [
    (["--restrict-by", "assistent"], "RL170", "--restrict-by:1:1"),
    (["--restrict-by", "ask.nothing"], "RL170", "--restrict-by:1:5"),
    (["--restrict-by", "askk.via"], "RL170", "--restrict-by:1:1"),
    (["--restrict", "x=move.assistant == 'Cook'"], "RL176", "--restrict:1:21"),
    (["--restrict", "a=true", "--restrict", "x=move.assistent == 'cook'"], "RL176", "--restrict:2:3"),
    (["--restrict", "no expression"], "RL170", "--restrict:1:1"),
    (["--restrict", "a=true", "--restrict", "a=false"], "RL170", "--restrict:1:1"),
    ([], "RL170", "--restrict:1:1"),
    (["--restrict", "a=true", "--games", "0"], "RL170", "--games:1:1"),
])
def test_bad_input_is_a_positioned_diagnostic_and_exit_2(argv, code, where, capsys):
    games = [] if "--games" in argv else ["--games", "1"]
    status, _out, text = _run(["value", "perfect-alibi", "--bots", "random", *games, *argv], capsys)
    assert status == 2, text
    assert f"{where}: error[{code}]" in text, text
