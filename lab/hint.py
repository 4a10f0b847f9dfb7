"""``hint`` at ``play``'s prompt: the best moves for the player to move, seen from a seat.

The recorder lives in the checker and names nothing of the lab; the lab adds
this command through the same entry point that adds its command-line
commands (``ruleslawyer.commands``: :data:`lab.cli.PLAY_COMMANDS`, which
imports this module when the command is used), so the dependency stays checker -> lab only
in the direction the packages allow.  Valuing moves needs the lab's move
paths (the state machine's completions), so it is not moved into the solver.

``hint`` with no name asks from the session's seat (``play --as NAME``, else
a spectator: the public facts alone); ``hint NAME`` from a player's.  It
prints what ``suggest`` prints for that seat after the last move, the first
:data:`TOP` choices, escaped and fitted to the terminal by the recorder.
"""

from __future__ import annotations

from typing import Any

from ..spec.diagnostics import DiagnosticError, printable
from .suggest import advise, suggest_text

__all__ = ["hint", "TOP"]

#: Choices a hint lists.
TOP = 5


def hint(recorder: Any, rest: str) -> None:
    """Say the top choices of the player to move, valued from the seat ``rest`` names."""
    seat = recorder.seat(rest)
    if seat is None:  # not a player: the recorder said so
        return
    if seat.kind == "omniscient":
        recorder.say("no hint from 'all': every card is known there; ask from a player (hint NAME) or "
                     "a spectator (hint)")
        return
    try:
        lab, advice, after = advise(str(recorder.path), recorder.rep, None, seat.player,
                                    spectator=seat.kind == "spectator")
    except DiagnosticError as exc:
        recorder.say(printable("no hint: " + "; ".join(d.message for d in exc.diagnostics)))
        return
    from ..checker.textout import terminal_width

    recorder.say(suggest_text(lab, advice, after, TOP, terminal_width(), more="ruleslawyer suggest"))


