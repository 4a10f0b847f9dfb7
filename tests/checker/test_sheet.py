"""``show --sheet``: the note sheet, each card of the deal against each zone, from a seat.

Expectations come from hand counts on the rule files and from a plain
enumeration (tests/checker/plain.py), never from the solver: a card is dealt
into exactly one zone (each row's chances add up to 1), a zone holds its size
(each column's chances add up to it), and the cells a seat can count by hand
at the deal are what the rules make them.
"""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.checker.sheet import cell_text, render_sheet_text, sheet_view
from ruleslawyer.solver import queries

from ..conftest import ROOT, cli
from . import plain

CLEAN = sorted(ROOT.glob("examples/*/clean-*.yaml"))
SVG_NS = "{http://www.w3.org/2000/svg}"


def run(*args: str, columns: int = 80) -> subprocess.CompletedProcess:
    return cli(*args, env={"COLUMNS": str(columns)})


def first_player(path) -> str:
    return re.search(r"^players: \[([^,\]]+)", path.read_text(), re.M).group(1).strip()


def test_every_rule_file_has_an_example_log_here():
    games = {p.parent.name for p in CLEAN}
    assert games == {p.stem for p in (ROOT / "rules").glob("*.yaml")}


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_sheet_of_every_game_holds_every_card_once_and_every_zone_its_size(path):
    seat = first_player(path)
    moves = len(replay(*parse_log(str(path))).steps)
    out = run("show", str(path), "--sheet", "--as", seat, "--at", str(moves // 2), "--format", "json")
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    log, rules = parse_log(str(path))
    deal = replay(log, rules).deal
    assert [d["deck"] for d in s["decks"]] == [d.id for d in deal.decks]
    for sheet_deck, deck in zip(s["decks"], deal.decks):
        rows = [r for g in sheet_deck["groups"] for r in g["cards"]]
        assert sorted(r["id"] for r in rows) == sorted(deck.cards)              # every card once
        zones = [z for z in deck.zones if z.size > 0]
        assert [z["id"] for z in sheet_deck["zones"]] == [z.id for z in zones]
        for r in rows:                                                      # a card is in one zone
            if s["counted"]:
                assert sum(c["p"] for c in r["cells"]) == pytest.approx(1.0)
            assert sum(c["state"] == "held" for c in r["cells"]) <= 1
        if s["counted"]:
            for i, z in enumerate(zones):                                   # a zone holds its size
                assert sum(r["cells"][i]["p"] for r in rows) == pytest.approx(z.size)
    # the seat's own hand: every card of it held there, nowhere else
    own = next(d for d in s["decks"] if any(z["owner"] == seat for z in d["zones"]))
    col = next(i for i, z in enumerate(own["zones"]) if z["owner"] == seat)
    held = [r["id"] for g in own["groups"] for r in g["cards"] if r["cells"][col]["state"] == "held"]
    assert len(held) == own["zones"][col]["size"]


def test_perfect_alibi_at_the_deal_by_hand():
    # rules/perfect-alibi.yaml, 4 players: 16 cards, 3 face up in the row, 3 in each hand, 1 missing.
    # Blue sees the row and his own 3: the other 10 are dealt 1 to the missing zone and 3 to each of
    # the 3 other hands, so each is missing with 1/10 and in a given other hand with 3/10.  Under
    # Rival, the 5 tiles go one to each player and one to the box: Blue knows his; each of the other
    # 4 is in each of the 4 other places with 1/4.
    path = ROOT / "examples" / "perfect-alibi" / "rival-4p.yaml"
    rep = replay(*parse_log(str(path)))
    s = sheet_view(rep, 0, queries.Viewpoint.of_player("Blue"))
    alibis, rivals = s["decks"]
    heads = [z["label"] for z in alibis["zones"]]
    assert heads == ["missing", "Yellow", "Blue", "Green", "Red", "row"]
    rows = {r["name"]: [cell_text(c) for c in r["cells"]] for g in alibis["groups"] for r in g["cards"]}
    face_up = [n for n, cells in rows.items() if cells[5] == "✓"]
    own = [n for n, cells in rows.items() if cells[2] == "✓"]
    assert len(face_up) == 3 and len(own) == 3
    for name, cells in rows.items():
        if name in face_up:
            assert cells == ["x", "x", "x", "x", "x", "✓"]
        elif name in own:
            assert cells == ["x", "x", "✓", "x", "x", "x"]
        else:
            assert cells == ["10%", "30%", "x", "30%", "30%", "x"]
    tiles = {r["name"]: [cell_text(c) for c in r["cells"]] for g in rivals["groups"] for r in g["cards"]}
    mine = [n for n, cells in tiles.items() if cells[1] == "✓"]
    assert len(tiles) == 5 and len(mine) == 1
    assert all(cells == ["25%", "x", "25%", "25%", "25%"] for n, cells in tiles.items() if n not in mine)


def test_lady_alice_from_a_seat_agrees_with_a_plain_enumeration():
    # rules/lady-alice.yaml, 4 players: one evidence card per hand, the other 28 on the desk.  The
    # verdicts speak of the four hands together, so the three evidence cards Helen does not hold are
    # dealt to the three other hands alike: P(card in Gordon's hand) = P(card is evidence) / 3.
    path = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
    rep = replay(*parse_log(str(path)))
    view = queries.Viewpoint.of_player("Helen")
    for at in (0, 6, 13):
        s = sheet_view(rep, at, view)
        facts = [f for f in rep.facts(at) if view.sees(f)]
        _count, _status, probs = plain.answers(rep.deal, facts)
        (deck,) = s["decks"]
        assert [z["id"] for z in deck["zones"]] == ["hand:Helen", "hand:Gordon", "hand:John", "hand:Audrey", "desk"]
        for r in (r for g in deck["groups"] for r in g["cards"]):
            p = probs[r["id"]]
            helen, *others, desk = [Fraction(c["p"]).limit_denominator(10 ** 6) for c in r["cells"]]
            if helen == 1:
                assert p == 1 and others == [0, 0, 0] and desk == 0
            else:
                assert others == [p / 3] * 3 and desk == 1 - p


def test_a_sheet_too_wide_abbreviates_and_says_so():
    path = ROOT / "examples" / "perfect-alibi" / "clean-5p.yaml"
    rep = replay(*parse_log(str(path)))
    s = sheet_view(rep, 10, queries.Viewpoint.of_player(rep.players[0]))
    wide = render_sheet_text(s, 120)
    assert "Location 4, 12 o'clock" in wide and "shortest alias" not in wide
    for width in (40, 50, 60):
        text = render_sheet_text(s, width)
        assert max(len(line) for line in text.splitlines()) <= width
        if "shortest alias" in text:
            assert "L4 12" in text                       # the card's alias in rules/perfect-alibi.yaml
        words = set(text.split())
        assert "Location" in words or "L4" in words       # abbreviated by an alias, never cut


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_sheet_fits_as_text_and_as_svg(path):
    seat = first_player(path)
    for columns in (40, 80):
        out = run("show", str(path), "--sheet", "--as", seat, columns=columns)
        assert out.returncode == 0, out.stderr
        assert max(len(line) for line in out.stdout.splitlines()) <= columns
        assert "placeholder" not in out.stdout
    svg = run("show", str(path), "--sheet", "--omniscient", "--format", "svg").stdout
    assert_text_inside(svg)


def assert_text_inside(svg: str, em: float = 0.6) -> None:
    """Every line of text of the picture inside its viewBox: each <text>'s own text and each of its
    <tspan> lines, its width counted as characters x ``em`` x its font size (sans-serif's characters
    average about 0.55 em); a <title> (a tooltip) is not drawn."""
    root = ET.fromstring(svg)
    _x0, _y0, width, height = (float(n) for n in root.get("viewBox").split())
    base = float(root.get("font-size", "12"))
    for t in root.iter(f"{SVG_NS}text"):
        size = float(t.get("font-size", base))
        anchor = t.get("text-anchor", "start")
        own = (t.text or "") + "".join((c.tail or "") for c in t if c.tag == f"{SVG_NS}title")
        pieces = [(own.rstrip(" "), t)] + [(s.text or "", s) for s in t if s.tag == f"{SVG_NS}tspan"]
        for text, where in pieces:
            w = len(text) * size * em
            x, y = float(where.get("x", t.get("x"))), float(where.get("y", t.get("y")))
            left = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
            assert 0 <= left and left + w <= width + 0.5, (text, x, w, width)
            assert 0 < y <= height, (text, y, height)
