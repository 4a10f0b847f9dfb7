"""Each number and option is data: changing the YAML alone changes the behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.spec.loader import load_rules

from ..conftest import RULES
from .helpers import SUSPICION, Table


def table(overlay_path: str | None = None, variant: str = "4p") -> Table:
    house = [overlay_path] if overlay_path else []
    return Table(rules=load_rules("lady-alice", variant=variant, house=house))


def test_counters_per_space(overlay):
    t = table(overlay("parameters:\n  counters_per_space: 2\n"))
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert t("place", "Gordon", clue="compass") == [] and t("place", "John", clue="compass") == []
    assert t("place", "Audrey", clue="compass") == ["LA224"]
    base = table()
    base("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert [base("place", p, clue="compass") for p in ["Gordon", "John", "Audrey"]] == [[], [], []]


def test_counters_per_player_and_values(overlay):
    t = table(overlay("parameters:\n  counter_values: {1: 1, 5: 1}\n"))
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert t("place", "Gordon", clue="compass", value=5) == []
    t.deductions_all_pass()
    assert t("place", "Gordon", clue="compass", value=0) != []  # no zero counters any more
    t1 = table(overlay("parameters:\n  counter_values: {1: 1, 5: 1}\n"))
    t1("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert t1("place", "Gordon", clue="compass", value=0) == ["LA221"]
    t2 = table(overlay("parameters:\n  counter_values: {1: 1, 5: 1}\n"))
    t2("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert t2("place", "Gordon", clue="kingsley") == []
    for p in ["John", "Audrey", "Helen"]:
        t2("pass", p)
    assert t2("place", "Gordon", clue="baker") == []
    for p in ["John", "Audrey", "Helen"]:
        t2("pass", p)
    assert t2("place", "Gordon", clue="5pm") == ["LA222"]


def test_smiles_that_end_the_game(overlay):
    t = table(overlay("parameters:\n  every_smile: 3\n"))
    t("suspect", "Helen", clues=SUSPICION, smiles=3)
    assert t.state.ended
    base = table()
    base("suspect", "Helen", clues=SUSPICION, smiles=3)
    assert not base.state.ended and base.state.phase == "deductions"


def test_business_cards(overlay):
    t = table(overlay("parameters:\n  business_cards: 2\n"))
    t("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert len(t.state.vars["covered"]) == 2 and t.state.vars["business_cards"] == 0
    assert t("place", "Gordon", clue=SUSPICION[3]) == []  # not covered: the cards ran out


def test_base_file_edited_in_place(tmp_path: Path):
    text = (RULES / "lady-alice.yaml").read_text()
    edited = text.replace("  counters_per_space:\n    value: 4\n", "  counters_per_space:\n    value: 1\n", 1)
    assert edited != text
    path = tmp_path / "edited.yaml"
    path.write_text(edited)
    t = Table(rules=load_rules(str(path)))
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert t("place", "Gordon", clue="compass") == []
    assert t("place", "John", clue="compass") == ["LA224"]


@pytest.mark.parametrize("name", ["no-repeat", "two-counters", "unlimited-cards", "edition-fr", "no-early-accusation"])
def test_bundled_overlays_load_with_their_canonical_name(name):
    rules = load_rules("lady-alice", house=[str(RULES / "house" / f"{name}.yaml")])
    assert rules.canonical_name == f"lady-alice[players=4]+{name}"


def test_no_repeat_overlay_forbids_any_earlier_suspicion():
    other = ["baker", "place-2", "time-3", "object-2"]
    for house, expected in (([], []), ([str(RULES / "house" / "no-repeat.yaml")], ["LA212"])):
        t = Table(house=house)
        t("suspect", "Helen", clues=SUSPICION, smiles=1)
        t.deductions_all_pass()
        t("suspect", "Gordon", clues=other, smiles=1)
        t.deductions_all_pass()
        assert t("suspect", "John", clues=SUSPICION, smiles=1) == expected


def test_two_counters_overlay():
    t = Table(house=[str(RULES / "house" / "two-counters.yaml")])
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert [t("place", p, clue="compass") for p in ["Gordon", "John", "Audrey"]] == [[], [], ["LA224"]]


def test_unlimited_cards_overlay_covers_past_the_last_card(overlay):
    limited = table(overlay("parameters:\n  business_cards: 1\n"))
    limited("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert len(limited.state.vars["covered"]) == 1
    both = load_rules("lady-alice", house=[overlay("parameters:\n  business_cards: 1\n"),
                                           str(RULES / "house" / "unlimited-cards.yaml")])
    t = Table(rules=both)
    t("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert len(t.state.vars["covered"]) == 4


def test_edition_overlay_adds_aliases():
    rules = load_rules("lady-alice", house=[str(RULES / "house" / "edition-fr.yaml")])
    assert rules.find("clues", "LA  BOUSSOLE") == "compass"
    assert load_rules("lady-alice").find("clues", "la boussole") is None


def test_options_set_from_an_overlay(overlay):
    t = table(overlay("options:\n  place_on_covered: true\n  stack_own: false\n"))
    t("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert t("place", "Gordon", clue="compass") == []
    t.deductions_all_pass()
    t("suspect", "Gordon", clues=["baker", "place-2", "time-3", "object-2"], smiles=1)
    assert t("place", "John", clue="baker") == []
    t("pass", "Audrey"), t("pass", "Helen"), t("pass", "Gordon")
    assert t("place", "John", clue="baker") == ["LA226"]


def test_variants_resolve_their_numbers():
    got = {v: (r.param("counters_per_space"), r.param("every_smile"), r.param("accusation_size"),
               r.param("evidence_per_category"), r.param("doubled_category_bonus"))
           for v in ("3p", "4p", "5p") for r in [load_rules("lady-alice", variant=v)]}
    assert got == {"3p": (3, 3, 3, [0, 1, 1, 1], 0), "4p": (4, 4, 4, [1, 1, 1, 1], 0),
                   "5p": (5, 4, 4, [2, 1, 1, 1], 2)}
    assert load_rules("lady-alice", variant="5").variant == "5p"


def test_an_overlay_can_add_a_requirement_with_its_own_code(overlay):
    rules = load_rules("lady-alice", house=[str(RULES / "house" / "no-early-accusation.yaml")])
    for house, expected in ((rules, ["LA290"]), (None, [])):
        t = Table(rules=house) if house else Table()
        t("suspect", "Helen", clues=SUSPICION, smiles=1)
        assert t("accuse", "Gordon", clues=SUSPICION, smiles=1) == expected
    replaced = load_rules("lady-alice", house=[overlay(
        "moves:\n  place:\n    requires:\n      - {id: space-full, expr: 'len(spaces[move.clue]) < 1',"
        " code: LA224, message: one counter per space}\n")])
    t = Table(rules=replaced)
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    assert t("place", "Gordon", clue="compass") == [] and t("place", "John", clue="compass") == ["LA224"]
    assert [r.id for r in replaced.moves["place"].requires].count("space-full") == 1


def test_an_overlay_requirement_is_checked_like_the_base_ones(overlay):
    from ruleslawyer.spec.diagnostics import DiagnosticError

    bad = overlay("moves:\n  acuse:\n    requires:\n      - {id: x, expr: 'actr == turn', code: LA299, message: m}\n")
    with pytest.raises(DiagnosticError) as exc:
        load_rules("lady-alice", house=[bad])
    assert [d.code for d in exc.value.diagnostics] == ["RL128"]
    bad = overlay("moves:\n  accuse:\n    requires:\n      - {id: x, expr: 'actr == turn', code: LA299, message: m}\n")
    with pytest.raises(DiagnosticError) as exc:
        load_rules("lady-alice", house=[bad])
    assert [(d.code, d.position.line) for d in exc.value.diagnostics] == [("RL121", 7)]


def test_option_suspicion_ends_game(overlay):
    default = Table()
    default("suspect", "Helen", clues=SUSPICION, smiles=4)
    assert default.state.ended and default.state.vars["correct_suspector"] == "Helen"
    t = table(overlay("options:\n  suspicion_ends_game: false\n"))
    t("suspect", "Helen", clues=SUSPICION, smiles=4)
    assert not t.state.ended and t.state.phase == "deductions"


def test_option_known_red_herrings(overlay):
    for body, expected in (("", ["LA213"]), ("options:\n  known_red_herrings: none\n", [])):
        t = table(overlay(body)) if body else Table()
        t("suspect", "Helen", clues=SUSPICION, smiles=0)
        t.deductions_all_pass()
        t("suspect", "Gordon", clues=["baker", "place-2", "time-3", "object-2"], smiles=1)
        t.deductions_all_pass()
        assert t("suspect", "John", clues=SUSPICION, smiles=0) == expected


def test_option_accusation_covers(overlay):
    for body, covered in (("", 4), ("options:\n  accusation_covers: false\n", 0)):
        t = table(overlay(body)) if body else Table()
        t("suspect", "Helen", clues=SUSPICION, smiles=1)
        t("accuse", "Gordon", clues=["baker", "place-2", "time-3", "object-2"], smiles=0)
        assert len(t.state.vars["covered"]) == covered and t.state.out == ("Gordon",)


def test_option_reveal(overlay):
    for body, faces in (("", [True, False]), ("options:\n  reveal: none\n", [False, False])):
        t = table(overlay(body)) if body else Table()
        t("suspect", "Helen", clues=SUSPICION, smiles=1)
        t("place", "Gordon", clue="compass")
        t("place", "John", clue="compass")
        assert [tok.face_up for tok in t.state.spaces["compass"]] == faces


def test_when_the_cards_run_out_the_table_chooses_which_clues_get_them(overlay):
    path = overlay("parameters:\n  business_cards: 2\n")
    for covers, expected in ((SUSPICION[2:], []), (SUSPICION[:2], []), (SUSPICION[1:2], ["LA216"]),
                             (SUSPICION[:3], ["LA215"])):
        t = table(path)
        assert t("suspect", "Helen", clues=SUSPICION, smiles=0, covers=list(covers)) == expected
        if not expected:
            assert t.state.vars["covered"] == frozenset(covers) and t.state.vars["business_cards"] == 0
    t = table(path)
    t("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert t.state.vars["covered"] == frozenset(SUSPICION[:2])  # unrecorded: the first ones named
