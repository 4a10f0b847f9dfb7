"""The variant lab's simulation: every game it plays checks clean, and one seed
gives the same results whatever runs it (one process, two, a Dask cluster)."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab.bots import BotSpecError, parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.lab.simulate import Config, run
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT

HOUSE = ROOT / "rules" / "house"


@pytest.mark.parametrize("variant,house,bots", [
    ("3p", [], "random"), ("4p", [], "random:accuse=0.05"), ("5p", [], "random"),
    ("3p", ["unlimited-cards"], "random:accuse=0.02"), ("4p", ["two-counters"], "random"),
    ("4p", ["no-repeat"], "random:accuse=0.05"), ("4p", ["no-early-accusation"], "random"),
    ("4p", [], "informed:0.5,random"),
])
def test_every_simulated_game_checks_clean(variant, house, bots):
    rules = load_rules("lady-alice", variant=variant, house=house)
    lab = Lab(rules)
    seats = rules.param("players")
    for index in range(3 if "informed" in bots else 6):
        rec = play_game(lab, parse_bots(bots, seats, list(rules.moves)), 7, index, 150, keep_log=True,
                        track="informed" in bots)
        report = check_text(rec.log, f"<game {index}>")
        assert report.status == 0, rec.log + report.format_text()
        assert rec.moves > 0


def test_a_game_is_the_same_for_the_same_seed_and_index():
    rules = load_rules("lady-alice", variant="4p")
    lab = Lab(rules)
    bots = parse_bots("random", 4)
    a = play_game(lab, bots, 3, 5, 200, keep_log=True)
    b = play_game(Lab(rules), bots, 3, 5, 200, keep_log=True)
    assert a.log == b.log and a.to_json() == b.to_json()
    c = play_game(lab, bots, 3, 6, 200, keep_log=True)
    assert c.log != a.log


def test_the_informed_bot_claims_only_what_it_knows():
    """Informed bots never make a claim that is not certain: every game they end by a claim is won."""
    rules = load_rules("lady-alice", variant="3p")
    lab = Lab(rules)
    result = run(Config("lady-alice", "3p", (), games=3, bots="informed:0", seed=2, max_moves=200, sample=3))
    assert all(s == 0 for _i, _t, s in result.logs)
    for rec in result.records:
        assert rec.kinds.get("accuse", 0) <= 1  # one accusation, the right one
        if rec.kinds.get("accuse"):
            assert rec.determined["spectator"] is not None or rec.determined.get("winner") is not None


def test_results_are_the_same_with_one_or_two_processes():
    config = Config("lady-alice", "4p", (), games=20, bots="random:accuse=0.1", seed=11, max_moves=120, sample=2)
    one = run(config, workers=1)
    two = run(config, workers=2)
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]
    assert one.to_json() == two.to_json()


def test_results_are_the_same_on_a_dask_local_cluster():
    pytest.importorskip("dask.distributed", reason="the cluster extra (pip install 'ruleslawyer[cluster]')")
    config = Config("lady-alice", "3p", (), games=16, bots="random:accuse=0.1", seed=5, max_moves=100, sample=1)
    one = run(config, workers=1)
    cluster = run(config, workers=2, executor="dask")
    assert [r.to_json() for r in one.records] == [r.to_json() for r in cluster.records]
    assert one.to_json() == cluster.to_json()


@pytest.mark.parametrize("spec,column", [("randomm", 1), ("random,informed:x", 8), ("random:fly=1", 1),
                                         ("random:pass=-1", 1), ("", 1), ("informed:nan", 1)])
def test_bad_bot_specifications_are_refused(spec, column):
    with pytest.raises(BotSpecError) as info:
        parse_bots(spec, 4, ["suspect", "place", "pass", "accuse"])
    assert info.value.column + 1 == column


def test_the_summary_has_intervals_for_every_figure():
    result = run(Config("lady-alice", "4p", (), games=12, bots="random:accuse=0.1", seed=1, max_moves=80, sample=1))
    s = result.summary
    assert s["games"] == 12 and s["moves"]["lo"] <= s["moves"]["mean"] <= s["moves"]["hi"]
    assert sum(d["k"] for d in s["ends"].values()) == 12
    assert len(s["win_rate"]) == 4 and all(0 <= d["lo"] <= d["hi"] <= 1 for d in s["win_rate"] if d["n"])
    assert s["scores"] is not None and len(s["scores"]["by_seat"]) == 4
    assert s["determination"]["curve"][-1] <= 1
