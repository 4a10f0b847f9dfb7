"""One mistake in a clean log: mutations of its text, for the single-mistake corpus.

Each mutation changes a clean log the way a person writing it by hand
slips: a field left off, two moves the wrong way round, a move too many or
too few, the seating reversed or rotated, a typo.  Moves are the log's
one-line items (``  - {...}``); ``index`` counts them from 0.
"""

from __future__ import annotations

import functools
import os
import re

MOVE = re.compile(r"^(\s*)- (\{.*\})\s*(#.*)?$")
PLAYERS = re.compile(r"^players: \[(.*)\]\s*$", re.MULTILINE)


def _move_lines(lines: list[str]) -> list[int]:
    return [n for n, line in enumerate(lines) if MOVE.match(line)]


def _drop_key(item: str, key: str) -> str:
    """``{a: 1, key: [x, y], b: 2}`` without ``key`` (its value may be a flow list or mapping)."""
    m = re.search(r",\s*" + re.escape(key) + r": ", item)
    if not m:
        raise ValueError(f"no {key} in {item}")
    depth, j = 0, m.end()
    while j < len(item):
        c = item[j]
        if c in "[{":
            depth += 1
        elif c in "]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        j += 1
    return item[:m.start()] + item[j:]


def mutate(text: str, op: str, *args: object) -> str:
    """The log text with one mutation (ValueError when it does not apply)."""
    lines = text.splitlines()
    moves = _move_lines(lines)
    if op == "delete":
        del lines[moves[args[0]]]
    elif op == "duplicate":
        i = moves[args[0]]
        lines.insert(i, lines[i])
    elif op == "swap":
        k = args[0]
        if k + 1 >= len(moves):
            raise ValueError("no next move")
        a, b = moves[k], moves[k + 1]
        lines[a], lines[b] = lines[b], lines[a]
    elif op == "drop":
        n = moves[args[0]]
        lines[n] = _drop_key(lines[n], str(args[1]))
    elif op == "insert":
        i = moves[args[0]]
        indent = MOVE.match(lines[i]).group(1)  # type: ignore[union-attr]
        lines.insert(i, f"{indent}- {args[1]}")
    elif op == "replace":
        n = moves[args[0]]
        old, new = str(args[1]), str(args[2])
        if old not in lines[n]:
            raise ValueError(f"{old!r} not in {lines[n]}")
        lines[n] = lines[n].replace(old, new, 1)
    elif op in ("reverse", "rotate", "nofirst-rotate"):
        body = "\n".join(lines)
        m = PLAYERS.search(body)
        players = [p.strip() for p in m.group(1).split(",")]  # type: ignore[union-attr]
        if op == "reverse":
            players = players[::-1]
        else:
            k = int(args[0])  # type: ignore[arg-type]
            players = players[k:] + players[:k]
            if op == "nofirst-rotate":
                body = re.sub(r"^first: .*\n", "", body, flags=re.MULTILINE)
        body = PLAYERS.sub(f"players: [{', '.join(players)}]", body, count=1)
        return body + "\n"
    else:
        raise ValueError(op)
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def _report(text: str, path: str, cwd: str):
    from ruleslawyer.checker.check import check_text

    return check_text(text, path)


def checked(text: str, path: str):
    """``check_text(text, path)`` made once per process (and working folder): test_one_mistake
    and test_check_fix check the same mutated logs (the corpus's cases), the second reads the
    first's report (a report and its diagnostics are never changed by the tests that read them)."""
    return _report(text, path, os.getcwd())
