"""The engine's generic extensions, on a tiny game said in generic words.

``data/tiny-extensions.yaml``: choice and flag parameters (with defaults),
a list of items from one of two components (all from the same one), an
item recorded as unknown (``?``), the log's public ``setup:`` (one item per
player, required and distinct; a zone everyone sees), ``move_number``, an
observation reported under a log check of its own (``check:``), one that
takes back an earlier move's facts (``withdraws:``), and winners named
without points.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.logschema import log_schema, sections_schema
from ruleslawyer.spec.machine import UNKNOWN, Machine, Play

DATA = Path(__file__).parent / "data"
RULES = DATA / "tiny-extensions.yaml"

# The deal: Ann holds Circle Small, Bob Square Large; Circle Large is hidden, Square Small face up.
HEAD = f"""rules: {RULES}
players: [Ann, Bob]
setup:
  marks: {{Ann: red, Bob: Blue}}
  row: Square Small
"""


def check(moves: str, head: str = HEAD, extra: str = ""):
    return check_text(head + extra + "moves:\n" + moves, str(DATA / "log.yaml"))


def codes(report) -> list[str]:
    return [d.code for d in report.diagnostics]


# -- loading ---------------------------------------------------------------------

def test_the_parameters_are_read_with_their_types_and_defaults():
    rules = load_rules(str(RULES))
    ask = rules.moves["ask"]
    how, flagged, named, seen = (ask.param(n) for n in ("how", "flagged", "named", "seen"))
    assert (how.type, how.values, how.default) == ("choice", ("plain", "loud", "3"), "plain")
    assert (flagged.type, flagged.default) == ("flag", False)
    assert (named.components, named.one_component, named.of) == (("shapes", "sizes"), True, "shapes")
    assert seen.unknown and not named.unknown
    setup = [r for r in rules.records if r.section == "setup"]
    assert [(r.key, r.kind, r.component, r.distinct) for r in setup] == [
        ("marks", "player_item", "marks", True), ("row", "zone", None, False)]
    assert {r.key: r.per_player for r in rules.records if r.kind == "zone"} == {"row": False, "hand": True,
                                                                               "hidden": False}
    assert [ob.check for ob in ask.observe] == [None, "seen"]
    assert rules.moves["retract"].observe[0].withdraws.source == "move.number"


@pytest.mark.parametrize("old, new, code, words", [
    ("how: {type: choice, values: [plain, loud, \"3\"], default: plain, code: TX201}",
     "how: {type: choice, code: TX201}", "RL103", "needs 'values"),
    ("default: plain, code: TX201", "default: shout, code: TX201", "RL104", "default 'shout'"),
    ("flagged: {type: flag, default: false}", "flagged: {type: flag, default: 3}", "RL104", "default 3"),
    ("seen: {type: item, of: cards, optional: true, unknown: true}",
     "seen: {type: items, of: cards, optional: true, unknown: true}", "RL104", "unknown"),
    ("answer: {type: count}", "answer: {type: item, of: [shapes, sizes]}", "RL104", "several components"),
    ("        check: seen\n", "        check: sean\n", "RL121", "log check"),
    ("when: \"move.how == 'loud'\"", "when: \"move.how == 'shout'\"", "RL124", "never takes the value 'shout'"),
    ("expr: \"setup.marks[p]\"", "expr: \"setup.colours[p]\"", "RL121", "setup record"),
    ("    marks: {player_item: marks, distinct: true,", "    marks: {player_item: markz, distinct: true,",
     "RL121", "component"),
])
def test_mistakes_in_the_new_keys_are_positioned_diagnostics(tmp_path, old, new, code, words):
    text = RULES.read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(DiagnosticError) as exc:
        load_rules(str(bad))
    found = [(d.code, d.message, d.position.line) for d in exc.value.diagnostics]
    assert any(c == code and words in m and line > 0 for c, m, line in found), found


def test_a_player_item_record_belongs_in_setup(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(RULES.read_text().replace("  private:\n", "  private:\n    mark: {player_item: marks}\n", 1))
    with pytest.raises(DiagnosticError) as exc:
        load_rules(str(bad))
    assert [d.code for d in exc.value.diagnostics] == ["RL104"]
    assert "belongs in setup:" in exc.value.diagnostics[0].message


# -- the machine ---------------------------------------------------------------------

def test_parameters_are_checked_and_absent_ones_take_their_defaults():
    machine = Machine(load_rules(str(RULES)))
    state = machine.start(["Ann", "Bob"], setup={"marks": {"Ann": "red", "Bob": "blue"}})

    def problems(**args):
        base = {"target": "Bob", "named": ["circle"], "answer": 1}
        return [(v.code, v.message) for v in machine.check(state, Play("ask", "Ann", {**base, **args}))]

    assert problems() == []
    assert problems(how="loud") == [("TX203", "a loud question is flagged")]
    assert problems(how="loud", flagged=True) == []
    assert problems(how="shout")[0][0] == "TX201"
    assert problems(flagged="yes")[0] == ("RL150", "flagged must be true or false")
    assert problems(named=["circle", "large"]) == [("TX202", "named mixes shapes and sizes: name shapes or sizes, not both")]
    assert problems(named=["circle", "square"]) == [] and problems(named=["small"]) == []
    assert problems(seen=UNKNOWN) == [] and problems(seen="cs") == []
    assert problems(seen="circle")[0][1] == "'circle' is not a card"
    assert machine.env(state, "Ann", machine._args(machine.rules.moves["ask"], Play("ask", "Ann", {})))["move"].how == "plain"


def test_a_requirement_that_reads_a_missing_parameter_through_functions_is_left_out():
    machine = Machine(load_rules(str(RULES)))
    state = machine.start(["Ann", "Bob"], setup={"marks": {"Ann": "red", "Bob": "blue"}})
    assert machine.reads(machine.rules.moves["ask"].requires[1].expr) == frozenset({"target"})
    found = machine.check(state, Play("ask", "Ann", {"named": ["small"], "answer": 0}))
    assert [(v.code, v.message) for v in found] == [("TX205", "ask needs 'target'")]  # not a failing rule


def test_move_number_counts_every_move_offered_applied_or_not():
    machine = Machine(load_rules(str(RULES)))
    state = machine.start(["Ann", "Bob"], setup={"marks": {"Ann": "red", "Bob": "blue"}})
    assert machine.env(state)["move_number"] == 1
    state = machine.play(state, Play("ask", "Ann", {"target": "Bob", "named": ["small"], "answer": 0})).state
    assert state.vars["asked"] == {1: ["Bob", ["small"], 0]}
    state = machine.play(state, Play("ask", "Bob", {"named": ["small"]})).state  # lacks what it needs
    state = machine.play(state, Play("ask", "Bob", {"target": "Ann", "named": ["large"], "answer": 0})).state
    assert sorted(state.vars["asked"]) == [1, 3] and state.played == 3


# -- the log ---------------------------------------------------------------------------

def test_the_log_reads_choices_flags_items_of_two_components_and_unknown_items():
    log, _rules = parse_log_text(HEAD + """moves:
  - {ask: Ann, target: Bob, how: LOUD, flagged: true, named: [circle, Square], answer: 0, seen: "?"}
  - {ask: Bob, target: Ann, how: 3, named: [large], answer: 0}
""", str(DATA / "log.yaml"))
    first, second = (m.play.args for m in log.moves)
    assert first == {"target": "Bob", "how": "loud", "flagged": True, "named": ["circle", "square"], "answer": 0,
                     "seen": UNKNOWN}
    assert second["how"] == "3" and str(UNKNOWN) == "?"
    assert log.header.setup == {"marks": {"Ann": "red", "Bob": "blue"}}
    assert [(r.key, r.cards[""][0].value) for r in log.public] == [("row", "ss")]


@pytest.mark.parametrize("move, code, words", [
    ("{ask: Ann, target: Bob, how: shuot, named: [small], answer: 0}", "LG116", "did you mean 'shout'"),
    ("{ask: Ann, target: Bob, flagged: 1, named: [small], answer: 0}", "LG116", "true or false"),
    ("{ask: Ann, target: Bob, named: [small, larg], answer: 0}", "LG110", "did you mean 'Large'"),
    ("{ask: Ann, target: Bob, named: [small], answer: 0, seen: \"??\"}", "LG110", "unknown card"),
])
def test_bad_values_of_the_new_parameters_make_the_log_unusable(move, code, words):
    # (LG116's hint for a choice names the closest value; 'shout' is not one: the hint is 'plain'/'loud'.)
    report = check(f"  - {move}\n")
    # an unknown name in a move, or a word no choice has, is reported and the log checked on
    # (exit 1): read as the name meant when one comes close, else the move guessed from the moves
    # after it; a flag or a number of the wrong kind still leaves the log unread
    read_on = code in ("LG110", "LG111") or "how:" in move
    assert report.status == (1 if read_on else 2) and codes(report)[0] == code, report.format_text()
    if "did you mean" not in words or code != "LG116":
        assert words in report.diagnostics[0].message + (report.diagnostics[0].hint or "")


@pytest.mark.parametrize("setup, code, words", [
    ("", "LG103", "'setup' is a required property"),
    ("setup:\n  marks: {Ann: red}\n", "LG103", "gives no mark for Bob"),
    ("setup:\n  marks: {Ann: red, Bob: red}\n", "LG104", "cannot both have Red"),
    ("setup:\n  marks: {Ann: red, Bob: purple}\n", "LG110", "unknown mark 'purple'"),
])
def test_the_setup_is_required_complete_and_distinct(setup, code, words):
    head = f"rules: {RULES}\nplayers: [Ann, Bob]\n" + setup
    report = check("  - {ask: Ann, target: Bob, named: [small], answer: 0}\n", head=head)
    assert report.status == 2 and codes(report)[0] == code and words in report.diagnostics[0].message, \
        report.format_text()


def test_the_log_schema_requires_the_setup_and_reads_single_zones_as_cards():
    rules = load_rules(str(RULES))
    full = log_schema(rules.records)
    assert "setup" in full["required"] and full["properties"]["setup"]["required"] == ["marks"]
    assert full["properties"]["setup"]["properties"]["row"]["oneOf"][0]["type"] == "string"
    assert sections_schema(rules.records)["required"] == ["setup"]
    lady = load_rules("lady-alice")
    assert sections_schema(lady.records)["required"] == []


# -- the replay ---------------------------------------------------------------------------

def test_the_setup_is_read_by_requirements_and_its_zone_is_a_public_fact():
    report = check("  - {ask: Ann, target: Bob, named: [small], answer: 0}\n")
    assert codes(report) == []
    # Square Small is face up and Ann holds Circle Small: Bob has no small card
    report = check("  - {ask: Ann, target: Bob, named: [small], answer: 1}\n", extra="private:\n  hand: {Ann: cs}\n")
    assert codes(report) == ["TX310"]
    notes = [r.message for r in report.diagnostics[0].related]
    assert notes == ["the row Square Small recorded here", "Ann's hand Circle Small recorded here"], notes
    head = HEAD.replace("Bob: Blue", "Bob: Red")
    assert "TX204" not in codes(check("  - {ask: Ann, target: Bob, named: [small], answer: 0}\n", head=head))


def test_an_observation_reports_under_its_own_check_and_points_at_what_it_reads():
    private = "private:\n  hand: {Bob: Square Large}\n"
    report = check("  - {ask: Ann, target: Bob, named: [large], answer: 1, seen: Circle Large}\n", extra=private)
    assert codes(report) == ["TX311"]
    d = report.diagnostics[0]
    assert d.message == "a card seen is in the hand: impossible with what was recorded before: Ann saw Circle Large"
    assert (d.position.line, d.position.column) == (9, 62)  # the seen: value
    report = check("  - {ask: Ann, target: Bob, named: [large], answer: 1, seen: \"?\"}\n", extra=private)
    assert codes(report) == []


def test_an_observation_takes_back_the_facts_of_an_earlier_move():
    # Bob's answer is wrong (he holds Square Large), but nothing recorded shows it;
    # the retraction withdraws it: without that, its negation would clash with it.
    moves = "  - {ask: Ann, target: Bob, named: [large], answer: 0}\n  - {retract: Ann, number: 1}\n"
    report = check(moves + "end:\n  winner: Ann\n")
    assert codes(report) == [], report.format_text()
    log, rules = parse_log_text(HEAD + "moves:\n" + moves, str(DATA / "log.yaml"))
    rep = replay(log, rules)
    assert rep.withdrawn == frozenset({0})
    texts = [f.text for f in rep.facts()]
    assert "Bob answered 0" not in texts and "the answer of move 1 was wrong" in texts
    # a retraction of a right answer clashes with the recorded hand, under its own check
    report = check(moves.replace("answer: 0", "answer: 1"), extra="private:\n  hand: {Bob: Square Large}\n")
    assert codes(report) == ["TX312"]


def test_winners_without_points_are_checked_without_the_solution():
    report = check("  - {retract: Bob, number: 7}\n" + "end:\n  winner: Ann\n")
    assert codes(report) == ["TX401"] and "the winner is Bob, the log records Ann" in report.diagnostics[0].message
    assert "scores" not in report.diagnostics[0].message
    report = check("  - {retract: Bob, number: 7}\n" + "end:\n  winner: Bob\n")
    assert codes(report) == [] and report.format_text().splitlines()[0] == "winner: Bob"
