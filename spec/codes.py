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
             "solve (an empty --allow-path is refused with this code: it is not the working folder).  Nothing is "
             "read: the answer is the same whether the file exists or not.",
             "rules: /etc/passwd"),
    CodeInfo("RL012", "input", "A file read as a rule file or overlay has no top-level line 'ruleslawyer: ...' (a "
             "property file for prove: no line 'properties: ...'): it is "
             "not read any further, and nothing it holds (no line, no key) is shown.", "rules: notes.txt"),
    CodeInfo("RL013", "output", "An output cannot be written (report -o, --plots, --logs, --report, "
             "prove's file of a failing path, the log fmt or check --fix rewrites, then also when it changed "
             "since it was read): the name is a device, a fifo, a folder where a file is wanted (or "
             "a file where a folder is wanted), a link to nothing, a read-only file, a file of the operating system or an input "
             "of the same command; or the write failed (a missing or read-only folder, a full disk).  Nothing is "
             "left half written: the file is written to a temporary beside it, then renamed.",
             "ruleslawyer report game.yaml -o game.yaml"),
    CodeInfo("RL014", "output", "'fmt' or 'check --fix' cannot rewrite a log safely: its canonical form (or the "
             "log with the fixes made), read again, would not record the same values, moves and players as the "
             "log (with the names respelt and the moves deleted, inserted or swapped that the fixes say: a bug: "
             "please report it with the log).  Nothing is written; the log stays as it was.",
             "ruleslawyer fmt game.yaml"),
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
    CodeInfo("RL144", "rules", "A house overlay named twice (by its name and by its file, on the command line "
             "or in a log's house:): an overlay applies once.  One the log names and --house names too applies "
             "once, without this error.", "house: [no-repeat, no-repeat]"),
    CodeInfo("RL143", "rules", "A house overlay's change: that cannot be applied to its base: '$remove' of a key "
             "or an item the base does not have (the hint names the closest), or a '$remove' or '$add' that is "
             "not a list.  A mapping of change: merges into the base's key by key, any other value replaces the "
             "base's, '$remove: [KEY, ...]' removes keys of a mapping, and a list is edited with "
             "'$remove: [ID, ...]' and '$add: [ITEM, ...]'.",
             "change:\n  variants:\n    list:\n      $remove: [6p]   # the base has 3p, 4p and 5p"),
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
    "an unknown bot or move, or a weight or temperature that is not a number from 0 up, or forced= other than "
    "stop or play; a bot whose filters forbid every move open to it (with forced=stop); a value restriction "
    "that forbids every move the restricted bot makes; a number of games, moves, workers or a depth out of "
    "range.", "ruleslawyer simulate RULES --games 10 --bots randomm"))
_CODES.append(CodeInfo(
    "RL171", "lab", "A property file for 'prove' that cannot be used: not YAML, not of the shape of "
    "spec/property.schema.json (an unknown key, said without quoting it, with the closest known key as a hint; a "
    "list or mapping where a text or number is wanted, or the reverse), a property without an id or without a "
    "condition, an expression that does not compile or fails in a state, a move the rules do not have; a scope "
    "value that is no value of its parameter (a count beyond its maximum, an item of no component) or a scope "
    "that leaves no legal move from the first state; or an opening (the moves played before the search) that is "
    "not a list of moves as a log writes them, lists too many, repeats a player, or that check would refuse: a "
    "move of no kind, a malformed or illegal move, an observation no deal fits (the message gives check's own "
    "code).", "properties:\n  - id: p1\n    invariant: \"vars.nothing >=\""))
_CODES.append(CodeInfo(
    "RL172", "lab", "The chosen executor cannot run: Dask distributed is not installed (pip install "
    "'ruleslawyer[cluster]') or no scheduler answers at the address given.",
    "ruleslawyer simulate RULES --games 10 --executor dask --scheduler tcp://127.0.0.1:1"))
_CODES.append(CodeInfo(
    "RL180", "recording", "'play' cannot record in this log safely, and writes nothing: another play session "
    "holds it (the message names its process, host and start), it is read-only or has other names (hard "
    "links: a save renames a new file over the log), it was changed on disk since it was loaded otherwise "
    "than by adding text at its end (an addition is kept), a line ends with a lone CR, or --house names "
    "overlays its header does not.  The move being recorded is printed as the line to add by hand.",
    "ruleslawyer play game.yaml   # while another 'ruleslawyer play game.yaml' runs"))
_CODES.append(CodeInfo(
    "RL173", "lab", "A condition of a property for 'prove' (invariant:, when:, reaches:) that is not a boolean "
    "expression: its form gives a text, a number or a list (found when the file is read), or its value in a "
    "state is neither true nor false (a namespace such as vars, a number, nothing): a condition is never judged "
    "by truthiness.  Compare the value instead (>= 0, == ..., is not none) or use all() / any().",
    "properties:\n  - {id: p1, invariant: \"vars.left\"}"))
_CODES.append(CodeInfo(
    "RL175", "lab", "A warning of 'rules validate': an ending of the game (an end effect of a move) that no game "
    "of a short bounded search reached.  A few games are played with every seat trying, at each turn, every "
    "choice of the moves that can end the game, their outcomes given by the game's deal; an ending none reaches "
    "has usually been put out of reach by a house rule (a count the observations can never give, a solution "
    "no claim can name).  A bounded search proves nothing unreachable: hence a warning, exit status 0.",
    "change:\n  variants:\n    list:\n      4p:\n        set:\n          per_category: {value: [0, 1, 1, 2]}   # a count no claim can reach"))
_CODES.append(CodeInfo(
    "RL174", "lab", "A search of 'prove' refused for its size: the moves of its first state may number more than "
    "a state may list (100,000, or the budget if more; the message gives the estimate, the product of each "
    "parameter's number of values), or a move's outcomes are too many to list at all.  Narrow the scope "
    "(scope: items: and values:) or raise the budget (--budget, or budget: in the property file).  A search "
    "that reaches its budget later stops and says how far it got, with exit status 4.",
    "depth: 1\nproperties:\n  - {id: p1, invariant: \"true\"}   # no scope: every choice of every move"))
_CODES.append(CodeInfo(
    "RL176", "lab", "A bot's move filter (forbid=EXPR in --bots) that cannot be used: an expression that does not "
    "compile, reads a name the rules do not give or a move parameter no move has (move.X, with the closest "
    "parameter as a hint), compares with a string that is no item id, choice, move, phase or seat of the rules "
    "(the closest as a hint: ids are lower case), or that fails or gives no truth value on a "
    "move.  A filter applies to the moves that have every parameter it reads.",
    "ruleslawyer simulate RULES --games 10 --bots \"greedy:forbid=move.asked == 'nowhere'\""))
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
