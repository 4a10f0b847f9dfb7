"""The quote index installed in place of the rulebooks (rules/citations.json)."""

from __future__ import annotations

import doctest
import shutil
from pathlib import Path

from ruleslawyer.checker import citations
from ruleslawyer.checker.citations import build_index, find_line, render_index
from ruleslawyer.checker.provenance import locate
from ruleslawyer.spec.loader import load_rules

from ..conftest import RULES

INDEX = RULES / citations.INDEX_NAME


def test_the_index_is_up_to_date():
    index, missing = build_index(RULES)
    assert missing == [], "quotes not found in their rulebook"
    assert INDEX.read_text(encoding="utf-8") == render_index(index), \
        "rules/citations.json is stale: run `make citations` and review git diff"


def test_the_index_covers_every_rule_file(tmp_path: Path):
    """A new rule file, with its own rulebook, enters the index without a change to the generator."""
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    rulebook = (copy / "sources" / "000_29c1df386ffed5b0.txt").read_text(encoding="utf-8")
    (copy / "sources" / "999_other.txt").write_text("Three\nnew\nlines.\n" + rulebook, encoding="utf-8")
    base = (copy / "lady-alice.yaml").read_text()
    other = base.replace("game: lady-alice", "game: other-game", 1).replace(
        "rulebook: {file: 000_29c1df386ffed5b0.txt", "rulebook: {file: 999_other.txt", 1)
    assert other.count("999_other.txt") == 1 and "other-game" in other
    (copy / "other-game.yaml").write_text(other)
    index, missing = build_index(copy)
    assert missing == []
    original = build_index(RULES)[0]
    shifted = {quote: line + 3 for quote, line in original["000_29c1df386ffed5b0.txt"].items()}
    assert index == {**original, "999_other.txt": shifted}


def test_a_quote_not_in_its_rulebook_is_reported(tmp_path: Path):
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    path = copy / "lady-alice.yaml"
    text = path.read_text()
    quote = "You cannot choose the same combination as the player who went before you."
    assert quote in text
    path.write_text(text.replace(quote, "You cannot choose any combination at all.", 1))
    _index, missing = build_index(copy)
    assert len(missing) == 1 and "any combination at all" in missing[0]


def test_the_recorded_line_is_the_line_found_in_the_rulebook(monkeypatch):
    """What an installed copy shows (the index) is what a checkout shows (the rulebook)."""
    rules = load_rules("lady-alice")
    cites = [r.cite for m in rules.moves.values() for r in m.requires] + [o.cite for o in rules.options.values()]
    from_text = [locate(rules, c) for c in cites]
    assert all(w is not None for w in from_text)
    monkeypatch.setattr("ruleslawyer.checker.provenance.source_path",
                        lambda r, src: Path("/nonexistent/sources") / r.sources[src])
    from_index = [locate(rules, c) for c in cites]
    assert [(Path(f).name, n) for f, n in from_text] == from_index  # type: ignore[misc]


def test_find_line_matches_across_line_breaks():
    text = "First line.\nA sentence that\n   goes on.\n"
    assert find_line(text, "A sentence that goes on.") == 2
    assert find_line(text, "that goes") == 2
    assert find_line(text, "no such words") is None


def test_doctests():
    assert doctest.testmod(citations).failed == 0
