"""``tools/mutate.py`` leaves no process behind: a campaign's stop ends every judge still
running in its scratch copy, also one detached from every process group we started."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if not (ROOT / "tools" / "mutation_population.py").exists():
    pytest.skip("the mutation tools are not in this tree (an sdist)", allow_module_level=True)
psutil = pytest.importorskip("psutil")
sys.path.insert(0, str(ROOT / "tools"))
from mutation_population import exec_until, stop_strays  # noqa: E402

SLEEPER = [sys.executable, "-c", "import time; time.sleep(300)"]


def _detached(cwd):
    """A process in ``cwd`` in a session of its own, as a reparented judge would be."""
    return subprocess.Popen(SLEEPER, cwd=cwd, start_new_session=True)


def test_a_stray_inside_the_scratch_copy_is_stopped_and_one_outside_is_not(tmp_path):
    work, other = tmp_path / "work", tmp_path / "other"
    (work / "sub").mkdir(parents=True)
    other.mkdir()
    inside, outside = _detached(work / "sub"), _detached(other)
    try:
        assert stop_strays(work, grace=5) == 1
        assert inside.wait(timeout=10) is not None
        assert outside.poll() is None  # the control: not in the copy, left running
    finally:
        for p in (inside, outside):
            p.kill()
            p.wait()


def test_a_campaign_stopped_on_time_leaves_no_judge_running(tmp_path):
    """``exec_until``: the command starts a detached grandchild (and files its pid); on time
    both are gone."""
    spawn = ("import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', "
             "'import time; time.sleep(300)'], start_new_session=True); "
             "open('grandchild.pid', 'w').write(str(p.pid)); time.sleep(300)")
    assert exec_until([sys.executable, "-c", spawn], cwd=tmp_path, env=None, seconds=1.5) is False
    pid = int((tmp_path / "grandchild.pid").read_text())  # it had started
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
