"""Which claims call which functions: the measurement behind the claims of a mutation target
(``tools/mutation_targets.py``).  Each claim runs at the quick budget in a process of its
own (``--workers 0``: in-process) under a profiler that records every function of
``linteach/`` it enters; a target's claims are then chosen from those that reach its
functions, and a function no claim reaches is judged by its tests alone.

    python tools/mutation_reach.py [CLAIM ...] [--out docs/mutation/reach/claims.json]
    python tools/mutation_reach.py --show TARGET ...     # per function, the claims reaching it
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from mutation_targets import TARGETS  # noqa: E402


def _profiled(claim: str, out: Path) -> None:
    """Run ``claim`` in this process, write the sorted (file, qualname) pairs it entered."""
    seen = set()

    def prof(frame, event, _arg):
        if event == "call" and "/linteach/" in frame.f_code.co_filename:
            seen.add(("linteach/" + frame.f_code.co_filename.split("/linteach/")[-1],
                      frame.f_code.co_qualname))

    from proofs_check.__main__ import main

    with tempfile.TemporaryDirectory() as tmp:
        sys.setprofile(prof)
        threading.setprofile(prof)
        try:
            main(["--budget", "quick", "--workers", "0", "--only", claim, "--quiet",
                  "--json", f"{tmp}/c.json", "--out", f"{tmp}/c.md"])
        except SystemExit:
            pass
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
    out.write_text(json.dumps(sorted(seen)))


def measure(claims, out: Path) -> dict:
    """claim -> the (file, qualname) pairs it calls, one subprocess per claim."""
    reach = {}
    with tempfile.TemporaryDirectory() as tmp:
        for claim in claims:
            part = Path(tmp) / f"{claim}.json"
            subprocess.run([sys.executable, __file__, "--one", claim, "--out", str(part)],
                           cwd=ROOT, check=True)
            reach[claim] = json.loads(part.read_text())
            print(f"[reach] {claim}: {len(reach[claim])} functions", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(reach, indent=1))
    return reach


def reaching(reach: dict, file: str, function: str):
    """The claims that call ``function`` (bare, ``Class.method``, or nested) of ``file``."""
    def named(q):
        q = q.replace(".<locals>", "")
        return q == function or q.endswith("." + function)
    return sorted(c for c, pairs in reach.items() if any(f == file and named(q) for f, q in pairs))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("claims", nargs="*")
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "mutation" / "reach" / "claims.json")
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--show", nargs="+", metavar="TARGET")
    args = p.parse_args(argv)
    if args.one:
        return _profiled(args.one, args.out)
    if args.show:
        reach = json.loads(args.out.read_text())
        for target in args.show:
            file, functions, *_ = TARGETS[target]
            print(target)
            for fn in functions or ["(file)"]:
                print(f"    {fn}: {' '.join(reaching(reach, file, fn)) or 'no claim'}")
        return None
    from proofs_check.engine.registry import CHECKS

    measure(args.claims or list(CHECKS), args.out)
    return None


if __name__ == "__main__":
    main()


def reach_lines(path: Path) -> list:
    """The report's section on what the claims reach (from a stored measurement): per
    target, its functions that no claim calls, whose mutants ``make verify`` cannot kill."""
    if not path.exists():
        return []
    reach = json.loads(path.read_text())
    lines = ["## What no claim reaches", "",
             f"Measured by `python tools/mutation_reach.py` (every claim at the quick budget "
             f"under a profiler; {len(reach)} claims).  The functions below are called by no "
             "claim check: `make verify` cannot kill their mutants, so their tests are their "
             "only judges (library functions for users and figures, or public wrappers of "
             "the private functions the claims call).", ""]
    for target, (file, functions, _only, _tests) in TARGETS.items():
        if not functions or not file.startswith("linteach/"):  # the library is what is traced
            continue
        unreached = [f for f in functions if not reaching(reach, file, f)]
        if unreached:
            lines.append(f"- {target} ({file}): " + ", ".join(f"`{f}`" for f in unreached))
    return lines + [""]
