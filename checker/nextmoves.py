"""What comes next in a game not ended: whose turn, the phase, the moves that are legal.

A move kind is listed for a player, out of the game or not, when every
requirement that does not read the move's parameters holds (:meth:`Machine.available`): the turn,
the phase, a supply left.  Its parameters are shown as ``?`` in the log's
own syntax, ready to be filled in.

>>> next_lines({"move": 3, "turn": "Ann", "phase": "main", "moves": [
...     {"kind": "pass", "actor": "Ann", "text": "{pass: Ann}"}]})
['next: move 3, Ann to play (main phase); legal now:', '  - {pass: Ann}']
"""

from __future__ import annotations

from typing import Any

from ..spec.diagnostics import printable
from ..spec.machine import Machine, Play, State
from ..spec.model import MoveParam, decided_by
from .writer import move_text

__all__ = ["what_next", "next_lines"]


def what_next(machine: Machine, state: State, number: int) -> dict[str, Any]:
    """The next move's number, whose turn it is, who is to play, the phase and the moves legal now.

    Who is to play is the player a move is due from (the rule file's ``due:``, e.g. the one
    who must answer or must now make a final claim), else the player whose turn it is; their moves come first.
    """
    rules = machine.rules
    due = machine.due(state)
    to_play = due[0][0] if due else state.turn
    moves = []
    # every player, out or not: a player out may still have to answer (the rules' requirements say)
    for actor in [to_play, *(p for p in state.players if p != to_play)]:
        for kind, move in rules.moves.items():
            if machine.available(state, actor, kind):
                play = Play(kind, actor, {p.name: "?" for p in move.params if _template(p)})
                moves.append({"kind": kind, "actor": actor, "params": [p.name for p in move.params],
                              "required": [p.name for p in move.params if not p.optional],
                              "due": (actor, kind) in due,
                              "text": move_text(rules, play, unknown=True)})
    return {"move": number, "turn": state.turn, "to_play": to_play, "phase": state.phase, "moves": moves}


def _template(p: MoveParam) -> bool:
    """Whether a parameter is written in a move's template: a required one, or an optional
    one the mover chooses that a log may write as unknown (the card a claim names, say)."""
    return not p.optional or (p.unknown and decided_by(p) == "mover")


def next_lines(nxt: dict[str, Any]) -> list[str]:
    """The text form of :func:`what_next`, every line :func:`printable` (a player's name may hold anything)."""
    head = f"next: move {nxt['move']}, {nxt.get('to_play', nxt['turn'])} to play ({nxt['phase']} phase)"
    if not nxt["moves"]:
        return [printable(head + "; no move is legal now")]
    return [printable(head + "; legal now:"), *(printable(f"  - {m['text']}") for m in nxt["moves"])]
