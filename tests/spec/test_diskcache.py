"""The rule-set cache on disk (spec/diskcache.py): the same answers, and never trusted blindly.

Issue 24: the compiled rule set kept between commands, keyed by the rule
files, overlays and variant (and the package's version), invalidated safely.
The expectations: a check with the cache gives exactly the output of a check
without it (every example log warm, its rule set read from the disk; cold, the
first log of each rule set, whose build writes the entry); a warm build generates
no expression function and parses no rule file; an entry that is truncated,
another key's, another version's, a link, or in a folder or file others may
write is ignored (and rewritten where it is ours), never a traceback.
"""

from __future__ import annotations

import json
import marshal
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer.checker import log as logmod
from ruleslawyer.checker.check import check_text
from ruleslawyer.spec import diskcache, exprgen, expr, loader, source

from ..conftest import ROOT

LOGS = sorted(p for p in (ROOT / "examples").rglob("*.yaml")
              if "lab" not in p.parts and p.read_text(errors="replace").lstrip("#\n ").count("rules:"))


def _forget() -> None:
    """This process's memos of parsed files, built rule sets and generated functions."""
    loader._BUILT.clear()
    loader._PARSED.clear()
    expr._COMPILED.clear()
    expr._GENERATED.clear()
    logmod._CACHE.clear()


def _check(path: Path, forget: bool = True) -> str:
    if forget:
        _forget()
    report = check_text(path.read_text(), str(path.relative_to(ROOT)))
    return json.dumps(report.to_json(), sort_keys=True)


@pytest.fixture
def counted(monkeypatch):
    """Calls of the expression generator and of the YAML parser for rule files."""
    calls = {"generate": 0, "parse": 0}
    generate, parse = exprgen.generate, loader.parse_text

    def gen(*args, **kw):
        calls["generate"] += 1
        return generate(*args, **kw)

    def par(*args, **kw):
        calls["parse"] += 1
        return parse(*args, **kw)

    monkeypatch.setattr(exprgen, "generate", gen)
    monkeypatch.setattr(loader, "parse_text", par)
    return calls


@pytest.mark.heavy
def test_a_cached_check_gives_exactly_the_uncached_output_for_every_example_log(tmp_path, monkeypatch, counted):
    monkeypatch.chdir(ROOT)
    assert len(LOGS) > 20
    # Plain: each rule set built once in this process (the first log that names it; the later
    # ones reuse this process's memo, never the disk).  Cold: the first log of each rule set
    # again, in the same order, its build writing the cache (a later log would reuse the memo:
    # the plain pass's work again, not the cache's).  Warm: every log checked with its rule set
    # read back from the disk (this process's memos forgotten at the first log of each rule set;
    # the later ones check with that rule set, as read from the disk, and nothing generated).
    monkeypatch.setenv("RULESLAWYER_CACHE", "off")
    _forget()
    plain, firsts = {}, []
    for p in LOGS:
        built = set(loader._BUILT)
        plain[p] = _check(p, forget=False)
        if set(loader._BUILT) - built:
            firsts.append(p)
    assert counted["generate"] > 0 and not list(tmp_path.iterdir())
    assert 5 < len(firsts) < len(LOGS)  # several rule sets, most of them named by several logs
    monkeypatch.setenv("RULESLAWYER_CACHE", str(tmp_path / "cache"))
    _forget()
    cold = {p: _check(p, forget=False) for p in firsts}
    entries = sorted(x.name.split("-")[0] for x in (tmp_path / "cache").iterdir())
    assert "codes" in entries and "yaml" in entries
    _forget()
    for p in LOGS:
        counted["generate"] = counted["parse"] = 0
        assert _check(p, forget=p in cold) == plain[p] == cold.get(p, plain[p]), p
        assert counted == {"generate": 0, "parse": 0}, p  # warm: nothing generated or parsed again


def _entries(where: Path, kind: str) -> list[Path]:
    return sorted(where.glob(f"{kind}-*.bin"))


def _warm(where: Path, monkeypatch) -> None:
    monkeypatch.setenv("RULESLAWYER_CACHE", str(where))
    _forget()
    loader.load_rules("lady-alice", "4p")
    assert _entries(where, "codes") and _entries(where, "yaml")


HOSTILE = {
    "truncated": lambda b: b[: len(b) // 2],
    "empty": lambda b: b"",
    "not marshal": lambda b: b"\x00garbage" * 10,
    "another key": lambda b: marshal.dumps(("codes\x00other\x00key", {})),
    "another version": lambda b: marshal.dumps((marshal.loads(b)[0].replace("\x00", "\x00x", 1), marshal.loads(b)[1])),
    "wrong shape": lambda b: marshal.dumps((marshal.loads(b)[0], [1, 2, 3])),
    "foreign code": lambda b: marshal.dumps((marshal.loads(b)[0], {k: compile("1", "x", "eval")
                                                                   for k in marshal.loads(b)[1]})),
}


@pytest.mark.parametrize("how", sorted(HOSTILE))
def test_a_corrupt_or_foreign_entry_is_ignored_and_rewritten(tmp_path, monkeypatch, counted, how):
    monkeypatch.chdir(ROOT)
    where = tmp_path / "cache"
    _warm(where, monkeypatch)
    clean = _check(ROOT / "examples/lady-alice/clean-4p.yaml")
    for kind in ("codes", "yaml"):
        for entry in _entries(where, kind):
            entry.write_bytes(HOSTILE[how](entry.read_bytes()))
    counted["generate"] = counted["parse"] = 0
    assert _check(ROOT / "examples/lady-alice/clean-4p.yaml") == clean
    if how != "foreign code":  # a code object of the wrong shape is refused one by one
        assert counted["parse"] > 0
    assert counted["generate"] > 0
    counted["generate"] = counted["parse"] = 0
    assert _check(ROOT / "examples/lady-alice/clean-4p.yaml") == clean
    assert counted == {"generate": 0, "parse": 0}  # rewritten: the next run reads it


def test_a_link_or_a_folder_others_may_enter_is_not_used(tmp_path, monkeypatch, counted):
    monkeypatch.chdir(ROOT)
    where = tmp_path / "cache"
    _warm(where, monkeypatch)
    # an entry that is a link to another file: not followed
    entry = _entries(where, "codes")[0]
    target = tmp_path / "elsewhere.bin"
    target.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(target)
    assert diskcache.load("codes", ("nothing",)) is None
    counted["generate"] = 0
    _forget()
    loader.load_rules("lady-alice", "4p")
    assert counted["generate"] > 0
    # a folder others may write: neither read nor written
    _warm(where, monkeypatch)
    where.chmod(0o777)
    counted["generate"] = counted["parse"] = 0
    _forget()
    loader.load_rules("lady-alice", "4p")
    assert counted["generate"] > 0 and counted["parse"] > 0
    where.chmod(0o700)
    # an entry others may write: not read
    for e in _entries(where, "codes"):
        e.chmod(0o666)
    counted["generate"] = 0
    _forget()
    loader.load_rules("lady-alice", "4p")
    assert counted["generate"] > 0
    # the cache folder itself a link: not used
    link = tmp_path / "link"
    link.symlink_to(where)
    monkeypatch.setenv("RULESLAWYER_CACHE", str(link))
    assert diskcache.store("demo", ("k",), 1) is False and diskcache.load("demo", ("k",)) is None


def test_the_folder_is_made_private_and_off_writes_nothing(tmp_path, monkeypatch):
    where = tmp_path / "made" / "cache"
    monkeypatch.setenv("RULESLAWYER_CACHE", str(where))
    assert diskcache.store("demo", ("k",), {"a": (1, "b")})
    assert stat.S_IMODE(where.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(e.stat().st_mode) & 0o077 == 0 for e in where.iterdir())
    assert diskcache.load("demo", ("k",)) == {"a": (1, "b")}
    assert not [e for e in where.iterdir() if e.name.endswith(".part")]  # written whole, then renamed
    monkeypatch.setenv("RULESLAWYER_CACHE", "off")
    assert diskcache.folder() is None and diskcache.store("demo", ("k",), 1) is False
    monkeypatch.delenv("RULESLAWYER_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.folder() == tmp_path / "xdg" / "ruleslawyer"


def test_a_folder_that_cannot_be_made_means_no_cache_not_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = {**os.environ, "RULESLAWYER_CACHE": str(blocker / "cache")}
    done = subprocess.run([sys.executable, "-m", "ruleslawyer", "check", "examples/lady-alice/clean-4p.yaml"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_an_edited_rule_file_is_a_new_entry(tmp_path, monkeypatch, counted):
    # the key holds the files' bytes: an overlay edited gives its own entry, the old one stays valid
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULESLAWYER_CACHE", str(tmp_path / "cache"))
    base = (ROOT / "rules" / "lady-alice.yaml").read_text()
    (tmp_path / "game.yaml").write_text(base)
    _forget()
    first = loader.load_rules("game.yaml", "4p")
    (tmp_path / "game.yaml").write_text(base.replace("title:", "# edited\ntitle:", 1))
    _forget()
    counted["parse"] = 0
    second = loader.load_rules("game.yaml", "4p")
    assert counted["parse"] == 1 and first.canonical_name == second.canonical_name
    assert len(_entries(tmp_path / "cache", "yaml")) == 2 and len(_entries(tmp_path / "cache", "codes")) == 2


def test_positions_survive_the_cache(tmp_path):
    # a document read back has every key's and value's position, so diagnostics point as before
    text = (ROOT / "rules" / "perfect-alibi.yaml").read_text()
    doc = source.parse_text(text, "rules/perfect-alibi.yaml")
    again = source.decode_doc(marshal.loads(marshal.dumps(source.encode_doc(doc))), "rules/perfect-alibi.yaml")

    def same(a, b):
        assert type(a) is type(b)
        if isinstance(a, source.LMap):
            assert (a.pos, a.key_pos, a.val_pos, list(a)) == (b.pos, b.key_pos, b.val_pos, list(b))
            for k in a:
                same(a[k], b[k])
        elif isinstance(a, source.LSeq):
            assert (a.pos, a.item_pos, len(a)) == (b.pos, b.item_pos, len(b))
            for x, y in zip(a, b):
                same(x, y)
        else:
            assert a == b or (a != a and b != b)  # NaN

    same(doc, again)
    with pytest.raises(ValueError):
        source.decode_doc(("m", 1, 1, ((("tuple",), 1, 1, 1, 1, 2),)), "x")
    with pytest.raises(ValueError):
        source.decode_doc(("q", 1, 1, ()), "x")


def test_old_entries_are_removed_past_the_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESLAWYER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(diskcache, "MAX_ENTRIES", 3)
    (tmp_path / "cache").mkdir(mode=0o700)
    other = tmp_path / "cache" / "notes.txt"
    other.write_text("not an entry")
    for i in range(5):  # each entry written a second after the one before
        assert diskcache.store("demo", (i,), i)
        os.utime(diskcache._entry("demo", (i,), make=False)[0], ns=(i * 10**9, i * 10**9))
    assert len(list((tmp_path / "cache").glob("demo-*.bin"))) == 3 and other.exists()
    assert [diskcache.load("demo", (i,)) for i in range(5)] == [None, None, 2, 3, 4]


def test_a_folder_or_entry_of_another_user_is_not_used(tmp_path, monkeypatch, counted):
    # "not ours": the cache's folder and entries belong to this process's user, else not trusted
    monkeypatch.chdir(ROOT)
    where = tmp_path / "cache"
    _warm(where, monkeypatch)
    me = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: me + 1)
    counted["generate"] = counted["parse"] = 0
    _forget()
    loader.load_rules("lady-alice", "4p")
    assert counted["generate"] > 0 and counted["parse"] > 0
    assert diskcache.store("demo", ("k",), 1) is False
