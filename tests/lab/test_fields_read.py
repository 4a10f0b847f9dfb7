"""A rule function's calls kept by the keys it reads of a record argument (lab/engine.py
``_fields_read``, ``_remembered``): what the analysis finds in Perfect Alibi's rule file (read
by hand from it), what it refuses, and the kept calls equal to the function called each time
on records that differ in keys it does not read (a question's answer)."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab.engine import Lab, _fields_read
from ruleslawyer.lab.suggest import position
from ruleslawyer.spec.expr import compile_expr, evaluations
from ruleslawyer.spec.loader import load_rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_keys_perfect_alibis_functions_read_of_a_question():
    """true_count: count(hand(q['target']), matching(q['asked'])); cap: the cards asked; lies:
    q['rival'] and q['target']; fits reads the answer too and hands q to the three; question()
    reads no argument; held(p) reads p otherwise than as a record."""
    lab = Lab(load_rules("perfect-alibi"))
    assert lab._fields["true_count"] == (("asked", "target"),)
    assert lab._fields["cap"] == (("asked",),)
    assert lab._fields["lies"] == (("rival", "target"),)
    assert lab._fields["fits"] == (("answer", "asked", "rival", "target"),)
    assert lab._fields["said_two_or_more"] == (("asked", "rival", "target"),)
    assert lab._fields["question"] == ()
    assert lab._fields["held"] == (None,)


def _fn(args, source):
    return SimpleNamespace(args=tuple(args), expr=compile_expr(source))


def test_any_other_use_of_the_argument_is_refused():
    functions = {
        "keys": _fn(["q"], "q['a'] + q['b']"),
        "whole": _fn(["q"], "len(q)"),
        "indexed": _fn(["q", "k"], "q[k]"),
        "passed": _fn(["q"], "keys(q) + q['c']"),
        "passed_on": _fn(["q"], "whole(q)"),
        "rebound": _fn(["q"], "[q for q in [1, 2]]"),
        "itself": _fn(["q"], "itself(q)"),
    }
    assert _fields_read(functions, "keys", 0) == ("a", "b")
    assert _fields_read(functions, "passed", 0) == ("a", "b", "c")
    for name in ("whole", "indexed", "passed_on", "rebound", "itself"):
        assert _fields_read(functions, name, 0) is None, name
    assert _fields_read(functions, "indexed", 1) is None


def test_calls_kept_by_the_keys_read_equal_each_call():
    """From Violet's seat after move 13 of the 5-player log: every function that reads a question
    as a record, called kept (the lab's environment) and afresh on each question of every target,
    pair of places asked and answer 0 to 5: the same values."""
    parsed, rules = parse_log(str(ROOT / "examples" / "perfect-alibi/clean-5p.yaml"))
    rep = replay(parsed, rules)
    lab = Lab(rules)
    state, mover, _kinds = position(rep, lab, 13)
    env = lab._actor_env(state, mover)
    places = ["restaurant", "bar", "solarium", "library"]
    names = [n for n in lab._pure if any(f is not None for f in lab._fields[n])]
    assert {"true_count", "fits", "said_two_or_more"} <= set(names)
    compared = 0
    with evaluations():
        for name in names:
            if len(lab._fields[name]) != 1 or lab._fields[name][0] is None:
                continue
            kept, raw = env[name], lab._wrapped[name][0]
            for target, asked, answer in itertools.product(["Yellow", "Blue"], itertools.combinations(places, 2),
                                                           range(6)):
                q = {"asker": mover, "target": target, "asked": list(asked), "answer": answer, "rival": None,
                     "symbol": "wheel", "arrows": False}
                assert repr(kept(q)) == repr(raw(q)), (name, q)
                compared += 1
    assert compared > 100
