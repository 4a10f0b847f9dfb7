"""``ruleslawyer report``: one self-contained page, stepped through in a real headless browser.

The browser test needs Chromium (Debian's ``chromium`` package; ``.ci/run``
installs it) and is skipped, saying why, where none is installed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..conftest import ROOT, cli
from .browser import Browser, find_browser
from .reportdata import seat_steps

EXAMPLES = ROOT / "examples" / "lady-alice"


def _report(tmp_path: Path, log: Path, *flags: str) -> Path:
    out = tmp_path / f"{log.stem}.html"
    run = cli("report", log, "-o", out, *flags)
    assert run.returncode == 0, run.stdout + run.stderr
    return out


def test_the_page_is_self_contained(tmp_path):
    page = _report(tmp_path, EXAMPLES / "clean-4p.yaml", "--as", "Gordon").read_text()
    assert "default-src 'none'" in page                      # the page may request nothing
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\bsrc\s*=", page)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
    data = page.split('id="game-data">')[1].split("</script>")[0]
    assert "<" not in data and sum("<svg" in s["svg"] for s in seat_steps(json.loads(data))) == 27


def test_a_log_with_errors_says_so_and_exits_1(tmp_path):
    out = tmp_path / "bad.html"
    run = cli("report", EXAMPLES / "violations" / "LA212.yaml", "-o", out)
    assert run.returncode == 1 and "this log has 1 error(s)" in out.read_text()


@pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (apt-get install chromium)")
def test_stepping_through_the_page_in_a_headless_browser(tmp_path):
    page = _report(tmp_path, EXAMPLES / "clean-4p.yaml", "--as", "Gordon")
    with Browser(find_browser()) as b:  # type: ignore[arg-type]
        b.open(page.as_uri(), "window.ruleslawyer")
        text = lambda sel: b.eval(f"document.querySelector({sel!r}).textContent")  # noqa: E731
        assert b.eval("window.ruleslawyer.steps") == 27
        assert text("#move-number") == "26" and "the game is over" in text("#status")
        b.eval("document.getElementById('first').click()")
        assert text("#move-number") == "0" and "before the first move" in text("#last-move")
        assert b.eval("document.querySelectorAll('#picture svg .space').length") == 32
        assert "512 evidence set(s) remain" in text("#status")   # Gordon knows his own card
        b.eval("document.getElementById('next').click()")
        assert text("#move-number") == "1" and text("#last-move").startswith("{suspect: Helen")
        assert "24" in text("#status")                                   # business cards left
        assert text('#chances tr[data-id="tippu-tip"] td.p') == "0.0% x"  # covered, ruled out
        assert "covered" in b.eval("document.querySelector('#picture .space[data-id=\"tippu-tip\"]').textContent")
        b.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        assert text("#move-number") == "2" and text("#moves li.current") == "{pass: Gordon}"
        b.eval("document.querySelectorAll('#moves li')[9].click()")       # move 10: Gordon's own counter
        assert text("#move-number") == "10"
        chips = b.eval("Array.from(document.querySelectorAll('#picture .space[data-id=\"kingsley\"] circle + text'))"
                       ".map(t => t.textContent)")
        assert chips == ["Jo1", "He0", "Go2"]                            # Gordon sees his own face-down 2
        assert text('#chances tr[data-id="kingsley"] td.p') == "100.0% !"  # his own evidence
        b.eval("document.getElementById('last').click()")
        assert text("#move-number") == "26"
