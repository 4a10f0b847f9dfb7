"""Every log shown in README.md and in the examples' README checks clean; every overlay (or piece of
one) shown validates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.spec.loader import validate_file

from ..conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "examples").glob("*/README.md"))]  # every game's README
BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(kind: str) -> list[tuple[str, int, str]]:
    out = []
    for doc in DOCS:
        text = doc.read_text()
        for m in BLOCK.finditer(text):
            body = m.group(1)
            is_log = re.search(r"^rules:", body, re.MULTILINE) is not None
            found = "log" if is_log else "opening" if re.search(r"^opening:", body, re.MULTILINE) else "overlay"
            if kind == found:
                out.append((doc.relative_to(ROOT).as_posix(), text[:m.start()].count("\n") + 2, body))
    return out


LOGS = _blocks("log")
OVERLAYS = _blocks("overlay")
OPENINGS = _blocks("opening")


def test_the_readmes_show_logs_and_overlays():
    assert LOGS and OVERLAYS


@pytest.mark.parametrize("doc,line,body", LOGS, ids=[f"{d}:{n}" for d, n, _b in LOGS])
def test_every_log_in_the_readmes_checks_clean(doc, line, body, monkeypatch):
    monkeypatch.chdir(ROOT)
    report = check_text(body, str(ROOT / doc))
    assert report.status == 0 and report.diagnostics == [], f"{doc}:{line}:\n{report.format_text()}"


@pytest.mark.parametrize("doc,line,body", OVERLAYS, ids=[f"{d}:{n}" for d, n, _b in OVERLAYS])
def test_every_overlay_in_the_readmes_validates(doc, line, body, tmp_path: Path):
    path = tmp_path / "overlay.yaml"
    if not re.search(r"^extends:", body, re.MULTILINE):  # a piece of an overlay: given its head
        body = "ruleslawyer: 1\nextends: lady-alice\nname: piece\n" + body
    path.write_text(body)
    assert validate_file(str(path)) == [], f"{doc}:{line}"


def test_the_readme_shows_house_as_a_list():
    assert re.search(r"^house: \[", (ROOT / "README.md").read_text(), re.MULTILINE)


@pytest.mark.parametrize("doc,line,body", OPENINGS, ids=[f"{d}:{n}" for d, n, _b in OPENINGS])
def test_every_opening_in_the_readmes_is_the_one_of_the_example_properties(doc, line, body):
    """A property file's opening shown is the one of examples/<game>/lab/properties.yaml
    (which tests/lab/test_prove.py plays)."""
    from ruleslawyer.spec.source import parse_text

    shown = parse_text(body, f"{doc}:{line}")["opening"]
    files = sorted((ROOT / "examples").glob("*/lab/properties.yaml"))
    openings = [parse_text(f.read_text(), str(f)).get("opening") for f in files]
    assert shown in openings, f"{doc}:{line}"
