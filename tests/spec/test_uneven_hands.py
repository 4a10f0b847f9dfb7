"""Zone sizes by seat (issue 22): a per-player zone's size may read ``seat`` (its owner's
place in the seating order) and ``n_players``; Clue's two editions of uneven hands are an
option of its rule file, not engine code."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.spec.deal import build_deal
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

# By hand: 18 cards outside the envelope.  Dealt to the end, the first 18 % n seats get one
# more; the face-up edition gives 18 // n to each and lays the rest face up.
FIRST_SEATS = {3: [6, 6, 6], 4: [5, 5, 4, 4], 5: [4, 4, 4, 3, 3], 6: [3] * 6}
FACE_UP = {3: ([6, 6, 6], 0), 4: ([4, 4, 4, 4], 2), 5: ([3] * 5, 3), 6: ([3] * 6, 0)}


def _face_up(tmp_path):
    overlay = tmp_path / "face-up.yaml"
    overlay.write_text("ruleslawyer: 1\nextends: clue\nname: face-up\noptions:\n  uneven_hands: face-up\n")
    return str(overlay)


def _sizes(rules, n):
    deal = build_deal(rules, [f"P{i + 1}" for i in range(n)])
    return [deal.zone(f"hand:P{i + 1}").size for i in range(n)], deal.zone("leftover").size, deal.zone("envelope").size


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_default_deals_every_card_the_first_seats_one_more(n):
    assert load_rules("clue").options["uneven_hands"].value == "first-seats"
    assert _sizes(load_rules("clue", variant=f"{n}p"), n) == (FIRST_SEATS[n], 0, 3)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_face_up_edition_lays_the_cards_left_over_face_up(tmp_path, n):
    rules = load_rules("clue", variant=f"{n}p", house=[_face_up(tmp_path)])
    hands, left, envelope = _sizes(rules, n)
    assert (hands, left, envelope) == (*FACE_UP[n], 3)


def test_a_log_of_the_face_up_edition_records_the_cards_face_up(tmp_path):
    overlay = _face_up(tmp_path)
    head = (f"rules: clue\nhouse: [{overlay}]\nvariant: 4p\nplayers: [Ann, Ben, Cat, Dan]\n")
    good = head + "setup:\n  face_up: [Rope, Hall]\nmoves:\n  - {suggest: Ann, suspect: Plum, weapon: Rope, room: Study}\n"
    report = check_text(good, str(tmp_path / "good.yaml"))
    assert report.status == 0, report.format_text()
    # a face-up card is not in any hand: a player who shows it breaks the deal
    bad = good + "  - {show: Ben, card: Rope}\n"
    report = check_text(bad, str(tmp_path / "bad.yaml"))
    assert report.status == 1 and "CL311" in report.format_text(), report.format_text()


def test_hand_sizes_by_seat_are_checked_against_a_recorded_hand(tmp_path):
    """The third seat of four holds 4 cards by default: a record of 5 is not a possible deal."""
    text = ("rules: clue\nvariant: 4p\nplayers: [Ann, Ben, Cat, Dan]\nprivate:\n"
            "  hand: {Cat: [Plum, Rope, Hall, Study, Lounge]}\nmoves: []\n")
    report = check_text(text, str(tmp_path / "five.yaml"))
    assert report.status != 0, report.format_text()


def test_seat_is_read_only_by_zones_of_one_player(tmp_path):
    """A zone of the table has no seat: reading it there is an unknown name, positioned."""
    text = open(load_rules("clue").files[0]).read()
    assert 'size: "sum(params.envelope)"' in text
    path = tmp_path / "bad-seat.yaml"
    path.write_text(text.replace('size: "sum(params.envelope)"', 'size: "sum(params.envelope) + seat"'))
    with pytest.raises(DiagnosticError) as info:
        load_rules(str(path))
    found = [d for d in info.value.diagnostics if d.code == "RL121" and "'seat'" in d.message]
    assert found and found[0].position.path == str(path) and found[0].position.line > 0
