"""The review of a game (lab/review.py, ``ruleslawyer report --advice``).

The expectations come from a plain enumeration written here, on a deck small
enough to list by hand (``data/tiny-ask.yaml``: seven cards of four colours,
one under the board, two in each of three hands; a question asks a player how
many of their cards are of some colours, and everyone hears the answer).  From
a seat, every deal that fits the seat's own hand and the answers heard so far
is equally likely; a question's answer is a function of the deal, so the
information it gives about the deal is the entropy of its answer, and about the
solution (the card under the board) that entropy less its mean given the
solution.  The grades and the accuracy are the definitions of the module's
docstring, restated here as numbers.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import subprocess
import sys
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import yaml

from ruleslawyer.checker.cli import main
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab import review as review_module
from ruleslawyer.lab.advice import value_moves
from ruleslawyer.lab.review import review_game

DATA = Path(__file__).parent / "data"
GAME = DATA / "tiny-game.yaml"
COLOURS = ["Red", "Blue", "Green", "Gold"]
CARDS = ["Red 1", "Red 2", "Blue 1", "Blue 2", "Green 1", "Green 2", "Gold 1"]
PLAYERS = ["Ann", "Bob", "Cat"]
#: The grades as the module's docstring defines them: (grade, share under, bits lost at least).
GRADES = [("blunder", 0.1, 0.5), ("mistake", 0.5, 0.25), ("inaccuracy", 0.8, 0.1)]
BIG = 5000  # solver counts a move: enough for the information about the solution of every question


def _colour(card: str) -> str:
    return card.split()[0]


def _entropy(counts) -> float:
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def _worlds(hands: dict, seat: str, heard: list) -> list:
    """Every (missing card, hands) the seat cannot rule out: its own hand as dealt, the five other
    cards dealt every way (one under the board, two to each other player), each answer heard and
    each wrong claim holding."""
    own = set(hands[seat])
    others = [p for p in PLAYERS if p != seat]
    rest = [c for c in CARDS if c not in own]
    out = []
    for missing in rest:
        left = [c for c in rest if c != missing]
        for first in itertools.combinations(left, 2):
            world = {seat: own, others[0]: set(first), others[1]: set(left) - set(first), "missing": missing}
            if all(_fits(world, h) for h in heard):
                out.append(world)
    return out


def _fits(world: dict, heard: tuple) -> bool:
    if heard[0] == "ask":
        _kind, target, asked, answer = heard
        return sum(_colour(c) in asked for c in world[target]) == answer
    return world["missing"] != heard[1]  # a wrong claim: not that card


def _information(worlds: list, target: str, asked: list) -> tuple[float, float]:
    """(bits about the deal, bits about the solution) of asking ``target`` about ``asked``."""
    answers = Counter(sum(_colour(c) in asked for c in w[target]) for w in worlds)
    by_solution: dict = defaultdict(Counter)
    for w in worlds:
        by_solution[w["missing"]][sum(_colour(c) in asked for c in w[target])] += 1
    n = len(worlds)
    h = _entropy(answers.values())
    given = sum(sum(d.values()) / n * _entropy(d.values()) for d in by_solution.values())
    return h, h - given


def _questions(seat: str):
    for target in PLAYERS:
        if target == seat:
            continue
        for k in range(1, len(COLOURS) + 1):
            for asked in itertools.combinations(COLOURS, k):
                yield target, list(asked)


def _best(worlds: list, seat: str, unit: int) -> tuple[float, list]:
    values = {(t, tuple(a)): _information(worlds, t, a)[unit] for t, a in _questions(seat)}
    top = max(values.values())
    return top, [q for q, v in values.items() if v >= top - 1e-9]


def _grade(played: float, best: float) -> str:
    lost, share = best - played, played / best
    if lost <= 1e-9:
        return "best"
    return next((g for g, below, at_least in GRADES if share < below and lost >= at_least), "good")


def _read(text: str) -> tuple[dict, list]:
    doc = yaml.safe_load(text)
    moves = []
    for m in doc["moves"]:
        if "ask" in m:
            moves.append(("ask", m["ask"], m["target"], list(m["asked"]), m["answer"]))
        else:
            moves.append(("guess", m["guess"], m["card"], m.get("correct")))
    return doc["private"]["hand"], moves


def _expected(text: str, unit: int) -> list:
    """Per move: (player, best bits, the best questions, played bits) for a question; (player,
    chance right) for a claim; from the enumeration."""
    hands, moves = _read(text)
    heard: list = []
    out = []
    for m in moves:
        if m[0] == "ask":
            _k, who, target, asked, answer = m
            worlds = _worlds(hands, who, heard)
            best, tops = _best(worlds, who, unit)
            out.append((who, best, tops, _information(worlds, target, asked)[unit]))
            heard.append(("ask", target, asked, answer))
        else:
            _k, who, card, correct = m
            worlds = _worlds(hands, who, heard)
            out.append((who, sum(w["missing"] == card for w in worlds) / len(worlds)))
            if not correct:
                heard.append(("claim", card))
    return out


def _review(text: str, budget: int | None = BIG):
    log, rules = parse_log_text(text, str(DATA / "game.yaml"))
    rep = replay(log, rules)
    assert rep.reporter.errors == []
    return review_game(rep, budget)


def _best_text(who: str, target: str, asked) -> str:
    return "{ask: %s, target: %s, asked: [%s]}" % (who, target, ", ".join(asked))


@pytest.mark.parametrize("budget, unit, word", [(BIG, 1, "solution"), (None, 0, "deal")])
def test_each_move_matches_a_plain_enumeration(budget, unit, word, monkeypatch):
    if word == "deal":
        # The count-marginal path counts the solution for every question; the path-by-path
        # reference, within the default budget, leaves it uncounted for some: the deal's unit then.
        monkeypatch.setattr(review_module, "value_moves", functools.partial(value_moves, marginals=False))
    text = GAME.read_text(encoding="utf-8")
    review = _review(text, budget)
    want = _expected(text, unit)
    units = set()
    sums: dict = defaultdict(lambda: [0.0, 0.0, 0])
    for got, exp in zip(review.moves, want, strict=True):
        assert got.player == exp[0]
        if len(exp) == 2:  # a claim: not rated, its chance right from the seat
            assert got.status == "claim" and got.grade is None
            assert got.right == pytest.approx(exp[1])
            continue
        _who, best, tops, played = exp
        assert got.status == "rated", got.to_json()
        units.add(got.unit)
        if got.unit != word:
            continue  # the default budget leaves the solution uncounted for some moves: the deal's unit then
        assert got.best_bits == pytest.approx(best, abs=1e-9)
        assert got.played_bits == pytest.approx(played, abs=1e-9)
        assert got.best in {_best_text(got.player, t, a) for t, a in tops}
        assert got.grade == _grade(played, best)
        s = sums[got.player]
        s[0] += played
        s[1] += best
        s[2] += 1
    assert word in units
    for acc in review.players:
        if acc.player in sums and units == {word}:
            played, best, n = sums[acc.player]
            assert acc.rated == n and acc.accuracy == pytest.approx(played / best)


def test_a_player_who_always_asks_the_best_question_is_100_percent_accurate():
    """Ann asks, each turn, a question the enumeration ranks first; Bob and Cat ask plain ones."""
    hands, _moves = _read(GAME.read_text(encoding="utf-8"))
    true = {"Ann": set(hands["Ann"]), "Bob": set(hands["Bob"]), "Cat": set(hands["Cat"])}
    heard: list = []
    lines = []
    plain = {"Bob": ("Cat", ["Red"]), "Cat": ("Ann", ["Blue", "Gold"])}
    for turn in range(6):
        who = PLAYERS[turn % 3]
        if who == "Ann":
            _bits, tops = _best(_worlds(hands, "Ann", heard), "Ann", 1)
            target, asked = tops[0][0], list(tops[0][1])
        else:
            target, asked = plain[who]
        answer = sum(_colour(c) in asked for c in true[target])
        heard.append(("ask", target, asked, answer))
        lines.append(f"  - {{ask: {who}, target: {target}, asked: [{', '.join(asked)}], answer: {answer}}}")
    head = GAME.read_text(encoding="utf-8").split("moves:")[0]
    review = _review(head + "moves:\n" + "\n".join(lines) + "\n")
    ann = next(p for p in review.players if p.player == "Ann")
    assert ann.rated >= 1 and ann.accuracy == pytest.approx(1.0)
    assert {m.grade for m in review.moves if m.player == "Ann"} == {"best"}
    assert ann.grades["best"] == ann.rated


def test_a_small_budget_samples_the_choices_and_still_values_the_move_played():
    text = GAME.read_text(encoding="utf-8")
    assert _review(text, 2).moves[0].status == "not valued"  # no choice but the move played valued: no rating
    review = _review(text, 15)
    want = _expected(text, 0)
    first = review.moves[0]
    assert first.status == "rated"
    assert first.sampled and 0 < first.valued < first.choices == 30  # two targets, 15 sets of colours
    if first.unit == "deal":
        assert first.played_bits == pytest.approx(want[0][3], abs=1e-9)
    assert first.best_bits >= first.played_bits  # the best of a sample, or the move played
    assert f"of {first.choices} choices" in first.says


def test_moves_after_the_first_error_are_not_reviewed():
    text = GAME.read_text(encoding="utf-8").replace("asked: [Gold], answer: 0", "asked: [Gold], answer: 2")
    log, rules = parse_log_text(text, str(DATA / "game.yaml"))
    rep = replay(log, rules)
    # Ann holds no Gold card: 2 is impossible (said at move 3's line)
    assert {d.position.line for d in rep.reporter.errors} == {rep.steps[2].position.line}
    review = review_game(rep, 50)
    assert [m.status for m in review.moves[:2]] == ["rated", "rated"]
    assert {m.status for m in review.moves[2:]} == {"not reviewed"}
    assert review.reviewed == 2 and "from 3 on" in review.stopped


# -- the command ------------------------------------------------------------------------------------
def _run(capsys, *argv):
    status = main(["report", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_report_advice_text_and_json(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)  # a short output name: a path is one word, never wrapped, and xdist's are long
    page = tmp_path / "game.html"
    status, out, _err = _run(capsys, str(GAME), "-o", "game.html", "--advice", "--advice-budget", str(BIG))
    assert status == 0
    assert all(len(line) <= 80 for line in out.splitlines())
    want = _expected(GAME.read_text(encoding="utf-8"), 1)
    bob = [w for w in want if w[0] == "Bob" and len(w) == 4]
    played, best = sum(w[3] for w in bob), sum(w[1] for w in bob)
    assert any(line.startswith("Bob") and f"{100 * played / best:.1f} %" in line for line in out.splitlines())
    assert "move 2: {ask: Bob, target: Cat" in out
    html = page.read_text(encoding="utf-8")
    assert 'id="accuracy"' in html and 'class="mark"' in html
    status, out, _err = _run(capsys, str(GAME), "-o", str(page), "--advice", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["output"] == str(page) and data["moves"] == 7
    advice = data["advice"]
    assert advice["budget"] == 400 and advice["reviewed"] == 7
    assert [p["player"] for p in advice["players"]] == PLAYERS
    for m in advice["moves"]:
        assert {"move", "player", "played", "status", "best", "best_bits", "played_bits", "unit", "share",
                "grade", "right", "says"} <= set(m)
    status, out, _err = _run(capsys, str(GAME), "-o", str(page), "--format", "json")
    assert status == 0 and json.loads(out)["advice"] is None


@pytest.mark.parametrize("argv, words", [
    (["--advice-budget", "10"], "give --advice too"),
    (["--advice", "--advice-budget", "0"], "--advice-budget 0"),
    (["--advice", "--advice-budget", "x\u202e"], "--advice-budget x\\u202e"),
    (["--advice", "--advice-budget", "99999999999"], "from 1 to 10,000,000"),
])
def test_report_advice_refuses_bad_options(capsys, tmp_path, argv, words):
    page = tmp_path / "game.html"
    status, out, err = _run(capsys, str(GAME), "-o", str(page), *argv)
    assert status == 2
    assert words in out + err and "Traceback" not in out + err and "\u202e" not in out + err
    assert not page.exists()


def test_report_advice_escapes_names(capsys, tmp_path):
    name = "<b>A\u202enn</b>"
    text = GAME.read_text(encoding="utf-8").replace("Ann", name.join('""'))
    (tmp_path / "tiny-ask.yaml").write_text((DATA / "tiny-ask.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "game.yaml"
    log.write_text(text, encoding="utf-8")
    page = tmp_path / "game.html"
    for fmt in ("text", "json"):
        status, out, err = _run(capsys, str(log), "-o", str(page), "--advice", "--advice-budget", "50",
                                "--format", fmt)
        assert status == 0, out + err
        assert "\u202e" not in out + err
        assert "<b>A" in out if fmt == "text" else json.loads(out)["advice"]["players"][0]["player"] == name
    html = page.read_text(encoding="utf-8")
    assert "<b>A" not in html and "&lt;b&gt;A" in html


def test_ctrl_c_during_the_review_writes_nothing(tmp_path):
    """The review is the long part: a Ctrl-C there ends the command as one (130, one line) and
    leaves no page, nor any temporary file, behind."""
    page = tmp_path / "game.html"
    body = f"""
        import os, signal, sys
        from ruleslawyer.checker import cli
        from ruleslawyer.lab import review

        real = review._review_move
        def second(lab, rep, step, budget, seed):
            if step.number == 2:
                os.kill(os.getpid(), signal.SIGINT)
            return real(lab, rep, step, budget, seed)

        review._review_move = second
        sys.exit(cli.main(["report", {str(GAME)!r}, "-o", {str(page)!r}, "--advice"]))
    """
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(body)], capture_output=True, text=True,
                         timeout=300, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 130, out.stdout + out.stderr
    assert out.stderr.strip().splitlines() == ["ruleslawyer: interrupted"]
    assert list(tmp_path.iterdir()) == []


def test_a_log_of_a_bundled_game_is_reviewed():
    """Lady Alice, the first turn of the clean 4-player game: the suspicion is rated (the only move
    that observes something and claims nothing), the passes are silent."""
    path = Path(__file__).resolve().parents[2] / "examples" / "lady-alice" / "clean-4p.yaml"
    text = path.read_text(encoding="utf-8").split("  # Turn 2")[0]
    log, rules = parse_log_text(text, str(path))
    rep = replay(log, rules)
    review = review_game(rep, 20)
    assert [(m.kind, m.status) for m in review.moves] == [("suspect", "rated")] + [("pass", "silent")] * 4
    first = review.moves[0]
    # 20 counts value every one of the 8**4 suspicions (one clue of each of 4 categories of 8):
    # choices alike but for clues no fact names are valued once per class (lab/alike.py)
    assert not first.sampled and first.choices == first.valued == 8 ** 4
    assert 0 <= first.played_bits <= first.best_bits
    small = review_game(rep, 3).moves[0]  # 3 counts: a sample of the choices
    assert small.sampled and small.choices > small.valued


def test_questions_answered_by_obliged_moves_are_rated_and_the_answers_are_not():
    """Clue, the first moves of the clean 3-player game: a suggestion observes nothing itself, the
    answers the rules oblige the players to its left to give do; the suggestion is rated (what its
    answers tell the suggester), each answer is an obliged move, not rated, and a pass is silent."""
    path = Path(__file__).resolve().parents[2] / "examples" / "clue" / "clean-3p.yaml"
    head, moves = path.read_text(encoding="utf-8").split("moves:\n")
    log, rules = parse_log_text(head + "moves:\n" + "".join(moves.splitlines(keepends=True)[:4]), str(path))
    rep = replay(log, rules)
    review = review_game(rep, 30)
    assert [(m.kind, m.status) for m in review.moves] == [
        ("pass", "silent"), ("suggest", "rated"), ("cannot", "obliged"), ("cannot", "obliged")]
    ben = review.moves[1]
    assert ben.sampled and 0 < ben.valued < ben.choices == 6 * 6 * 9 + 1  # suspects x weapons x rooms, or a pass
    assert ben.note == "" and ben.says.startswith("{suggest: Ben, suspect: Mrs. White")
    assert 0 < ben.played_bits <= ben.best_bits
