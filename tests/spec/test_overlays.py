"""An overlay's ``change:`` may change anything a rule file declares, with the
merge the README's house-rule section documents: mappings merge key by key,
other values replace, ``$remove`` takes keys or items away, ``$add`` adds
items to a list (an item with the id of one there replaces it); every value
keeps the file and line that set it; mistakes are positioned diagnostics.
"""

from __future__ import annotations

from math import factorial
from pathlib import Path

import pytest

from ruleslawyer.checker.cli import show_json, show_text
from ruleslawyer.solver.engines import initial
from ruleslawyer.spec.deal import build_deal
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules, validate_file

from ..conftest import RULES
from .helpers import PLAYERS


def errors(path: str, **kw) -> list[tuple[str, str, int, int, str, str]]:
    """(code, file name, line, column, message, hint) of each diagnostic loading ``path`` gives."""
    with pytest.raises(DiagnosticError) as exc:
        load_rules("lady-alice", house=[path], **kw)
    return [(d.code, Path(d.position.path).name, d.position.line, d.position.column, d.message, d.hint or "")
            for d in exc.value.diagnostics]


def line_of(path: str, text: str) -> tuple[int, int]:
    """Line and column (1-based) of the first occurrence of ``text`` in a file: where a value was written."""
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if text in line:
            return n, line.index(text) + 1
    raise AssertionError(f"{text!r} not in {path}")


def test_a_mapping_merges_key_by_key_and_the_value_names_its_file(overlay):
    path = overlay("change:\n  parameters:\n    business_cards:\n      value: 20\n")
    rules = load_rules("lady-alice", house=[path])
    s = rules.params["business_cards"]
    assert s.value == 20 and s.set_by.startswith("house ")
    assert (Path(s.position.path).name, s.position.line, s.position.column) == \
        (Path(path).name, *line_of(path, "20"))
    # The keys not given stay the base's: its citation and its minimum.
    assert s.cite.quote == "28 of my business cards"
    assert errors(overlay("change:\n  parameters:\n    business_cards:\n      value: -1\n"))[0][0] == "RL130"
    # rules show says which file and line set it.
    row = next(line for line in show_text(rules, 200).splitlines() if "business_cards" in line)
    assert f"{Path(path).name}:{line_of(path, '20')[0]}:" in row
    assert show_json(rules)["parameters"]["business_cards"]["at"].endswith(
        f"{Path(path).name}:{':'.join(map(str, line_of(path, '20')))}")


def test_a_list_is_replaced_whole(overlay):
    # A mapping merges even in a value (one more counter of value 3); a list replaces.
    path = overlay("change:\n  parameters:\n    counter_values:\n      value: {3: 1}\n"
                   "    evidence_per_category:\n      value: [2, 1, 1, 0]\n")
    rules = load_rules("lady-alice", house=[path])
    assert rules.param("counter_values") == {0: 3, 1: 3, 2: 3, 3: 1}
    assert rules.param("evidence_per_category") == [2, 1, 1, 0]
    steps = overlay("change:\n  scoring:\n    steps:\n"
                    "      - {id: only, points: '1', cite: {src: rulebook, quote: 'The player with the most points "
                    "wins the game.'}}\n")
    assert [s.id for s in load_rules("lady-alice", house=[steps]).scoring.steps] == ["only"]


def test_remove_a_key_and_an_item_and_add_items(overlay):
    base = load_rules("lady-alice")
    ids = [s.id for s in base.scoring.steps]
    path = overlay("change:\n"
                   "  variants:\n    list:\n      $remove: [5p]\n"
                   "  scoring:\n    steps:\n      $remove: [VII-5p, IX]\n      $add:\n"
                   "        - {id: X, points: '1 if player == vars.correct_suspector else 0',"
                   " cite: {src: rulebook, quote: 'The player with the most points wins the game.'}}\n")
    rules = load_rules("lady-alice", house=[path])
    assert [s.id for s in rules.scoring.steps] == [i for i in ids if i not in ("VII-5p", "IX")] + ["X"]
    assert any(c == "RL127" for c, *_ in errors(path, variant="5p"))
    # The base is left as it was.
    assert [s.id for s in load_rules("lady-alice").scoring.steps] == ids
    assert load_rules("lady-alice", variant="5p").param("players") == 5


def test_an_added_item_with_an_id_already_there_replaces_it_where_it_stands(overlay):
    ids = [s.id for s in load_rules("lady-alice").scoring.steps]
    path = overlay("change:\n  scoring:\n    steps:\n      $add:\n"
                   "        - {id: VIII, points: '5 if player == vars.correct_suspector else 0',"
                   " cite: {src: rulebook, quote: 'The player with the most points wins the game.'}}\n")
    steps = load_rules("lady-alice", house=[path]).scoring.steps
    assert [s.id for s in steps] == ids
    step = steps[ids.index("VIII")]
    assert step.expr.source.startswith("5 if") and Path(step.position.path).name == Path(path).name


def test_remove_then_give_replaces_a_mapping_whole(overlay):
    path = overlay("change:\n  options:\n    repeat:\n      $remove: [ambiguity]\n      default: any\n"
                   "  tokens:\n    $remove: [plural]\n")
    rules = load_rules("lady-alice", house=[path])
    assert rules.options["repeat"].ambiguity is None and rules.option("repeat") == "any"
    assert rules.options["repeat"].set_by.startswith("house ")
    assert rules.tokens.plural == "counters"  # no plural: the noun and an s


def test_a_new_category_of_clues(overlay):
    # A fifth category of eight clues, five players, one piece of evidence of each category.
    clues = "".join(f"        - {{id: motive-{i}, name: 'Motive {i}', category: motive}}\n" for i in range(1, 9))
    path = overlay("change:\n  components:\n    categories:\n      list:\n        $add:\n"
                   "          - {id: motive, name: Motives}\n"
                   "    clues:\n      list:\n        $add:\n" + clues.replace("        - ", "          - ") +
                   "parameters:\n  players: 5\n  evidence_per_category: [1, 1, 1, 1, 1]\n  suspicion_size: 5\n"
                   "  accusation_size: 5\n  every_smile: 5\n  counters_per_space: 5\n")
    rules = load_rules("lady-alice", house=[path])
    assert len(rules.components["clues"].items) == 40 and rules.components["categories"].items[-1] == "motive"
    assert rules.find("clues", "motive 3") == "motive-3" and rules.items["motive-3"].attrs == {"category": "motive"}
    deal = build_deal(rules, PLAYERS[5])
    # By hand: one clue of eight from each of five categories, handed to five players.
    assert initial(deal).solution_count() == 8 ** 5
    assert deal.deals() == 8 ** 5 * factorial(5)


def test_a_deal_size_and_an_observation_change(overlay):
    # Two pieces of evidence a hand, four categories giving two each; the verdict is now seen by nobody's
    # folder but the table's count, unchanged; a suspicion's observation says another sentence.
    path = overlay("parameters:\n  evidence_per_player: 2\n  evidence_per_category: [2, 2, 2, 2]\n"
                   "change:\n  moves:\n    suspect:\n      observe:\n"
                   "        - fact: 'count(hand(), move.clues) == move.smiles'\n"
                   "          seen_by: everyone\n          says: '{move.smiles} smile(s)'\n"
                   "          cite: {src: rulebook, quote: 'you must ALL take your Verdict folders.'}\n")
    rules = load_rules("lady-alice", house=[path])
    observe = rules.moves["suspect"].observe
    assert len(observe) == 1 and observe[0].says.text() == "{move.smiles} smile(s)"
    deal = build_deal(rules, PLAYERS[4])
    assert [z.size for z in deal.zones] == [2, 2, 2, 2, 24]
    # By hand: C(8,2)^4 evidence sets, 8!/(2!^4) ways to hand them out two by two.
    assert initial(deal).solution_count() == 28 ** 4
    assert deal.deals() == 28 ** 4 * factorial(8) // 2 ** 4


def test_names_replace_the_printed_name_and_keep_the_old_one_as_an_alias(overlay):
    path = overlay("names:\n  place-2: Victoria Station\n  object-2: a pocket watch\n")
    rules = load_rules("lady-alice", house=[path])
    assert rules.name("place-2") == "Victoria Station" and rules.name("object-2") == "a pocket watch"
    for text in ("victoria station", "Place 2", "Place 2 (placeholder)", "P2"):  # the old names still read
        assert rules.find("clues", text) == "place-2"
    assert "Victoria Station" in [i["name"] for i in show_json(rules)["components"]["clues"]["items"]]
    clash = overlay("names:\n  place-2: Mary Kingsley\n")
    assert [(c, line) for c, _f, line, *_ in errors(clash)] == [("RL126", 5)]
    missing = overlay("names:\n  place-22: Victoria Station\n")
    (code, _f, line, _c, _m, hint), = errors(missing)
    assert (code, line) == ("RL126", 5) and "place-2" in hint


def test_an_item_replaced_under_change_keeps_its_old_names_as_aliases(overlay):
    # rules/lady-alice.yaml: place-2 is printed "Place 2", aliases P2 and "Place 2 (placeholder)"
    path = overlay("change:\n  components:\n    clues:\n      list:\n        $add:\n"
                   "          - {category: place, id: place-2, name: Victoria Station, aliases: [Victoria]}\n")
    rules = load_rules("lady-alice", house=[path])
    assert rules.name("place-2") == "Victoria Station"
    assert rules.items["place-2"].aliases == ("Victoria", "Place 2", "P2", "Place 2 (placeholder)")
    for text in ("Victoria", "place 2", "P2", "Place 2 (placeholder)"):
        assert rules.find("clues", text) == "place-2"
    clash = overlay("change:\n  components:\n    clues:\n      list:\n        $add:\n"
                    "          - {category: place, id: place-2, name: Mary Kingsley}\n")
    assert [c for c, *_ in errors(clash)]                                # a name another item has: an error


def test_unknown_keys_are_errors_with_a_did_you_mean(overlay):
    deep = overlay("change:\n  deal:\n    decks:\n      clues:\n        zones:\n          hand:\n            sise: 2\n")
    (code, name, line, col, msg, hint), = errors(deep)
    assert (code, name, line, col) == ("RL101", Path(deep).name, 10, 13) and "'size'" in hint
    top = overlay("change:\n  scorin:\n    steps: []\n")
    (code, _n, line, col, _m, hint), = errors(top)
    assert (code, line, col) == ("RL101", 5, 3) and "'scoring'" in hint
    word = overlay("change:\n  variants:\n    list:\n      $remvoe: [5p]\n")
    (code, _n, line, col, _m, hint), = errors(word)
    assert (code, line, col) == ("RL101", 7, 7) and "'$remove'" in hint
    in_list = overlay("change:\n  scoring:\n    steps:\n      $ad: []\n")
    (code, _n, line, _c, _m, hint), = errors(in_list)
    assert (code, line) == ("RL101", 7) and "'$add'" in hint


def test_nothing_to_remove_is_an_error_with_a_did_you_mean(overlay):
    key = overlay("change:\n  variants:\n    list:\n      $remove: [6p]\n")
    (code, _n, line, col, msg, hint), = errors(key)
    assert (code, line, col) == ("RL143", 7, 17) and "'6p'" in msg and ("5p" in hint or "4p" in hint)
    item = overlay("change:\n  scoring:\n    steps:\n      $remove: [VII-6p]\n")
    (code, _n, line, col, msg, hint), = errors(item)
    assert (code, line, col) == ("RL143", 7, 17) and "'VII-5p'" in hint
    not_a_list = overlay("change:\n  scoring:\n    steps:\n      $remove: IX\n")
    assert [c for c, *_ in errors(not_a_list)] == ["RL102"]


def test_what_a_change_breaks_is_reported_where_it_was_written(overlay):
    # A zone size that no longer adds up, an expression naming an unknown parameter.
    path = overlay("change:\n  moves:\n    pass:\n      requires:\n        $add:\n"
                   "          - {id: x, expr: 'params.counter_per_space > 0', code: LA299, message: m,"
                   " cite: {src: rulebook, quote: 'You may decide not to place a counter'}}\n")
    (code, name, line, *_rest), = errors(path)
    assert (code, name, line) == ("RL122", Path(path).name, 9)


def test_overlays_apply_in_order(overlay):
    first = overlay("change:\n  parameters:\n    business_cards: {value: 20}\n")
    second = overlay("change:\n  parameters:\n    business_cards: {value: 10}\n")
    rules = load_rules("lady-alice", house=[first, second])
    assert rules.param("business_cards") == 10 and Path(rules.params["business_cards"].position.path) == Path(second)
    # The shorthand parameters: sets the value in play over the declaration, whatever the variant.
    both = overlay("parameters:\n  business_cards: 5\nchange:\n  parameters:\n    business_cards: {value: 20}\n")
    assert load_rules("lady-alice", house=[both]).param("business_cards") == 5


def test_every_bundled_overlay_still_validates():
    for path in sorted((RULES / "house").glob("*.yaml")):
        assert validate_file(str(path)) == [], path.name


def test_a_remove_of_a_mapping_or_a_list_is_refused(overlay):
    for body in ("change:\n  variants:\n    list:\n      $remove: [{a: 1}]\n",
                 "change:\n  scoring:\n    steps:\n      $remove: [[IX]]\n",
                 "change:\n  $remove: [[tokens]]\n"):
        found = errors(overlay(body))
        assert [(c, line) for c, _f, line, *_ in found] == [("RL102", 7 if "list" in body or "steps" in body else 5)]


def test_a_change_that_does_not_apply_and_an_unknown_key_are_reported_in_one_round(overlay):
    path = overlay("change:\n  variants:\n    list:\n      $remove: [6p]\n"
                   "  deal:\n    decks:\n      clues:\n        zones:\n          hand: {sise: 2}\n")
    assert [(c, line) for c, _f, line, *_ in errors(path)] == [("RL143", 7), ("RL101", 12)]
