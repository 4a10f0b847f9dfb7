"""``ruleslawyer report`` as a page to study a game (issue 24): the entropy of the solution per
seat, the log's comments per move, every seat in one page, a graph; without a browser
(test_layout_browser.py looks at the page in one).

The expectations are counted by hand from the rulebooks' decks and the logs' records.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from ruleslawyer.checker.comments import comments, move_comments
from ruleslawyer.checker.htmlreport import page, report_seats
from ruleslawyer.checker.log import parse_log, parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.checker.table import view
from ruleslawyer.solver.queries import Viewpoint

from ..conftest import ROOT, cli
from .reportdata import page_data, seat_steps



def _rep(game: str, log: str):
    return replay(*parse_log(str(ROOT / "examples" / game / log)))


# -- entropy ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game, log, seat, bits, exact", [
    # Clue: 6 suspects x 6 weapons x 9 rooms, nothing known: log2 324; three groups open: a bound
    ("clue", "clean-3p.yaml", None, math.log2(6 * 6 * 9), False),
    # Ann holds 2 suspects, 3 weapons, 1 room: 4 x 3 x 8 envelopes left
    ("clue", "clean-3p.yaml", "Ann", math.log2(4 * 3 * 8), False),
    # Perfect Alibi, 3 players: one missing card of 16; Yellow holds 5, so one of 11, all alike
    ("perfect-alibi", "clean-3p.yaml", None, 4.0, True),
    ("perfect-alibi", "clean-3p.yaml", "Yellow", math.log2(11), True),
    # Lady Alice, 4 players: one evidence of each category of 8: 8^4; Gordon knows his: 8^3
    ("lady-alice", "clean-4p.yaml", None, 12.0, False),
    ("lady-alice", "clean-4p.yaml", "Gordon", 9.0, False),
])
def test_entropy_at_the_deal(game, log, seat, bits, exact):
    rep = _rep(game, log)
    v = view(rep, 0, Viewpoint.of_player(seat) if seat else Viewpoint.spectator())
    assert v["entropy"]["bits"] == pytest.approx(bits, abs=1e-5)
    assert v["entropy"]["exact"] is exact and v["entropy"]["estimate"] is False


@pytest.mark.parametrize("game", ["clue", "perfect-alibi", "lady-alice"])
def test_entropy_at_the_end_of_a_solved_game_is_zero(game):
    rep = _rep(game, "clean-4p.yaml")
    v = view(rep, None, Viewpoint.omniscient())
    assert v["solutions"] == 1 and v["entropy"] == {"bits": 0.0, "exact": True, "estimate": False}


# -- comments --------------------------------------------------------------------------------

def test_comments_are_found_where_yaml_says_so():
    text = ('a: "x # not one"  # one\r\nb: y#z\r\nc: \'#no\' #two\r\n  # three\r\nd: |\n  # in a block\n'
            'e: [1, 2]# no blank before: part of nothing, not a comment in YAML\n')
    assert [(line, own, body) for line, own, body in comments(text)] == [
        (1, False, "one"), (3, False, "two"), (4, True, "three")]


def test_every_comment_of_clean_4p_goes_to_its_move():
    path = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
    rep = replay(*parse_log(str(path)))
    notes = move_comments(path.read_text(), [s.position.line for s in rep.steps])
    # lines 1-3: the file's heading; 11: Turn 1 (move 1); 17: Turn 2 (move 6); 27: Turn 3 (move 15);
    # 42: in end:, about the end, left out
    assert len(notes[0]) == 3 and notes[0][0].startswith("A complete 4-player game")
    assert {i: n for i, n in enumerate(notes) if n and i} == {
        1: ["Turn 1: only red herrings, the four clues are covered."], 6: ["Turn 2"], 15: ["Turn 3"]}


def test_a_hostile_comment_cannot_leave_the_data_block(tmp_path):
    src = (ROOT / "examples" / "lady-alice" / "clean-4p.yaml").read_text()
    log = tmp_path / "c.yaml"
    log.write_text(src.replace("# Turn 2", "# </script><script>alert(1)</script><!-- & \u202e"))
    out = tmp_path / "c.html"
    run = cli("report", log, "-o", out)
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    assert text.count("<script") == 2 and "alert(1)" not in text.split("</script>", 1)[1].split("id=\"game-data\"")[0]
    block = text.split('<script type="application/json" id="game-data">', 1)[1].split("</script>", 1)[0]
    assert not re.search("[<>&\u202e]", block)
    assert json.loads(block)["comments"][6] == ["</script><script>alert(1)</script><!-- & \\u202e"]


# -- seats, size, graph ------------------------------------------------------------------------

CLUE_ANN = """rules: clue
variant: 3p
players: [Ann, Ben, Cat]
private:
  hand: {Ann: [Miss Scarlet, Mrs. Peacock, Candlestick, Lead Pipe, Revolver, Study]}
moves:
  - {pass: Ann}  # Ann waits
"""


def test_the_seats_are_the_spectator_and_the_players_with_private_facts():
    rep = replay(*parse_log_text(CLUE_ANN, "ann.yaml"))
    assert [s.name for s in report_seats(rep)] == ["spectator", "player:Ann"]
    assert [s.name for s in report_seats(rep, Viewpoint.of_player("Cat"))] == ["spectator", "player:Ann", "player:Cat"]
    assert [s.name for s in report_seats(_rep("clue", "clean-3p.yaml"))] == [
        "spectator", "player:Ann", "player:Ben", "player:Cat"]
    assert [s.name for s in report_seats(_rep("perfect-alibi", "rulebook-swap.yaml"))] == ["spectator"]


def test_one_page_holds_every_seat_and_each_picture_line_once():
    rep = replay(*parse_log_text(CLUE_ANN, "ann.yaml"))
    text = page(rep, Viewpoint.of_player("Ann"), [["a heading"], ["Ann waits"]])
    data = page_data(text)
    assert data["seat"] == 1 and [s["name"] for s in data["seats"]] == ["spectator", "player:Ann"]
    assert data["comments"] == [["a heading"], ["Ann waits"]] and data["moves"] == ["{pass: Ann}"]
    assert '<option value="1" selected>Ann</option>' in text
    for seat, solutions in ((0, 6 * 6 * 9), (1, 4 * 3 * 8)):  # Ann's hand leaves 4 x 3 x 8
        steps = seat_steps(data, seat)
        assert len(steps) == 2 and all(s["svg"].startswith("<svg") for s in steps)
        assert f"{solutions} possible envelope(s) remain" in steps[0]["status"]
    assert len(data["lines"]) == len(set(data["lines"]))
    graph = text.split('<section id="graph">')[1].split("</section>")[0]
    assert graph.count('class="legend"') == 2 and "dashed: an upper bound" in graph


def test_the_clue_pages_seats_share_their_pictures_lines():
    """Four seats of Clue in 3 players: the page is far smaller than its pictures written out (a third at
    most: a wrapped row of the picture is one element, so a change anywhere in it is a new line)."""
    rep = _rep("clue", "clean-3p.yaml")
    text = page(rep, Viewpoint.spectator())
    data = page_data(text)
    whole = sum(len(s["svg"]) for seat in range(len(data["seats"])) for s in seat_steps(data, seat))
    assert len(data["seats"]) == 4 and len(text) * 2.5 < whole
