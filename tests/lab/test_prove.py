"""prove: the shipped properties hold on the base rules, the flawed overlay is refuted,
and the counterexample is a log that check replays clean to the same state; with an
opening, the search starts after it and a counterexample's log begins with it."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab.prove import load_properties, prove, prove_json, prove_text, state_key
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT

PROPS = ROOT / "examples" / "lady-alice" / "lab" / "properties.yaml"
FLAWED = ROOT / "examples" / "lady-alice" / "lab" / "short-of-cards.yaml"
ALIBI_PROPS = ROOT / "examples" / "perfect-alibi" / "lab" / "properties.yaml"


def _round_trip(log: str, key: object) -> list:
    """check replays the counterexample clean, to the state prove found; its moves."""
    report = check_text(log, "<counterexample>", allow=[str(ROOT)])
    assert report.status == 0, log + report.format_text()
    parsed, parsed_rules = parse_log_text(log, "<counterexample>", [str(ROOT)])
    result = replay(parsed, parsed_rules)
    assert state_key(result.state) == key
    return [m.play for m in parsed.moves]


def test_the_properties_hold_on_the_base_rules():
    rules = load_rules("lady-alice", variant="3p")
    proof = prove(rules, load_properties(str(PROPS), rules), depth=1)
    assert len(proof.results) >= 5
    assert all(r.holds for r in proof.results), [(r.prop.id, r.message) for r in proof.results]
    assert proof.states > 1


def test_the_flawed_overlay_is_refuted_and_the_counterexample_replays_to_the_same_state():
    rules = load_rules("lady-alice", variant="4p", house=[str(FLAWED)])
    proof = prove(rules, load_properties(str(PROPS), rules), depth=2, rules_ref="lady-alice", house=[str(FLAWED)])
    bad = [r for r in proof.results if not r.holds]
    assert [r.prop.id for r in bad] == ["cards-never-negative"]
    log = bad[0].counterexample
    report = check_text(log, "<counterexample>", allow=[str(ROOT)])
    assert report.status == 0, log + report.format_text()
    parsed, parsed_rules = parse_log_text(log, "<counterexample>", [str(ROOT)])
    result = replay(parsed, parsed_rules)
    assert state_key(result.state) == bad[0].key


def test_a_counterexample_after_an_opening_replays_to_the_same_state(tmp_path):
    """The flawed overlay again, searched from after a round with a verdict of one smile
    (4 players: P1 suspects, then every player passes in turn from P2, which ends the
    Deductions phase: P2 suspects next).  A verdict without a smile then covers four
    clues with two cards: the count goes below zero one move past the opening, and the
    log prove writes holds the opening's five moves, then that suspicion."""
    opening = [
        "{suspect: P1, clues: [Mary Kingsley, Waterloo Station, '5 p.m.', compass], smiles: 1}",
        "{pass: P2}", "{pass: P3}", "{pass: P4}", "{pass: P1}",
    ]
    text = PROPS.read_text().replace("properties:\n", "opening:\n" + "".join(f"  - {m}\n" for m in opening)
                                     + "properties:\n", 1)
    path = tmp_path / "after-a-round.yaml"
    path.write_text(text)
    rules = load_rules("lady-alice", variant="4p", house=[str(FLAWED)])
    spec = load_properties(str(path), rules)
    assert spec.opening is not None and len(spec.opening.plays) == 5
    assert spec.opening.state.phase == "suspicions" and spec.opening.state.turn == "P2"
    proof = prove(rules, spec, depth=1, rules_ref="lady-alice", house=[str(FLAWED)])
    bad = [r for r in proof.results if not r.holds]
    assert [r.prop.id for r in bad] == ["cards-never-negative"]
    assert bad[0].at == 1 and proof.opening == 5
    moves = _round_trip(bad[0].counterexample, bad[0].key)
    assert len(moves) == 6
    assert moves[:5] == spec.opening.plays
    assert (moves[5].kind, moves[5].actor, moves[5].args["smiles"]) == ("suspect", "P2", 0)
    assert "past the opening (6 in the log)" in prove_text(proof)
    assert prove_json(proof)["opening"] == 5


def test_scope_values_name_items_as_a_log_does(tmp_path):
    """An item parameter's scope values are names or aliases, any case (as in a log)."""
    rules = load_rules("perfect-alibi", variant="4p")
    path = tmp_path / "p.yaml"
    path.write_text("scope:\n  values: {colour: [Red, YELLOW], symbol: [clock, null], answer: [0, 1]}\n"
                    "properties:\n  - {id: a, invariant: 'true'}\n")
    spec = load_properties(str(path), rules)
    assert spec.values == {"colour": ["red", "yellow"], "symbol": ["clock", None], "answer": [0, 1]}
    for bad in ("{colour: [Purple]}", "{colour_: [Red]}"):
        path.write_text(f"scope:\n  values: {bad}\nproperties:\n  - {{id: a, invariant: 'true'}}\n")
        with pytest.raises(DiagnosticError) as err:
            load_properties(str(path), rules)
        assert err.value.diagnostics[0].code == "RL171"


def _alibi(tmp_path, properties: str, opening: bool = True) -> str:
    """The Perfect Alibi property file (its scope and, when asked, its opening) with other properties."""
    text = ALIBI_PROPS.read_text().split("\nproperties:\n")[0]
    if not opening:
        text = text.split("\nopening:")[0]
    path = tmp_path / ("with-opening.yaml" if opening else "without-opening.yaml")
    path.write_text(f"{text}\nproperties:\n{properties}")
    return str(path)


def test_the_perfect_alibi_opening_is_the_set_up_of_a_four_player_game():
    """The rulebook's set-up in 4 players: four tiles drawn face up, then each player
    chooses an assistant, counterclockwise from the owner of the first tile's colour
    (Red: Red, Green, Blue, Yellow, seated Yellow, Blue, Green, Red clockwise); the last
    to choose asks first."""
    rules = load_rules("perfect-alibi", variant="4p")
    spec = load_properties(str(ALIBI_PROPS), rules)
    start = spec.opening
    assert start is not None
    assert [p.kind for p in start.plays] == ["draw"] * 4 + ["choose"] * 4
    assert [p.actor for p in start.plays[4:]] == ["Red", "Green", "Blue", "Yellow"]
    assert start.state.phase == "play" and start.state.turn == "Yellow"
    assert len(start.state.vars["assistant"]) == 4 and not start.state.vars["questions"]


def test_the_perfect_alibi_properties_hold_after_the_opening():
    """At least five properties for the second game; every one holds from the end of the
    set-up, over the first question (each legal move of the state after it)."""
    rules = load_rules("perfect-alibi", variant="4p")
    props = load_properties(str(ALIBI_PROPS), rules)
    assert len(props.properties) >= 5
    proof = prove(rules, props)
    assert proof.complete and proof.opening == 8 and proof.depth >= 1
    assert all(r.holds for r in proof.results), [r.message for r in proof.results if not r.holds]


def test_the_perfect_alibi_properties_hold_over_two_turns_after_the_opening():
    """One move deeper than the default: the second player's turn and the first one's draw.
    The tile drawn at the end of a turn is drawn unless a guess ended the game first (the
    rulebook: "At the end of your turn, discard the chosen interrogation tile and draw a new
    one", and a guess may be made at any moment, digest A20): a property that forgot the
    guess fails here, not at depth 1."""
    rules = load_rules("perfect-alibi", variant="4p")
    proof = prove(rules, load_properties(str(ALIBI_PROPS), rules), depth=2, budget=100_000)
    assert proof.complete and proof.depth == 2
    assert all(r.holds for r in proof.results), [r.message for r in proof.results if not r.holds]


def test_questions_are_explored_only_after_the_opening(tmp_path):
    """'Nobody has asked a question' holds over the set-up (at least four assistants are
    chosen before the first question, so not within 3 moves of the start) and fails one
    move past the opening: Yellow, the last to choose, asks.  Its counterexample is the
    opening's eight moves and that question, and check replays it to the same state."""
    rules = load_rules("perfect-alibi", variant="4p")
    never = "  - {id: nobody-asks, invariant: 'len(vars.questions) == 0'}\n"
    before = prove(rules, load_properties(_alibi(tmp_path, never, opening=False), rules), depth=3)
    assert before.opening == 0 and before.results[0].holds
    spec = load_properties(_alibi(tmp_path, never), rules)
    proof = prove(rules, spec, depth=1, rules_ref="perfect-alibi")
    bad = proof.results[0]
    assert not bad.holds and bad.at == 1
    moves = _round_trip(bad.counterexample, bad.key)
    assert len(moves) == 9 and moves[:8] == spec.opening.plays
    assert (moves[8].kind, moves[8].actor) == ("ask", "Yellow")
    header = parse_log_text(bad.counterexample, "<counterexample>", [str(ROOT)])[0]
    assert header.header.players == ("Yellow", "Blue", "Green", "Red") and header.header.first == "Yellow"
    assert header.header.setup["colours"]["Red"] == "red"
    assert [c.value for z in header.public for cards in z.cards.values() for c in cards] == \
        ["restaurant-t3", "l4-12", "bar-t4"]


BAD_OPENINGS = {
    "not a list": ("opening: 3\n", 1),
    "a move of no kind": ("opening:\n  - {fly: P1}\n", 2),
    "a malformed move": ("opening:\n  - {suspect: P1, clues: compass, smiles: 1}\n", 2),
    "an illegal move": ("opening:\n  - {pass: P2}\n", 2),
    "no deal fits": ("opening:\n  - {suspect: P1, clues: [Mary Kingsley, Waterloo Station, '5 p.m.', compass], "
                     "smiles: 1}\n  - {pass: P2}\n  - {pass: P3}\n  - {pass: P1}\n"
                     "  - {suspect: P2, clues: [Mary Kingsley, Waterloo Station, '5 p.m.', O2], smiles: 3}\n", 6),
    "too many moves": ("opening:\n" + "  - {pass: P1}\n" * 1001, 1002),
    "an unknown key": ("opening: {moves: [], seats: 3}\n", 1),
    "the wrong players": ("opening: {players: [Ann, Ben], moves: []}\n", 1),
}


@pytest.mark.parametrize("case", sorted(BAD_OPENINGS))
def test_a_bad_opening_is_refused_where_it_stands(tmp_path, case):
    """RL171 at the line of the problem in the property file (3 players)."""
    text, line = BAD_OPENINGS[case]
    path = tmp_path / "bad.yaml"
    path.write_text(text + "properties:\n  - {id: a, invariant: 'true'}\n")
    rules = load_rules("lady-alice", variant="3p")
    with pytest.raises(DiagnosticError) as err:
        load_properties(str(path), rules)
    (d, *_rest) = err.value.diagnostics
    assert d.code == "RL171" and d.position is not None
    assert (d.position.path, d.position.line) == (str(path), line), d.format_text()
