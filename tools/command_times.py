"""The README's durations, measured, never typed: ``docs/timings.json`` and its rendering.

    python tools/command_times.py measure [KEY ...]   # time commands into docs/timings.json
    python tools/command_times.py render              # write the durations into README.md
    python tools/command_times.py list                # the keys and what each runs

``measure`` runs each command (every one of :data:`COMMANDS` without KEYs) from the
repository root, one after the other, and merges its wall time into ``docs/timings.json``
with the date, the machine, the CPU seconds it used, the CPU seconds every other process of
the machine used meanwhile (``/proc/stat`` less the command's own) and what it reported (the
tests that passed), so one slow command can be measured again alone.  A command that fails
is an error, not a duration.  Run it on an idle machine: where others used more than
:data:`BUSY` of a core, the README says so beside the number.

``render`` writes into ``README.md`` the last column of the command table ("about") and
the paragraph between the generated-section markers of the quick start;
``tests/test_readme.py`` fails when the README says anything else.  Commands that rewrite
committed files (``make update-claims``, ``make figures``) leave their output for the
change that measured them; ``make bench`` writes ``build/`` only.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ROOT / "docs" / "timings.json"
README = ROOT / "README.md"
BEGIN, END = "<!-- generated:begin -->", "<!-- generated:end -->"  # as in proofs_check.pages
#: other processes using more than this share of a core while a command ran (on average):
#: the machine was not idle, and the README says so beside the number
BUSY = 0.1

#: key -> the shell command timed (run from the repository root).  The keys that are a row
#: of the README's command table are that row's command exactly.
COMMANDS = {
    "make test": "make test",
    "make verify-claims": "make verify-claims",
    "make verify-tests": "make verify-tests",
    "make update-claims": "make update-claims",
    ".venv/bin/proofs_check --only thm5.1 --budget thorough":
        ".venv/bin/proofs_check --only thm5.1 --budget thorough --json {tmp}/c.json "
        "--out {tmp}/c.md --state {tmp}/state",
    ".venv/bin/proofs_check --replay thm5.1 --family random --seed 6439066843116023457":
        ".venv/bin/proofs_check --replay thm5.1 --family random --seed 6439066843116023457",
    ".venv/bin/proofs_check --resume --workers 2":
        ".venv/bin/proofs_check --resume --workers 2 --state {tmp}/state --json {tmp}/r.json "
        "--out {tmp}/r.md",
    ".venv/bin/proofs_check --compare docs/claims.json build/claims.json":
        ".venv/bin/proofs_check --compare docs/claims.json docs/claims.json",
    "make figures": "make figures",
    "make bench": "make bench",
    ".venv/bin/linteach train --data digits --pair 3 5":
        ".venv/bin/linteach train --data digits --pair 3 5",
    ".venv/bin/linteach --help": ".venv/bin/linteach --help",
    "make shell": "echo exit | SHELL=/bin/sh make shell",
    "make check-dist": "make check-dist",
    "make venv (fresh clone)": "git clone -q {root} {tmp}/clone && make -C {tmp}/clone venv",
}
#: table rows whose duration is a word, not a measurement (a campaign of hours is not timed)
UNTIMED = {"make mutate": "hours"}
#: table rows timed as the sum of other keys (make verify is its two steps in turn)
SUMS = {"make verify": ("make verify-claims", "make verify-tests")}


def duration(seconds: float) -> str:
    """How the README writes a duration: ``0.04 s``, ``0.8 s``, ``42 s``, ``2.1 min``, ``17 min``."""
    if seconds < 1:
        return f"{seconds:.2f} s"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 100:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min" if seconds < 600 else f"{seconds / 60:.0f} min"


def seconds_of(timings: dict, key: str) -> float:
    if key in SUMS:
        return sum(seconds_of(timings, part) for part in SUMS[key])
    if key not in timings:
        raise KeyError(f"{key!r} has no measurement in {TIMINGS.name}: run "
                       f"`python tools/command_times.py measure '{key}'`")
    return timings[key]["seconds"]


def measure(keys, timings: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    for key in keys:
        with tempfile.TemporaryDirectory(prefix="linteach-times-") as tmp:
            command = COMMANDS[key].format(tmp=tmp, root=ROOT)
            print(f"[times] {key}", flush=True)
            busy, ours = machine_cpu_seconds(), children_cpu_seconds()
            start = time.perf_counter()
            done = subprocess.run(command, shell=True, cwd=ROOT, env=env, text=True,
                                  capture_output=True, check=False)
            seconds = time.perf_counter() - start
            ours = children_cpu_seconds() - ours
            others = max(0.0, machine_cpu_seconds() - busy - ours)
        if done.returncode:
            raise SystemExit(f"{key!r} exited {done.returncode}:\n{done.stdout[-6000:]}\n"
                             f"{done.stderr[-3000:]}")
        entry = {"seconds": round(seconds, 2), "date": date.today().isoformat(),
                 "cpu_seconds": round(ours, 2), "others_cpu_seconds": round(others, 2),
                 "machine": machine()}
        passed = re.findall(r"(\d+) passed", done.stdout)
        if passed and key.startswith(("make test", "make verify-tests", "make check-dist")):
            entry["tests_passed"] = int(passed[-1])
        timings[key] = entry
        print(f"[times] {key}: {duration(seconds)}", flush=True)
        TIMINGS.write_text(json.dumps(dict(sorted(timings.items())), indent=1) + "\n")
    return timings


def machine_cpu_seconds() -> float:
    """CPU seconds every process of the machine has used since boot (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")  # less idle, iowait


def children_cpu_seconds() -> float:
    """CPU seconds of this process's finished children (the commands measured)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine() -> str:
    """The machine as the benchmarks name it (``linteach.bench.run.machine``)."""
    from linteach.bench.run import machine as bench_machine

    found = bench_machine()
    return f"{found['cpu']} ({platform.machine()}, {found['cpus']} cores)"


def _busy(timings: dict, key: str) -> str:
    """What else ran meanwhile, when it was more than :data:`BUSY` of a core on average."""
    parts = SUMS.get(key, (key,))
    others = sum(timings[p].get("others_cpu_seconds", 0.0) for p in parts)
    wall = sum(timings[p]["seconds"] for p in parts)
    return (f" (while other processes used {others / wall:.1f} of a core)"
            if others > BUSY * wall else "")


def _took(t: dict, key: str) -> str:
    """``took 42 s`` (with the load when the machine was busy), or that it is not measured."""
    parts = SUMS.get(key, (key,))
    if not all(p in t for p in parts):
        return "is not measured yet"
    return f"took {duration(seconds_of(t, key))}{_busy(t, key)}"


def _passed(t: dict, key: str) -> str:
    n = t.get(key, {}).get("tests_passed")
    return "" if n is None else f" ({n} tests passed)"


def paragraph(timings: dict) -> str:
    """The quick start's generated paragraph: what the two commands and ``make venv`` took."""
    t = timings
    where = sorted({(t[k]["machine"], t[k]["date"]) for k in
                    ("make test", *SUMS["make verify"], "make venv (fresh clone)") if k in t})
    machines = "; ".join(f"{m}, {d}" for m, d in where) or "no machine yet"
    return (
        f"Measured by `python tools/command_times.py measure` ({machines}): `make test` "
        f"{_took(t, 'make test')}{_passed(t, 'make test')}; `make verify` "
        f"{_took(t, 'make verify')}: the claims at the standard budget "
        f"{_took(t, 'make verify-claims')}, then the test session "
        f"{_took(t, 'make verify-tests')}{_passed(t, 'make verify-tests')}. `make venv` in a "
        f"fresh clone {_took(t, 'make venv (fresh clone)')}, with pip's cache as that machine "
        f"had it (from an empty cache, the downloads come on top).")


def table_cell(timings: dict, command: str) -> str:
    return UNTIMED.get(command) or duration(seconds_of(timings, command))


def rendered(text: str, timings: dict) -> str:
    """``text`` (README.md) with every generated duration written from ``timings``."""
    head, rest = text.split(BEGIN, 1)
    rest = rest.split(END, 1)[1]
    text = f"{head}{BEGIN}\n{paragraph(timings)}\n{END}{rest}"
    start = text.index("## More commands")
    stop = text.index("\n## ", start + 3)

    def row(match):
        return f"{match[1]}{table_cell(timings, match[2])} |"
    table = re.sub(r"^(\| `([^`]+)` \|.*\| )[^|]*\|$", row, text[start:stop], flags=re.M)
    return text[:start] + table + text[stop:]


def load() -> dict:
    return json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="verb", required=True)
    m = sub.add_parser("measure", help="time commands into docs/timings.json")
    m.add_argument("keys", nargs="*", help="keys of `list` (default: every one)")
    sub.add_parser("render", help="write the durations into README.md")
    sub.add_parser("list", help="the keys and their commands")
    args = p.parse_args(argv)
    if args.verb == "list":
        for key, command in COMMANDS.items():
            print(f"{key}\n    {command}")
    elif args.verb == "measure":
        unknown = [k for k in args.keys if k not in COMMANDS]
        if unknown:
            raise SystemExit(f"unknown keys {unknown}; see `list`")
        if shutil.which("make") is None:
            raise SystemExit("measuring needs make")
        if not Path("/proc/stat").exists():  # what else ran meanwhile is read from it
            raise SystemExit("measuring needs /proc/stat (Linux)")
        measure(args.keys or list(COMMANDS), load())
    else:
        README.write_text(rendered(README.read_text(), load()))


if __name__ == "__main__":
    main(sys.argv[1:])
