"""Fuzzing Perfect Alibi: its rule file mutated, its logs mutated and made up.

* rules/perfect-alibi.yaml with random mutations (as ``test_fuzz`` does to
  Lady Alice's), loaded in each variant; the ones that still load replay a
  complete game log;
* a clean complete game log with random mutations of its YAML document;
* legal games (``tests/checker/alibi_games.py``) with moves dropped,
  repeated, swapped or given other values, line by line;
* logs made of random moves of the game's vocabulary.

Every outcome is a report or a diagnostic (well formed, positioned, in
time), never an exception.  ``RULESLAWYER_FUZZ_SCALE`` multiplies the
number of examples.
"""

from __future__ import annotations

import yaml
from hypothesis import given
from hypothesis import strategies as st

from ruleslawyer.checker.check import check_text
from ruleslawyer.spec.loader import load_rules

from ..checker.alibi_games import play
from ..conftest import cpu_time
from .hostile_helpers import ROOT
from .test_fuzz import (SLOW, _check_log_text, _paths, dump, fuzz, mutated, outcome, scalars,  # noqa: F401
                        scratch, write)

RULES_FILE = ROOT / "rules" / "perfect-alibi.yaml"
PERFECT_ALIBI = yaml.safe_load(RULES_FILE.read_text())
RULE_PATHS = [p for p in _paths(PERFECT_ALIBI) if p]
CLEAN_LOG = (ROOT / "examples" / "perfect-alibi" / "clean-4p.yaml").read_text()
CLEAN = yaml.safe_load(CLEAN_LOG)
LOG_PATHS = [p for p in _paths(CLEAN) if p]


# -- the rule file ---------------------------------------------------------------------

@fuzz(60)
@given(doc=mutated(PERFECT_ALIBI, RULE_PATHS), variant=st.sampled_from([None, "3p", "5p", "6p"]))
def test_mutated_rule_file(scratch, doc, variant):
    text = dump(doc)
    path = write(scratch, "perfect-alibi-mutated.yaml", text)
    outcome(lambda: load_rules(str(path), variant=variant), path, text)


@fuzz(30)
@given(doc=mutated(PERFECT_ALIBI, RULE_PATHS))
def test_a_mutated_rule_file_that_loads_replays_a_game(scratch, doc):
    from ruleslawyer.spec.diagnostics import DiagnosticError

    rules_path = write(scratch, "perfect-alibi-replayed.yaml", dump(doc))
    try:
        load_rules(str(rules_path))
    except DiagnosticError:
        return
    text = CLEAN_LOG.replace("rules: perfect-alibi", f"rules: {rules_path.name}")
    path = write(scratch, "perfect-alibi-replayed-log.yaml", text)
    start = cpu_time()
    report = check_text(text, str(path))
    assert cpu_time() - start < SLOW
    assert report.status in (0, 1, 2, 3)
    assert report.status != 3 or [d.code for d in report.errors] == ["RL900"], report.format_text()


# -- logs ----------------------------------------------------------------------------------

@fuzz(80)
@given(doc=mutated(CLEAN, LOG_PATHS))
def test_mutated_log(scratch, doc):
    _check_log_text(scratch, dump(doc))


@fuzz(40)
@given(seed=st.integers(0, 10 ** 6), players=st.sampled_from([3, 4, 5]),
       flags=st.sampled_from([{}, {"rival": True}, {"unforgiving": True}, {"private": False}]),
       edits=st.lists(st.tuples(st.sampled_from(["drop", "repeat", "swap", "number", "name"]),
                                st.integers(0, 200), st.integers(0, 6)), min_size=1, max_size=4))
def test_legal_games_with_moves_changed(scratch, seed, players, flags, edits):
    text = play(seed, players, turns=12, **flags)
    head, _, rest = text.partition("moves:\n")
    moves, _, end = rest.partition("end:\n")
    lines = moves.splitlines(keepends=True)
    for op, at, k in edits:
        i = at % len(lines)
        if op == "drop":
            del lines[i]
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op == "number":
            lines[i] = lines[i].replace("answer: ", f"answer: {k - 1 if k else ''}", 1)
        elif op == "name":
            words = ["Bar 6", "Solarium", "Yellow", "Cook", "journalist", "final", "?", "wheel"]
            lines[i] = lines[i].replace("Blue", words[k % len(words)], 1)
        if not lines:
            break
    _check_log_text(scratch, head + "moves:\n" + "".join(lines) + "end:\n" + end)


PLAYERS = ["Yellow", "Blue", "Green", "Red"]
ELEMENTS = ["Bar", "Restaurant", "Solarium", "L4", "6", "12", "T3", "T4", "Bar 6", "Cook", "nowhere"]
CARDS = ["Bar 6", "Restaurant 12", "Solarium T3", "L4 T4", "?", "Bar 7"]
values = st.one_of(scalars, st.sampled_from(PLAYERS + ELEMENTS + CARDS + ["wheel", "clock", "tile", "final"]))
moves = st.one_of(
    st.fixed_dictionaries({"ask": st.sampled_from(PLAYERS), "target": st.sampled_from(PLAYERS + ["Nobody"])},
                          optional={"via": st.sampled_from(["tile", "own-colour", "journalist", "final", "x"]),
                                    "symbol": st.sampled_from(["wheel", "clock", "Ship's wheel", "x"]),
                                    "arrows": st.booleans(), "asked": st.lists(st.sampled_from(ELEMENTS), max_size=4),
                                    "answer": st.one_of(st.integers(-1, 6), values), "shown": st.sampled_from(CARDS),
                                    "drawn": st.sampled_from(CARDS)}),
    st.fixed_dictionaries({"choose": st.sampled_from(PLAYERS), "assistant": st.sampled_from(
        ["Journalist", "Captain", "Psychiatrist", "Priest", "Cook", "Baker"])}),
    st.fixed_dictionaries({"swap": st.sampled_from(PLAYERS), "assistant": st.sampled_from(["Captain", "Cook", "x"])}),
    st.fixed_dictionaries({"draw": st.sampled_from(PLAYERS), "colour": st.sampled_from(PLAYERS + ["C5", "Pink"]),
                           "symbol": st.sampled_from(["wheel", "clock"])}, optional={"arrows": st.booleans()}),
    st.fixed_dictionaries({"guess": st.sampled_from(PLAYERS), "correct": st.one_of(st.booleans(), values)},
                          optional={"card": st.sampled_from(CARDS)}),
    st.fixed_dictionaries({"accuse": st.sampled_from(PLAYERS), "target": st.sampled_from(PLAYERS),
                           "question": st.one_of(st.integers(-1, 30), values), "mistake": st.booleans()}),
    st.dictionaries(st.sampled_from(["ask", "asked", "swap", "colour", "x"]), values, max_size=3),
)


@fuzz(80)
@given(seq=st.lists(moves, max_size=14), house=st.sampled_from([[], ["rival"], ["unforgiving"], ["rival", "nope"]]),
       private=st.sampled_from([None, {"hand": {"Yellow": ["Bar 6", "Bar 12", "L4 T4"]}},
                                {"missing": "Bar 6"}, {"rival": {"Blue": "Cook"}}, {"hand": {"Blue": "?"}}]))
def test_random_moves(scratch, seq, house, private):
    doc = {"rules": "perfect-alibi", "players": PLAYERS,
           "setup": {"colours": {p: p for p in PLAYERS}, "face_up": ["Bar 12", "Restaurant T3", "L4 T4"]},
           "moves": seq}
    if house:
        doc["house"] = house
    if private:
        doc["private"] = private
    _check_log_text(scratch, dump(doc))
