"""The end of the game in ``show`` (text, SVG, JSON) and ``report`` (issue 24, point 5).

Expectations are counted by hand from the rulebooks and the example logs:

Lady Alice, ``examples/lady-alice/clean-4p.yaml`` (evidence Mary Kingsley,
Waterloo Station, 7:00, compass; Gordon accuses rightly).  The counters on
the desk at the end: Mary Kingsley John 1, Helen 0, Gordon 2; Waterloo
Station Audrey 2, Gordon 1; 7:00 Helen 2, Gordon 2; compass Audrey 0, John 2.
Step II removes none (all on evidence), III none (nobody out), IV turns face
up the four never revealed by a later counter (Gordon's three and John's on
the compass), V removes the two zeros (Helen's, Audrey's), VI sums the rest:
Helen 2, Gordon 2+1+2 = 5, John 1+2 = 3, Audrey 2; VII (2 points for a counter
on every piece of evidence): nobody has one on all four; VIII (the right
suspicion): no suspicion got 4 smiles; IX (+3, the right accusation): Gordon.
Scores Helen 2, Gordon 8, John 3, Audrey 2: Gordon wins.

Perfect Alibi, ``examples/perfect-alibi/clean-3p.yaml``: Blue's last guess,
L4 6, is right ("If the card matches the player's guess, they reveal their
note sheet and win the game"): Blue wins, the missing alibi is L4 6.

Clue, ``examples/clue/clean-3p.yaml``: Ben accuses Plum, Rope, Library rightly.
"""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.checker.table import view

from ..conftest import ROOT, cli
from .reportdata import seat_steps

LADY = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
ALIBI = ROOT / "examples" / "perfect-alibi" / "clean-3p.yaml"
CLUE = ROOT / "examples" / "clue" / "clean-3p.yaml"
SCORES = {"Helen": 2, "Gordon": 8, "John": 3, "Audrey": 2}
#: (space, owner, value) of the counters still face down before step IV
FACE_DOWN = {("Mary Kingsley", "Gordon", 2), ("Waterloo Station", "Gordon", 1), ("7:00", "Gordon", 2),
             ("compass", "John", 2)}


def run(*args: str) -> subprocess.CompletedProcess:
    return cli(*args, env={"COLUMNS": "80"}, cwd=ROOT)


def end_of(path: Path) -> dict:
    log, rules = parse_log(str(path))
    return view(replay(log, rules))["end"]


def test_lady_alice_final_scores_and_winner_as_counted_from_the_rulebook():
    end = end_of(LADY)
    assert {r["player"]: r["total"] for r in end["scores"]} == SCORES
    assert end["winners"] == ["Gordon"]
    gordon = next(r for r in end["scores"] if r["player"] == "Gordon")
    assert gordon["points"] == {"VI": 5, "IX": 3}


def test_lady_alice_counters_turned_face_up_at_step_iv():
    end = end_of(LADY)
    assert {(t["space"], t["owner"], t["value"]) for t in end["revealed"]} == FACE_DOWN
    assert sorted(end["solution"]) == sorted(["Mary Kingsley", "Waterloo Station", "7:00", "compass"])
    removed = next(s for s in end["steps"] if s["id"] == "V")
    assert "2 counters removed" in removed["text"]


def test_lady_alice_final_picture_shows_every_counter_and_hand_face_up():
    log, rules = parse_log(str(LADY))
    v = view(replay(log, rules))
    tokens = [t for g in v["spaces"] for c in g["items"] for t in c["tokens"]]
    on_evidence = [t for g in v["spaces"] for c in g["items"] if c["name"] in v["end"]["solution"] for t in c["tokens"]]
    assert on_evidence and all(t["value"] is not None and t["face_up"] for t in on_evidence)
    assert len(tokens) >= len(on_evidence)
    hands = {p["name"]: p["zones"][0]["known"] for p in v["players"]}  # shown at the end (step I)
    assert hands == {"Helen": ["7:00"], "Gordon": ["Mary Kingsley"], "John": ["compass"], "Audrey": ["Waterloo Station"]}


def test_a_move_before_the_end_has_no_end():
    log, rules = parse_log(str(LADY))
    v = view(replay(log, rules), 25)
    assert "end" not in v and "next" in v


def test_perfect_alibi_winner_and_the_missing_alibi():
    end = end_of(ALIBI)
    assert end["winners"] == ["Blue"] and end["solution_ids"] == ["l4-6"] and end["scores"] == []


def test_clue_winner_and_the_envelope():
    end = end_of(CLUE)
    assert end["winners"] == ["Ben"] and sorted(end["solution_ids"]) == ["library", "plum", "rope"]


def test_show_text_and_json_hold_the_end():
    text = run("show", str(LADY))
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert "the end of the game:" in lines and "  winner: Gordon" in lines
    assert "    Gordon: 8 = 5 (VI) + 3 (IX)" in lines
    assert all(len(line) <= 80 for line in lines)
    data = json.loads(run("show", str(ALIBI), "--format", "json").stdout)
    assert data["end"]["winners"] == ["Blue"]


def test_show_svg_draws_the_end_inside_the_picture():
    out = run("show", str(LADY), "--format", "svg")
    root = ET.fromstring(out.stdout)
    ns = "{http://www.w3.org/2000/svg}"
    end = root.find(f"{ns}g[@class='end']")
    assert end is not None
    texts = [t.text or "" for t in end.iter(f"{ns}text")]
    assert any("winner: Gordon" in t for t in texts) and any("Gordon: 8" in t for t in texts)
    height = float(root.get("height"))
    assert max(float(t.get("y")) for t in root.iter(f"{ns}text")) < height


def test_report_has_the_end_the_logs_title_and_one_status_line(tmp_path):
    out = tmp_path / "g.html"
    done = run("report", str(LADY), "-o", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert "<title>A complete game for four (Lady Alice)</title>" in page
    section = page.split('<section id="end">')[1].split("</section>")[0]
    assert "winner: Gordon" in section
    rows = dict(re.findall(r'<tr><th>([^<]+)</th>(?:<td class="n">\d+</td>)*<td class="n"><b>(\d+)</b></td></tr>', section))
    assert {p: int(n) for p, n in rows.items()} == SCORES
    # the picture's own status line is hidden in the page, which shows it once (#status)
    assert "#picture svg .status { display: none; }" in page
    data = page.split('id="game-data">')[1].split("</script>")[0]
    assert all('class="status"' in s["svg"] for s in seat_steps(json.loads(data)))


def test_names_are_escaped_in_the_end(tmp_path):
    log = tmp_path / "esc.yaml"
    text = LADY.read_text().replace("Gordon", "G<b>&o").replace('title: "A complete game for four"',
                                                                 'title: "</title><script>x</script>"')
    log.write_text(text)
    out = tmp_path / "esc.html"
    assert run("report", str(log), "-o", str(out)).returncode == 0
    page = out.read_text()
    assert "<script>x" not in page and "&lt;/title&gt;&lt;script&gt;x" in page
    assert "winner: G&lt;b&gt;&amp;o" in page.split('<section id="end">')[1]
    svg = run("show", str(log), "--format", "svg").stdout
    ET.fromstring(svg)  # well-formed whatever the name holds
    assert "G&lt;b&gt;&amp;o: 8" in svg
    esc = tmp_path / "ctl.yaml"
    esc.write_text(LADY.read_text().replace("Gordon", '"G\\e[31mo"'))
    shown = run("show", str(esc)).stdout
    assert "\x1b" not in shown and "winner: G\\x1b[31mo" in shown


def test_an_end_whose_counter_values_are_not_recorded(tmp_path):
    """Without the values (no ``value:`` on the moves, no ``end:``), step IV cannot be carried
    out: the scores and the winner are said not known, the solution is still shown."""
    text = LADY.read_text().split("\nend:")[0] + "\n"
    log = tmp_path / "novalues.yaml"
    log.write_text(re.sub(r", value: \d", "", text))
    end = end_of(log)
    assert end["scores"] == [] and end["winners"] is None and end["scored"] is False
    assert sorted(end["solution_ids"]) == sorted(end_of(LADY)["solution_ids"])
    shown = run("show", str(log))
    assert shown.returncode == 0 and "  winner: not known (the scores are not computed)" in shown.stdout.splitlines()


def test_a_counter_removed_face_down_keeps_its_value_hidden(tmp_path):
    """Step II: "All counters present on clues that are not part of the solution are removed
    from the desk and put back in the box" -- removed, never turned face up.  Audrey's counter
    of 1 on Baker (a red herring) is recorded privately: the end says it was removed, not its
    value; the totals are those of the plain game (that counter never counts)."""
    text = LADY.read_text()
    old = "  - {place: John, clue: compass, value: 2, reveals: {Audrey: 0}}\n  - {pass: Audrey}\n"
    assert old in text
    log = tmp_path / "herring.yaml"
    log.write_text(text.replace(old, old.split("\n")[0] + "\n  - {place: Audrey, clue: Baker, value: 1}\n"))
    end = end_of(log)
    assert {r["player"]: r["total"] for r in end["scores"]} == SCORES
    step = next(s for s in end["steps"] if s["id"] == "II")
    assert step["text"] == "1 counter removed (Samuel White Baker: Audrey ?)"
    assert "Baker" not in {t["space"] for t in end["revealed"]}
    log_, rules = parse_log(str(log))
    v = view(replay(log_, rules))
    baker = next(c for g in v["spaces"] for c in g["items"] if c["name"] == "Samuel White Baker")
    assert [(t["owner"], t["value"]) for t in baker["tokens"]] == [("Audrey", None)]
