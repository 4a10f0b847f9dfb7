"""rules/perfect-alibi.yaml: every option (each an ambiguity of the rulebook
or a variant) under its default and one alternative, the assistants'
powers as facts with their viewers, and the checker on random legal games.

The logs are the same 4-player table throughout (seating Yellow, Blue,
Green, Red, clockwise; Yellow plays first, so Red chooses an assistant
first); the hands, when recorded, are those of the rulebook examples of
``examples/perfect-alibi/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.spec.loader import load_rules

from .alibi_games import play

RULES = load_rules("perfect-alibi")

HEAD = """rules: perfect-alibi
{house}players: [Yellow, Blue, Green, Red]
first: Yellow
setup:
  colours: {{Yellow: Yellow, Blue: Blue, Green: Green, Red: Red}}
  face_up: [Bar 12, Restaurant T3, L4 T4]
{private}moves:
"""
HANDS = """private:
  hand:
    Yellow: [Solarium 6, L4 12, Restaurant T4]
    Blue: [Bar 6, Restaurant 12, Bar T3]
    Green: [Solarium 12, L4 T3, Bar T4]
    Red: [Restaurant 6, Solarium T3, L4 6]
  missing: Solarium T4
"""
RIVALS = "  rival: {Yellow: Cook, Blue: Psychiatrist, Green: Captain, Red: Journalist}\n"


def choose(red: str = "Cook", green: str = "Priest", blue: str = "Captain", yellow: str = "Journalist") -> str:
    return (f"  - {{choose: Red, assistant: {red}}}\n  - {{choose: Green, assistant: {green}}}\n"
            f"  - {{choose: Blue, assistant: {blue}}}\n  - {{choose: Yellow, assistant: {yellow}}}\n")


def log_text(moves: str, hands: bool = False, house: tuple[str, ...] = (), rivals: bool = False,
             end: str = "") -> str:
    houses = f"house: [{', '.join(house)}]\n" if house else ""
    private = (HANDS + (RIVALS if rivals else "")) if hands else ""
    return HEAD.format(house=houses, private=private) + moves + (f"end:\n  {end}\n" if end else "")


@pytest.fixture
def run(tmp_path: Path):
    """Check a log of the standard table, with options set by an overlay; the codes reported."""
    def go(moves: str, options: dict | None = None, hands: bool = False, rival: bool = False, end: str = "",
           report: bool = False):
        house = []
        if options:
            body = "\n".join(f"  {k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
            (tmp_path / "opts.yaml").write_text(f"ruleslawyer: 1\nextends: perfect-alibi\nname: opts\n"
                                                f"options:\n{body}\n")
            house.append("opts.yaml")
        if rival:
            house.append("rival")
        text = log_text(moves, hands, tuple(house), rival and hands, end)
        result = check_text(text, str(tmp_path / "log.yaml"))
        return result if report else [d.code for d in result.diagnostics]
    return go


def facts(moves: str, house: tuple[str, ...] = (), tmp_path: Path | None = None, options: dict | None = None):
    houses = list(house)
    if options:
        assert tmp_path is not None
        body = "\n".join(f"  {k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
        (tmp_path / "opts.yaml").write_text(f"ruleslawyer: 1\nextends: perfect-alibi\nname: opts\noptions:\n{body}\n")
        houses.append("opts.yaml")
    log, rules = parse_log_text(log_text(moves, house=tuple(houses)), str((tmp_path or Path(".")) / "log.yaml"))
    return replay(log, rules).facts()


ASK_BAR = "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar], answer: 2, shown: Bar 6}\n"


# -- every option: its default, and one alternative ------------------------------------

def test_rival(run):
    lie = choose(green="Cook", red="Priest") + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"12\"], answer: 0}\n" + \
        "  - {ask: Green, target: Yellow, symbol: wheel, asked: [Solarium, L4], answer: 1}\n"
    assert run(lie, hands=True) == ["PA310"]             # default: no Rival tiles, the truth is 2
    assert run(lie, hands=True, rival=True) == []         # Yellow's Rival tile is the Cook: 1 is a lie of one


def test_unforgiving(run):
    charge = choose() + ASK_BAR + "  - {accuse: Green, target: Blue, question: 5, mistake: false}\n"
    assert run(charge) == ["PA240"]
    assert run(charge, {"unforgiving": True}) == []


def test_ask_every_element(run):
    every = choose() + "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar, Restaurant, Solarium, L4], " \
        "answer: 3, shown: Bar 6}\n"
    assert run(every, hands=True) == []
    assert run(every, {"ask_every_element": False}, hands=True) == ["PA214"]


def test_choosing_order(run):
    clockwise = ("  - {choose: Blue, assistant: Captain}\n  - {choose: Green, assistant: Priest}\n"
                 "  - {choose: Red, assistant: Cook}\n  - {choose: Yellow, assistant: Journalist}\n")
    # the whole order the other way round: one mistake, one error (issue 12's recovery)
    assert run(choose()) == [] and run(clockwise) == ["PA203"]
    assert run(clockwise, {"choosing_order": "clockwise"}) == []
    assert run(choose(), {"choosing_order": "clockwise"}) == ["PA203"]


def test_own_colour_tile(run):
    # (The log records no draw: the display is unknown, so that every face-up tile is Yellow's is not checked.)
    question = choose() + "  - {ask: Yellow, target: Green, via: own-colour, asked: [\"12\"], answer: 1}\n"
    assert run(question) == ["PA213"]                                    # default: the tile's symbol binds
    assert run(question, {"own_colour_tile": "free"}) == []
    assert run(question.replace("via: own-colour,", "via: own-colour, symbol: clock,")) == []
    arrows = question.replace("via: own-colour,", "via: own-colour, symbol: clock, arrows: true,")
    assert run(arrows) == ["PA217"] and run(arrows, {"own_colour_tile": "free"}) == []


def test_own_colour_needs_every_face_up_tile_of_ones_colour(run):
    draws = ("  - {draw: Yellow, colour: Red, symbol: wheel}\n  - {draw: Yellow, colour: Yellow, symbol: clock}\n"
             "  - {draw: Yellow, colour: Yellow, symbol: wheel}\n  - {draw: Yellow, colour: Yellow, symbol: clock}\n")
    question = "  - {ask: Yellow, target: Green, via: own-colour, symbol: clock, asked: [\"12\"], answer: 1}\n"
    assert run(draws + choose() + question) == ["PA212"]                  # Red's wheel is face up
    tile = "  - {ask: Yellow, target: Red, symbol: wheel, asked: [Bar], answer: 0}\n"
    assert run(draws + choose() + tile) == []


def test_cook_vs_psychiatrist(run):
    moves = choose(blue="Psychiatrist", red="Captain", yellow="Cook") + \
        "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar], answer: 2, drawn: Restaurant 12}\n"
    assert run(moves) == ["PA220"]
    assert run(moves, {"cook_vs_psychiatrist": "draw"}) == []
    assert run(moves.replace(", drawn: Restaurant 12", ""), {"cook_vs_psychiatrist": "draw"}) == ["PA221"]


def test_priest_no_card_tells(tmp_path):
    moves = choose(yellow="Priest", green="Journalist") + \
        "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Solarium]}\n"
    default = [f for f in facts(moves, tmp_path=tmp_path) if f.source and f.source[0] == "move"]
    assert [(f.text, f.public) for f in default] == [("whether Blue showed Yellow a card", True)]
    assert "<= 1" in repr(default[0].formula) or "op='<='" in repr(default[0].formula)
    alternative = facts(moves, tmp_path=tmp_path, options={"priest_no_card_tells": False})
    assert [f for f in alternative if f.source and f.source[0] == "move"] == []
    shown = moves.replace("asked: [Solarium]}", "asked: [Solarium], shown: \"?\"}")
    both = facts(shown, tmp_path=tmp_path, options={"priest_no_card_tells": False})
    assert [f.text for f in both if f.source and f.source[0] == "move"] == ["whether Blue showed Yellow a card"]


def test_take_back(run):
    moves = choose() + "  - {swap: Yellow, assistant: Journalist}\n" + \
        ASK_BAR.replace("symbol: wheel,", "symbol: wheel, arrows: true,")
    assert run(moves) == ["PA217"]
    assert run(moves, {"take_back": True}) == []
    other = moves.replace("{swap: Yellow, assistant: Journalist}", "{swap: Yellow, assistant: Psychiatrist}")
    assert run(other) == []                                                   # an unused one is always fine


def test_captain_looks(tmp_path):
    # Green (the Journalist here) is shown a card by Yellow; Blue holds the Captain
    moves = choose(green="Journalist", yellow="Priest") + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"6\"], answer: 2, shown: L4 6}\n" + \
        "  - {ask: Green, target: Yellow, symbol: wheel, asked: [Solarium, L4], answer: 2, shown: Solarium 6}\n"

    def viewers(**options):
        return [f.viewers for f in facts(moves, tmp_path=tmp_path, options=options or None)
                if "showed Solarium" in (f.text or "")]
    assert viewers() == [frozenset({"Green", "Blue"})]
    assert viewers(captain_looks=False) == [frozenset({"Green"})]


def test_final_uses_assistants(run):
    # Yellow holds the Priest: her final question's answer is hers alone, so a spectator's log leaves it out
    moves = choose(yellow="Priest", green="Journalist") + \
        "  - {ask: Yellow, target: Blue, via: final, asked: [Solarium]}\n  - {guess: Yellow, card: Solarium T4, correct: true}\n"
    assert run(moves) == []
    assert run(moves, {"final_uses_assistants": False}) == ["PA219"]


def test_journalist_single(run):
    moves = choose() + "  - {ask: Yellow, target: Red, via: journalist, asked: [\"6\", \"12\"], answer: 2, drawn: \"?\"}\n"
    moves = choose() + "  - {ask: Yellow, target: Red, via: journalist, asked: [\"6\", \"12\"], answer: 2, shown: L4 6}\n"
    assert run(moves, hands=True) == []
    assert run(moves, {"journalist_single": True}, hands=True) == ["PA214"]


def test_guess_spoken(tmp_path):
    moves = choose() + "  - {guess: Green, card: Bar 6, correct: false}\n"
    [secret] = [f for f in facts(moves, tmp_path=tmp_path) if f.source and f.source[0] == "move"]
    assert secret.viewers == frozenset({"Green"})
    [spoken] = [f for f in facts(moves, tmp_path=tmp_path, options={"guess_spoken": True})
                if f.source and f.source[0] == "move"]
    assert spoken.public


def test_out_keeps_assistant(run):
    # Blue (the Psychiatrist) guesses wrong; asked later, she still shows no card
    moves = choose(blue="Psychiatrist", red="Captain") + "  - {guess: Blue, card: Bar 12, correct: false}\n" + \
        "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar], answer: 2}\n"
    assert run(moves, hands=True) == []
    assert run(moves, {"out_keeps_assistant": False}, hands=True) == ["PA221"]


def test_lie_beyond(run):
    # Green (the Cook) asks Yellow about her three cards' locations: the truth is 3, the lie 4 or 2
    moves = choose(green="Cook", red="Priest") + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"12\"], answer: 0}\n" + \
        "  - {ask: Green, target: Yellow, symbol: wheel, asked: [Solarium, L4, Restaurant], answer: 4, drawn: L4 12}\n"
    assert run(moves, hands=True, rival=True) == []
    assert run(moves, {"lie_beyond": "forbidden"}, hands=True, rival=True) == ["PA316"]
    assert run(moves.replace("answer: 4,", "answer: 2,"), {"lie_beyond": "forbidden"}, hands=True, rival=True) == []


def test_an_answer_beyond_the_hand_and_a_lie(run):
    # Hands of 3 (4 players): the truth is at most 3 and a lie adds 1 ("You lie by either
    # subtracting 1 from or adding 1 to the correct answer."), so 4 is the most an answer can say;
    # 5 is one mistake, reported once, at the answer, whatever the deal
    moves = choose(green="Cook", red="Priest") + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"12\"], answer: 0}\n" + \
        "  - {ask: Green, target: Yellow, symbol: wheel, asked: [Solarium, L4, Restaurant], answer: 5, drawn: L4 12}\n"
    assert run(moves, hands=True, rival=True) == ["PA219"]
    assert run(moves) == ["PA219"]


def test_lie_direction(tmp_path):
    # Green (the Cook) asks Yellow about three locations, answer 4 (as in test_lie_beyond).  Default:
    # no weight.  'uniform': a world weighs 1/k, k the directions open to Yellow in it (A19):
    # Yellow's Rival tile the Cook, 3 cards matching: one less or one more, k = 2; 0 matching: only
    # one more, k = 1; another tile: no lie due, the truth, k = 1; under lie_beyond 'forbidden', 3
    # matching of 3 held: only one less, k = 1.
    moves = choose(green="Cook", red="Priest") + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"12\"], answer: 0}\n" + \
        "  - {ask: Green, target: Yellow, symbol: wheel, asked: [Solarium, L4, Restaurant], answer: 4, drawn: L4 12}\n"
    assert not any(f.weighted for f in facts(moves, house=("rival",)))
    weighted = [f for f in facts(moves, ("rival",), tmp_path, {"lie_direction": "uniform"}) if f.weighted]
    assert [f.text.split(" answered")[0] for f in weighted] == ["Blue", "Red", "Yellow"]  # every answer under Rival
    last = weighted[-1]
    three = {"solarium-6": "hand:Yellow", "l4-12": "hand:Yellow", "restaurant-t4": "hand:Yellow"}
    none_matching = {"bar-6": "hand:Yellow", "bar-12": "hand:Yellow", "bar-t3": "hand:Yellow"}
    assert last.divisor({**three, "cook": "rival:Yellow"}) == 2
    assert last.divisor({**none_matching, "cook": "rival:Yellow"}) == 1
    assert last.divisor({**three, "cook": "rival:Blue"}) == 1
    forbidden = [f for f in facts(moves, ("rival",), tmp_path, {"lie_direction": "uniform", "lie_beyond": "forbidden"})
                 if f.weighted][-1]
    assert forbidden.divisor({**three, "cook": "rival:Yellow"}) == 1


def test_rival_on_every_question(run):
    # Green holds the Journalist and asks Red (whose Rival tile is the Journalist) without a tile
    moves = choose(green="Journalist", yellow="Priest", red="Cook") + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"12\"], answer: 0}\n" + \
        "  - {ask: Green, target: Red, via: journalist, asked: [Solarium], answer: 0}\n"
    assert run(moves, hands=True, rival=True) == []                             # a lie: the truth is 1
    assert run(moves, {"rival_on_every_question": False}, hands=True, rival=True) == ["PA310"]


def test_guess_any_time(run):
    moves = choose() + "  - {guess: Green, card: Solarium T4, correct: true}\n"
    assert run(moves) == []
    assert run(moves, {"guess_any_time": False}) == ["PA230"]
    final = choose() + "  - {ask: Yellow, target: Blue, via: final, asked: [Bar], answer: 2, shown: Bar 6}\n" + \
        "  - {guess: Yellow, card: Solarium T4, correct: true}\n"
    assert run(final, {"guess_any_time": False}) == []                          # right after a final question


def test_charge_any_time(run):
    moves = choose() + ASK_BAR + "  - {accuse: Green, target: Blue, question: 5, mistake: false}\n"
    assert run(moves, {"unforgiving": True}) == []
    assert run(moves, {"unforgiving": True, "charge_any_time": False}) == ["PA242"]


def test_last_standing_wins(run):
    moves = choose() + "".join(f"  - {{guess: {p}, card: Bar 6, correct: false}}\n" for p in ("Blue", "Green", "Red"))
    result = run(moves + "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar], answer: 2, shown: Bar 6}\n",
                 end="winner: Yellow", report=True)
    assert [d.code for d in result.diagnostics] == ["PA301"] and result.ended
    result = run(moves, {"last_standing_wins": False}, end="winner: Yellow", report=True)
    assert [d.code for d in result.diagnostics] == ["PA302"] and not result.ended


def test_every_option_is_tested_here_with_an_ambiguity_or_a_variant():
    tested = {name[5:] for name in globals() if name.startswith("test_")}
    assert set(RULES.options) <= tested
    for option in RULES.options.values():
        assert option.ambiguity or option.name in ("rival", "unforgiving"), option.name
        assert option.default == option.value and len(option.values) >= 2


# -- the assistants: who learns what ------------------------------------------------------

def test_a_public_answer_a_priest_answer_a_shown_card_and_a_cook_draw(tmp_path):
    moves = choose() + ASK_BAR + \
        "  - {ask: Blue, target: Red, symbol: clock, asked: [\"12\"], answer: 0}\n" + \
        "  - {ask: Green, target: Red, symbol: clock, asked: [\"6\"], answer: 2, shown: L4 6}\n" + \
        "  - {ask: Red, target: Yellow, symbol: wheel, asked: [Solarium, L4], answer: 2, drawn: Restaurant T4}\n"
    found = [(f.text, f.viewers) for f in facts(moves, tmp_path=tmp_path) if f.source and f.source[0] == "move"]
    assert found == [
        ("Blue answered 2 to Yellow for [Bar]", None),
        ("Blue showed Bar 6 o'clock to Yellow", frozenset({"Yellow", "Blue"})),        # Blue is the Captain
        ("Red answered 0 to Blue for [12 o'clock]", None),
        ("Red answered 2 to Green for [6 o'clock]", frozenset({"Green", "Red"})),       # Green is the Priest
        ("whether Red showed Green a card", None),
        ("Red showed Location 4, 6 o'clock to Green", frozenset({"Green", "Blue"})),
        ("Yellow answered 2 to Red for [Solarium, Location 4]", None),
        ("Red drew Restaurant, Time 4 from Yellow's hand", frozenset({"Red"})),  # never the Captain
    ]


def test_every_fact_concerns_one_players_zones_so_counting_stays_exact_and_fast():
    from ruleslawyer.solver import dp

    for n, kw in ((3, {}), (4, {"rival": True}), (5, {"unforgiving": True})):
        log, rules = parse_log_text(play(3, n, **kw), "game.yaml")
        rep = replay(log, rules)
        assert rep.reporter.diagnostics == []
        assert dp.applicable(rep.deal, rep.facts())


# -- random legal games ---------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("flags", [{}, {"rival": True}, {"unforgiving": True}, {"private": False},
                                   {"draws": False}], ids=["plain", "rival", "unforgiving", "spectator", "no-draws"])
def test_random_legal_games_are_clean(n, flags):
    for seed in range(3):
        text = play(100 + seed, n, **flags)
        report = check_text(text, "game.yaml")
        assert report.diagnostics == [], (seed, report.format_text(), text)
        assert report.ended and report.status == 0


# -- the commands ------------------------------------------------------------------------

def test_rules_validate_show_graph_and_explain(capsys):
    from ruleslawyer.checker.cli import main
    from ruleslawyer.checker.codes import explain, game_codes

    assert main(["rules", "validate", "perfect-alibi", "rival", "unforgiving"]) == 0
    assert capsys.readouterr().out == "perfect-alibi: ok\nrival: ok\nunforgiving: ok\n"
    for variant, hand in (("3p", 5), ("4p", 3), ("5p", 3)):
        assert main(["rules", "show", "perfect-alibi", "--variant", variant, "--house", "rival"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"perfect-alibi[players={variant[0]}]+rival") and f"hand_size         {hand}" in out
    assert main(["rules", "graph", "perfect-alibi"]) == 0
    graph = capsys.readouterr().out
    assert "assistants --> play: choose [len(vars.chosen) == n_players]" in graph
    assert "play --> play: choose [" not in graph and "play --> [*]: guess [move.correct]" in graph
    assert main(["rules", "explain", "perfect-alibi", "PA222"]) == 0
    assert "cards that was asked about" in capsys.readouterr().out
    for code in sorted(game_codes(RULES)):
        text = explain(code)
        assert text is not None and "Cites:" in text and f"perfect-alibi/violations/{code}.yaml" in text, code


def test_a_log_of_the_rival_deck_without_the_variant_is_unusable(run):
    report = check_text(log_text(choose(), hands=True, rivals=True), "log.yaml")
    assert report.status == 2 and [d.code for d in report.diagnostics] == ["LG101"]
    assert "does not deal" in report.diagnostics[0].message


def test_each_games_published_log_schema_is_up_to_date_and_takes_its_example_logs():
    import json

    import jsonschema
    import yaml

    from ruleslawyer.spec.logschema import game_log_schemas

    root = Path(__file__).resolve().parents[2]
    published = game_log_schemas(root)
    assert {p.parent.name for p in published} == {p.stem for p in (root / "rules").glob("*.yaml")}  # every game
    for path, schema in published.items():
        assert json.loads(path.read_text()) == json.loads(json.dumps(schema)), f"{path}: run spec/make_schema.py"
        validator = jsonschema.Draft202012Validator(schema)
        for log in sorted(path.parent.glob("*.yaml")):
            assert list(validator.iter_errors(yaml.safe_load(log.read_text()))) == [], log
    schema = json.loads((root / "examples" / "perfect-alibi" / "log.schema.json").read_text())
    bad = yaml.safe_load(log_text(choose() + "  - {ask: Yellow, target: Blue, via: jurnalist, asked: [Bar]}\n"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(bad))
    assert "setup" in schema["required"]
    # one schema for every variant: an answer of 6 (3 players: hands of 5, and a lie adding 1)
    # is taken, though the checker holds a 4-player log to at most 4 (test above)
    six = yaml.safe_load(log_text(choose() + "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar], answer: 6}\n"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(six)) == []


def test_a_treachery_uncovered_takes_back_the_wrong_answer(run, tmp_path):
    # Blue answers 0 about the Bar (she holds two Bar cards); Green charges her and wins
    wrong = choose() + "  - {ask: Yellow, target: Blue, symbol: wheel, asked: [Bar], answer: 0}\n" + \
        "  - {accuse: Green, target: Blue, question: 5, mistake: true}\n"
    report = run(wrong, {"unforgiving": True}, end="winner: Green", report=True)
    assert report.diagnostics == [] and report.ended
    # with the hands recorded, the wrong answer itself is reported; the charge is consistent
    assert run(wrong, {"unforgiving": True}, hands=True, end="winner: Green") == ["PA310"]
    # a charge over a right answer that claims a mistake cannot be
    right = wrong.replace("answer: 0}", "answer: 2, shown: Bar 6}")
    assert run(right, {"unforgiving": True}, hands=True, end="winner: Green") == ["PA313"]
    texts = [f.text for f in facts(wrong, tmp_path=tmp_path, options={"unforgiving": True})]
    assert "Blue answered 0 to Yellow for [Bar]" not in texts and "Blue's answer of move 5 was wrong" in texts
