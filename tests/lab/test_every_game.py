"""The lab plays every bundled game with no game code: random and informed bots,
every log checks clean."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.loader import load_rules, rules_dir

GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))


def _quiet_claims(lab: Lab) -> str:
    """Random bots that rarely make a claim (so that games last)."""
    claims = [k for k, info in lab.kinds.items() if info.claims]
    return "random" + (":" + ";".join(f"{k}=0.02" for k in claims) if claims else "")


@pytest.mark.parametrize("verify", [True, False], ids=["listed-and-verified", "drawn"])
@pytest.mark.parametrize("game", GAMES)
def test_random_games_of_every_bundled_game_check_clean(game, verify):
    """With ``verify``, outcomes come from the list of every completion, each checked in
    full by the state machine; without it, from the search a simulation uses (Lab.draw)."""
    rules = load_rules(game)
    lab = Lab(rules, verify=verify)
    bots = parse_bots(_quiet_claims(lab), rules.param("players"), list(rules.moves))
    for index in range(4):
        rec = play_game(lab, bots, 21, index, 120, keep_log=True, track=False)
        report = check_text(rec.log, f"<{game} {index}>")
        assert report.status == 0, rec.log + report.format_text()


@pytest.mark.parametrize("game", GAMES)
def test_informed_bots_play_every_bundled_game(game):
    rules = load_rules(game, variant="3p")
    lab = Lab(rules, verify=True)
    bots = parse_bots("informed:0", 3, list(rules.moves))
    rec = play_game(lab, bots, 4, 0, 150, keep_log=True, track=True)
    report = check_text(rec.log, f"<{game}>")
    assert report.status == 0, rec.log + report.format_text()
    if rec.winners and rec.end.split(":")[0] in [k for k, i in lab.kinds.items() if i.claims]:
        # a game ended by a claim: made by a bot that knew
        assert rec.determined.get("winner") is not None


@pytest.mark.parametrize("game", GAMES)
def test_greedy_and_search_bots_play_every_bundled_game(game):
    """Issue 23: greedy and a small search budget (iterations=2, a claim with a chance from 0.5
    weighed) at one table; the filtered greedy bot too.  Every log checks clean; the search bot's
    work is counted in playouts, two per decision it weighed (one deal, two candidates)."""
    from ruleslawyer.lab.search import SearchBot

    rules = load_rules(game, variant="3p")
    lab = Lab(rules)
    bots = parse_bots("search:iterations=2;floor=0.5;choices=6,greedy,greedy:risk=0.5", 3, rules=rules)
    for index in range(2):
        rec = play_game(lab, bots, 7, index, 200, keep_log=True, track=True)
        report = check_text(rec.log, f"<{game} {index}>")
        assert report.status == 0, rec.log + report.format_text()
    search = bots[0]
    assert isinstance(search, SearchBot) and search.playouts == 2 * search.searched
