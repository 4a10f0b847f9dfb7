"""Issue 25, round three: every output path goes through one writer (checker/outputs.py), the
paths of the command line through the one policy, and Ctrl-C ends with one line and 130.

The red team's cases are in ``corpus/outputs/`` (``cases.tsv``); each test below says which.
Before the fix: a device, a fifo, a symlink or the log itself renamed over (exit 0); a file
where a folder is wanted, a missing folder, a read-only folder or a full disk a traceback
(exit 3), an empty file left; ``--allow-path ""`` the working folder; ``prove --property
/etc/shadow`` its first line quoted; Ctrl-C exit 3 with nothing said.
"""

from __future__ import annotations

import errno
import importlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ruleslawyer.checker import outputs
from ruleslawyer.checker.cli import main
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.paths import PathPolicy

from .hostile_helpers import CORPUS, ROOT, cli_command

EX = ROOT / "examples"
LOG = EX / "lady-alice" / "clean-4p.yaml"
FLAWED = EX / "lady-alice" / "lab" / "short-of-cards.yaml"
PROPS = EX / "lady-alice" / "lab" / "properties.yaml"
CASES = CORPUS / "outputs" / "cases.tsv"
#: A subprocess's time: far above a quiet run (a few seconds), never a measure of speed.
TIMEOUT = 300


def _code(exc: pytest.ExceptionInfo[DiagnosticError]) -> str:
    return exc.value.diagnostics[0].code


def _no_temporaries(folder: Path) -> None:
    left = [p.name for p in folder.iterdir() if p.name.endswith(".part")]
    assert not left, left


def _device(folder: Path) -> Path:
    """A device node of /dev/full's kind made in ``folder`` (root only): the tests never aim a writer
    at the system's own /dev, which a writer that renames would replace by a regular file."""
    node = folder / "full"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"mknod needs root here: {exc}")
    return node


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "internal error" not in text, text
    return status, text


def test_the_corpus_lists_every_case_with_its_command():
    rows = [line.split("\t") for line in CASES.read_text().splitlines()[1:]]
    assert len(rows) >= 15 and all(len(r) == 3 and r[1].strip() for r in rows)
    for name, _cmd, _expected in rows:
        assert name == "-" or (CASES.parent / name).is_file(), name


# -- the writer ---------------------------------------------------------------------------------

def test_a_new_file_is_written_whole_and_no_temporary_is_left(tmp_path):
    target = tmp_path / "new.html"
    assert outputs.write_file(target, "héllo") == target.resolve()
    assert target.read_text(encoding="utf-8") == "héllo"
    _no_temporaries(tmp_path)


def test_a_regular_file_is_replaced_and_keeps_its_mode(tmp_path):
    target = tmp_path / "old.md"
    target.write_text("old")
    target.chmod(0o640)
    outputs.write_file(target, b"new")
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_symlink_to_a_regular_file_is_followed(tmp_path):
    """report-replaces-files.sh, the symlink: the target was left untouched, the link replaced."""
    (tmp_path / "target.html").write_text("keep")
    (tmp_path / "link.html").symlink_to("target.html")
    outputs.write_file(tmp_path / "link.html", "new")
    assert (tmp_path / "link.html").is_symlink()
    assert (tmp_path / "target.html").read_text() == "new"


@pytest.mark.parametrize("make", ["fifo", "folder", "dangling link", "read-only", "device"])
def test_what_is_not_a_regular_file_is_refused_and_left_as_it_is(tmp_path, make):
    target = tmp_path / "out"
    if make == "fifo":
        os.mkfifo(target)
    elif make == "folder":
        target.mkdir()
    elif make == "dangling link":
        target.symlink_to(tmp_path / "nowhere")
    elif make == "read-only":
        target.write_text("keep")
        target.chmod(0o444)
    else:
        target = _device(tmp_path)
    before = os.lstat(target)
    with pytest.raises(DiagnosticError) as exc:
        outputs.write_file(target, "x")
    assert _code(exc) == "RL013"
    after = os.lstat(target)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode), before.st_ino)
    if make == "read-only":
        assert target.read_text() == "keep"
    _no_temporaries(tmp_path)


def test_an_input_is_never_written_over_even_by_another_name(tmp_path):
    log = tmp_path / "mylog.yaml"
    shutil.copy(LOG, log)
    (tmp_path / "alias.yaml").symlink_to("mylog.yaml")
    os.link(log, tmp_path / "hard.yaml")
    for name in ("mylog.yaml", "alias.yaml", "hard.yaml"):
        with pytest.raises(DiagnosticError) as exc:
            outputs.write_file(tmp_path / name, "<html>", inputs=[str(log)])
        assert _code(exc) == "RL013" and "input" in exc.value.diagnostics[0].message
    assert log.read_bytes() == LOG.read_bytes()


def test_a_name_ending_in_a_slash_is_a_folder_not_a_file(tmp_path):
    with pytest.raises(DiagnosticError) as exc:
        outputs.write_file(f"{tmp_path}/new/", "x")
    assert _code(exc) == "RL013" and not (tmp_path / "new").exists()


@pytest.mark.parametrize("where", ["missing folder", "under a file"])
def test_a_file_whose_folder_is_not_there_is_refused(tmp_path, where):
    (tmp_path / "f").write_text("x")
    target = tmp_path / ("missing" if where == "missing folder" else "f") / "c.yaml"
    with pytest.raises(DiagnosticError) as exc:
        outputs.write_file(target, "x")
    assert _code(exc) == "RL013"


@pytest.mark.parametrize("failure", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_a_write_error_is_a_diagnostic_and_leaves_the_old_file_whole(tmp_path, monkeypatch, failure):
    """play-write-errors.sh (full disk, read-only folder), simulated in the process: the
    write fails after the temporary was made."""
    target = tmp_path / "r.html"
    target.write_text("the old page")

    def fail(fd: int) -> None:
        raise OSError(failure, os.strerror(failure))

    monkeypatch.setattr(outputs.os, "fsync", fail)
    with pytest.raises(DiagnosticError) as exc:
        outputs.write_file(target, "x" * 100_000)
    assert _code(exc) == "RL013"
    assert target.read_text() == "the old page"
    _no_temporaries(tmp_path)


def test_a_folder_that_refuses_the_temporary_is_a_diagnostic(tmp_path, monkeypatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(outputs.tempfile, "mkstemp", refuse)
    with pytest.raises(DiagnosticError) as exc:
        outputs.write_file(tmp_path / "new.yaml", "x")
    assert _code(exc) == "RL013" and "Permission denied" in exc.value.diagnostics[0].message
    assert not (tmp_path / "new.yaml").exists()


def test_a_folder_of_outputs_is_all_or_nothing(tmp_path, monkeypatch):
    """simulate --logs on a full disk left an empty game-00000.yaml: the second file fails here,
    the first is removed again and the folder made for them too."""
    real_replace = os.replace
    calls = []

    def replace(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(outputs.os, "replace", replace)
    folder = tmp_path / "new" / "logs"
    with pytest.raises(DiagnosticError):
        outputs.write_folder(folder, [("a.yaml", "a"), ("b.yaml", "b"), ("c.yaml", "c")])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("make", ["file", "fifo", "file above"])
def test_a_file_where_a_folder_is_wanted_is_refused(tmp_path, make):
    spot = tmp_path / "plots"
    if make == "fifo":
        os.mkfifo(spot)
    else:
        spot.write_text("x")
    folder = spot / "sub" if make == "file above" else spot
    with pytest.raises(DiagnosticError) as exc:
        outputs.write_folder(folder, [("a.png", b"a")])
    assert _code(exc) == "RL013"


def test_log_ref_is_relative_to_the_folder_of_the_log(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "h.yaml").write_text("x")
    monkeypatch.chdir(tmp_path)
    assert outputs.log_ref("rules/h.yaml", "out") == "../rules/h.yaml"
    assert outputs.log_ref("rules/h.yaml", "rules") == "h.yaml"
    assert outputs.log_ref("rules/h.yaml", ".") == "rules/h.yaml"
    assert outputs.log_ref("lady-alice", "out") == "lady-alice"  # a bundled name, not a file here


# -- the commands that write ----------------------------------------------------------------------

def test_report_refuses_a_device_a_fifo_and_the_log_itself_and_follows_a_link(tmp_path, capsys):
    """report-replaces-files.sh: each was renamed over with exit 0 (as root -o /dev/full turned the
    device into a regular file)."""
    log = tmp_path / "mylog.yaml"
    shutil.copy(LOG, log)
    os.mkfifo(tmp_path / "ff")
    for target in (tmp_path / "ff", log):
        status, text = run(["report", log, "-o", target], capsys)
        assert status == 2 and "error[RL013]" in text, text
    assert stat.S_ISFIFO(os.lstat(tmp_path / "ff").st_mode)
    assert log.read_bytes() == LOG.read_bytes()
    (tmp_path / "target.html").write_text("keep")
    (tmp_path / "link.html").symlink_to("target.html")
    status, text = run(["report", log, "-o", tmp_path / "link.html"], capsys)
    assert status == 0, text
    assert (tmp_path / "link.html").is_symlink() and "<html" in (tmp_path / "target.html").read_text()


def test_report_into_a_device_node_made_here_leaves_it_a_device(tmp_path, capsys):
    """The red team's own case: a node of /dev/full made with mknod (root only)."""
    node = _device(tmp_path)
    status, text = run(["report", LOG, "-o", node], capsys)
    assert status == 2 and "error[RL013]" in text and "device" in text
    assert stat.S_ISCHR(os.lstat(node).st_mode)


@pytest.mark.parametrize("argv", [
    ["simulate", "lady-alice", "--games", "1", "--plots", "{file}"],
    ["simulate", "lady-alice", "--games", "1", "--plots", "{file}/under"],
    ["simulate", "lady-alice", "--games", "1", "--logs", "{file}"],
    ["compare", "lady-alice", "--with", "two-counters", "--games", "1", "--plots", "{file}"],
    ["compare", "lady-alice", "--with", "two-counters", "--games", "1", "--report", "{device}"],
    ["compare", "lady-alice", "--with", "two-counters", "--games", "1", "--report", "{dir}"],
    ["compare", "lady-alice", "--with", "two-counters", "--games", "1", "--report", "{dir}/missing/r.md"],
    ["prove", "lady-alice", "--house", str(FLAWED), "--property", str(PROPS), "--depth", "1",
     "--counterexample", "{dir}/missing/c.yaml"],
    ["prove", "lady-alice", "--house", str(FLAWED), "--property", str(PROPS), "--depth", "1",
     "--counterexample", str(PROPS)],
], ids=["sim-plots-file", "sim-plots-under-file", "sim-logs-file", "cmp-plots-file", "cmp-report-device",
        "cmp-report-folder", "cmp-report-missing", "prove-missing", "prove-input"])
def test_lab_outputs_that_cannot_be_written_are_refused_before_the_work(tmp_path, capsys, monkeypatch, argv):
    """cases.tsv, the first four lines: exit 3 with a traceback (FileExistsError,
    NotADirectoryError, ENOSPC, IsADirectoryError, FileNotFoundError).  Refused before a game is
    played or a state explored: the run itself would fail the test."""
    (tmp_path / "file").write_text("x")
    device = _device(tmp_path) if "{device}" in argv else None
    from ruleslawyer.lab import prove, simulate

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work was done before the output was checked")

    monkeypatch.setattr(simulate, "run", never)
    monkeypatch.setattr(prove, "prove", never)
    before = PROPS.read_bytes()
    args = [a.replace("{file}", str(tmp_path / "file")).replace("{dir}", str(tmp_path))
            .replace("{device}", str(device)) for a in argv]
    status, text = run(args, capsys)
    assert status == 2 and "error[RL013]" in text, text
    assert (tmp_path / "file").read_text() == "x" and PROPS.read_bytes() == before


def test_a_counterexample_names_its_rule_files_relative_to_its_own_folder(tmp_path, capsys, monkeypatch):
    """prove wrote the overlay's absolute path: the counterexample names it relative to where it
    is written, and check reads it back clean (next to it: without --allow-path)."""
    (tmp_path / "rules").mkdir()
    shutil.copy(FLAWED, tmp_path / "rules" / "flawed.yaml")
    monkeypatch.chdir(tmp_path)
    status, text = run(["prove", "lady-alice", "--house", "rules/flawed.yaml", "--property", PROPS, "--depth", "1",
                        "--counterexample", "rules/c.yaml"], capsys)
    assert status == 1, text
    written = (tmp_path / "rules" / "c.yaml").read_text()
    assert "house: [flawed.yaml]" in written or 'house: ["flawed.yaml"]' in written, written
    assert str(tmp_path) not in written
    status, text = run(["check", "rules/c.yaml"], capsys)
    assert status == 0, text
    (tmp_path / "out").mkdir()
    status, text = run(["prove", "lady-alice", "--house", "rules/flawed.yaml", "--property", PROPS, "--depth", "1",
                        "--counterexample", "out/c.yaml"], capsys)
    assert "../rules/flawed.yaml" in (tmp_path / "out" / "c.yaml").read_text()
    status, text = run(["check", "out/c.yaml", "--allow-path", "rules"], capsys)
    assert status == 0, text


def _tmpfs(where: Path) -> Path:
    tiny = where / "tiny"
    tiny.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(tiny)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"a full disk needs a tiny tmpfs, and mount failed here (not root?): {done.stderr!r}")
    try:
        with open(tiny / "fill", "wb", buffering=0) as fh:  # fill it up
            try:
                while True:
                    fh.write(b"\0" * 4096)
            except OSError:
                pass
    except BaseException:
        subprocess.run(["umount", str(tiny)], check=False)
        raise
    return tiny


@pytest.fixture
def full_disk(tmp_path):
    tiny = _tmpfs(tmp_path)
    yield tiny
    subprocess.run(["umount", str(tiny)], check=False)


@pytest.mark.parametrize("argv,left", [
    (["report", str(LOG), "-o", "{d}/r.html"], "r.html"),
    (["simulate", "lady-alice", "--games", "1", "--no-determination", "--logs", "{d}/logs"], "logs"),
    (["simulate", "lady-alice", "--games", "1", "--no-determination", "--plots", "{d}/plots"], "plots"),
    (["prove", "lady-alice", "--house", str(FLAWED), "--property", str(PROPS), "--depth", "1",
      "--counterexample", "{d}/cx.yaml"], "cx.yaml"),
], ids=["report", "simulate-logs", "simulate-plots", "prove"])
def test_a_full_disk_is_a_diagnostic_and_leaves_nothing_behind(full_disk, capsys, argv, left):
    """play-write-errors.sh's full-disk lines (and report -o): exit 3 and an empty file left."""
    status, text = run([a.replace("{d}", str(full_disk)) for a in argv], capsys)
    assert status == 2 and "error[RL013]" in text and "no space left" in text, text
    assert sorted(p.name for p in full_disk.iterdir()) == ["fill"]


def test_a_read_only_folder_is_a_diagnostic_for_a_process_without_root_powers(tmp_path):
    """play-write-errors.sh's read-only folder, for report -o and simulate --logs: root writes
    anywhere, so the command runs without the capability that lets it (setpriv), as the red team
    did; as a plain user the folder's mode is enough."""
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    prefix: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("root writes into a read-only folder, and setpriv is not here to drop that power")
        prefix = ["setpriv", "--inh-caps=-all", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]
    for args in (["report", str(LOG), "-o", str(ro / "r.html")],
                 ["simulate", "lady-alice", "--games", "1", "--no-determination", "--logs", str(ro / "logs")]):
        done = subprocess.run([*prefix, *cli_command(), *args], capture_output=True, text=True, timeout=TIMEOUT,
                              cwd=ROOT)
        text = done.stdout + done.stderr
        if done.returncode != 2 and "Operation not permitted" in text and prefix:
            pytest.skip(f"setpriv cannot drop capabilities here: {text}")
        assert done.returncode == 2 and "error[RL013]" in text and "Traceback" not in text, text
    assert list(ro.iterdir()) == []


# -- paths ---------------------------------------------------------------------------------------

def test_an_empty_allow_path_is_refused_not_the_working_folder(tmp_path, capsys, monkeypatch):
    """allow-path-empty.sh: --allow-path "" let a log in logs/ read ../mine.yaml."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "mine.yaml").write_text("ruleslawyer: 1\nextends: lady-alice\nname: mine\n"
                                        "parameters: {counters_per_space: 2}\n")
    (tmp_path / "logs" / "l.yaml").write_text("rules: lady-alice\nhouse: [../mine.yaml]\n"
                                              "players: [Ann, Ben, Cat, Dan]\nmoves: []\n")
    monkeypatch.chdir(tmp_path)
    status, text = run(["check", "logs/l.yaml"], capsys)
    assert status == 2 and "error[RL011]" in text
    for command in (["check", "logs/l.yaml"], ["solve", "logs/l.yaml"], ["show", "logs/l.yaml"]):
        status, text = run([*command, "--allow-path", ""], capsys)
        assert status == 2 and "error[RL011]" in text and "--allow-path" in text, text
        assert "counters_per_space" not in text and "mine" not in text.split("RL011")[0]
    with pytest.raises(DiagnosticError) as exc:
        PathPolicy.for_log("logs/l.yaml", allow=[""])
    assert _code(exc) == "RL011"


@pytest.mark.parametrize("path", ["{tmp}/shadow", "/etc/shadow"])
def test_a_property_file_that_is_not_one_shows_nothing_of_itself(tmp_path, capsys, path):
    """prove --property /etc/shadow printed root's line in an 'unknown key' message."""
    secret = "root:$6$secretsalt$hash:19000:0:99999:7:::"
    (tmp_path / "shadow").write_text(secret + "\ndaemon:*:19000:0:99999:7:::\n")
    target = path.replace("{tmp}", str(tmp_path))
    if not os.path.isfile(target):
        pytest.skip(f"{target} is not on this system")
    status, text = run(["prove", "lady-alice", "--property", target], capsys)
    assert status == 2 and ("error[RL012]" in text or "error[RL001]" in text), text
    assert "root:" not in text and "daemon" not in text and "secretsalt" not in text


# -- Ctrl-C ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,target", [
    (["check", str(LOG)], "ruleslawyer.checker.check.check_log"),
    (["solve", str(EX / "perfect-alibi" / "rival-4p.yaml"), "--hindsight"], "ruleslawyer.checker.solve.run_solve"),
    (["report", str(LOG), "-o", "{tmp}/r.html"], "ruleslawyer.checker.htmlreport.page"),
    (["prove", "lady-alice", "--property", str(PROPS), "--depth", "1"], "ruleslawyer.lab.prove.prove"),
    (["simulate", "lady-alice", "--games", "5"], "ruleslawyer.lab.simulate.run"),
    (["compare", "lady-alice", "--with", "two-counters", "--games", "5"], "ruleslawyer.lab.simulate.run"),
    (["rules", "show", "lady-alice"], "ruleslawyer.checker.cli.show_text"),
], ids=["check", "solve", "report", "prove", "simulate", "compare", "rules"])
def test_ctrl_c_in_any_command_is_one_line_and_130(tmp_path, capsys, monkeypatch, argv, target):
    """sigint.py: exit 3 (the internal error's status) with nothing said."""
    module, name = target.rsplit(".", 1)

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), name, interrupted)
    status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    out = capsys.readouterr()
    assert status == 130
    assert out.err.strip().splitlines() == ["ruleslawyer: interrupted"], out.err
    assert not (tmp_path / "r.html").exists()


def test_a_real_ctrl_c_stops_simulate_and_its_workers(tmp_path):
    """sigint.py's simulate line, with two worker processes: SIGINT to the whole process group
    (as a terminal sends it) once the progress bar (on a pseudo-terminal) shows that the games
    have begun."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([*cli_command(), "simulate", "lady-alice", "--games", "200000", "--no-determination",
                             "--workers", "2", "--progress", "always"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=slave, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(slave)
    seen = b""
    try:
        seen = os.read(master, 1024)  # the progress bar: the games are being played
        assert seen, "simulate ended without a word"
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=TIMEOUT)
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = seen.decode(errors="replace")
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "internal error" not in text
    assert text.rstrip().splitlines()[-1].strip().endswith("ruleslawyer: interrupted"), text


def test_a_report_beside_its_plots_in_a_new_folder_is_written(tmp_path, capsys):
    """make demo's form (--plots lab-demo --report lab-demo/report.md): the folder is made for the
    plots, so the report's missing folder is not refused before the games."""
    folder = tmp_path / "lab-demo"
    status, text = run(["compare", "lady-alice", "--with", "two-counters", "--games", "2", "--no-determination",
                        "--plots", folder, "--report", folder / "report.md"], capsys)
    assert status == 0, text
    assert "![lengths.png](lengths.png)" in (folder / "report.md").read_text()
