"""Where each quoted sentence is in its rulebook: the quote index.

The rulebooks (``rules/sources/*.txt``) are the publishers' text: they stay
in the repository and are not installed.  What an installed copy shows of a
rule's source (``rules explain``: the quote, its file and line) comes from
``rules/citations.json``, installed with the rule files: for every bundled
rule file and overlay, every ``cite`` found in it, the line of its rulebook
where the quote starts.

Regenerate it after changing a quote or adding a rule file::

    make citations     # python -m ruleslawyer.checker.citations

``tests/checker/test_citation_index.py`` fails while the file is stale.

>>> find_line("One.\\nTwo words\\n  here.", "words here.")
2
>>> find_line("One.", "Two.") is None
True
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

from ..spec import bundled
from ..spec.loader import load_rules, rules_dir
from ..spec.source import read_yaml

__all__ = ["INDEX_NAME", "find_line", "recorded_line", "rule_files", "build_index", "render_index", "main"]

INDEX_NAME = "citations.json"


def find_line(text: str, quote: str) -> int | None:
    """The line (1-based) where ``quote`` starts in ``text``, any run of white space matching any other."""
    words = [re.escape(w) for w in quote.split()]
    match = re.search(r"\s+".join(words), text)
    if match is None:
        return None
    return text.count("\n", 0, match.start()) + 1


@lru_cache(maxsize=1)
def _index() -> dict[str, dict[str, int]]:
    try:
        text = resources.files(bundled.RULES).joinpath(INDEX_NAME).read_text(encoding="utf-8")
    except OSError:
        return {}
    return json.loads(text)


def recorded_line(source_file: str, quote: str) -> int | None:
    """The line recorded in the bundled index for a quote of a rulebook file, if any."""
    return _index().get(source_file, {}).get(quote)


def rule_files(folder: Path) -> list[Path]:
    """The rule files and overlays installed from ``folder`` (the globs of pyproject.toml's package-data)."""
    return sorted(folder.glob("*.yaml")) + sorted(folder.glob("*/*.yaml"))


def _cites(node: Any) -> Iterator[tuple[str, str]]:
    """(src, quote) of every ``cite`` mapping anywhere in a parsed rule file."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "cite" and isinstance(value, dict) and "src" in value and "quote" in value:
                yield str(value["src"]), str(value["quote"])
            else:
                yield from _cites(value)
    elif isinstance(node, list):
        for item in node:
            yield from _cites(item)


def build_index(folder: Path | None = None) -> tuple[dict[str, dict[str, int]], list[str]]:
    """The quote index of every rule file and overlay in ``folder`` (default: the bundled rules),
    and the citations whose quote is not found in its rulebook."""
    folder = folder or rules_dir()
    index: dict[str, dict[str, int]] = {}
    missing: list[str] = []
    texts: dict[str, str] = {}
    for path in rule_files(folder):
        sources = load_rules(str(path)).sources  # an overlay cites through its base's sources
        for src, quote in _cites(read_yaml(path)):
            if src not in sources:
                continue  # not a rulebook: rules explain shows the quote alone
            name = sources[src]
            if name not in texts:
                texts[name] = (folder / "sources" / name).read_text(encoding="utf-8")
            line = find_line(texts[name], quote)
            if line is None:
                missing.append(f"{path.relative_to(folder)}: {src} ({name}): {quote!r}")
            else:
                index.setdefault(name, {})[quote] = line
    ordered = {name: dict(sorted(quotes.items())) for name, quotes in sorted(index.items())}
    return ordered, missing


def render_index(index: dict[str, dict[str, int]]) -> str:
    return json.dumps(index, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main() -> int:
    """Rewrite rules/citations.json from the rulebooks of the checkout."""
    folder = rules_dir()
    index, missing = build_index(folder)
    for m in missing:
        print(f"quote not found: {m}", file=sys.stderr)
    target = folder / INDEX_NAME
    text = render_index(index)
    changed = not target.exists() or target.read_text(encoding="utf-8") != text
    if changed:
        target.write_text(text, encoding="utf-8")
    count = sum(len(q) for q in index.values())
    print(f"{target}: {count} quotes in {len(index)} rulebooks{', rewritten' if changed else ', unchanged'}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
