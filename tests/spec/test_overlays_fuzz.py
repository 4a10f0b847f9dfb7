"""Random ``change:`` sections, built from the real paths of the base rule file
and the merge's own words: loading one either works or gives positioned
diagnostics, never another exception; and the base file is never changed."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

from ..conftest import RULES

BASE = yaml.safe_load((RULES / "lady-alice.yaml").read_text())
SHOWN = load_rules("lady-alice")
BEFORE = ({n: s.value for n, s in SHOWN.params.items()}, [s.id for s in SHOWN.scoring.steps], len(SHOWN.items))


def _paths(node: Any, prefix: tuple = (), depth: int = 0) -> list[tuple]:
    out = [prefix] if prefix else []
    if depth < 5 and isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,), depth + 1)
    return out


PATHS = [p for p in _paths(BASE) if p[0] not in ("ruleslawyer", "game")]
scalars = st.one_of(st.integers(-3, 40), st.booleans(), st.none(), st.sampled_from(
    ["rest", "everyone", "4p", "IX", "place-2", "params.players", "$remove", "x"]))
words = st.sampled_from(["$remove", "$add", "$remvoe", "id", "value", "cite", "list", "size", "x"])
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.one_of(words, st.sampled_from(sorted({str(p[-1]) for p in PATHS}))), inner, max_size=3)),
    max_leaves=8)


def _at(path: tuple) -> Any:
    node = BASE
    for key in path:
        node = node[key]
    return node


def _own_names(node: Any) -> list:
    """Keys of a mapping, ids of a list's items: what a $remove may name."""
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return [x["id"] if isinstance(x, dict) and "id" in x else x for x in node if not isinstance(x, (dict, list))
                or (isinstance(x, dict) and "id" in x)]
    return []


@st.composite
def changes(draw: Any) -> dict:
    out: dict = {}
    for path in draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=3)):
        here = _at(path)
        own = _own_names(here)
        value = draw(st.one_of(
            values, st.builds(lambda r: {"$remove": r}, st.lists(scalars, max_size=2)),
            st.builds(lambda a: {"$add": a}, st.lists(values, max_size=2)),
            st.just(copy.deepcopy(here)),  # the base's own value: changes nothing
            *([st.builds(lambda r: {"$remove": r}, st.lists(st.sampled_from(own), min_size=1, max_size=2,
                                                            unique=True))] if own else [])))
        node = out
        for key in path[:-1]:
            nxt = node.get(key)
            if not isinstance(nxt, dict):
                nxt = node[key] = {}
            node = nxt
        node[path[-1]] = value
    return out


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow,
                                                                                 HealthCheck.function_scoped_fixture])
@given(change=changes())
def test_a_random_change_loads_or_gives_positioned_diagnostics(tmp_path: Path, change):
    path = tmp_path / "random-change.yaml"
    path.write_text(yaml.safe_dump({"ruleslawyer": 1, "extends": str(RULES / "lady-alice.yaml"), "name": "r",
                                    "change": change}, sort_keys=False))
    try:
        load_rules("lady-alice", house=[str(path)])
    except DiagnosticError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.code and d.position is not None and d.position.path, d
    after = load_rules("lady-alice")
    assert ({n: s.value for n, s in after.params.items()}, [s.id for s in after.scoring.steps], len(after.items)) \
        == BEFORE
