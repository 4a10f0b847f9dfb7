"""The fused checks' code kept on disk between commands (spec/fusedcache.py).

The expectations: a process that makes fused checks writes them when it ends; the
next process reads them back and makes none, with the same answers as made ones
(a requirement's index, errors left to the exact way); an entry holding something
other than a function's code of the right shape is ignored and the function made
again; with the cache off nothing is written.  Each process here is a fresh Python
(the cache is read once per process)."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

#: One process: fused checks of a few requirements made and run; prints how many it generated
#: and what they answered (outside and within an evaluation, where the generated function runs).
SCRIPT = """
import json
from ruleslawyer.spec import exprgen, expr
made = []
generate = exprgen.generate_checks
exprgen.generate_checks = lambda *a, **k: (made.append(1), generate(*a, **k))[1]
reqs = [(None, expr.compile_expr("n > 1")), (expr.compile_expr("n > 2"), expr.compile_expr("n > 5"))]
first = expr.first_failing(reqs, lambda env: -2)
answers = []
with expr.evaluations():
    for n in (0, 2, 3, 9, "?"):
        answers.append(first({"n": n}))
print(json.dumps({"made": len(made), "answers": answers}))
"""


def _run(cache: str, **more: str) -> dict:
    import json
    env = {**os.environ, "RULESLAWYER_CACHE": cache, **more}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


#: By hand: n=0 fails "n > 1" (0); n=2 passes it and "n > 2" is False (its requirement does not
#: apply): -1; n=3 fails "n > 5" (1); n=9 passes both; "?" compared with 1 is an error: the exact
#: way (-2).
EXPECTED = [0, -1, 1, -1, -2]


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("fused-*.bin"))


def test_the_next_process_reads_the_checks_back_and_makes_none(tmp_path):
    cache = tmp_path / "cache"
    first = _run(str(cache))
    assert first == {"made": 1, "answers": EXPECTED}
    assert len(_entries(cache)) == 1
    again = _run(str(cache))
    assert again == {"made": 0, "answers": EXPECTED}


def test_an_entry_of_another_shape_is_ignored_and_made_again(tmp_path):
    cache = tmp_path / "cache"
    _run(str(cache))
    [entry] = _entries(cache)
    text, kept = marshal.loads(entry.read_bytes())
    assert len(kept) == 1
    key = next(iter(kept))
    for wrong in ("not code", (lambda env: 0).__code__, compile("1", "<x>", "eval")):
        entry.write_bytes(marshal.dumps((text, {key: wrong})))
        os.chmod(entry, 0o600)
        assert _run(str(cache)) == {"made": 1, "answers": EXPECTED}, wrong


def test_with_the_cache_off_nothing_is_written(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    assert _run("off", XDG_CACHE_HOME=str(home), HOME=str(home)) == {"made": 1, "answers": EXPECTED}
    assert list(home.rglob("*")) == []
    # the same with the cache on where it would go: written there
    assert _run("", XDG_CACHE_HOME=str(home), HOME=str(home)) == {"made": 1, "answers": EXPECTED}
    assert len(_entries(home / "ruleslawyer")) == 1
