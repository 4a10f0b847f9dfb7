"""``show --format svg`` and ``report`` of each game looked at in a headless Chromium (issue 24).

For one example log of each game: the picture's screenshot has the picture's
size; no text runs outside the picture or past the card it is written on
(measured by the browser: getBBox, getBoundingClientRect); the page does not
overflow its window; the seat switcher shows each seat's knowledge; a link
``page.html#N`` opens at move N and stepping sets the link.  Expectations
come from the logs themselves (the hands they record, counted by hand), not
from the code under test.  Skipped, saying why, where Chromium is absent.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..conftest import ROOT, cli
from .browser import LAYOUT_JS, Browser, find_browser, png_size

pytestmark = pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (apt-get install chromium)")

#: game -> (its log, a player whose hand the log records, the moves it has)
LOGS = {
    "lady-alice": ("clean-4p.yaml", "Gordon", 26),
    "perfect-alibi": ("clean-3p.yaml", "Yellow", 62),
    "clue": ("clean-3p.yaml", "Ann", 80),
}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    run = cli(*args)
    assert run.returncode == 0, run.stdout + run.stderr
    return run


@pytest.fixture(scope="module")
def browser():
    with Browser(find_browser()) as b:  # type: ignore[arg-type]
        yield b


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each game's report, written once for the module (the Clue one is the costly one)."""
    out = {}
    folder = tmp_path_factory.mktemp("reports")
    for game, (log, _player, _moves) in LOGS.items():
        page = folder / f"{game}.html"
        _cli("report", str(ROOT / "examples" / game / log), "-o", str(page))
        out[game] = page
    return out


@pytest.mark.parametrize("game", sorted(LOGS))
def test_show_svg_layout(game, browser, tmp_path):
    log, player, moves = LOGS[game]
    for at, seat in ((1, []), (moves // 2, ["--as", player]), (moves, [])):
        svg = tmp_path / f"{game}-{at}.svg"
        svg.write_text(_cli("show", str(ROOT / "examples" / game / log), "--at", str(at), "--format", "svg", *seat).stdout)
        browser.open(svg.as_uri(), "document.documentElement.getBBox")
        browser.eval(LAYOUT_JS)
        assert browser.eval("layout(document.documentElement)") == [], (game, at, seat)
        width = int(browser.eval("document.documentElement.width.baseVal.value"))
        height = int(browser.eval("document.documentElement.height.baseVal.value"))
        shot = tmp_path / f"{game}-{at}.png"
        browser.screenshot(str(shot), width, height)
        assert png_size(str(shot)) == (width, height)
        # the whole picture is on the screenshot: its drawn box is the picture's size
        box = browser.eval("(function (r) { return [r.width, r.height]; })"
                           "(document.documentElement.getBoundingClientRect())")
        assert [round(x) for x in box] == [width, height]


@pytest.mark.heavy
@pytest.mark.parametrize("game", sorted(LOGS))
def test_report_layout_seats_and_links(game, browser, pages, tmp_path):
    log, player, moves = LOGS[game]
    page = pages[game]
    browser.open(page.as_uri() + "#5", "window.ruleslawyer")
    browser.eval(LAYOUT_JS)
    text = lambda sel: browser.eval(f"document.querySelector({sel!r}).textContent")  # noqa: E731
    assert text("#move-number") == "5"                               # the link opened at move 5
    browser.eval("document.getElementById('next').click()")
    assert browser.eval("location.hash") == "#6" and text("#move-number") == "6"
    browser.eval("location.hash = '#2'")                              # the page follows the hash
    browser.eval("new Promise(r => setTimeout(r, 100))")
    assert text("#move-number") == "2"
    seats = browser.eval("Array.from(document.querySelectorAll('#seat option')).map(o => o.textContent)")
    assert seats[0] == "spectator" and player in seats
    for at in (0, moves // 2, moves):
        for i in range(len(seats)):
            browser.eval(f"window.ruleslawyer.seat({i}); window.ruleslawyer.show({at})")
            assert browser.eval("layout(document.querySelector('#picture svg'))") == [], (game, at, seats[i])
    assert browser.eval("layout(document.getElementById('graph-svg'))") == []
    assert browser.eval("document.querySelectorAll('#graph-svg .seat-line').length") >= 2 * len(seats)
    shot = tmp_path / f"{game}.png"
    browser.screenshot(str(shot), 1300, 900)
    assert png_size(str(shot)) == (1300, 900)
    assert browser.eval("document.documentElement.scrollWidth") <= 1300      # nothing runs off the page's side
    right = browser.eval("Math.max(...Array.from(document.querySelectorAll('body *'))"
                         ".map(e => e.getBoundingClientRect().right))")
    assert right <= 1300


def _chance(browser: Browser, card: str) -> str:
    return browser.eval("Array.from(document.querySelectorAll('#chances tr')).filter("
                        f"r => r.children[0] && r.children[0].textContent === {card!r})[0].children[1].textContent")


def test_the_seat_switcher_shows_each_seats_knowledge(browser, pages):
    """Clue, 3 players: Ann holds Miss Scarlet and Mrs. Peacock (the log's private hands), so at the
    deal she gives each of the four other suspects 1/4; the spectator gives each of six 1/6."""
    browser.open(pages["clue"].as_uri() + "#0", "window.ruleslawyer")
    seats = browser.eval("window.ruleslawyer.seats")
    assert seats == ["spectator", "player:Ann", "player:Ben", "player:Cat"]
    browser.eval("window.ruleslawyer.seat(0)")
    assert _chance(browser, "Miss Scarlet") == "16.7%" and _chance(browser, "Professor Plum") == "16.7%"
    browser.eval("document.getElementById('seat').value = '1'; "
                 "document.getElementById('seat').dispatchEvent(new Event('change'))")
    assert _chance(browser, "Miss Scarlet") == "0.0% x" and _chance(browser, "Professor Plum") == "25.0%"
    assert browser.eval("location.hash") == "#0"                      # the move is kept across seats
    assert browser.eval("document.querySelectorAll('#graph-svg .legend.chosen').length") == 1


def test_comments_follow_the_moves(browser, pages):
    """Lady Alice, clean-4p.yaml: '# Turn 2' stands above move 6 (line 17), '# Turn 1: ...' above move 1."""
    browser.open(pages["lady-alice"].as_uri() + "#6", "window.ruleslawyer")
    assert browser.eval("document.getElementById('comments').textContent") == "Turn 2"
    browser.eval("window.ruleslawyer.show(7)")
    assert browser.eval("document.getElementById('comments').hidden")
    browser.eval("window.ruleslawyer.show(1)")
    assert browser.eval("document.getElementById('comments').textContent").startswith("Turn 1: only red herrings")


def test_the_annotated_report_runs_and_lays_out(browser, tmp_path):
    """``report --advice`` (the tiny deck of tests/lab/data): each move's review shown as the page steps,
    a mark on each move its review grades an inaccuracy or worse, a row per player in the accuracy table,
    and the page still within its window."""
    import json

    log = ROOT / "tests" / "lab" / "data" / "tiny-game.yaml"
    page = tmp_path / "tiny.html"
    data = json.loads(_cli("report", str(log), "-o", str(page), "--advice", "--advice-budget", "5000",
                           "--format", "json").stdout)["advice"]
    browser.open(page.as_uri() + "#0", "window.ruleslawyer")
    browser.eval(LAYOUT_JS)
    assert browser.eval("document.getElementById('advice').hidden")  # the deal: no move to review
    for m in data["moves"]:
        browser.eval(f"window.ruleslawyer.show({m['move']})")
        assert not browser.eval("document.getElementById('advice').hidden")
        assert browser.eval("document.getElementById('advice').textContent") == "review: " + m["says"]
        assert browser.eval("layout(document.querySelector('#picture svg'))") == []
    faults = [m["move"] for m in data["moves"] if m["grade"] in ("inaccuracy", "mistake", "blunder")]
    assert faults  # the log has some (the enumeration of tests/lab/test_review.py says which)
    marked = browser.eval("Array.from(document.querySelectorAll('#moves li')).map("
                          "(li, i) => li.querySelector('.mark') ? i + 1 : 0).filter(n => n)")
    assert marked == faults
    rows = browser.eval("Array.from(document.querySelectorAll('#accuracy tr')).map(r => r.children[0].textContent)")
    assert rows == ["player", "Ann", "Bob", "Cat"]
    shot = tmp_path / "tiny.png"
    browser.screenshot(str(shot), 1300, 900)
    assert png_size(str(shot)) == (1300, 900)
    assert browser.eval("document.documentElement.scrollWidth") <= 1300
    right = browser.eval("Math.max(...Array.from(document.querySelectorAll('body *'))"
                         ".map(e => e.getBoundingClientRect().right))")
    assert right <= 1300
