"""A game reviewed move by move, as an analysis board reviews one: for each move, the best
move by information from the mover's seat beside the move played, and each player's accuracy.

``ruleslawyer report LOG -o game.html --advice`` shows it in the page (a mark on each move, the
best move beside the move played, an accuracy table) and prints it (text, or ``--format json``).
The report lives in the checker, and the checker never imports the lab; valuing moves needs the
lab's move paths (:func:`lab.advice.value_moves`).  So the lab offers the review through the entry
point that already adds its commands (``ruleslawyer.commands``: :data:`lab.cli.REPORT_ADVICE`,
looked up the way ``play`` finds :data:`lab.cli.PLAY_COMMANDS`), and the checker renders what
:meth:`Review.to_json` gives: plain data, no lab object crosses.

What is counted, move by move (a move of the log before its first error):

* **the seat**: the mover's knowledge before the move, the facts of the log they saw (the public
  ones and their own private ones, as ``suggest --as`` uses them);
* **information moves**: a kind of move that claims nothing and lets someone observe something,
  itself or through the moves the rules oblige after it (a question and its answers).  Every
  choice of every information kind open to the mover is valued with
  :func:`~lab.advice.value_moves` from that seat, within ``budget`` solver counts a move (past it,
  a uniform sample of the choices, said so: ``sampled``); the move played is always valued
  (alone, within at least the default budget);
* **the best move**: the information move that tells the seat most, in bits about the solution
  when the advice counted them for every move it valued, else in bits about the deal (``unit``);
  the move played is measured in the same unit.  When the choices were sampled the best is the
  best of the sample, or the move played when it tells more;
* **rated moves**: an information move played where the best tells more than :data:`MIN_BITS`.
  Other moves are not rated and count in neither sum: a move that tells its mover nothing (a
  pass, a placed token, a tile drawn: ``silent``), an answer the rules oblige (``obliged``), a
  claim (``claim``: its chance of being right from the seat is shown, and a wrong claim is its
  own cost), an information move when nothing is left to learn (``nothing to learn``), and one
  the solver cannot value exactly or the budget left no other choice to compare with (``not
  valued``, and why);
* **grade** of a rated move, by the share of the best's bits it gave and the bits it lost (a
  small loss where little can be learnt is no fault): ``best`` (lost at most :data:`MIN_BITS`),
  ``good`` (lost more, but less than an inaccuracy), ``inaccuracy`` (gave under 80 % and lost at
  least 0.1 bit), ``mistake`` (under 50 %, at least 0.25 bit), ``blunder`` (under 10 %, at least
  0.5 bit) (:data:`GRADES`);
* **accuracy** of a player: the sum of the bits their rated moves gave over the sum the best moves
  would have given (1.0: always a best move); none without a rated move.

Nothing here names a game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from ..checker.replay import Replay, Step
from ..checker.textout import fit
from ..checker.writer import move_text
from ..solver.engines import initial
from ..solver.errors import SolverError
from ..spec.diagnostics import RuleError, printable
from ..spec.facts import FactError
from ..spec.machine import Play
from .advice import MAX_COUNTS, Advice, AdviceError, MoveValue, value_moves
from .bots import Turn
from .engine import MAX_ENUMERATE, Lab

__all__ = ["Review", "MoveReview", "PlayerAccuracy", "review_game", "GRADES", "MIN_BITS"]

#: Bits below which a move tells nothing (and a loss is no loss).
MIN_BITS = 1e-9
#: (grade, share of the best's bits under which, bits lost at least), the worst first.
GRADES = (("blunder", 0.1, 0.5), ("mistake", 0.5, 0.25), ("inaccuracy", 0.8, 0.1))
#: Every grade of a rated move, the best first.
GRADE_NAMES = ("best", "good", *(g for g, _s, _b in reversed(GRADES)))
#: The grades of a move that lost too much.
FAULTS = tuple(g for g, _s, _b in GRADES)
#: Units of the information, as the JSON names them.
SOLUTION, DEAL = "solution", "deal"


@dataclass
class MoveReview:
    """One move of the log, reviewed from its mover's seat."""

    number: int                        # 1-based, as reports count
    player: str
    kind: str
    played: str                        # the move played, its mover's choices in the log's syntax
    status: str                        # rated, claim, silent, obliged, nothing to learn, not valued, not reviewed
    best: str | None = None            # the best information move, in the log's syntax
    best_bits: float | None = None
    played_bits: float | None = None
    unit: str | None = None            # SOLUTION or DEAL
    grade: str | None = None           # best, good, inaccuracy, mistake, blunder (rated moves)
    right: float | None = None         # a claim's chance of being right, from the seat
    valued: int = 0                    # choices valued (of ``choices``)
    choices: int = 0
    sampled: bool = False
    note: str = ""                     # why a move is not rated, in words

    @property
    def share(self) -> float | None:
        if self.status != "rated" or not self.best_bits:
            return None
        return min(1.0, (self.played_bits or 0.0) / self.best_bits)

    @property
    def says(self) -> str:
        """The review of the move in a sentence (the page shows it beside the move)."""
        if self.status != "rated":
            return f"{self.played}: {self.note or self.status}"
        sample = f" (the best of {self.valued} of {self.choices} choices valued)" if self.sampled else ""
        if self.grade == "best":
            return f"{self.played}: a best move, {self.played_bits:.2f} bits about the {self.unit}{sample}"
        return (f"{self.played}: {self.grade}, {self.played_bits:.2f} of {self.best_bits:.2f} bits about the "
                f"{self.unit} ({100 * (self.share or 0.0):.0f} %); best {self.best}{sample}")

    def to_json(self) -> dict[str, Any]:
        return {"move": self.number, "player": self.player, "kind": self.kind, "played": self.played,
                "status": self.status, "best": self.best, "best_bits": self.best_bits,
                "played_bits": self.played_bits, "unit": self.unit, "share": self.share, "grade": self.grade,
                "right": self.right, "valued": self.valued, "choices": self.choices, "sampled": self.sampled,
                "note": self.note, "says": self.says}


@dataclass
class PlayerAccuracy:
    player: str
    rated: int = 0
    played_bits: float = 0.0
    best_bits: float = 0.0
    grades: dict[str, int] = field(default_factory=lambda: {g: 0 for g in GRADE_NAMES})
    claims: int = 0

    @property
    def accuracy(self) -> float | None:
        return min(1.0, self.played_bits / self.best_bits) if self.rated and self.best_bits > 0 else None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "accuracy": self.accuracy, "rated": self.rated,
                "played_bits": self.played_bits, "best_bits": self.best_bits, **self.grades, "claims": self.claims}


@dataclass
class Review:
    rules: str
    budget: int
    moves: list[MoveReview]
    players: list[PlayerAccuracy]
    reviewed: int                      # moves reviewed (those before the log's first error)
    stopped: str = ""                  # why the review stops before the last move, if it does

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "budget": self.budget, "reviewed": self.reviewed, "stopped": self.stopped or None,
                "grade_names": list(GRADE_NAMES),
                "grades": [{"grade": g, "share_below": s, "bits_lost_at_least": b} for g, s, b in GRADES],
                "model": "the mover's knowledge before the move; best: the move that tells most about the solution "
                         "(or about the deal when the advice did not count the solution for every move); "
                         "accuracy: bits the rated moves gave over bits the best moves would have given",
                "players": [p.to_json() for p in self.players], "moves": [m.to_json() for m in self.moves]}

    def text(self, width: int = 80) -> str:
        """Each player's accuracy, then each inaccuracy, mistake and blunder; fitted to ``width``, escaped."""
        lines = [f"advice: the best move by information from the mover's seat, {self.budget:,} solver counts a move"]
        if self.stopped:
            lines.append(self.stopped)
        lines.append(f"{'player':<12} {'accuracy':>8} {'rated':>5} {'best':>4} {'good':>4} {'inacc.':>6} "
                     f"{'mistakes':>8} {'blunders':>8} {'claims':>6}")
        for p in self.players:
            acc = "-" if p.accuracy is None else f"{100 * p.accuracy:.1f} %"
            g = p.grades
            lines.append(f"{p.player:<12} {acc:>8} {p.rated:>5} {g['best']:>4} {g['good']:>4} {g['inaccuracy']:>6} "
                         f"{g['mistake']:>8} {g['blunder']:>8} {p.claims:>6}")
        graded = [m for m in self.moves if m.grade in FAULTS]
        if graded:
            lines.append("")
        lines.extend(f"move {m.number}: {m.says}" for m in graded)
        return fit("\n".join(printable(line) for line in lines), width)


# -- valuing -----------------------------------------------------------------------------------
class _OneChoice:
    """The lab, offering only the move played as the mover's choice of its kind (its value alone,
    whatever the budget: every other attribute is the lab's own)."""

    def __init__(self, lab: Lab, kind: str, args: Mapping[str, Any]):
        self._lab, self._kind, self._args = lab, kind, dict(args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._lab, name)

    def mover_choices(self, state: Any, actor: str, kind: str, limit: int = MAX_ENUMERATE,
                      exclude: Any = frozenset()) -> Iterator[dict[str, Any]]:
        if kind == self._kind:
            yield dict(self._args)


def _norm(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(sorted(map(str, value)))
    return value


def _choices_of(lab: Lab, play: Play) -> dict[str, Any]:
    """The mover's choices of a move played (the parameters the mover decides, as logged; one the
    log leaves out at its default, as the lab lists the choices)."""
    info = lab.kinds[play.kind]
    found = {p.name: play.args.get(p.name, p.default) for p in info.mover}
    return {k: v for k, v in found.items() if v is not None}


def _same(lab: Lab, kind: str, a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two sets of a kind's mover choices are the same move (a default written or not)."""
    params = lab.kinds[kind].mover
    return all(_norm(a.get(p.name, p.default)) == _norm(b.get(p.name, p.default)) for p in params)


def _text(lab: Lab, actor: str, kind: str, args: Mapping[str, Any]) -> str:
    return move_text(lab.rules, Play(kind, actor, dict(args)))


def _bits(mv: MoveValue, unit: str) -> float:
    found = mv.solution_bits if unit == SOLUTION else mv.bits
    return max(0.0, found or 0.0)


def _alone(lab: Lab, turn: Turn, args: Mapping[str, Any], budget: int, seed: int) -> tuple[MoveValue | None, Advice]:
    """The move played valued alone from the seat, within a budget of at least the default (one
    choice's answers: a few counts); None when no world the seat thinks possible allows it, or for
    a claim that cannot be right."""
    kind = turn.kinds[0]
    one: Any = _OneChoice(lab, kind, args)
    alone = Turn(one, turn.state, turn.actor, [kind], {}, random.Random(seed), turn.deal, turn.view)
    advice = value_moves(alone, max_choices=MAX_ENUMERATE, seat=turn.actor, budget=max(budget, MAX_COUNTS),
                         seed=seed)
    found = [mv for mv in advice.moves if mv.kind == kind and _same(lab, kind, mv.args, args)]
    return (found[0] if found else None), advice


def _learns(lab: Lab, kind: str) -> bool:
    """Whether a kind may let its mover learn something: it claims nothing, and it observes
    something or moves the rules oblige may follow it (an answer to a question), as the advice
    tells a kind that can tell the seat nothing."""
    info = lab.kinds[kind]
    return not info.claims and (info.observes or lab.has_due)


def _review_move(lab: Lab, rep: Replay, step: Step, budget: int, seed: int) -> MoveReview:
    state, play, actor = step.before, step.play, step.play.actor
    info = lab.kinds.get(play.kind)
    args = _choices_of(lab, play) if info is not None else {}
    out = MoveReview(step.number, actor, play.kind, _text(lab, actor, play.kind, args), "silent")
    if info is None or not (info.claims or _learns(lab, play.kind)):
        out.note = "observes nothing"
        return out
    due = [k for p, k in lab.due(state) if p == actor]
    if play.kind in due and not info.claims:
        out.status, out.note = "obliged", "a move the rules oblige (an answer): not rated"
        return out
    facts = [f for f in rep.facts(step.index) if f.viewers is None or actor in f.viewers]
    view = initial(rep.deal).with_facts(facts)
    mine, alone = _alone(lab, Turn(lab, state, actor, [play.kind], {}, random.Random(seed), rep.deal, view),
                         args, budget, seed)
    if info.claims:
        out.status = "claim"
        out.right = mine.right if mine is not None else (0.0 if alone.hopeless else None)
        chance = "" if out.right is None else f", right {100 * out.right:.0f} % from the seat"
        out.note = "a claim: not rated" + chance
        return out
    if mine is None:
        out.status = "not valued"
        out.note = ("its outcomes are more than the advice follows" if alone.truncated
                    else "no world the seat thinks possible allows it")
        return out
    if not mine.observes:
        out.note = "the seat observes nothing of it"
        return out
    kinds = [k for k in (due or lab.open_kinds(state, actor)) if _learns(lab, k)]
    if play.kind not in kinds:
        kinds.append(play.kind)
    advice = value_moves(Turn(lab, state, actor, kinds, {}, random.Random(seed), rep.deal, view),
                         max_choices=MAX_ENUMERATE, seat=actor, budget=budget, seed=seed)
    out.valued, out.choices, out.sampled = advice.valued, advice.choices, advice.sampled
    if advice.valued == 0 and advice.choices > 1:
        out.status, out.note = "not valued", "the budget ran out before any other choice was valued"
        return out
    informative = [mv for mv in advice.moves if mv.observes and mv.right is None]
    unit = SOLUTION if advice.ranked_by.endswith("solution") and mine.solution_bits is not None else DEAL
    best = max(informative, key=lambda mv: _bits(mv, unit), default=None)
    if best is None or _bits(mine, unit) >= _bits(best, unit):
        best = mine  # the move played tells as much as any valued (sampled: the best of the sample)
    out.best, out.best_bits = _text(lab, actor, best.kind, best.args), _bits(best, unit)
    out.played_bits, out.unit = _bits(mine, unit), unit
    if out.best_bits <= MIN_BITS:
        out.status, out.note = "nothing to learn", "no move open tells the seat anything"
        return out
    out.status = "rated"
    lost, share = out.best_bits - out.played_bits, out.played_bits / out.best_bits
    out.grade = "best" if lost <= MIN_BITS else next(
        (g for g, below, at_least in GRADES if share < below and lost >= at_least), "good")
    return out


def review_game(rep: Replay, budget: int | None = None, seed: int = 0,
                advance: Callable[[int], None] | None = None) -> Review:
    """Every move of a replayed log before its first error reviewed (see the module's docstring);
    ``budget``: solver counts per move's advice (:data:`lab.advice.MAX_COUNTS` by default);
    ``advance(1)`` after each move."""
    lab = Lab(rep.rules)
    limit = MAX_COUNTS if budget is None else budget
    stop = min((_error_move(rep, d) for d in rep.reporter.errors), default=len(rep.steps) + 1)
    stopped = ""
    if stop <= len(rep.steps):
        stopped = (f"moves from {stop} on are not reviewed: the log breaks the rules there ('ruleslawyer check' "
                   "says where)")
    moves: list[MoveReview] = []
    for step in rep.steps:
        if step.number >= stop:
            moves.append(_unrated(lab, step, "not reviewed", "after the log's first error"))
        else:
            try:
                moves.append(_review_move(lab, rep, step, limit, seed))
            except (AdviceError, SolverError, RuleError, FactError) as exc:
                moves.append(_unrated(lab, step, "not valued", f"no advice: {exc}"))
        if advance is not None:
            advance(1)
    return Review(rep.rules.canonical_name, limit, moves, _accuracy(rep.players, moves),
                  min(stop - 1, len(rep.steps)), stopped)


def _unrated(lab: Lab, step: Step, status: str, note: str) -> MoveReview:
    play = step.play
    args = _choices_of(lab, play) if play.kind in lab.kinds else {}
    return MoveReview(step.number, play.actor, play.kind, _text(lab, play.actor, play.kind, args), status, note=note)


def _error_move(rep: Replay, d: Any) -> int:
    """The move an error of the log stands in: its own number, else the move on its line (the one
    before it, for a move written over several lines); 1 for an error before the moves (the header,
    the records), past the last move for one after them (the end's records)."""
    if d.move:
        return int(d.move)
    line = d.position.line if d.position is not None and d.position.line else None
    if line is None or not rep.steps or line < rep.steps[0].position.line:
        return 1
    if line > rep.steps[-1].position.line:
        return len(rep.steps) + 1
    return max(s.number for s in rep.steps if s.position.line <= line)


def _accuracy(players: Sequence[str], moves: Sequence[MoveReview]) -> list[PlayerAccuracy]:
    out = {p: PlayerAccuracy(p) for p in players}
    for m in moves:
        acc = out.get(m.player)
        if acc is None:
            continue
        if m.status == "claim":
            acc.claims += 1
        elif m.status == "rated":
            acc.rated += 1
            acc.played_bits += m.played_bits or 0.0
            acc.best_bits += m.best_bits or 0.0
            if m.grade:
                acc.grades[m.grade] += 1
    return list(out.values())
