"""``show --format svg`` and its JSON for every game (issue 24, point 6): no text runs off the picture,
card names are never cut, and what the rules keep face up on the table is drawn and in the JSON.

Widths are counted as characters x 0.6 em x the font size (sans-serif's characters average about
0.55 em), every <text> inside the viewBox.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET

import pytest

from ..conftest import ROOT, cli
from .test_sheet import SVG_NS, assert_text_inside

LOGS = sorted(ROOT.glob("examples/*/clean-*.yaml")) + [ROOT / "examples" / "perfect-alibi" / "rival-4p.yaml"]


def run(*args: str) -> subprocess.CompletedProcess:
    return cli(*args, env={"COLUMNS": "80"})


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_text_of_the_picture_fits_inside_it(path):
    moves = json.loads(run("show", str(path), "--format", "json").stdout)["moves"]
    for at in (0, moves // 2, moves):
        for seat in ((), ("--omniscient",)):
            out = run("show", str(path), "--at", str(at), *seat, "--format", "svg")
            assert out.returncode == 0, out.stderr
            assert_text_inside(out.stdout)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_card_names_are_whole_or_an_alias_never_cut(path):
    out = run("show", str(path), "--at", "0", "--format", "svg")
    v = json.loads(run("show", str(path), "--at", "0", "--format", "json").stdout)
    root = ET.fromstring(out.stdout)
    from ruleslawyer.checker.log import parse_log
    _log, rules = parse_log(str(path))
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") != "space":
            continue
        item = rules.items[g.get("data-id")]
        label = next(t for t in g.iter(f"{SVG_NS}text") if t.find(f"{SVG_NS}title") is not None)
        written = label.find(f"{SVG_NS}title").tail
        assert label.find(f"{SVG_NS}title").text == item.name       # the printed name in the tooltip
        assert written in (item.name, *item.aliases)                 # whole, or one of its aliases
        assert "…" not in written
    assert "placeholder" not in out.stdout and "placeholder" not in json.dumps(v)


def test_the_face_up_tiles_are_drawn_and_in_the_json():
    # examples/perfect-alibi/clean-4p.yaml records every draw: after move 4 the four tiles of the
    # set-up are face up, its first four draws (Green wheel, Yellow clock, Red wheel, Yellow clock).
    path = ROOT / "examples" / "perfect-alibi" / "clean-4p.yaml"
    v = json.loads(run("show", str(path), "--at", "4", "--format", "json").stdout)
    lines = path.read_text().splitlines()
    draws = [line for line in lines if "{draw:" in line][:4]
    assert len(draws) == 4
    (table,) = v["table"]
    assert table["label"] == "face-up tiles" and len(table["items"]) == 4
    for draw, tile in zip(draws, table["items"]):
        colour = draw.split("colour: ")[1].split(",")[0]
        symbol = {"wheel": "Ship's wheel", "clock": "Clock"}[draw.split("symbol: ")[1].split("}")[0]]  # the rule file's names
        assert tile == f"{colour} {symbol}"
    svg = run("show", str(path), "--at", "4", "--format", "svg").stdout
    text = " ".join("".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG_NS}text")).replace("\u00a0", " ")
    assert "face-up tiles: " + " · ".join(table["items"]) in text
    assert "row (face up): " in text                                   # the face-up cards too
    out = run("show", str(path), "--at", "4")
    assert "face-up tiles: " in out.stdout
