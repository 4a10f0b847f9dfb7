"""The contract between a rule file and the engine is checked when the file is loaded.

Every name the engine relies on is declared by the rule file; renaming the
declaration (not its uses) in a copy of the bundled rule file must give a
positioned diagnostic at ``rules validate``, never a crash later in
``check``.  And spec/, solver/ and checker/ depend on one another in one
direction only: rules -> spec -> solver -> checker -> lab.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ..conftest import ROOT, RULES, cli

SOURCE = (RULES / "lady-alice.yaml").read_text()

# (what is renamed, the text declaring it, how the declaration is renamed, the code expected)
RENAMES = [
    ("parameter players", "\n  players:\n    value: 4\n", "\n  seats:\n    value: 4\n", "RL103"),
    ("parameter evidence_per_category (a deal pattern)", "\n  evidence_per_category:\n",
     "\n  evidence_per_kind:\n", "RL122"),
    ("parameter evidence_per_player (a zone size)", "\n  evidence_per_player:\n", "\n  cards_per_player:\n", "RL122"),
    ("parameter categories_shuffled (a constraint)", "\n  categories_shuffled:\n", "\n  shuffled:\n", "RL122"),
    ("parameter counter_values (the tokens' supply)", "\n  counter_values:\n", "\n  token_values:\n", "RL122"),
    ("component clues (the deck's cards)", "\n  clues:\n    noun: clue\n", "\n  notes:\n    noun: clue\n", "RL121"),
    ("component categories (an attribute's values)", "\n  categories:\n    noun: category\n",
     "\n  kinds:\n    noun: category\n", "RL121"),
    ("attribute category", "attributes: {category: categories}", "attributes: {kind: categories}", "RL101"),
    ("zone family hand", "\n        hand:\n          per: player\n", "\n        palm:\n          per: player\n", "RL121"),
    ("state variable passed", '\n  passed: {init: "set()"}\n', '\n  passes: {init: "set()"}\n', "RL121"),
    ("state variable covered", '\n  covered: {init: "set()",', '\n  hidden: {init: "set()",', "RL121"),
    ("a generic log check", "check: observations", "check: observation", "RL104"),
]


@pytest.mark.parametrize("what,old,new,code", RENAMES, ids=[r[0] for r in RENAMES])
def test_renaming_a_name_the_engine_relies_on_is_a_positioned_diagnostic(tmp_path, what, old, new, code):
    assert SOURCE.count(old) == 1, what
    path = tmp_path / "renamed.yaml"
    path.write_text(SOURCE.replace(old, new))
    out = cli("rules", "validate", path)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr, out.stdout + out.stderr
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: error\[{code}\]", out.stdout, re.M), out.stdout


def _without(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[:i] + text[text.index(end, i):]


@pytest.mark.parametrize("part,start,end", [("tokens", "\ntokens:\n", "\n\n"),
                                            ("scoring", "\nscoring:\n", "\n# What a log may record")])
def test_removing_a_part_others_rely_on_is_a_positioned_diagnostic(tmp_path, part, start, end):
    path = tmp_path / "without.yaml"
    path.write_text(_without(SOURCE, start, end))
    out = cli("rules", "validate", path)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr, out.stdout + out.stderr
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: error\[RL121\]: .*needs {part}", out.stdout, re.M), out.stdout


def test_a_whole_log_check_the_rules_do_not_declare_still_reports(tmp_path):
    """Without a code for inconsistent observations, a wrong one reports under the generic code."""
    start = SOURCE.index("  - id: verdict\n")
    end = SOURCE.index("  - id: evidence-shown\n")
    rules = tmp_path / "quiet.yaml"
    rules.write_text(SOURCE[:start] + SOURCE[end:])
    log = tmp_path / "game.yaml"
    violation = (ROOT / "examples" / "lady-alice" / "violations" / "LA310.yaml").read_text()
    log.write_text(violation.replace("rules: lady-alice", "rules: quiet.yaml"))
    out = cli("check", log)
    assert out.returncode == 1 and "error[LG310]" in out.stdout, out.stdout


def _imports(path: Path) -> set[str]:
    """The ruleslawyer layers a module imports (spec, solver, checker, lab)."""
    package = {"spec": "spec", "solver": "solver", "checker": "checker", "lab": "lab"}[path.parent.name]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.startswith("ruleslawyer."):
                found.add(node.module.split(".")[1])
            elif node.level == 1:
                found.add(package)
            elif node.level == 2:
                found.add((node.module or "").split(".")[0] or package)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ruleslawyer."):
                    found.add(alias.name.split(".")[1])
    return found


@pytest.mark.parametrize("layer,forbidden", [("spec", {"solver", "checker", "lab"}), ("solver", {"checker", "lab"}),
                                             ("checker", {"lab"})])
def test_dependencies_point_one_way(layer, forbidden):
    wrong = {str(p.relative_to(ROOT)): sorted(_imports(p) & forbidden) for p in (ROOT / layer).glob("*.py")}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_the_architecture_check_sees_a_wrong_import(tmp_path):
    bad = tmp_path / "spec" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from ..solver.engine import Knowledge\nimport ruleslawyer.checker.cli\n")
    assert _imports(bad) == {"solver", "checker"}
