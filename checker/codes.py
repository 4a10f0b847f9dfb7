"""Every code the log checker can report, for ``ruleslawyer explain CODE``.

Two families:

* generic log codes ``LG…``, the same for every game: the log's shape and
  names (``LG1xx``: the log is unusable, exit status 2; an unknown name,
  ``LG110``/``LG111``, outside the header and set-up is read past) and problems of the
  record found while replaying it (``LG2xx``);
* game codes, declared by each rule file next to the rule they enforce
  (by its ``code_prefix``: ``2xx`` move requirements, ``3xx`` consistency,
  ``4xx`` scoring): their meaning, rule and citation come from the YAML.

Each explanation ends with the minimal example log for the code when one is
kept in ``examples/<game>/violations/``.

>>> print(explain("LG110").splitlines()[0])
LG110 (log names): a name (of a card or other item) that no item has, as printed or as an alias
>>> explain("LA212").splitlines()[0].endswith(", legality):")
True
>>> explain("LA401").splitlines()[0].endswith(", scoring):")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..spec import bundled
from ..spec.diagnostics import DiagnosticError
from ..spec.loader import find_rule_file, load_rules, read_rule_yaml, rules_dir
from ..spec.model import Cite, Ruleset

__all__ = ["LogCode", "LOG_CODES", "explain", "game_codes", "example_path"]

EXAMPLES = bundled.folder(bundled.EXAMPLES)  # installed: violations/*.yaml of each game only


@dataclass(frozen=True)
class LogCode:
    code: str
    stage: str
    meaning: str


LOG_CODES: dict[str, LogCode] = {c.code: c for c in [
    LogCode("LG101", "log schema", "a key the log format does not have (with the closest known key as a hint)"),
    LogCode("LG102", "log schema", "a value of the wrong type (e.g. players not a list)"),
    LogCode("LG103", "log schema", "a required key is missing: every log names its rules and its players"),
    LogCode("LG104", "log schema", "a value the log format does not allow (e.g. a negative token value)"),
    LogCode("LG110", "log names", "a name (of a card or other item) that no item has, as printed or as an alias"),
    LogCode("LG111", "log names", "a player who is not in the log's list of players"),
    LogCode("LG112", "log moves", "an item of moves: that names no move of the rules, or more than one"),
    LogCode("LG113", "log moves", "a parameter that the move does not take"),
    LogCode("LG114", "log header", "a player listed twice (in the players, or as two keys of one mapping by "
                                   "player), or as many players as no variant of the rules takes"),
    LogCode("LG115", "log header", "the rules the log names cannot be loaded (their own problems follow)"),
    LogCode("LG116", "log moves", "a move parameter of the wrong kind (one item where a list is needed, a word "
                                  "where a number is needed, a word none of the parameter's choices is: the "
                                  "check reads on past that one, as past an unknown name)"),
    LogCode("LG117", "log names", "a name or value longer than the limit (RULESLAWYER_MAX_NAME, default 200 "
                                  "characters; 4096 for the paths of rules: and house:; title, date and notes "
                                  "have only the limit of every file): the rules compare names on every move"),
    LogCode("LG201", "log record", "the private record lists more tokens of a player than the player placed"),
    LogCode("LG202", "log record", "a warning: the recorded scores cannot be checked, because the solution or "
                                   "the value of a token that counts is not recorded"),
    LogCode("LG203", "log record", "a reveal (or the end of the game) gives values for some of the tokens turned "
                                   "face up but not all, without naming their owners"),
]}


def example_path(code: str, game: str | None = None) -> Path | None:
    """The example log kept for a code, if any."""
    folders = [EXAMPLES / game] if game else sorted(p for p in EXAMPLES.glob("*") if p.is_dir())
    for folder in folders:
        candidate = folder / "violations" / f"{code}.yaml"
        if candidate.is_file():
            return candidate
    return None


def _example(code: str, game: str | None = None) -> list[str]:
    path = example_path(code, game)
    if path is None:
        return []
    try:
        shown = path.relative_to(EXAMPLES.parent)
    except ValueError:
        shown = path
    return ["", f"Example ({shown}):", *("  " + line for line in path.read_text().splitlines())]


def _rule_sets() -> list[Ruleset]:
    out = []
    for found in sorted(rules_dir().glob("*.yaml")):
        path = find_rule_file(str(found)) or found  # named as load_rules names it: one parse serves both
        try:
            doc = read_rule_yaml(path)
            if "extends" in doc:
                continue
            out.append(load_rules(str(path)))
        except DiagnosticError:
            continue
    return out


def game_codes(rules: Ruleset) -> dict[str, list[str]]:
    """Every code a rule set declares, with lines saying where and what."""
    out: dict[str, list[str]] = {}
    for req in rules.flow.requires:
        out.setdefault(req.code, []).append(f"rule {req.id} (before every move): {req.expr.source}")
    for move in rules.moves.values():
        for p in move.params:
            if p.code:
                size = f", size {p.size.source}" if p.size is not None else ""
                top = f", at most {p.max.source}" if p.max is not None else ""
                one = f", one per {p.distinct}" if p.distinct else ""
                out.setdefault(p.code, []).append(f"parameter {move.name}/{p.name}: {p.type}{size}{top}{one}")
        for req in move.requires:
            when = f" when {req.when.source}" if req.when is not None else ""
            out.setdefault(req.code, []).append(f"rule {move.name}/{req.id}{when}: {req.expr.source}")
    for check in rules.log_checks:
        out.setdefault(check.code, []).append(f"log check {check.id} ({check.check})")
    return out


def _cites(rules: Ruleset, code: str) -> list[Cite]:
    cites: list[Cite] = []
    for req in rules.flow.requires:
        if req.code == code:
            cites.append(req.cite)
    for move in rules.moves.values():
        cites.extend(p.cite or move.cite for p in move.params if p.code == code)
        cites.extend(r.cite for r in move.requires if r.code == code)
    cites.extend(c.cite for c in rules.log_checks if c.code == code and c.cite)
    unique: list[Cite] = []
    for c in cites:
        if all(c.quote != u.quote for u in unique):
            unique.append(c)
    return unique


def _meanings(rules: Ruleset, code: str) -> list[str]:
    out: list[str] = []
    for req in rules.flow.requires:
        if req.code == code:
            out.append(_template_text(req.message.parts))
    for move in rules.moves.values():
        out.extend(f"move '{move.name}': '{p.name}' missing, or not what the move takes (size, kinds, range)"
                   for p in move.params if p.code == code)
        out.extend(_template_text(r.message.parts) for r in move.requires if r.code == code)
    out.extend(c.message for c in rules.log_checks if c.code == code)
    return list(dict.fromkeys(out))


def _template_text(parts: tuple[object, ...]) -> str:
    """A message template in words: each ``{expression}`` said as what it stands for
    (``<...>``: filled in from the game when the diagnostic is reported)."""
    return "".join(p if isinstance(p, str) else _placeholder(str(getattr(p, "source", ""))) for p in parts)


_NAMES = {"actor": "the player", "turn": "the player whose turn it is", "phase": "the phase"}


def _placeholder(source: str) -> str:
    """``actor`` -> the player; ``vars.must_choose`` -> <must choose>; anything longer -> <...>."""
    source = source.strip()
    if source in _NAMES:
        return _NAMES[source]
    base, _, attr = source.partition(".")
    if base in ("vars", "params", "move", "setup") and attr.isidentifier():
        return "<" + attr.replace("_", " ") + ">"
    if source.startswith("name(") and source.endswith(")"):  # an item's name: the item
        return _placeholder(source[5:-1])
    if source.endswith("()") and source[:-2].isidentifier():  # a rule file's function of nothing
        return "<" + source[:-2].replace("_", " ") + ">"
    return "<...>"


def _stage(rules: Ruleset, code: str) -> str:
    kinds = {c.check for c in rules.log_checks if c.code == code}
    if kinds & {"scores", "winners"}:
        return "scoring"
    if kinds:
        return "consistency"
    return "legality"


def explain(code: str, rule_sets: list[Ruleset] | None = None) -> str | None:
    """Meaning, rule, citation and example of a code; None if no one has it.

    ``rule_sets``: where to look for game codes (default: every bundled rule set).
    """
    code = code.strip().upper()
    if code in LOG_CODES:
        info = LOG_CODES[code]
        return "\n".join([f"{info.code} ({info.stage}): {info.meaning}", *_example(code)])
    for rules in (rule_sets if rule_sets is not None else _rule_sets()):
        if not code.startswith(rules.code_prefix):
            continue
        where = game_codes(rules).get(code)
        if not where:
            continue
        lines = [f"{code} ({rules.game}, {_stage(rules, code)}):"]
        lines.extend(f"  {m}" for m in _meanings(rules, code))
        lines.append("Rules:")
        lines.extend(f"  {w}" for w in where)
        lines.append("Cites:")
        for cite in _cites(rules, code):
            source = rules.sources.get(cite.src)
            where = f"{cite.src} ({source})" if source else cite.src
            lines.append(f"  {where}: \u201c{cite.quote}\u201d")
        lines.extend(_example(code, rules.game))
        return "\n".join(lines)
    return None
