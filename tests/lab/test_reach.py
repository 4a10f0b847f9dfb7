"""``rules validate`` warns of an ending no game can reach (issue 24): a short bounded search of
the variant lab (:mod:`lab.reach`), found by playing, not by a rule written for the case.

The flawed overlay (examples/lady-alice/lab/unwinnable.yaml) deals no suspect and two objects
in four players and keeps four smiles: a suspicion or an accusation names one clue per category,
so it holds at most 3 of the 4 pieces of evidence (counted by hand from the overlay), and the
two endings by four smiles cannot happen; the game still ends when one player is left.  Every
bundled rule file and overlay is played as its rulebook says, every ending reachable: no warning.
"""

from __future__ import annotations

import json

import pytest

from ruleslawyer.lab import reach as reach_module
from ruleslawyer.lab.reach import CODE, ending_warnings, unreached_ends
from ruleslawyer.spec.loader import load_rules, rules_dir, validate_file

from ..conftest import ROOT, cli

FLAWED = ROOT / "examples" / "lady-alice" / "lab" / "unwinnable.yaml"
#: The flawed overlay's search, made once for this module's three looks at it (the search
#: itself, and ``rules validate``'s text and JSON, which print what the same search found).
_SEARCHED: dict[int, tuple[object, object]] = {}


@pytest.fixture
def searched_once(monkeypatch):
    """``unreached_ends`` run once per rule set (the loader builds a rule set once per process)
    for the tests of this module, with its default bounds; each later ask gives that answer.
    The search is seeded, so a second run of it would find the same."""
    real = unreached_ends

    def once(rules, *args, **kw):
        if args or kw:
            return real(rules, *args, **kw)
        if id(rules) not in _SEARCHED:
            _SEARCHED[id(rules)] = (rules, real(rules))  # the rule set kept: its id stays its own
        return _SEARCHED[id(rules)][1]

    monkeypatch.setattr(reach_module, "unreached_ends", once)
    return once


def test_the_flawed_overlay_gets_a_warning_for_each_ending_by_four_smiles(searched_once):
    reach = searched_once(load_rules(str(FLAWED)))
    kinds = sorted(label.split(":", 1)[0] for label in reach.unreached)
    assert kinds == ["accuse", "suspect"], reach.unreached
    # the ending by the last player left was reached: the game can end, only not by smiles
    assert len(reach.reached) == len(reach.ends) - 2 and reach.games <= 12


def test_through_rules_validate_a_warning_and_exit_status_0(searched_once):
    """Before: 'unwinnable.yaml: ok' and nothing more."""
    result = cli("rules", "validate", str(FLAWED))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok (2 warning(s))" in result.stdout and result.stdout.count(f"warning[{CODE}]") == 2, result.stdout
    assert "lady-alice[players=4]+unwinnable" in result.stdout and "Traceback" not in result.stderr
    result = cli("rules", "validate", str(FLAWED), "--format", "json")
    found = json.loads(result.stdout)
    assert [d["severity"] for d in found] == ["warning", "warning"] and {d["code"] for d in found} == {CODE}
    assert all(d["line"] for d in found)   # each at its ending's end effect in the rule file


FILES = sorted(str(p) for p in rules_dir().glob("*.yaml")) + sorted(str(p) for p in (rules_dir() / "house").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_every_bundled_rule_file_and_overlay_gets_no_warning(path):
    """Every variant of each (as rules validate loads them)."""
    found = validate_file(path, ending_warnings)
    assert found == [], "\n".join(d.format_text() for d in found)
