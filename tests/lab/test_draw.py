"""The fast way a random bot completes a move's outcomes (``Lab.draw``: a search that
stops at the first completion) against the plain enumeration of every completion
(``Lab.completions``) and against the state machine itself.

In states met along random games of both games (Perfect Alibi with its Rival
house rule too), for mover's choices drawn at random:

* ``draw`` finds a completion exactly when the enumeration lists one;
* every completion it draws is one the enumeration lists, is legal for the
  state machine (``Machine.check``: no violation), and every fact it lets
  anyone observe is true in the deal;
* drawn often enough, it reaches every value of the first outcome that the
  enumeration offers (the values are drawn uniformly among those that leave a
  completion, so none is out of reach).
"""

from __future__ import annotations

import random

import pytest

from ruleslawyer.lab.bots import Turn, parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import opening, seat_names
from ruleslawyer.spec.loader import load_rules

CASES = [("lady-alice", "4p", []), ("lady-alice", "3p", ["unlimited-cards"]),
         ("perfect-alibi", "4p", []), ("perfect-alibi", "3p", ["rival"])]


def _key(play):
    return play.kind, play.actor, tuple(sorted((k, repr(v)) for k, v in play.args.items()))


@pytest.mark.parametrize("game,variant,house", CASES)
def test_draw_agrees_with_the_enumeration_and_the_state_machine(game, variant, house):
    rules = load_rules(game, variant=variant, house=house)
    lab = Lab(rules)
    players = seat_names(rules.param("players"))
    rng = random.Random(f"draw:{game}:{variant}")
    bots = parse_bots("random", len(players), list(rules.moves))
    world, setup = opening(lab, players, rng)
    state = lab.machine.start(players, players[0], setup=setup) if setup else lab.machine.start(players, players[0])
    compared = outcomes = 0
    for _move in range(60):
        open_ = lab.actors(state)
        if not open_ or state.ended:
            break
        for actor, kinds in open_.items():
            for kind in kinds:
                for _try in range(3):
                    args = lab.sample_args(state, actor, kind, rng)
                    listed = {_key(p): p for p in lab.completions(state, actor, kind, args, world, rng)}
                    drawn = [lab.draw(state, actor, kind, args, world, random.Random(i)) for i in range(12)]
                    compared += 1
                    if not listed:
                        assert all(d is None for d in drawn), (kind, args)
                        continue
                    assert all(d is not None for d in drawn), (kind, args)
                    for play in drawn:
                        assert _key(play) in listed, (play, sorted(listed))
                        assert not lab.machine.check(state, play), play
                        for fact in lab.machine.observations(state, play):
                            assert fact.formula.holds(world), (play, fact)
                    names = [p.name for p in lab.kinds[kind].outcome]
                    if names:
                        outcomes += 1
                        offered = {repr(p.args.get(names[0])) for p in listed.values()}
                        reached = {repr(d.args.get(names[0])) for d in drawn}
                        more = (lab.draw(state, actor, kind, args, world, random.Random(100 + i))
                                for i in range(40 * len(offered)))
                        reached |= {repr(d.args.get(names[0])) for d in more}
                        assert reached == offered, (kind, args, reached, offered)
        # go on with a move of the game's own bots
        actor = lab.mover(state, open_, rng)

        play = bots[players.index(actor)].choose(Turn(lab, state, actor, open_[actor], world, rng, lab.machine.deal(players)))
        if play is None:
            break
        state = lab.apply(state, play)[0].state
    assert compared > 20 and outcomes > 0
