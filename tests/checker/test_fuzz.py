"""Whatever the log says, the checker answers with diagnostics, never a traceback."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.checker.check import check_text

PLAYERS = ["Helen", "Gordon", "John", "Audrey"]
NAMES = st.sampled_from(["Mary Kingsley", "waterloo", "7:00", "compass", "Baker", "P2", "T3", "O4",
                         "Kingsly", "", "Helen", "nobody"])
SCALARS = st.one_of(NAMES, st.integers(-2, 6), st.none(), st.booleans())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.one_of(NAMES, st.sampled_from(PLAYERS)),
                                                                       inner, max_size=3)), max_leaves=8)
MOVE_KEYS = st.sampled_from(["suspect", "place", "pass", "accuse", "clues", "smiles", "clue", "value",
                             "covers", "reveals", "Suspect", "pas"])
MOVES = st.dictionaries(MOVE_KEYS, st.one_of(st.sampled_from(PLAYERS), VALUES), min_size=1, max_size=5)


@st.composite
def logs(draw):
    doc = {"rules": "lady-alice", "players": list(PLAYERS), "moves": draw(st.lists(MOVES, max_size=12))}
    if draw(st.booleans()):
        doc["private"] = {"evidence": draw(st.dictionaries(st.sampled_from(PLAYERS), NAMES, max_size=4)),
                          "counters": draw(st.dictionaries(st.sampled_from(PLAYERS),
                                                           st.lists(st.one_of(st.none(), st.integers(0, 4)), max_size=4),
                                                           max_size=2))}
    if draw(st.booleans()):
        doc["end"] = draw(st.dictionaries(st.sampled_from(["evidence", "counters", "scores", "winner"]), VALUES,
                                          max_size=4))
    return yaml.safe_dump(doc, allow_unicode=True)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_any_log_gets_a_report(text):
    report = check_text(text, "fuzz.yaml")
    assert report.status in (0, 1, 2), report.format_text()
    report.to_json()
    report.format_text()


@st.composite
def legal_shaped_logs(draw):
    """Moves of the right shape, in any order: the replay is exercised, not the parser."""
    clues = ["Mary Kingsley", "Waterloo Station", "7:00", "compass", "Baker", "P2", "T3", "O4", "Speke", "P5"]
    moves = []
    for _ in range(draw(st.integers(0, 25))):
        who = draw(st.sampled_from(PLAYERS))
        kind = draw(st.sampled_from(["suspect", "place", "pass", "accuse"]))
        if kind in ("suspect", "accuse"):
            combo = [draw(st.sampled_from(c)) for c in (clues[0::4][:2] + ["Speke"], ["Waterloo Station", "P2", "P5"],
                                                          ["7:00", "T3"], ["compass", "O4"])]
            move = {kind: who, "clues": combo, "smiles": draw(st.integers(0, 4))}
            if draw(st.booleans()):
                move["covers"] = draw(st.lists(st.sampled_from(combo), max_size=4, unique=True))
        elif kind == "place":
            move = {kind: who, "clue": draw(st.sampled_from(clues))}
            if draw(st.booleans()):
                move["value"] = draw(st.integers(0, 2))
            if draw(st.booleans()):
                move["reveals"] = draw(st.one_of(st.lists(st.integers(0, 2), max_size=2),
                                                 st.dictionaries(st.sampled_from(PLAYERS), st.integers(0, 2), max_size=2)))
        else:
            move = {kind: who}
        moves.append(move)
    doc = {"rules": "lady-alice", "players": list(PLAYERS), "moves": moves}
    if draw(st.booleans()):
        doc["private"] = {"evidence": draw(st.dictionaries(st.sampled_from(PLAYERS), st.sampled_from(clues), max_size=4))}
    if draw(st.booleans()):
        doc["end"] = {"scores": {p: draw(st.integers(0, 9)) for p in PLAYERS}, "winner": draw(st.sampled_from(PLAYERS)),
                      "counters": {draw(st.sampled_from(clues)): {draw(st.sampled_from(PLAYERS)): draw(st.integers(0, 2))}},
                      "evidence": draw(st.dictionaries(st.sampled_from(PLAYERS), st.sampled_from(clues), max_size=4))}
    return yaml.safe_dump(doc, allow_unicode=True)


@pytest.mark.heavy
# 75 logs of up to 25 legal-shaped moves, each checked whole (was 150: round five of issue 25)
@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_shaped_logs(), st.booleans())
def test_any_replay_gets_a_report(text, strict):
    report = check_text(text, "fuzz.yaml", strict=strict)
    assert report.status in (0, 1), report.format_text()
    if strict:
        assert len(report.errors) <= 1
