"""Of a kind whose every choice is listed, the advice values only those the mover's requirements
allow (``lab.advice.LISTED_LEGAL``, a staged search): the same advice, every field, as listing
every choice and finding the others illegal by completing each (the reference), on a position of
each rule file in rules/ (its examples' clean logs)."""

from __future__ import annotations

import random
from pathlib import Path
from unittest.mock import patch

import pytest

from ruleslawyer.lab import advice
from ruleslawyer.lab.advice import value_moves
from ruleslawyer.lab.bots import Turn
from ruleslawyer.solver.engines import initial

from .test_outcomes import _setting

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))
AT = {"perfect-alibi": ("clean-5p.yaml", 13), "lady-alice": ("clean-4p.yaml", 4), "clue": ("clean-3p.yaml", 3)}


@pytest.mark.parametrize("game", GAMES)
def test_only_the_allowed_choices_listed_give_the_same_advice(game):
    log, at = AT[game]
    rep, lab, state, mover, kinds, facts = _setting(ROOT / "examples" / game / log, at)
    out = []
    for listed_legal in (True, False):
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, initial(rep.deal).with_facts(facts))
        with patch.object(advice, "LISTED_LEGAL", listed_legal):
            out.append(value_moves(turn, max_choices=5000, budget=100000).to_json())
    fast, every = out
    assert fast == every
    assert fast["moves"]
