"""The generic diagnostic codes (input and rule files), for ``ruleslawyer explain``.

Game codes (legality, consistency, scoring) are declared by each rule file
next to the rule they enforce; these are the ones every file can get.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CodeInfo:
    code: str
    stage: str
    meaning: str
    example: str


_CODES = [
    CodeInfo("RL001", "input", "The file is missing, a directory or unreadable; or no rule set has that name.",
             "ruleslawyer rules validate nosuch.yaml"),
    CodeInfo("RL002", "input", "The file is empty, larger than the size limit (RULESLAWYER_MAX_BYTES), or not UTF-8.",
             "printf '\\xff\\xfe' > bad.yaml"),
    CodeInfo("RL003", "syntax", "Malformed YAML (or more than one document).", "players: [Helen, Gordon"),
    CodeInfo("RL004", "syntax", "A key given twice in one mapping (YAML parsers usually keep the last silently).",
             "players: 4\nplayers: 5"),
    CodeInfo("RL005", "syntax", "Nesting deeper than the limit (RULESLAWYER_MAX_DEPTH, default 64).", "a: [[[[[[...]]]]]]"),
    CodeInfo("RL006", "syntax", "The document expands to more nodes than the limit once aliases are followed "
             "(RULESLAWYER_MAX_NODES): the 'billion laughs' attack.", "a: &a [x, x]\nb: &b [*a, *a]\n..."),
    CodeInfo("RL007", "syntax", "A mapping key that is itself a list or mapping.", "? [a, b]\n: 1"),
    CodeInfo("RL008", "syntax", "A YAML tag: only plain data is read, nothing is ever constructed or executed.",
             "x: !!python/object/apply:os.system [ls]"),
    CodeInfo("RL009", "input", "A key or value longer than the limit (RULESLAWYER_MAX_STRING, default 10,000 "
             "characters).", "notes: \"xxxx... (20,000 characters)\""),
    CodeInfo("RL010", "usage", "A command-line argument that does not fit the input (a move number past the "
             "end of the log, a player or card that is not in it).", "ruleslawyer solve game.yaml --at 999"),
    CodeInfo("RL011", "input", "A game log (its rules: or house:, or the extends: of an overlay it names) names a "
             "file outside the folders a log may read: a bundled rule set by name, or a file in the log's own folder "
             "or below (after following links and '..').  Allow another folder with --allow-path DIR on check and "
             "solve.  Nothing is read: the answer is the same whether the file exists or not.",
             "rules: /etc/passwd"),
    CodeInfo("RL012", "input", "A file read as a rule file or overlay has no top-level line 'ruleslawyer: ...': it is "
             "not read any further, and nothing it holds (no line, no key) is shown.", "rules: notes.txt"),
    CodeInfo("RL101", "schema", "Unknown key (with the closest known key as a hint).", "parameters:\n  playrs: {value: 4}"),
    CodeInfo("RL102", "schema", "A value of the wrong type.", "parameters:\n  players: {value: four, cite: ...}"),
    CodeInfo("RL103", "schema", "A required key is missing.", "moves:\n  pass: {params: {}}   # no effects"),
    CodeInfo("RL104", "schema", "A value the schema does not allow (pattern, enum, minimum...).", "code: la-201"),
    CodeInfo("RL120", "rules", "A bad expression: syntax, or a construct outside the expression language.",
             "expr: \"__import__('os')\""),
    CodeInfo("RL121", "rules", "An expression reads a name that does not exist, or a section names a component, "
             "attribute, zone family or state variable that the rule file does not declare (or a part, such "
             "as tokens or scoring, that it does not have).", "expr: \"actr == turn\""),
    CodeInfo("RL122", "rules", "Unknown parameter (in an expression, a variant or a house overlay).",
             "parameters:\n  cards_per_hadn: 2"),
    CodeInfo("RL123", "rules", "Unknown option.", "options:\n  repat: never"),
    CodeInfo("RL124", "rules", "An option value that the option does not take.", "options:\n  repeat: sometimes"),
    CodeInfo("RL125", "rules", "A citation names a source that `sources:` does not list.", "cite: {src: rulebok, quote: ...}"),
    CodeInfo("RL126", "rules", "An item id or alias used twice (in one component), an alias for an unknown item, "
             "or a component, attribute or function named like an engine name.", "aliases:\n  mary: [Mary]"),
    CodeInfo("RL127", "rules", "Unknown variant.", "ruleslawyer rules show GAME --variant 6p"),
    CodeInfo("RL128", "rules", "Unknown phase or move.", "- {phase: deduction}"),
    CodeInfo("RL130", "rules", "A number outside its allowed range.", "parameters:\n  players: 0"),
    CodeInfo("RL131", "rules", "Parameters that contradict a check of the rule file, or a deal that cannot be "
             "dealt (zone sizes that do not add up to the deck...).",
             "parameters:\n  hand_size: 9   # 3 hands of 9 from a deck of 16"),
    CodeInfo("RL132", "rules", "A rule expression goes past a limit of the expression language: a rule function "
             "that calls itself (directly or through others), calls that multiply past the work budget, or, while "
             "a log is replayed, more work than the budget (RULESLAWYER_MAX_STEPS, default 1,000,000 steps), calls "
             "nested more than 50 deep, a string longer than RULESLAWYER_MAX_STRING or a number of more than 4096 "
             "bits; '%' formatting and repetition of strings or lists are refused.  The rule file is unusable as it "
             "stands (exit status 2).",
             "functions:\n  boom: {args: [n], expr: \"0 if n == 0 else boom(n - 1) + boom(n - 1)\"}"),
    CodeInfo("RL140", "rules", "A house overlay that extends itself, directly or through others.", "extends: ./self.yaml"),
    CodeInfo("RL141", "rules", "A house overlay whose base cannot be found.", "extends: lady-alise"),
    CodeInfo("RL142", "rules", "A house overlay given for another base rule file.", ""),
]

_CODES.append(CodeInfo(
    "RL150", "legality", "A move the state machine cannot read: its player is not in the game, it has a "
    "parameter the move does not take, or it lacks one (when the rule file gives that no code of its own).",
    "- {pass: Watson}"))
_CODES.append(CodeInfo(
    "RL160", "limits", "The question is beyond what the solver can answer exactly here: more worlds than it "
    "may enumerate (the message names the size and the limit), for a game or a house rule whose hidden deal "
    "no counting engine takes. Nothing is refused for it: check, show, play and the lab work, consistency and "
    "each card's status come from Z3, and solve notes (RL160, at the log) that its chances are not available.",
    ""))
_CODES.append(CodeInfo(
    "RL170", "lab", "A variant-lab command given something it cannot use: a bot specification that names "
    "an unknown bot or move, or a weight or temperature that is not a number from 0 up; a number of games, "
    "moves, workers or a depth out of range.", "ruleslawyer simulate RULES --games 10 --bots randomm"))
_CODES.append(CodeInfo(
    "RL171", "lab", "A property file for 'prove' that cannot be used: not YAML, an unknown key, a property "
    "without an id or without a condition, an expression that does not compile or names a move the rules "
    "do not have, a scope value that is no value of its parameter; or an opening (the moves played before "
    "the search) that is not a list of moves as a log writes them, lists too many, or that check would "
    "refuse: a move of no kind, a malformed or illegal move, an observation no deal fits (the message "
    "gives check's own code).", "properties:\n  - id: p1\n    invariant: \"vars.nothing >=\""))
_CODES.append(CodeInfo(
    "RL172", "lab", "The chosen executor cannot run: Dask distributed is not installed (pip install "
    "'ruleslawyer[cluster]') or no scheduler answers at the address given.",
    "ruleslawyer simulate RULES --games 10 --executor dask --scheduler tcp://127.0.0.1:1"))
_CODES.append(CodeInfo(
    "RL900", "internal", "A rule expression of the rule file failed while a log was replayed (a bug in the "
    "rule file or in ruleslawyer): the report stops there with exit status 3.", ""))

GENERIC_CODES: dict[str, CodeInfo] = {c.code: c for c in _CODES}


def explain_generic(code: str) -> str | None:
    info = GENERIC_CODES.get(code.upper())
    if info is None:
        return None
    text = f"{info.code} ({info.stage}): {info.meaning}"
    if info.example:
        text += "\n\nMinimal example:\n" + "\n".join("    " + line for line in info.example.splitlines())
    return text
