"""The comments of a log, each given to the move it is about: for ``ruleslawyer report``.

A ``#`` starts a comment where YAML says so: at the start of a line or after
a blank, outside every scalar (the scanner's tokens say where the scalars
are, so ``"a # b"`` and ``a#b`` are no comments).  Which move a comment
belongs to follows how people annotate a log:

* a comment after a move, on its line (or on a later line of the same move):
  that move;
* a comment on a line of its own between two moves: the move below it (a
  heading such as ``# Turn 2``);
* a comment after the last move, before the next section: the last move;
* a comment before the list of moves (the file's heading, the header's notes):
  the deal, move 0.

Comments inside the sections after the moves (``end:``) are about the end,
not a move, and are left out.

>>> text = ("# a game\\nplayers: [A, B]  # seated\\nmoves:\\n  # turn 1\\n  - {pass: A}  # why not\\n"
...         "  - {pass: B, x: 'no # here'}\\n  # over\\nend:  # done\\n  x: 1\\n")
>>> move_comments(text, [5, 6])
[['a game', 'seated'], ['turn 1', 'why not'], ['over']]
"""

from __future__ import annotations

from bisect import bisect_right

import yaml

__all__ = ["comments", "move_comments"]


def comments(text: str) -> list[tuple[int, bool, str]]:
    """Every comment of ``text``: ``(line, own_line, text)``, the line 1-based, ``own_line``
    when nothing but blanks stands before it, the text without its ``#`` and outer blanks.
    A text YAML cannot scan gives none (the log reader has said why already)."""
    spans: list[tuple[int, int]] = []
    try:
        for tok in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(tok, yaml.ScalarToken):
                spans.append((tok.start_mark.index, tok.end_mark.index))
    except yaml.YAMLError:
        return []
    starts = [s for s, _e in spans]
    found: list[tuple[int, bool, str]] = []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        at = 0
        while True:
            at = line.find("#", at)
            if at < 0:
                break
            index = offset + at
            i = bisect_right(starts, index) - 1
            inside = i >= 0 and spans[i][0] <= index < spans[i][1]
            if not inside and (at == 0 or line[at - 1] in " \t"):
                found.append((number, not line[:at].strip(), line[at + 1:].strip()))
                break
            at += 1
        offset += len(line)
    return found


def move_comments(text: str, lines: list[int]) -> list[list[str]]:
    """The comments of each move, given the 1-based line each move starts on (in order):
    a list of ``len(lines) + 1`` lists, the first the deal's (before the first move)."""
    out: list[list[str]] = [[] for _ in range(len(lines) + 1)]
    found = comments(text)
    if not lines:
        out[0] = [c for _l, _own, c in found if c]
        return out
    keys = _top_keys(text)
    after = next((k for k in keys if k > lines[-1]), None)  # the section after the moves
    head = max((k for k in keys if k <= lines[0]), default=0)  # the line of the moves' own key
    for line, own, body in found:
        if not body:
            continue
        if line < lines[0]:
            out[1 if own and line > head else 0].append(body)  # under the key: the first move's
        elif after is not None and line >= after:
            continue
        else:
            i = bisect_right(lines, line)  # moves starting on or before this line
            if own and line not in lines and i < len(lines):
                i += 1  # a comment on a line of its own: about the move below it
            out[i].append(body)
    return out


def _top_keys(text: str) -> list[int]:
    try:
        return [tok.start_mark.line + 1 for tok in yaml.scan(text, Loader=yaml.SafeLoader)
                if isinstance(tok, yaml.KeyToken) and tok.start_mark.column == 0]
    except yaml.YAMLError:
        return []
