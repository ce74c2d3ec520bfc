"""A killed or interrupted runner leaves no process behind and exits promptly (issue 15, item 10).

Runs ``python -m proofs_check --selftest`` with a pool of two workers in a subprocess, then
SIGKILLs it (its workers and the resource tracker must go too) or sends SIGINT (it must
exit with 130 within a bounded time, however busy its workers are).
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from _processes import sigint_as_in_a_foreground_job  # tests/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]
#: seconds within which orphans must be gone / an interrupted run must have exited
BOUND = 20.0

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the process table from /proc")


def _ppid_and_state(pid: int):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None, None
    return int(fields[1]), fields[0]


def _descendants(pid: int) -> set:
    children = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            ppid, _ = _ppid_and_state(int(entry.name))
            if ppid is not None:
                children.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pids) -> set:
    return {p for p in pids if _ppid_and_state(p)[1] not in (None, "Z", "X")}


def _start(tmp_path, *, pipes: bool):
    cmd = [sys.executable, "-m", "proofs_check", "--selftest", "--only", "self.slow",
           "--cases", "400", "--workers", "2", "--state", str(tmp_path / "state")]
    out = subprocess.PIPE if pipes else subprocess.DEVNULL
    return subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=out, text=True,
                            preexec_fn=sigint_as_in_a_foreground_job)


def _wait_for_workers(proc, count=2, timeout=60.0) -> set:
    """The runner's worker processes, once ``count`` batches have been checkpointed."""
    end = time.monotonic() + timeout
    state = None
    while time.monotonic() < end and proc.poll() is None:
        state = list(Path(proc.args[proc.args.index("--state") + 1]).glob(
            "*/batches/self.slow/*.json"))
        if len(state) >= count:
            return _descendants(proc.pid)
        time.sleep(0.05)
    raise AssertionError(f"the run ended or stalled before {count} batches: {state}")


@pytest.mark.slow
def test_sigkill_of_the_runner_leaves_no_worker_behind(tmp_path):
    proc = _start(tmp_path, pipes=False)
    try:
        family = _wait_for_workers(proc)
        assert len(family) >= 2  # two workers (and the resource tracker)
        proc.kill()
        proc.wait(timeout=10)
        end = time.monotonic() + BOUND
        while _alive(family) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _alive(family), f"orphans still running: {_alive(family)}"
    finally:
        proc.kill()
        for pid in _alive(_descendants(proc.pid)):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_sigint_with_busy_workers_exits_promptly_and_cleanly(tmp_path):
    proc = _start(tmp_path, pipes=True)
    try:
        family = _wait_for_workers(proc)
        began = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=BOUND)
        took = time.monotonic() - began
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 130, err
    assert took < BOUND and "interrupted: no report written" in err
    assert "Traceback" not in err
    end = time.monotonic() + BOUND
    while _alive(family) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(family)


def test_a_worker_exits_when_its_parent_is_gone(tmp_path):
    """The watchdog itself: a grandchild whose parent exits must exit within the poll."""
    code = ("import os, sys, time\n"
            "from proofs_check.engine.executor import watch_parent\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    watch_parent(os.getppid(), poll=0.05)\n"
            "    print(os.getpid(), flush=True)\n"
            "    time.sleep(30)\n"
            "    os._exit(0)\n"
            "time.sleep(0.5)\n")  # the parent exits; the child must follow
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    child = int(done.stdout.split()[0])
    end = time.monotonic() + 5
    while _alive({child}) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _alive({child})
