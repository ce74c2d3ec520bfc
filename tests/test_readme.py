"""Every command the README prints works as printed.

The README's commands are read from the page itself (its ``sh`` blocks and the first column
of the "More commands" table); each must have a quick variant here, and each quick variant
runs.  The cheap ones run in ``make test``, the heavier ones are ``slow`` (``make verify``),
the ones of minutes (a whole benchmark) are ``long`` (``make check-dist``), and the whole
list in a fresh clone with a fresh ``.venv`` made by ``make venv`` is ``fresh_venv`` (also
``make check-dist``).

Commands are run from the repository root exactly as printed; ``.venv/bin/`` stands for the
folder of the interpreter running the tests (the same folder under ``make test``).
"""
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

#: README command -> its quick variants (run in order).  "{tmp}" is a fresh folder.  A
#: variant starting with "!" is slow (seconds: a program's start-up), with "!!" long
#: (minutes); both run in ``make test-slow`` and ``make check-dist`` (``make verify`` spends
#: its time on the claims; ``make check-dist`` also runs every variant in a fresh clone).
#: ``make X`` commands are checked with ``make -n X`` (the target exists and its recipe expands) and by running the programs the
#: recipe runs at their smallest size.  A variant's claim is the cheapest one that runs the
#: command's machinery (every claim itself runs in ``make verify``'s first step).
QUICK = {
    "make verify": [
        "make -n verify",
        "!.venv/bin/proofs_check --budget quick --only cor6.1 --json {tmp}/claims.json "
        "--out {tmp}/claims.md --state {tmp}/state",
        "!.venv/bin/proofs_check --compare {tmp}/claims.json {tmp}/claims.json"],
    "make test": ["make -n test"],
    "make update-claims": ["make -n update-claims"],
    ".venv/bin/proofs_check --only thm5.1 --budget thorough": [
        "!.venv/bin/proofs_check --only cor6.1 --budget quick --json {tmp}/c.json "
        "--state {tmp}/state"],
    ".venv/bin/proofs_check --replay thm5.1 --family random --seed 6439066843116023457": [
        "!.venv/bin/proofs_check --replay thm5.1 --family random --seed 6439066843116023457"],
    ".venv/bin/proofs_check --resume --workers 2": [
        "!.venv/bin/proofs_check --resume --workers 2 --budget quick --only cor6.1 "
        "--state {tmp}/state --json {tmp}/r.json"],
    ".venv/bin/proofs_check --compare docs/claims.json build/claims.json": [
        ".venv/bin/proofs_check --compare docs/claims.json docs/claims.json"],
    "make figures": [
        "make -n figures",
        "!.venv/bin/linteach figure fig5 --size small --out {tmp}/figs",
        # in make test, tests/test_figures_doc.py checks the same in-process
        "!.venv/bin/python -m linteach.figures.doc docs/figures docs/figures.md --check"],
    "make bench": [
        "make -n bench",
        # every row at its quick size, the claims' cases/s included: minutes of CPU
        "!!.venv/bin/linteach bench --quick --skip-verify --md {tmp}/b.md --json {tmp}/b.json"],
    ".venv/bin/linteach train --data digits --pair 3 5": [
        "!.venv/bin/linteach train --data digits --pair 3 5"],
    ".venv/bin/linteach --help": [".venv/bin/linteach --help"],
    "make shell": ["make shell"],
    "make check-dist": ["make -n check-dist"],
    "make mutate": ["make -n mutate"],
}


def readme_commands(text: str) -> list[str]:
    """Commands in ``sh`` code blocks (comments dropped) and the command table's first column."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        out += [line.split("#")[0].strip() for line in block.splitlines()
                if line.split("#")[0].strip()]
    section = text[text.index("## More commands"):]
    section = section[:section.index("\n## ", 3)]
    out += re.findall(r"^\| `([^`]+)` \|", section, re.M)
    return list(dict.fromkeys(out))


def _argv(command: str, tmp: Path, bindir: Path) -> list[str]:
    argv = shlex.split(command.format(tmp=tmp))
    if argv[0].startswith(".venv/bin/"):
        argv[0] = str(bindir / argv[0][len(".venv/bin/"):])
    return argv


def user_env() -> dict:
    """The environment of a user's shell: without the variables a parent ``make`` exports
    (under ``make check-dist`` a child make would print "Entering directory" lines)."""
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}


def run_variant(command: str, tmp: Path, *, cwd: Path = ROOT, bindir: Path = BIN,
                timeout: float = 600):
    """Run one quick variant; returns the completed process (``make shell`` gets a script)."""
    env = dict(user_env(), MPLBACKEND="Agg")
    stdin = None
    if command == "make shell":  # an interactive shell: feed it two commands and exit
        env["SHELL"] = "/bin/sh"
        stdin = "command -v linteach\ncommand -v proofs_check\nexit\n"
    return subprocess.run(_argv(command, tmp, bindir), cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout, check=False)


def _check(command, done, cwd):
    assert done.returncode == 0, f"{command!r} exited {done.returncode}:\n{done.stderr[-2000:]}"
    if command == "make shell":
        venv_bin = str(cwd / ".venv" / "bin")
        assert f"{venv_bin}/linteach" in done.stdout and f"{venv_bin}/proofs_check" in done.stdout


def _tier(variant: str) -> int:
    """0 quick (``make test``), 1 slow and 2 long (``make test-slow``, ``make check-dist``)."""
    return len(variant) - len(variant.lstrip("!"))


def _commands(tier: int):
    """README commands whose slowest variant is of ``tier``; a command's variants run in
    order in one folder (a compare reads what a run wrote)."""
    return [cmd for cmd, vs in QUICK.items() if max(map(_tier, vs)) == tier]


def test_every_readme_command_has_a_quick_variant():
    printed = readme_commands(README.read_text())
    assert len(printed) >= 10  # the parser found the table
    assert [c for c in printed if c not in QUICK] == []
    assert [c for c in QUICK if c not in printed] == []  # and no stale entry here


def test_every_long_command_states_its_duration():
    section = README.read_text().split("## More commands")[1].split("\n## ")[0]
    rows = re.findall(r"^\| `([^`]+)` \|.*\| ([^|]*) \|$", section, re.M)
    assert len(rows) == len(re.findall(r"^\| `", section, re.M)) >= 10
    for command, duration in rows:
        assert re.fullmatch(r"\d+(\.\d+)? (s|min)|hours", duration.strip()), (command, duration)


def _command_times():
    path = ROOT / "tools" / "command_times.py"
    if not path.exists():
        pytest.skip("tools/ is not in this tree (an sdist)")
    spec = importlib.util.spec_from_file_location("command_times", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_durations_are_the_measured_ones():
    """README.md's durations are ``docs/timings.json`` rendered by ``python
    tools/command_times.py render`` (the table's last column and the quick start's generated
    paragraph), every table row is measured or declared untimed, and no other duration is
    typed anywhere in the page."""
    times = _command_times()
    text, timings = README.read_text(), times.load()
    assert times.rendered(text, timings) == text, "stale: python tools/command_times.py render"
    section = text.split("## More commands")[1].split("\n## ")[0]
    for command in re.findall(r"^\| `([^`]+)` \|", section, re.M):
        assert command in times.UNTIMED or command in times.SUMS or command in times.COMMANDS
    head, rest = text.split(times.BEGIN, 1)
    typed = head + rest.split(times.END, 1)[1].replace(section, "")
    assert re.findall(r"\b\d+(?:\.\d+)? ?(?:s|min|minutes|seconds)\b", typed) == []


def test_a_changed_measurement_changes_the_readme():
    """The control of the test above: another number renders another page."""
    times = _command_times()
    text, timings = README.read_text(), times.load()
    keys = [k for k in ("make test", "make verify-claims", ".venv/bin/linteach --help")
            if k in timings]  # a key not measured yet reads "not measured yet"
    assert keys, "nothing measured: python tools/command_times.py measure"
    for key in keys:
        changed = {**timings, key: {**timings[key], "seconds": timings[key]["seconds"] * 3}}
        assert times.rendered(text, changed) != text, key


def test_the_replay_line_is_the_one_the_report_prints():
    """The README's replay example must be a worst case that docs/claims.md really lists."""
    line = next(c for c in QUICK if "--replay" in c)
    args = line.split("--replay", 1)[1].strip()
    assert f"--replay {args}" in (ROOT / "docs" / "claims.md").read_text()


@pytest.mark.parametrize("command", _commands(0))
def test_quick_variants(command, tmp_path):
    for variant in QUICK[command]:
        if variant.startswith("make") and shutil.which("make") is None:
            pytest.skip("make is not installed")
        if variant == "make shell" and BIN != ROOT / ".venv" / "bin":
            pytest.skip("the tests do not run in this checkout's .venv (make shell would "
                        "make one)")
        _check(command, run_variant(variant, tmp_path), ROOT)


def _run_all(command, tmp_path):
    for variant in QUICK[command]:
        if variant.startswith("make") and shutil.which("make") is None:
            continue
        _check(command, run_variant(variant.lstrip("!"), tmp_path), ROOT)


@pytest.mark.slow
@pytest.mark.long  # seconds each, but README plumbing, not evidence: see QUICK
@pytest.mark.parametrize("command", _commands(1))
def test_slow_variants(command, tmp_path):
    _run_all(command, tmp_path)


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize("command", _commands(2))
def test_long_variants(command, tmp_path):
    _run_all(command, tmp_path)


def test_every_command_is_tested_in_some_tier():
    tested = _commands(0) + _commands(1) + _commands(2)
    assert sorted(tested) == sorted(QUICK) and len(tested) == len(QUICK)
    assert all(_tier(v) <= 2 for vs in QUICK.values() for v in vs)


@pytest.mark.slow
@pytest.mark.fresh_venv
def test_a_fresh_clone_runs_every_readme_command(tmp_path):
    """``git clone``, ``make venv`` (a fresh .venv from the registry), then every variant."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None or shutil.which("make") is None:
        pytest.skip("needs a git checkout, git and make")
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", head], check=True)
    start = time.perf_counter()
    made = subprocess.run(["make", "venv", f"PY={shutil.which('python3') or sys.executable}"],
                          cwd=clone, env=user_env(), capture_output=True, text=True,
                          timeout=1800, check=False)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    first = made.stdout.splitlines()[0]
    assert first.startswith("[venv 1/3]"), first  # it says what it is doing, first thing
    print(f"make venv in a fresh clone: {time.perf_counter() - start:.0f} s")
    bindir = clone / ".venv" / "bin"
    for i, (command, variants) in enumerate(QUICK.items()):
        work = tmp_path / f"work{i}"
        work.mkdir()
        for variant in variants:
            _check(command, run_variant(variant.lstrip("!"), work, cwd=clone, bindir=bindir),
                   clone)
    status = subprocess.run(["git", "-C", str(clone), "status", "--porcelain"], check=True,
                            capture_output=True, text=True).stdout
    assert status == "", f"the commands left the clone dirty:\n{status}"
