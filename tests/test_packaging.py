"""Installed like any Python package: the sdist and wheel carry what the commands need.

What it does, as a new user would (about 10 s):

1. copies the checkout (without .git, virtual environments and build
   leftovers) and builds the sdist from the copy with the build backend of
   ``[build-system]``, called through its PEP 517 hook, then the wheel *from
   the sdist* with ``pip wheel --no-build-isolation --check-build-dependencies
   --no-index``: what ``python -m build`` does, so a file missing from the
   sdist fails too;
2. creates a fresh virtual environment outside the checkout and installs the
   wheel into it with ``pip --python ... install --no-deps --no-index``;
3. runs the commands of the README from an unrelated folder holding copies of
   two example logs, and compares each output with the checkout's.

No network: the build backend (setuptools, in the ``test`` extra) is the one
``make install`` put into the project's environment, and the fresh
environment reuses the project's installed dependencies (z3-solver, numpy,
pyyaml, jsonschema) through a ``.pth`` file naming the project environment's
site-packages.  Python reads that folder's modules but not its own ``.pth``
files, so the editable install of the checkout is *not* active there; the
test checks that ``ruleslawyer`` is imported from the fresh environment.
Downloading the dependencies again (tens of MB) would make the test slow and
dependent on the registry, and a ``--find-links`` folder of their wheels is
not something a clean CI machine has.

The wheel's file list is also compared with the checkout: every rule file and
overlay, schema, example log of ``explain CODE``, the quote index and
``py.typed`` must be in it, and no rulebook (``rules/sources/``).
"""

from __future__ import annotations

import email.parser
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from ruleslawyer.checker.citations import find_line

from .conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSION = PYPROJECT["project"]["version"]
# Folder of the checkout -> package it is installed as (pyproject's package-dir).
PACKAGE_DIRS = {folder: package for package, folder in PYPROJECT["tool"]["setuptools"]["package-dir"].items()}
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__",
                                    ".pytest_cache", ".hypothesis", ".mypy_cache", "*.pyc")
TIMEOUT = 180


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, **kw)


def _ok(cmd: list[str], **kw) -> subprocess.CompletedProcess[str]:
    result = _run(cmd, **kw)
    assert result.returncode == 0, f"{' '.join(cmd)}\n{result.stdout}\n{result.stderr}"
    return result


def _clean_env() -> dict[str, str]:
    """The environment without anything that would make Python find the checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


@dataclass(frozen=True)
class Installed:
    sdist: Path
    wheel: Path
    python: Path      # the fresh environment's interpreter
    script: Path      # its ``ruleslawyer`` command
    elsewhere: Path   # an unrelated working folder with copies of two logs


def _build(tmp: Path) -> tuple[Path, Path]:
    source = tmp / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_COPIED)
    dist = tmp / "dist"
    dist.mkdir()
    backend = PYPROJECT["build-system"]["build-backend"]
    hook = "import importlib, sys; print(importlib.import_module(sys.argv[1]).build_sdist(sys.argv[2]))"
    built = _ok([sys.executable, "-c", hook, backend, str(dist)], cwd=source, env=_clean_env())
    sdist = dist / built.stdout.strip().splitlines()[-1]
    unpacked = tmp / "sdist"
    safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python 3.11.4+
    with tarfile.open(sdist) as tar:
        tar.extractall(unpacked, **safe)
    (tree,) = unpacked.iterdir()
    _ok([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--check-build-dependencies",
         "--no-index", "--disable-pip-version-check", "--no-input", "-q", "-w", str(dist), str(tree)],
        env=_clean_env())
    (wheel,) = dist.glob("*.whl")
    return sdist, wheel


def _fresh_venv(tmp: Path, wheel: Path) -> Path:
    venv = tmp / "fresh-venv"
    _ok([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _ok([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--no-input", "-q", str(wheel)], env=_clean_env())
    purelib = Path(_ok([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                       env=_clean_env()).stdout.strip())
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (purelib / "_ruleslawyer_test_dependencies.pth").write_text("".join(f"{p}\n" for p in ours))
    return python


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    tmp = tmp_path_factory.mktemp("packaging")
    sdist, wheel = _build(tmp)
    python = _fresh_venv(tmp, wheel)
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    for log in ("clean-4p.yaml", "violations/LA212.yaml"):
        shutil.copy(ROOT / "examples" / "lady-alice" / log, elsewhere)
    return Installed(sdist, wheel, python, python.parent / "ruleslawyer", elsewhere)


# -- what the archives hold --------------------------------------------------

def _installed_name(path: Path) -> str:
    """Where a file of the checkout lands in the wheel."""
    rel = path.relative_to(ROOT)
    package = PACKAGE_DIRS[rel.parts[0]]
    return "/".join([*package.split("."), *rel.parts[1:]])


def _needed_at_run_time() -> list[Path]:
    """Every file of the checkout the installed commands read (independent of pyproject's globs)."""
    files = [p for folder in PACKAGE_DIRS for p in (ROOT / folder).glob("*.py")]
    files += [p for p in (ROOT / "rules").rglob("*.yaml") if "sources" not in p.relative_to(ROOT).parts]
    files += [ROOT / "rules" / "citations.json", ROOT / "ruleslawyer" / "py.typed"]
    files += list((ROOT / "spec").glob("*.schema.json"))
    files += list((ROOT / "examples").glob("*/violations/*.yaml"))
    return sorted(files)


def test_the_wheel_carries_every_bundled_file_and_no_rulebook(installed: Installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    needed = _needed_at_run_time()
    assert len([p for p in needed if p.parent.name == "house"]) >= 5
    missing = [str(p.relative_to(ROOT)) for p in needed if _installed_name(p) not in names]
    assert missing == [], "left out of the wheel: fix [tool.setuptools.package-data] in pyproject.toml"
    rulebooks = sorted(n for n in names if "/sources/" in n or n.endswith(".txt") and "dist-info" not in n)
    assert rulebooks == []
    assert f"ruleslawyer-{VERSION}.dist-info/licenses/LICENSE" in names


def test_the_sdist_carries_no_rulebook(installed: Installed):
    with tarfile.open(installed.sdist) as tar:
        names = tar.getnames()
    assert f"ruleslawyer-{VERSION}/LICENSE" in names and f"ruleslawyer-{VERSION}/README.md" in names
    assert [n for n in names if "/rules/sources/" in n] == []


def test_the_metadata_is_what_a_package_index_expects(installed: Installed):
    with zipfile.ZipFile(installed.wheel) as whl:
        meta = email.parser.Parser().parsestr(whl.read(f"ruleslawyer-{VERSION}.dist-info/METADATA").decode())
    assert (meta["Name"], meta["Version"]) == ("ruleslawyer", VERSION)
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().startswith("# ruleslawyer")
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert {u.split(",")[0] for u in meta.get_all("Project-URL")} >= {"Homepage", "Source", "Issues"}
    assert "board games" in meta["Keywords"]
    assert set(meta.get_all("Requires-Dist")) >= set(PYPROJECT["project"]["dependencies"])


# -- the commands, from an unrelated folder ----------------------------------

BUNDLED_RULE_FILES = sorted(p.stem for p in (ROOT / "rules").rglob("*.yaml")
                            if "sources" not in p.relative_to(ROOT).parts)

COMMANDS = {
    "version": (["--version"], 0),
    "rules-show": (["rules", "show", "lady-alice", "--variant", "5p", "--house", "no-repeat"], 0),
    "rules-validate": (["rules", "validate", *BUNDLED_RULE_FILES], 0),
    "rules-graph": (["rules", "graph", "lady-alice", "--format", "dot"], 0),
    "rules-explain": (["rules", "explain", "lady-alice", "suspect/not-previous"], 0),
    "rules-explain-index": (["rules", "explain", "lady-alice", "--house", "no-early-accusation"], 0),
    "explain": (["explain", "LA212"], 0),
    "explain-house": (["explain", "LA290", "--rules", "no-early-accusation"], 0),
    "check": (["check", "clean-4p.yaml"], 0),
    "check-violation": (["check", "LA212.yaml"], 1),
    "solve": (["solve", "clean-4p.yaml", "--as", "Gordon", "--at", "15", "--hindsight"], 0),
}


def _rules_dir(python: str | Path, cwd: Path) -> str:
    code = "from ruleslawyer.spec.loader import rules_dir; print(rules_dir())"
    return _ok([str(python), "-c", code], cwd=cwd, env=_clean_env()).stdout.strip()


@pytest.fixture(scope="module")
def rules_dirs(installed: Installed) -> tuple[str, str]:
    """The rules folder of the installed copy and of the checkout, to compare outputs that name them."""
    return _rules_dir(installed.python, installed.elsewhere), _rules_dir(sys.executable, installed.elsewhere)


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Installed, rules_dirs):
    code = "import ruleslawyer, ruleslawyer.spec.loader as l; print(ruleslawyer.__file__); print(l.__file__)"
    files = _ok([str(installed.python), "-c", code], cwd=installed.elsewhere, env=_clean_env()).stdout.split()
    venv = installed.python.parent.parent
    assert all(Path(f).is_relative_to(venv) for f in files), files
    assert Path(rules_dirs[0]).is_relative_to(venv) and not (Path(rules_dirs[0]) / "sources").exists()


@pytest.mark.heavy
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_readme_command_works_from_any_folder(installed: Installed, rules_dirs, name: str):
    args, status = COMMANDS[name]
    got = _run([str(installed.script), *args], cwd=installed.elsewhere, env=_clean_env())
    assert got.returncode == status, got.stdout + got.stderr
    # The checkout says the same, but for where the rule files are.
    want = _run([sys.executable, "-m", "ruleslawyer", *args], cwd=installed.elsewhere, env=_clean_env())
    mine, theirs = rules_dirs
    assert (got.stdout.replace(mine, "<rules>"), got.stderr) == (want.stdout.replace(theirs, "<rules>"), want.stderr)
    assert got.stdout.strip()


def test_what_the_installed_copy_shows_of_a_rules_source(installed: Installed):
    """rules explain names the rulebook file and line, read from the installed quote index."""
    got = _ok([str(installed.script), "rules", "explain", "lady-alice", "LA224", "--variant", "5p"],
              cwd=installed.elsewhere, env=_clean_env()).stdout
    cites = re.findall(r'cites (\S+):(\d+): "(.*)"', got)
    assert cites and "quote not found" not in got
    for name, line, quote in cites:
        rulebook = (ROOT / "rules" / "sources" / name).read_text(encoding="utf-8")
        assert find_line(rulebook, quote) == int(line), (name, line, quote)


def test_python_dash_m_and_the_version(installed: Installed):
    got = _ok([str(installed.python), "-m", "ruleslawyer", "--version"], cwd=installed.elsewhere, env=_clean_env())
    assert got.stdout == f"ruleslawyer {VERSION}\n"
    shown = _ok([str(installed.python), "-m", "ruleslawyer", "rules", "show", "lady-alice"],
                cwd=installed.elsewhere, env=_clean_env())
    assert shown.stdout.startswith("lady-alice[players=4]")
