"""spec/, solver/, checker/ and lab/ know no game by name: game knowledge lives in rules/."""

from __future__ import annotations

import re

from ..conftest import ROOT

GAME_NAMES = re.compile(r"lady.?alice|perfect.?alibi|kingsley|waterloo|business.?card", re.IGNORECASE)


def test_engine_code_names_no_game():
    hits = []
    for folder in ("spec", "solver", "checker", "lab"):
        for path in (ROOT / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if GAME_NAMES.search(line):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert hits == []


#: Nor do they use a game's words (its cards, moves and roles): the engine speaks of cards, zones,
#: facts, moves and tokens.  Not even inside a longer name in spec/, solver/ and checker/
#: (Python's collections.Counter is spec/tally.py's Tally there); lab/ may say "counterexample",
#: prove's word for a refuting game.
GAME_WORDS = re.compile(r"\b(clues?|smiles?|accus\w*|suspicions?|suspect\w*|evidence|verdicts?|guess\w*|"
                        r"alibis?|assistants?|counters?|rivals?|priest|cook|captain|journalist|psychiatrist|"
                        r"treachery)\b", re.IGNORECASE)
INSIDE = re.compile(r"counter|clue|smile|accus|suspect|alibi|assistant", re.IGNORECASE)


def test_engine_code_uses_no_game_words():
    hits = []
    for folder in ("spec", "solver", "checker", "lab"):
        for path in (ROOT / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if GAME_WORDS.search(line) or (folder != "lab" and INSIDE.search(line)):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert hits == []
