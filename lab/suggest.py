"""``ruleslawyer suggest LOG``: the mover's choices after a log, ranked from a seat's knowledge.

Replays the log (as ``check`` does), takes the state after move ``--at`` (the
last by default), finds who is to move there (a move the rules oblige first,
else the player whose turn it is) and values every legal choice of theirs
with :func:`lab.advice.value_moves`, from the seat ``--as`` names (the
mover's own by default), within ``--budget`` solver counts (past it a uniform
sample of the choices drawn with ``--seed``, said so in the text and the JSON).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from typing import Any

from ..checker.log import parse_log
from ..checker.replay import Replay, replay
from ..checker.textout import fit, json_text, terminal_width
from ..solver.engines import initial
from ..solver.errors import SolverError
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean, printable
from ..spec.machine import State
from .advice import MAX_COUNTS, SPECTATOR, Advice, AdviceError, MoveValue, value_moves
from .bots import Turn
from .engine import MAX_ENUMERATE, Lab

__all__ = ["run_suggest", "suggest_text", "position", "advise"]

#: Choices listed by default.
TOP = 10
#: Answers shown per choice in the text.
ANSWERS = 6
MAX_TOP = 100_000
#: The largest ``--budget`` (solver counts) and ``--seed`` taken.
MAX_BUDGET = 10_000_000
MAX_SEED = 2**32 - 1


def _bad(log: str, message: str, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic("RL010", message, Position(log), hint=hint)])


def _budget(log: str, text: str | None) -> int | None:
    """``--budget``'s value: a whole number of solver counts from 1 to :data:`MAX_BUDGET`."""
    if text is None:
        return None
    value = int(text) if text.strip().isascii() and text.strip().isdigit() else None
    if value is None or not 1 <= value <= MAX_BUDGET:
        raise _bad(log, f"--budget {printable(text)}: the solver counts allowed must be a whole number "
                        f"from 1 to {MAX_BUDGET:,}", hint=f"the default is {MAX_COUNTS:,}")
    return value


def position(rep: Replay, lab: Lab, at: int | None) -> tuple[State, str, list[str]]:
    """The state after move ``at`` (the last by default), who moves there and the kinds open to them."""
    steps = rep.steps
    n = len(steps) if at is None else at
    state = steps[n].before if n < len(steps) else rep.state
    due = lab.due(state)
    if due:
        who = due[0][0]
        return state, who, [k for p, k in due if p == who]
    open_ = lab.actors(state, [state.turn])
    kinds = open_.get(state.turn, [])
    if not kinds:  # the player whose turn it is has no move: anyone who has one (a claim out of turn)
        for who, ks in lab.actors(state).items():
            if ks:
                return state, who, ks
    return state, state.turn, kinds


def run_suggest(args: argparse.Namespace) -> int:
    log, rules = parse_log(args.log, allow=getattr(args, "allow_path", None),
                           house=tuple(getattr(args, "house", ()) or ()))
    if args.top is not None and not 1 <= args.top <= MAX_TOP:
        raise _bad(args.log, f"--top {args.top}: the number of moves listed must be from 1 to {MAX_TOP:,}")
    budget = _budget(args.log, getattr(args, "budget", None))
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise _bad(args.log, f"--seed {seed}: the seed must be from 0 to {MAX_SEED:,}")
    rep = replay(log, rules)
    lab, advice, after = advise(args.log, rep, args.at, args.viewer, budget, seed or 0)
    top = args.top or TOP
    if args.format == "json":
        # only the moves listed are written (a move valued as its class's first names its
        # answers' words when they are read: lab/advice.py)
        out = {"rules": rules.canonical_name, "after_move": after,
               **dataclasses.replace(advice, moves=advice.moves[:top]).to_json()}
        out["listed"] = min(top, len(advice.moves))
        print(json_text(out, indent=1, default=str))
    else:
        width = terminal_width()
        print(fit(suggest_text(lab, advice, after, top, width), width))
    return 0


def advise(log: str, rep: Replay, at: int | None, viewer: str | None, budget: int | None = None,
           seed: int = 0, spectator: bool = False) -> tuple[Lab, Advice, int]:
    """The advice after move ``at`` (the last by default) of a replayed log, from the seat
    ``viewer`` names (the mover's when None; the public facts alone when ``spectator``), with
    the move it is given after; a diagnostic about ``log`` when none can be given."""
    rules = rep.rules
    if rules.deal is None or rules.deal.solution is None:
        raise _bad(log, f"{rules.canonical_name} declares no hidden solution to advise on")
    if rep.reporter.errors:
        first = rep.reporter.errors[0]
        raise DiagnosticError([Diagnostic("RL010", "this log breaks the rules ('ruleslawyer check' says where): "
                                          "no advice from a position the rules do not reach",
                                          first.position or Position(log))])
    moves = len(rep.steps)
    if at is not None and not 0 <= at <= moves:
        raise _bad(log, f"--at {at}: the log has {moves} moves (from 0 to {moves})")
    lab = Lab(rules)
    state, mover, kinds = position(rep, lab, at)
    seat = SPECTATOR if spectator else mover
    if viewer and not spectator:
        found = next((p for p in rep.players if p.lower() == viewer.lower()), None)
        if found is None:
            near = did_you_mean(viewer, list(rep.players))
            raise _bad(log, f"--as {viewer}: not a player",
                       f"did you mean '{near}'?" if near else f"one of: {', '.join(rep.players)}")
        seat = found
    if state.ended:
        raise _bad(log, f"the game has ended after move {at if at is not None else moves}: "
                        "no move to advise", hint="give --at an earlier move")
    if not kinds:
        raise _bad(log, "no player has a move open here")
    facts = [f for f in rep.facts(at) if f.viewers is None or seat in f.viewers]
    try:
        view = initial(rep.deal).with_facts(facts)
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view)
        advice = value_moves(turn, max_choices=MAX_ENUMERATE, seat=seat, budget=budget, seed=seed)
    except (AdviceError, SolverError) as exc:
        raise _bad(log, f"no advice: {exc}") from None
    return lab, advice, at if at is not None else moves


def _choice_text(lab: Lab, mv: MoveValue) -> str:
    """A choice in the log's syntax, names as the rule file spells them."""
    name = lab.rules.name

    def one(v: Any) -> str:
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(one(x) for x in v) + "]"
        return name(v) if isinstance(v, str) else str(v)

    parts = [f"{k}: {one(v)}" for k, v in mv.args.items()]
    return mv.kind + (" " + ", ".join(parts) if parts else "")


def _cut(line: str, width: int) -> str:
    """A line cut to ``width`` columns (an answer's words: the JSON has them whole)."""
    return line if len(line) <= width else line[:width - 1] + "…"


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:.1f}%"


def suggest_text(lab: Lab, advice: Advice, after: int, top: int, width: int = 80, more: str = "") -> str:
    """The ranked choices for ``width`` columns: rank, bits, expected worlds left, then the choice
    and its answers (or its chance of being right).  ``more``: the command the options it names
    (--budget, --top, --format) belong to, when they are not the one at hand's (play's hint)."""
    via = f" of '{more}'" if more else ""
    seat = "" if advice.seat == advice.mover else \
        ", seen by a spectator" if advice.seat == SPECTATOR else f", seen from {advice.seat}"
    lines = [printable(f"{advice.mover} to move after move {after}{seat}: {len(advice.moves)} choice(s)"),
             f"{advice.worlds:,} {advice.world_kind} fit, {advice.solutions:,} solution(s) left",
             printable(f"ranked by {advice.ranked_by}"),
             "bits: expected information about the deal / about the solution (? not counted)",
             "left: expected worlds left after the answer"]
    if advice.hopeless:
        lines.append(f"({advice.hopeless:,} claim(s) that cannot be right are not listed)")
    if advice.sampled:
        lines.append(f"valued {advice.valued:,} of {advice.choices:,} choices, sampled: "
                     f"raise --budget{via} to value more")
    elif advice.truncated:
        lines.append("(too many choices or outcomes to weigh them all: a sample is shown)")
    if advice.solution_uncounted:
        lines.append(f"solution bits not counted for {advice.solution_uncounted:,} choice(s): raise --budget{via}")
    lines.append("")
    lines.append(f"{'#':>3}  {'bits':>11}  {'left':>9}  choice")
    for mv in advice.moves[:top]:
        bits = "-" if mv.bits is None else f"{mv.bits:.2f}/" + ("?" if mv.solution_bits is None
                                                             else f"{mv.solution_bits:.2f}")
        left = "-" if mv.worlds_left is None else f"{mv.worlds_left:,.1f}"
        lines.append(printable(f"{mv.rank:>3}  {bits:>11}  {left:>9}  {_choice_text(lab, mv)}"))
        if mv.right is not None:
            lines.append(f"{'':>5}right {_pct(mv.right)}, wrong {_pct(mv.wrong)}")
        for a in mv.answers[:ANSWERS]:
            says = "; ".join(a.says) or "nothing"
            lines.append(_cut(printable(f"{'':>5}{_pct(a.probability):>6}  {says}"), width))
        if len(mv.answers) > ANSWERS:
            lines.append(f"{'':>5}... {len(mv.answers) - ANSWERS} more answers (--format json{via})")
    if len(advice.moves) > top:
        lines.append(f"... {len(advice.moves) - top} more choice(s) (--top N{via})")
    return "\n".join(lines)
