"""A rule set is built once per process, and built again when one of its files changes."""

from __future__ import annotations

import dataclasses

import pytest

from ruleslawyer.spec.loader import load_rules

from ..conftest import RULES


def test_the_same_files_give_the_same_rule_set_and_it_is_read_only():
    first = load_rules("lady-alice", variant="3p")
    assert load_rules("lady-alice", variant="3p") is first
    assert load_rules("lady-alice", variant="4p") is not first
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.title = "changed"  # type: ignore[misc]


def test_a_change_of_the_same_size_is_seen(tmp_path):
    text = (RULES / "lady-alice.yaml").read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    before = load_rules(str(path))
    # Same length, same second: only the bytes tell the two files apart.
    changed = title[:-1] + ("X" if title[-1] != "X" else "Y")
    path.write_text(text.replace(title, changed, 1), encoding="utf-8")
    after = load_rules(str(path))
    assert after is not before and after.title != before.title
    assert after.title == changed.split(":", 1)[1].strip().strip("'\"")
