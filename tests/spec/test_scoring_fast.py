"""Scoring (spec/scoring.py) against expectations it does not compute itself: the
endings of simulated games counted by a plain reference written here, and a
hand-made scoring section whose points are counted by hand.

The second part pins what a faster scoring must keep: the rule file's functions
see the board as the steps leave it, a step's names (``t``, ``player``) do not
reach the next step, a step that ignores ``player`` gives everyone the same, and
the caller's state is never changed.
"""

from __future__ import annotations

import contextlib
import dataclasses

import pytest

from ruleslawyer.lab import game
from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.spec.expr import compile_expr, evaluations
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.machine import Machine, RuleError, State
from ruleslawyer.spec.model import Function, Ruleset, ScoringStep
from ruleslawyer.spec.scoring import UnknownValues, score

from .helpers import ENDING_SOLUTION, scored_ending

SOLUTION = ENDING_SOLUTION


# -- simulated endings against a plain count --------------------------------------------

def _reference(rules: Ruleset, state: State, solution: list[str]) -> tuple[dict[str, int], tuple[str, ...], dict]:
    """Steps I-IX and the winners of the rulebook, counted directly (scores, winners, removed)."""
    order = list(rules.items)
    chosen = sorted(set(solution), key=order.index)
    tokens = [t for stack in state.spaces.values() for t in stack]
    removed = {"II": [t for t in tokens if t.space not in chosen]}
    tokens = [t for t in tokens if t.space in chosen]
    removed["III"] = [t for t in tokens if t.owner in state.out]
    tokens = [dataclasses.replace(t, face_up=True) for t in tokens if t.owner not in state.out]  # IV
    removed["V"] = [t for t in tokens if t.value == 0]
    tokens = [t for t in tokens if t.value != 0]

    def on(player: str, space: str) -> bool:
        return any(t.owner == player and t.space == space for t in tokens)

    pairs = [[c for c in chosen if rules.items[c].attrs["category"] == k] for k in rules.components["categories"].items]
    scores = {}
    for p in state.players:
        n = sum(t.value for t in tokens if t.owner == p)
        n += rules.param("all_clues_bonus") if all(on(p, c) for c in chosen) else 0
        n += rules.param("doubled_category_bonus") if any(
            len(pair) == 2 and all(on(p, c) for c in pair) for pair in pairs) else 0
        n += rules.param("suspicion_bonus") if p == state.vars["correct_suspector"] else 0
        n += rules.param("accusation_bonus") if p == state.vars["correct_accuser"] else 0
        scores[p] = n
    eligible = [p for p in state.players if p not in state.out]
    if state.vars["end_reason"] == "only one player left":
        winners = eligible
    else:
        best = [p for p in eligible if scores[p] == max(scores[q] for q in eligible)]
        winners = [p for p in best if p == state.vars["correct_accuser"]] or best
    return scores, tuple(winners), removed


def _endings(monkeypatch: pytest.MonkeyPatch, variant: str, games: int) -> tuple[Lab, list]:
    rules = load_rules("lady-alice", variant=variant)
    lab = Lab(rules)
    bots = parse_bots("random:accuse=0.05", rules.param("players"), list(rules.moves))
    seen: list = []
    real = game._result

    def keep(lab_: Lab, state: State, solution):  # type: ignore[no-untyped-def]
        seen.append((state, list(solution)))
        return real(lab_, state, solution)
    monkeypatch.setattr(game, "_result", keep)
    for i in range(games):
        game.play_game(lab, bots, 7, i, 300, keep_log=False, track=False)
    return lab, [(s, sol) for s, sol in seen if s.ended]


@pytest.mark.parametrize("variant", ["3p", "4p", "5p"])
def test_simulated_endings_score_as_a_plain_count(monkeypatch: pytest.MonkeyPatch, variant: str) -> None:
    lab, endings = _endings(monkeypatch, variant, 12)
    assert len(endings) >= 10
    for state, solution in endings:
        before = {c: tuple(stack) for c, stack in state.spaces.items()}
        scores, winners, removed = _reference(lab.rules, state, solution)
        for ctx in (evaluations, contextlib.nullcontext):
            with ctx():
                table = score(lab.machine, state, solution)
            assert dict(table.scores) == scores
            assert table.winners == winners
            assert {s.id: list(s.removed) for s in table.steps if s.kind == "remove"} == removed
            assert sum(sum(s.points.values()) for s in table.steps) == sum(scores.values())
        assert state.spaces == before  # the caller's state is not changed


# -- a hand-made scoring section --------------------------------------------------------

def _machine(rules: Ruleset, steps: list[tuple[str, str, str | None]],
             winners: str = "[p for p in players if score[p] == best]") -> Machine:
    """The rules with this scoring section and two functions: ``mine(p)``, p's tokens on the
    board, and ``peek()``, which reads a name of the scoring steps."""
    assert rules.scoring is not None
    cite = rules.scoring.steps[0].cite
    mine = Function("mine", ("p",), compile_expr("len([t for t in tokens if t.owner == p])"), cite)
    peek = Function("peek", (), compile_expr("len(solution)"), cite)
    section = dataclasses.replace(
        rules.scoring, steps=tuple(ScoringStep(i, k, None if e is None else compile_expr(e), cite) for i, k, e in steps),
        winners=compile_expr(winners), define=(("best", compile_expr("max(score[p] for p in players)")),))
    return Machine(dataclasses.replace(rules, scoring=section, functions={**rules.functions, "mine": mine, "peek": peek}))


def test_functions_and_token_names_see_the_board_as_the_steps_leave_it() -> None:
    t = scored_ending()
    machine = _machine(t.rules, [
        ("S", "show_solution", None),
        ("A", "remove", "t.space not in solution"),          # Gordon's baker
        ("B", "points", "mine(player)"),
        ("C", "points", "tokens_left(player)"),
        ("D", "points", "len(spaces['waterloo-station']) + len(solution)"),  # the same for all
        ("E", "remove", "t.owner in out"),                   # John's waterloo-station
        ("F", "points", "mine(player) * 10 + len(tokens) + len(spaces['waterloo-station'])"),
        ("G", "points", "tokens_left(player)"),
    ])
    assert machine.per_player == 9  # nine counters each (the tokens_left counts below)
    tokens_before = list(t.state.token_list())
    table = score(machine, t.state, SOLUTION)
    points = {s.id: dict(s.points) for s in table.steps if s.kind == "points"}
    assert points["B"] == {"Helen": 1, "Gordon": 0, "John": 1, "Audrey": 2}
    assert points["C"] == {"Helen": 8, "Gordon": 9, "John": 8, "Audrey": 7}
    assert points["D"] == {"Helen": 6, "Gordon": 6, "John": 6, "Audrey": 6}
    assert points["F"] == {"Helen": 14, "Gordon": 4, "John": 4, "Audrey": 24}
    assert points["G"] == {"Helen": 8, "Gordon": 9, "John": 9, "Audrey": 7}
    assert [(x.owner, x.space) for s in table.steps for x in s.removed] == [
        ("Gordon", "baker"), ("John", "waterloo-station")]
    assert dict(table.scores) == {"Helen": 37, "Gordon": 28, "John": 28, "Audrey": 46}
    assert table.winners == ("Audrey",)
    assert [s.id for s in table.steps] == ["S", "A", "B", "C", "D", "E", "F", "G"]
    assert t.state.token_list() == tokens_before and len(t.state.spaces["baker"]) == 1


def test_reveal_all_turns_every_token_and_later_steps_see_it() -> None:
    t = scored_ending()
    machine = _machine(t.rules, [("R", "reveal_all", None), ("P", "points", "len([t for t in tokens if t.face_up])")])
    before = list(t.state.token_list())
    table = score(machine, t.state, SOLUTION)
    assert dict(table.scores) == {"Helen": 5, "Gordon": 5, "John": 5, "Audrey": 5}
    assert t.state.token_list() == before


@pytest.mark.parametrize("steps, message", [
    # a step's own names do not reach the next step
    ([("P", "points", "1 if player else 0"), ("R", "remove", "t.owner == player")],
     "scoring step R: t.owner == player: unknown name 'player'"),
    ([("R", "remove", "false"), ("P", "points", "1 if t else 0")], "scoring step P: 1 if t else 0: unknown name 't'"),
    # nor the solution before it is shown
    ([("R", "remove", "t.space in solution"), ("S", "show_solution", None)],
     "scoring step R: t.space in solution: unknown name 'solution'"),
    # nor the rule file's functions, which read the board's names only
    ([("S", "show_solution", None), ("P", "points", "mine(player) + peek()")],
     "scoring step P: mine(player) + peek(): unknown name 'solution'"),
    ([("S", "show_solution", None), ("P", "points", "mine(player) + uncovered(solution)[9]")],
     "scoring step P: mine(player) + uncovered(solution)[9]: IndexError: list index out of range"),
])
def test_a_failing_expression_names_its_step(steps: list, message: str) -> None:
    t = scored_ending()
    with pytest.raises(RuleError) as err:
        score(_machine(t.rules, steps), t.state, SOLUTION)
    assert str(err.value) == message


def test_points_read_every_players_score_so_far_and_the_winners_read_the_last() -> None:
    t = scored_ending()
    machine = _machine(t.rules, [("A", "points", "mine(player)"), ("B", "points", "sum(score[p] for p in players)"),
                                 ("C", "points", "score[player] * 2")])
    table = score(machine, t.state, SOLUTION)
    # mine: Helen 1, Gordon 1, John 1, Audrey 2 (5 in all); B: 5 each; C: twice what each has
    assert dict(table.scores) == {"Helen": 18, "Gordon": 18, "John": 18, "Audrey": 21}
    assert table.winners == ("Audrey",)


def test_unknown_values_are_named_by_the_first_step_that_needs_them() -> None:
    t = scored_ending()
    state = t.state.copy()
    hidden = next(x for x in state.token_list() if x.owner == "Audrey" and x.space == "kingsley")
    state.spaces = {c: tuple(dataclasses.replace(x, value=None) if x is hidden else x for x in stack)
                    for c, stack in state.spaces.items()}
    machine = _machine(t.rules, [("A", "remove", "t.owner == 'Gordon'"), ("P", "points", "mine(player)"),
                                 ("R", "reveal_all", None)])
    with pytest.raises(UnknownValues) as err:
        score(machine, state, SOLUTION)
    assert err.value.step == "P"
    assert [(x.owner, x.space, x.value) for x in err.value.tokens] == [("Audrey", "kingsley", None)]
    table = score(machine, state, SOLUTION, values={hidden.order: 2})
    assert dict(table.scores) == {"Helen": 1, "Gordon": 0, "John": 1, "Audrey": 2}
