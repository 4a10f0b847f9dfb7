"""Hostile input to the variant lab's commands: a positioned diagnostic and exit 2,
never a traceback or a hang."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from ruleslawyer.lab.bots import BotSpecError, parse_bots

from .hostile_helpers import ROOT, assert_usage_error, run_cli_batch

PROPS = "examples/lady-alice/lab/properties.yaml"
POSITIONED = re.compile(r"^\S.*?(:\d+:\d+)?: error\[(RL17[0-2]|RL0\d\d|RL1\d\d)\]", re.MULTILINE)

_ONE = "properties:\n  - {id: a, invariant: 'true'}\n"  # one property that holds

BAD_PROPERTY_FILES = {
    "not-a-mapping.yaml": "- 1\n- 2\n",
    "unknown-key.yaml": "properties:\n  - {id: a, invariant: 'true'}\nextra: 1\n",
    "no-id.yaml": "properties:\n  - {invariant: 'true'}\n",
    "bad-expression.yaml": "properties:\n  - {id: a, invariant: 'vars.x >='}\n",
    "unknown-move.yaml": "properties:\n  - {id: a, when: 'true', playing: [fly], within: 2, reaches: 'ended'}\n",
    "both.yaml": "properties:\n  - {id: a, invariant: 'true', reaches: 'ended', within: 1, playing: [pass]}\n",
    "depth.yaml": "depth: 1000\nproperties:\n  - {id: a, invariant: 'true'}\n",
    "scope.yaml": "scope:\n  items: {clues: [Nobody]}\nproperties:\n  - {id: a, invariant: 'true'}\n",
    "twice.yaml": "properties:\n  - {id: a, invariant: 'true'}\n  - {id: a, invariant: 'true'}\n",
    "empty.yaml": "",
    "fails-to-run.yaml": "properties:\n  - {id: a, invariant: 'nope.x > 1'}\n",
    "too-much-work.yaml": "properties:\n  - {id: a, invariant: 'sum(range(10000000)) > 1'}\n",
    "binary.yaml": "\x00\x01\x02",
    # opening: the moves played before the search (3 players, seats P1..P3)
    "opening-not-a-list.yaml": "opening: 3\n" + _ONE,
    "opening-a-string.yaml": "opening: [pass P1]\n" + _ONE,
    "opening-unknown-kind.yaml": "opening:\n  - {fly: P1}\n" + _ONE,
    "opening-malformed.yaml": "opening:\n  - {suspect: P1, clues: compass, smiles: one}\n" + _ONE,
    "opening-unknown-player.yaml": "opening:\n  - {pass: Nobody}\n" + _ONE,
    "opening-illegal.yaml": "opening:\n  - {pass: P2}\n" + _ONE,
    "opening-no-deal-fits.yaml": (
        "opening:\n  - {suspect: P1, clues: [Mary Kingsley, Waterloo Station, 5 p.m., compass], smiles: 1}\n"
        "  - {pass: P2}\n  - {pass: P3}\n  - {pass: P1}\n"
        "  - {suspect: P2, clues: [Mary Kingsley, Waterloo Station, 5 p.m., O2], smiles: 3}\n" + _ONE),
    "opening-after-the-end.yaml": (
        "opening:\n  - {suspect: P1, clues: [Mary Kingsley, Waterloo Station, 5 p.m., compass], smiles: 3}\n"
        "  - {pass: P2}\n" + _ONE),
    "opening-too-long.yaml": "opening:\n" + "  - {pass: P1}\n" * 1001 + _ONE,
    "opening-unknown-key.yaml": "opening: {moves: [], rules: x}\n" + _ONE,
    "opening-no-moves.yaml": "opening: {players: [A, B, C]}\n" + _ONE,
    "opening-players.yaml": "opening: {players: [A, A, B, C], moves: []}\n" + _ONE,
    "opening-players-twice.yaml": "opening: {players: [A, a, B], moves: []}\n" + _ONE,
    "opening-first.yaml": "opening: {players: [A, B, C], first: D, moves: []}\n" + _ONE,
    "opening-setup.yaml": "opening: {setup: {colours: {P1: Red}}, moves: []}\n" + _ONE,
    "opening-moves-mapping.yaml": "opening: {moves: {pass: P1}}\n" + _ONE,
    "scope-value.yaml": "scope:\n  values: {valeu: [1]}\n" + _ONE,
}


def _cases(tmp_path):
    cases = [
        ["simulate", "lady-alice", "--games", "0"],
        ["simulate", "lady-alice", "--games", "2000000"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "randomm"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "random,informed:hot"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "random:fly=2"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "random,random,random,random,random"],
        ["simulate", "lady-alice", "--games", "2", "--max-moves", "0"],
        ["simulate", "lady-alice", "--games", "2", "--workers", "0"],
        ["simulate", "lady-alice", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"],
        ["simulate", "lady-alise", "--games", "2"],
        ["simulate", "lady-alice", "--games", "2", "--house", "nowhere.yaml"],
        ["simulate", "lady-alice", "--games", "two"],
        ["compare", "lady-alice", "--games", "2"],
        ["compare", "lady-alice", "--with", "nowhere.yaml", "--games", "2"],
        ["compare", "lady-alice", "--with", "two-counters", "--games", "2", "--bots", "smart"],
        ["value", "lady-alice", "--games", "2", "--bots", "random"],            # no restriction
        ["value", "lady-alice", "--games", "0", "--restrict-by", "place.value"],
        ["value", "lady-alice", "--games", "2", "--restrict-by", "place.valeu"],
        ["value", "lady-alice", "--games", "2", "--restrict-by", "covers"],    # an outcome: no values to list
        ["value", "lady-alice", "--games", "2", "--restrict", "x=move.valeu == 2"],
        ["value", "lady-alice", "--games", "2", "--restrict", "x=(]"],
        ["value", "lady-alice", "--games", "2", "--restrict", "no name"],
        ["value", "lady-alice", "--games", "2", "--restrict", "a=true", "--restrict", "a=false"],
        ["value", "lady-alice", "--games", "2", "--restrict", "a=true", "--bots", "smart"],
        ["value", "lady-alice", "--variant", "3p", "--games", "1", "--restrict", "all=true", "--bots", "random"],
        ["value", "lady-alice", "--games", "1", "--restrict", "a=" + " or ".join(["kind == 'pass'"] * 70)],
        ["prove", "lady-alice", "--property", "nowhere.yaml"],
        ["prove", "lady-alice", "--property", PROPS, "--depth", "-1"],
        ["prove", "lady-alice", "--property", PROPS, "--depth", "1000"],
    ]
    for name, text in BAD_PROPERTY_FILES.items():
        path = tmp_path / name
        path.write_text(text)
        cases.append(["prove", "lady-alice", "--variant", "3p", "--property", str(path), "--depth", "0"])
    return cases


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> list[dict]:
    """Every case run once, in one child (bounded as run_cli_batch says), for the three tests
    below: each reads the runs it is about (a second run of the same command line in the same
    folder would give the same output)."""
    return run_cli_batch(_cases(tmp_path_factory.mktemp("lab-cli")))


def test_bad_input_to_the_lab_commands_is_exit_2_without_a_traceback(batch):
    results = batch
    for r in results:
        out = r["output"]
        assert r["status"] == 2, (r["argv"], r["status"], out)
        assert "Traceback" not in out and "internal error" not in out, (r["argv"], out)
        assert r["seconds"] < 60, (r["argv"], r["seconds"])
        usage = out.startswith("usage:") or "error" in out
        assert usage, (r["argv"], out)


def test_lab_diagnostics_are_positioned(batch):
    for r in (r for r in batch if not any(a in ("two", "0", "-1") for a in r["argv"])):
        if r["output"].startswith("usage:"):
            continue  # argparse's own usage errors (a required option missing)
        assert POSITIONED.search(r["output"]), (r["argv"], r["output"])


def test_a_bad_opening_is_refused_at_its_line_and_column(batch):
    """RL171, with the property file's name, a line and a column, and exit status 2."""
    runs = [r for r in batch if any("opening-" in a for a in r["argv"])]
    assert len(runs) == sum(name.startswith("opening-") for name in BAD_PROPERTY_FILES)
    for r in runs:
        path = r["argv"][r["argv"].index("--property") + 1]
        assert r["status"] == 2, (r["argv"], r["output"])
        assert re.search(rf"^{re.escape(path)}:\d+:\d+: error\[RL171\]", r["output"], re.MULTILINE), \
            (r["argv"], r["output"])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_bot_specification_parses_or_is_refused(text):
    try:
        bots = parse_bots(text, 4, ["suspect", "place", "pass", "accuse"])
    except BotSpecError as exc:
        assert str(exc) and exc.column >= 0
    else:
        assert len(bots) == 4


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_lab_commands_answer_in_every_format(fmt, tmp_path):
    argvs = [["simulate", "lady-alice", "--variant", "3p", "--games", "2", "--bots", "random:accuse=0.1",
              "--format", fmt, "--max-moves", "40"],
             ["compare", "lady-alice", "--variant", "3p", "--with", "unlimited-cards", "--games", "2",
              "--max-moves", "40", "--format", fmt],
             ["prove", "lady-alice", "--variant", "3p", "--property", PROPS, "--depth", "0", "--format", fmt],
             ["value", "lady-alice", "--variant", "3p", "--restrict-by", "place.value", "--games", "2",
              "--bots", "random:accuse=0.1", "--max-moves", "40", "--format", fmt]]
    for r in run_cli_batch(argvs):
        assert r["status"] == 0, (r["argv"], r["output"])
        if fmt == "json":
            import json

            json.loads(r["output"])


_FRAGMENTS = st.sampled_from([
    "vars.business_cards >= 0", "ended or len(legal_moves) > 0", "len(", "nope.x", "1/0", "[x for x in range(10**9)]",
    "vars", "legal_moves[0].kind", "turn in active", "'a' * 3", "true", "none", "move.x", "sum(range(100000000))",
])


#: Moves of a 3-player opening, legal, illegal, malformed or of no kind (seats P1..P3, or Ann, Ben, Cat).
_OPENING_MOVES = st.sampled_from([
    "{suspect: P1, clues: [Mary Kingsley, Waterloo Station, 5 p.m., compass], smiles: 1}",
    "{suspect: P1, clues: [Mary Kingsley, Waterloo Station, 5 p.m., compass], smiles: 3}",
    "{suspect: P2, clues: [Mary Kingsley, Waterloo Station, 5 p.m., O2], smiles: 0, covers: [Mary Kingsley]}",
    "{pass: P1}", "{pass: P2}", "{pass: P3}", "{pass: Ann}", "{place: P2, clue: compass, value: 1}",
    "{place: P3, clue: compass}", "{accuse: P1, clues: [compass], smiles: 2}", "{fly: P1}", "{}", "pass P1",
    "{suspect: P1, clues: compass}", "{pass: P1, smiles: -1}", "[1, 2]", "null",
])


#: A legal 3-player game's first moves: an opening is often a prefix of it (then perhaps a move more).
_LEGAL = ["{suspect: P1, clues: [Mary Kingsley, Waterloo Station, 5 p.m., compass], smiles: 1}",
          "{place: P2, clue: compass, value: 1}", "{pass: P3}", "{pass: P1}", "{pass: P2}",
          "{suspect: P2, clues: [Samuel White Baker, P2, 7:00, O2], smiles: 1}"]


def _opening(draw) -> str:
    kind = draw(st.sampled_from(["none", "list", "mapping", "scalar"]))
    if kind == "none":
        return ""
    if kind == "scalar":
        return draw(st.sampled_from(["opening: 3\n", "opening: x\n", "opening: {}\n", "opening: []\n"]))
    if draw(st.booleans()):
        listed = _LEGAL[:draw(st.integers(0, len(_LEGAL)))] + draw(st.lists(_OPENING_MOVES, max_size=1))
    else:
        listed = draw(st.lists(_OPENING_MOVES, max_size=6))
    moves = "[" + ", ".join(listed) + "]"
    if kind == "list":
        return f"opening: {moves}\n"
    header = draw(st.sampled_from(["", "players: [Ann, Ben, Cat], ", "players: [Ann, Ben], ", "first: P2, ",
                                   "setup: {}, ", "players: 3, ", "bogus: 1, "]))
    return f"opening: {{{header}moves: {moves}}}\n"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["invariant", "when", "reaches", "within", "playing", "says", "bogus"]),
                          _FRAGMENTS), min_size=1, max_size=4),
       st.sampled_from(["", "depth: 1\n", "depth: x\n", "scope: {items: {clues: [compass]}}\n", "scope: 3\n"]),
       st.composite(_opening)())
def test_any_property_file_is_used_or_refused(tmp_path_factory, entries, head, opening):
    from ruleslawyer.lab.prove import load_properties, prove
    from ruleslawyer.spec.diagnostics import DiagnosticError
    from ruleslawyer.spec.loader import load_rules

    import json

    body = "\n".join(f"    {k}: {json.dumps(v if k != 'playing' else ['pass'])}" for k, v in entries)
    path = tmp_path_factory.mktemp("props") / "p.yaml"
    path.write_text(f"{head}{opening}properties:\n  - id: p\n{body}\n")
    rules = load_rules("lady-alice", variant="3p")
    try:
        spec = load_properties(str(path), rules)
        prove(rules, spec, depth=0)
    except DiagnosticError as exc:
        assert exc.diagnostics and all(d.code.startswith("RL") and d.position is not None for d in exc.diagnostics)
