"""Shared fixtures: the repository root and small helpers to write rule files."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def overlay(tmp_path: Path):
    """Write a house overlay extending lady-alice; returns its path."""
    counter = {"n": 0}

    def write(body: str, name: str | None = None) -> str:
        counter["n"] += 1
        label = name or f"test-{counter['n']}"
        path = tmp_path / f"{label}.yaml"
        path.write_text(f"ruleslawyer: 1\nextends: {RULES / 'lady-alice.yaml'}\nname: {label}\n{body}")
        return str(path)

    return write
