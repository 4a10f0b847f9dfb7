"""Issue 25, "everything shown is escaped for where it is shown": hostile names in every output.

The red team's cases (``corpus/escape/``, the command each goes through in its
README) run through the command line (its ``main``, in this process: ``tests/conftest.py``'s
``cli()`` writes to a strict UTF-8 stream as a child's pipe is, and a child would prove nothing
more here; ``play`` and the lone surrogates keep a real one); then names made of every C0 and C1
control, escape sequences, bidirectional overrides, separators, lone
surrogates and markup are given to the players of a game of every rule file
in ``rules/`` and go through the text, SVG, HTML and JSON outputs.

What counts as unsafe on a terminal comes from the Unicode database, not from
the code under test: controls (Cc), surrogates (Cs), line and paragraph
separators (Zl, Zp), the explicit bidirectional formatting characters and
marks (UAX #9), and the noncharacters U+FFFE/F; what XML allows from the
``Char`` production of XML 1.0.
"""

from __future__ import annotations

import functools
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
import xml.dom.minidom
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.checker.cli import main
from ruleslawyer.checker.htmlreport import page
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.names import fold
from ruleslawyer.checker.replay import replay
from ruleslawyer.checker.table import render_svg, render_text, view
from ruleslawyer.checker.textout import fit
from ruleslawyer.solver import queries
from ruleslawyer.spec.diagnostics import printable
from ruleslawyer.spec.loader import rules_dir

from ..checker.browser import Browser, find_browser
from ..checker.reportdata import seat_steps
from ..conftest import cli
from .hostile_helpers import CORPUS, ROOT

CASES = CORPUS / "escape"
GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))
NO_BROWSER = pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (apt-get install chromium)")

# -- what is unsafe, from the Unicode database ---------------------------------------------

_BIDI_FORMATTING = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
_BIDI_MARKS = {unicodedata.lookup(n) for n in ("LEFT-TO-RIGHT MARK", "RIGHT-TO-LEFT MARK", "ARABIC LETTER MARK")}


def _unsafe(ch: str) -> bool:
    """A character a terminal acts on, that reorders the text shown, or that no encoding writes."""
    return (unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or unicodedata.bidirectional(ch) in _BIDI_FORMATTING
            or ch in _BIDI_MARKS or ch in "\ufffe\uffff")


@functools.cache
def _tables() -> tuple[frozenset[str], dict[int, str]]:
    """Every unsafe character, and the escape each is shown as: made when a test first asks
    (half a second over every code point, which each test worker's collection paid before)."""
    unsafe_chars = frozenset(chr(c) for c in range(0x110000) if _unsafe(chr(c)))
    return unsafe_chars, {ord(c): f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" for c in unsafe_chars}


def unsafe(ch: str) -> bool:
    return ch in _tables()[0]


def xml_char(ch: str) -> bool:
    """XML 1.0's Char production."""
    c = ord(ch)
    return c in (0x9, 0xA, 0xD) or 0x20 <= c <= 0xD7FF or 0xE000 <= c <= 0xFFFD or 0x10000 <= c <= 0x10FFFF


def shown(name: str) -> str:
    """A name as it must be shown: each unsafe character as a visible escape (``\\xNN``, ``\\uNNNN``)."""
    return name.translate(_tables()[1])


def assert_terminal_safe(text: str, what: str) -> None:
    bad = sorted(f"U+{ord(c):04X}" for c in (set(text) & _tables()[0]) - {"\n"})
    assert not bad, f"{what}: raw {', '.join(bad)} in the output"


# -- the hostile names ---------------------------------------------------------------------

def _controls() -> list[str]:
    """Every C0 and C1 control and DEL, four to a name."""
    codes = [*range(0x00, 0x20), *range(0x7F, 0xA0)]
    return [f"K{codes[i]:02x}" + "".join(chr(c) + "." for c in codes[i:i + 4]) for i in range(0, len(codes), 4)]


HOSTILE = [
    *_controls(),
    "\x1b]0;PWNED\x07\x1b[2J\x1b[31mCat",                 # set the title, clear the screen, red
    "\x9b2J\x9d0;T\x9cC1",                                # the same in 8-bit controls
    "D\x1bP+q\x1b\\cs",                                   # a device control string
    "\x1b]8;;http://example.invalid/\x1b\\link\x1b]8;;\x1b\\",  # a hyperlink
    "\u202egnp.exe", "I\u2066s\u2067o\u2068l\u2069", "M\u200eR\u200fA\u061c", "E\u202a\u202b\u202c\u202d",
    "L\u2028P\u2029", "S\udfff\ud800", "N\ufffe\uffff",  # lone (a high one then a low one: a pair in JSON)
    "<!--<script>", "</script><script>window.__pwned=1</script>", "<img src=x onerror=window.__pwned=2>",
    "]]><svg onload=window.__pwned=3>", "&amp;&lt;\"'", "[bold]B[/bold]", "[/]", "[link=https://x]l[/link]",
    "\u2028</script>", "Zoë", "李雷", "👩\u200d👩\u200d👧",
]


@functools.lru_cache(maxsize=None)
def _lab_log(game: str, moves: int) -> str:
    """A game of ``game`` (as many players as its rules say by default) played by the lab's
    random bots, ``moves`` moves long at most."""
    from ruleslawyer.lab.bots import parse_bots
    from ruleslawyer.lab.engine import Lab
    from ruleslawyer.lab.game import play_game
    from ruleslawyer.spec.loader import load_rules

    rules = load_rules(game)
    lab = Lab(rules)
    claims = [k for k, info in lab.kinds.items() if info.claims]
    bots = parse_bots("random" + (":" + ";".join(f"{k}=0.01" for k in claims) if claims else ""),
                      rules.param("players"), list(rules.moves))
    return play_game(lab, bots, 7, 0, moves, keep_log=True, track=False).log


def _hostile_log(game: str, names: list[str], moves: int) -> str:
    """:func:`_lab_log` with its players renamed ``names``, cut after ``moves`` moves."""
    data = yaml.safe_load(_lab_log(game, moves))
    seats = {p: n for p, n in zip(data["players"], names)}
    assert len(names) >= len(seats)

    def rename(v: Any) -> Any:
        if isinstance(v, dict):
            return {rename(k): rename(x) for k, x in v.items()}
        if isinstance(v, list):
            return [rename(x) for x in v]
        return seats.get(v, v) if isinstance(v, str) else v

    data = rename(data)
    data["moves"] = data["moves"][:moves]
    data.pop("end", None)
    return yaml.safe_dump(data, sort_keys=False, width=1 << 20)  # every name in YAML's own escapes


def _batches(game: str) -> list[list[str]]:
    from ruleslawyer.spec.loader import load_rules

    n = int(load_rules(game).param("players"))
    names = list(HOSTILE)
    names += [f"Pad{i}" for i in range(-len(names) % n)]
    return [names[i:i + n] for i in range(0, len(names), n)]


# -- the red team's cases, through the command line ------------------------------------------

def test_the_corpus_lists_the_command_of_each_case():
    readme = (CASES / "README.md").read_text()
    for case in sorted(CASES.glob("*.yaml")):
        assert f"`{case.name}`" in readme, case.name


def test_esc_names_check_prints_the_next_player_escaped():
    run = cli("check", str(CASES / "esc-names.yaml"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert_terminal_safe(run.stdout + run.stderr, "check")
    assert "next: move 3, \\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mCat to play" in run.stdout


@pytest.mark.parametrize("args", [["show"], ["solve"], ["show", "--format", "json"], ["solve", "--format", "json"],
                                  ["check", "--format", "json"], ["show", "--at", "0", "--as", "Ann"]])
def test_esc_names_show_and_solve_print_the_name_escaped(args):
    run = cli(args[0], str(CASES / "esc-names.yaml"), *args[1:], env={"COLUMNS": "300"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert_terminal_safe(run.stdout + run.stderr, " ".join(args))
    if "json" in args:
        found = json.loads(run.stdout)
        if args[0] != "solve":                                              # the data kept exact
            name = found[0]["next"]["turn"] if args[0] == "check" else found["players"][2]["name"]
            assert name == "\x1b]0;PWNED\x07\x1b[2J\x1b[31mCat"
    elif args[0] == "show":
        assert " \\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mCat: 9 counters left" in run.stdout   # the player's row


@pytest.mark.parametrize("fmt", ["text", "json", "svg"])
def test_esc_names_the_note_sheet_prints_the_name_escaped(fmt):
    run = cli("show", str(CASES / "esc-names.yaml"), "--sheet", "--as", "Ann", "--format", fmt, env={"COLUMNS": "300"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert_terminal_safe(run.stdout + run.stderr, f"show --sheet --format {fmt}")
    if fmt == "json":
        assert json.loads(run.stdout)["players"][2] == "\x1b]0;PWNED\x07\x1b[2J\x1b[31mCat"   # the data kept exact
    elif fmt == "svg":
        heads = [t.firstChild.data for t in xml.dom.minidom.parseString(run.stdout).getElementsByTagName("text")]
        assert "\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mCat" in heads               # a column head, escaped
    else:
        assert "\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mCat" in run.stdout


def test_svg_control_char_show_svg_is_well_formed():
    run = cli("show", str(CASES / "svg-control-char.yaml"), "--format", "svg")
    assert run.returncode == 0, run.stderr
    doc = xml.dom.minidom.parseString(run.stdout)
    players = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.getAttribute("class") == "player"]
    assert any(p.startswith("C\\x01at:") for p in players), players


def _report_data(path: Path) -> dict[str, Any]:
    text = path.read_text()
    assert text.count("<script") == 2, "a name opened a script element"
    block = text.split('<script type="application/json" id="game-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in block and "&" not in block and "\u2028" not in block
    return json.loads(block)


def test_report_comment_name_keeps_the_page_script(tmp_path):
    out = tmp_path / "c.html"
    run = cli("report", str(CASES / "report-comment-name.yaml"), "-o", str(out))
    assert run.returncode == 0, run.stderr
    data = _report_data(out)
    assert len(seat_steps(data)) == 3
    assert "&lt;!--&lt;script&gt;" in seat_steps(data)[0]["svg"]        # the name, as text of the picture
    assert "<script>window.ruleslawyer" not in out.read_text()
    assert "window.ruleslawyer = {show: show" in out.read_text().split("</script>")[1]


@NO_BROWSER
@pytest.mark.parametrize("case, flags, steps", [("report-comment-name.yaml", [], 3),
                                                ("report-html-names-pa.yaml", ["--omniscient"], 62)])
def test_the_corpus_reports_run_in_a_browser(tmp_path, case, flags, steps):
    out = tmp_path / "page.html"
    run = cli("report", str(CASES / case), "-o", str(out), *flags)
    assert run.returncode == 0, run.stderr
    players = yaml.safe_load((CASES / case).read_text())["players"]
    _step_through(out, steps, players)


@NO_BROWSER
def test_the_logs_comments_are_text_in_the_page(tmp_path):
    out = tmp_path / "m.html"
    run = cli("report", str(CASES / "report-comments.yaml"), "-o", str(out))
    assert run.returncode == 0, run.stderr
    data = _report_data(out)
    assert data["comments"][1] == ["<img src=x onerror=\"document.title='PWNED'\"> & a bidi override \\u202e here",
                                   ']]></text></svg><b id="pwned">x</b>']
    assert data["comments"][2] == ['"a quoted # is no comment" \'nor this #\' but this is']
    with Browser(find_browser(), timeout=120) as b:  # type: ignore[arg-type]
        b.open(out.as_uri() + "#1", "window.ruleslawyer")
        assert b.eval("document.getElementById('comments').textContent").startswith("<img src=x")
        b.eval("window.ruleslawyer.show(2)")
        assert b.eval("document.title") != "PWNED" and b.eval("document.querySelectorAll('#pwned, img').length") == 0
        assert b.eval("document.scripts.length") == 2


def _step_through(page_path: Path, steps: int, players: list[str]) -> None:
    """Open the page, step through every move: the picture drawn, the names shown as text, nothing injected."""
    with Browser(find_browser(), timeout=120) as b:  # type: ignore[arg-type]
        b.open(page_path.as_uri())
        assert b.eval("window.ruleslawyer ? window.ruleslawyer.steps : null") == steps, "the page's script never ran"
        for i in [*range(steps), 0]:
            b.eval(f"window.ruleslawyer.show({i})")
            assert b.eval("document.getElementById('move-number').textContent") == str(i)
            assert b.eval("document.querySelectorAll('#picture svg').length") == 1
        b.eval("document.getElementById('next').click()")
        assert b.eval("window.ruleslawyer.at()") == 1
        rows = b.eval("Array.from(document.querySelectorAll('#picture text.player')).map(t => t.textContent)")
        for name, row in zip(players, rows):
            assert shown(name) in row, (name, row)
        assert b.eval("window.__pwned === undefined"), "an injected script ran"
        assert b.eval("document.querySelectorAll('script').length") == 2
        assert b.eval("document.querySelectorAll('img, iframe, object, embed, foreignObject').length") == 0
        assert b.eval("Array.from(document.querySelectorAll('*'))"
                      ".filter(e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length") == 0


@NO_BROWSER
@pytest.mark.parametrize("game", GAMES)
def test_reports_of_every_game_with_hostile_names_run_in_a_browser(tmp_path, game):
    from ruleslawyer.spec.loader import load_rules

    n = int(load_rules(game).param("players"))
    names = ["<!--<script>", "</script><script>window.__pwned=1</script>",
             "L\u2028S\u2029<img src=x onerror=window.__pwned=2>", "C\x01\x1b[2J\x9b\u202e", "R&amp;]]>"][:n]
    log = tmp_path / f"{game}.yaml"
    log.write_text(_hostile_log(game, names, 8))
    out = tmp_path / f"{game}.html"
    run = cli("report", str(log), "-o", str(out))
    assert run.returncode == 0, run.stdout + run.stderr
    _report_data(out)
    _step_through(out, 9, names)


def test_play_prompts_with_the_name_escaped(tmp_path):
    log = tmp_path / "game.yaml"
    shutil.copy(CASES / "esc-names.yaml", log)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_")}
    run = subprocess.run([sys.executable, "-m", "ruleslawyer.checker", "play", str(log)], input="moves\nquit\n",
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_terminal_safe(run.stdout + run.stderr, "play")
    assert "move 3 (\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mCat)> " in run.stdout


def test_prove_prints_a_property_file_escaped(tmp_path):
    prop = tmp_path / "p.yaml"
    prop.write_text('title: "P\\e]0;X\\a"\ndepth: 1\nscope:\n  items:\n    clues: [Mary Kingsley, Waterloo Station, '
                    '"5 p.m.", compass]\n  values:\n    value: [1]\nproperties:\n  - id: never\n'
                    '    says: "says \\e[2J\\u202e[bold]<b>"\n    invariant: "vars.business_cards < 0"\n')
    for fmt in ("text", "json"):
        run = cli("prove", "lady-alice", "--property", str(prop), "--depth", "0", "--format", fmt)
        assert run.returncode == 1, run.stdout + run.stderr
        assert_terminal_safe(run.stdout + run.stderr, f"prove --format {fmt}")
        if fmt == "text":
            assert "says \\x1b[2J\\u202e[bold]<b>" in run.stdout
        else:
            assert json.loads(run.stdout)["properties"][0]["says"] == "says \x1b[2J\u202e[bold]<b>"


def test_lone_surrogates_reach_a_real_stdout(tmp_path, monkeypatch):
    """Captured text is never encoded; a real pipe's is (UTF-8, strict): a lone surrogate in a
    name was an encoding error there (exit 3), in show --format json for one."""
    log = tmp_path / "s.yaml"
    log.write_text('rules: lady-alice\nplayers: [Ann, Ben, "C\\ud800at", "D\\x9b2J\\u202e"]\nmoves:\n'
                   '  - {suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1}\n  - {pass: Ben}\n')
    monkeypatch.chdir(tmp_path)
    for args in (["check"], ["check", "--format", "json"], ["show"], ["show", "--format", "json"],
                 ["show", "--format", "svg"], ["solve"], ["solve", "--format", "json"], ["report", "-o", "r.html"]):
        raw = io.BytesIO()
        pipe = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
        monkeypatch.setattr(sys, "stdout", pipe)
        status = main([args[0], str(log), *args[1:]])
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)
        text = raw.getvalue().decode("utf-8")
        assert status == 0, (args, text)
        assert_terminal_safe(text, " ".join(args))
        if "json" in args:
            assert "C\ud800at" in json.dumps(json.loads(text), ensure_ascii=False)
        if "svg" in args:
            xml.dom.minidom.parseString(text)


# -- every hostile name, through every output, for every game ---------------------------------

@pytest.fixture(scope="module", params=GAMES)
def hostile_games(request) -> list[tuple[list[str], str]]:
    return [(names, _hostile_log(request.param, names, 3)) for names in _batches(request.param)]


def _outputs(text: str, tmp_path: Path, monkeypatch, capsys) -> dict[str, str]:
    """What check, show (text, json, svg) and report print or write for the log ``text``."""
    path = tmp_path / "game.yaml"
    path.write_text(text)
    monkeypatch.setenv("COLUMNS", "1000")  # nothing wrapped: every name whole on its line
    out = {}
    for key, args in {"check": ["check", str(path)], "show": ["show", str(path)],
                      "json": ["show", str(path), "--format", "json"], "svg": ["show", str(path), "--format", "svg"],
                      "report": ["report", str(path), "-o", str(tmp_path / "r.html")]}.items():
        status = main(args)
        got = capsys.readouterr()
        assert status == 0, (args, got.out + got.err)
        out[key] = got.out
    out["html"] = (tmp_path / "r.html").read_text()
    return out


def test_hostile_names_in_every_output(hostile_games, tmp_path, monkeypatch, capsys):
    for names, text in hostile_games:
        out = _outputs(text, tmp_path, monkeypatch, capsys)
        for key in ("check", "show", "report", "json"):
            assert_terminal_safe(out[key], key)
        for name in names:
            assert shown(name) in out["show"], (name, "show")
        assert "next: move 4, " in out["check"] and any(f"next: move 4, {shown(n)} to play" in out["check"]
                                                        for n in names)
        found = json.loads(out["json"])
        assert [p["name"] for p in found["players"]] == names           # the JSON keeps each name exactly
        svg = ET.fromstring(out["svg"])
        assert {e.tag.split("}")[1] for e in svg.iter()} <= {"svg", "rect", "text", "tspan", "title", "g", "circle"}
        rows = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "player"]
        assert [r.removeprefix("▶ ").startswith(shown(n) + ":") for n, r in zip(names, rows)] == [True] * len(names)
        assert all(xml_char(c) for c in out["svg"])
        data = _report_data_text(out["html"])
        for step in seat_steps(data):
            assert all(xml_char(c) for c in step["svg"])
            ET.fromstring(step["svg"])
        assert all(xml_char(c) for c in out["html"])


def _report_data_text(text: str) -> dict[str, Any]:
    assert text.count("<script") == 2, "a name opened a script element"
    block = text.split('<script type="application/json" id="game-data">', 1)[1].split("</script>", 1)[0]
    assert not re.search("[<>&\u2028\u2029]", block)
    return json.loads(block)


# -- the escaping functions over every code point and random names ---------------------------

EVERY = "".join(map(chr, range(0x110000)))


def test_printable_escapes_exactly_the_unsafe_characters():
    assert printable(EVERY, lines=False) == shown(EVERY)
    assert printable(EVERY, lines=True) == shown(EVERY[:10]) + "\n" + shown(EVERY[11:])
    assert printable(shown(EVERY)) == shown(EVERY)                      # escaping twice changes nothing


def test_markup_is_xml_text_for_every_code_point():
    from ruleslawyer.checker.textout import markup

    escaped = markup(EVERY)
    assert all(xml_char(c) for c in escaped) and html.unescape(escaped) == shown(EVERY)
    ET.fromstring(f"<t a=\"{escaped}\">{escaped}</t>")


def test_json_text_and_script_json_keep_the_data_for_every_code_point():
    from ruleslawyer.checker.htmlreport import script_json
    from ruleslawyer.checker.textout import json_text

    unpaired = EVERY[:0xD800] + "".join(chr(c) + "." for c in range(0xD800, 0xE000)) + EVERY[0xE000:]  # lone surrogates
    value = {"name": unpaired, EVERY[:300]: [EVERY[0x2000:0x2100]]}
    for text in (json_text(value, indent=1), script_json(value)):
        assert json.loads(text) == value
        assert_terminal_safe(text, "json")
    assert not re.search("[<>&]", script_json(value))


_NAME_CHARS = st.sampled_from([*map(chr, [*range(0x20), *range(0x7F, 0xA0)]), "\u202e", "\u2066", "\u200f", "\u2028",
                               "\ud800", "\ufffe", "<", ">", "&", '"', "'", "[", "]", "/", "!", "-", "\\", " ",
                               "a", "B", "é", "李", "👩", "\u200d"])


@settings(max_examples=int(os.environ.get("ESC_N", "25")), deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(_NAME_CHARS, min_size=1, max_size=12).map(lambda s: "Q" + s), min_size=4, max_size=4,
                unique_by=fold))  # four players the log reader tells apart
def test_random_hostile_names_in_text_svg_json_and_html(names):
    from ruleslawyer.checker.textout import json_text

    text = yaml.safe_dump({"rules": "lady-alice", "players": names,
                           "moves": [{"suspect": names[0], "clues": ["Baker", "P2", "T3", "O4"], "smiles": 1}]})
    log, rules = parse_log_text(text, "random.yaml")
    rep = replay(log, rules)
    assert list(rep.players) == names and not rep.reporter.errors
    v = view(rep, None, queries.Viewpoint.spectator())
    picture = render_text(v, 1000)
    assert_terminal_safe(picture, "text")
    assert all(shown(n) in picture for n in names)
    assert_terminal_safe(fit(picture), "fit")
    assert json.loads(json_text(v, default=str))["players"][0]["name"] == names[0]
    svg = render_svg(v)
    assert all(xml_char(c) for c in svg)
    ET.fromstring(svg)
    data = _report_data_text(page(rep, queries.Viewpoint.spectator()))
    assert data["moves"][0]
    assert all(xml_char(c) for s in seat_steps(data) for c in s["svg"])


def test_the_text_layout_of_normal_names_is_unchanged():
    """Escaping happens before the layout: a table of escaped names stays aligned."""
    from ruleslawyer.checker.textout import columns

    table = columns([("G\x1b", [("N\x1b[2J", " 50%"), ("Plain", " 25%")])], 40)
    lines = table.splitlines()
    assert lines[0] == "G\\x1b" and len({len(l) for l in lines[1:]}) == 1 and "N\\x1b[2J" in lines[1]


def test_a_name_written_into_a_log_reads_back():
    """play and the lab write names into logs (checker.writer): a raw C1 control or lone surrogate
    there was a log YAML cannot read ("special characters are not allowed")."""
    from ruleslawyer.checker.writer import scalar

    for name in [*HOSTILE, "B\x9bn", "C\ud800", "\x85"]:
        assert yaml.safe_load(f"name: {scalar(name)}") == {"name": name}, name


def test_report_advice_escapes_every_hostile_name(tmp_path, monkeypatch, capsys):
    """``report --advice`` prints each player's accuracy and each graded move by name, and puts the
    review of each move into the page: every control, a right-to-left override, markup and a lone
    surrogate in a player's name, escaped in the text, exact in the JSON, never raw in the page."""
    data = ROOT / "tests" / "lab" / "data"
    (tmp_path / "tiny-ask.yaml").write_text((data / "tiny-ask.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    base = (data / "tiny-game.yaml").read_text(encoding="utf-8")
    names = _controls() + ["\u202eevil", "<!--<script>", "</script>&amp;", "C\ud800at", "x" * 200]
    monkeypatch.setenv("COLUMNS", "100")
    for i in range(0, len(names), 3):
        batch = (names[i:i + 3] + ["Ann2", "Bob2", "Cat2"])[:3]
        text = base
        for old, new in zip(("Ann", "Bob", "Cat"), batch):
            text = text.replace(old, json.dumps(new))
        log, page = tmp_path / "game.yaml", tmp_path / "r.html"
        log.write_text(text, encoding="utf-8", errors="surrogatepass")
        for fmt in ("text", "json"):
            status = main(["report", str(log), "-o", str(page), "--advice", "--advice-budget", "20", "--format", fmt])
            out = capsys.readouterr().out
            assert status == 0, (batch, out)
            assert_terminal_safe(out, f"report --advice --format {fmt}")
            if fmt == "json":
                assert [p["player"] for p in json.loads(out)["advice"]["players"]] == batch
            else:
                assert any(line.startswith(shown(batch[0])) for line in out.splitlines()), batch
        html = page.read_text(encoding="utf-8", errors="surrogatepass")
        assert not [c for c in html if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 or c == "\u202e"]
        assert "<!--<script>" not in html and "</script>&amp;" not in html
