"""``python tools/mutate.py recheck``: the campaigns' survivors judged again on today's tree
(a test or check written since may kill them), and the scratch copies of the repository the
campaigns and the recheck judge in."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mutation_notes import EQUIVALENT
from mutation_population import NO_LONGER_APPLIES
from mutation_targets import TARGETS

ROOT = Path(__file__).resolve().parents[1]


def copy_repo(prefix: str) -> Path:
    """A scratch copy of the repository's tracked files (as they are in the work tree)."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    for f in files:
        (work / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, work / f)
    return work


def _apply(patch: str, work: Path):
    """Apply a one-line mutant's diff; when lines were added near it since the campaign, with
    less context, down to none (the mutated line itself must still match, near its old place)."""
    done = None
    for context in ([], ["-C1"], ["-C0"]):
        done = subprocess.run(["git", "apply", "-p1", *context, "-"], cwd=work, input=patch,
                              text=True, capture_output=True)
        if not done.returncode:
            break
    return done


def killer_of(output: str):
    """What killed a mutant, from ``tools/mutation_judge.sh``'s output: the claim (``verify
    (eq6)``) or the first failing test's id, or None when it does not say."""
    import re

    claim = re.search(r"KILLED-BY: verify \(([^)]*)\)", output)
    if claim:
        return f"claim {claim[1]} at the quick budget" if claim[1] != "ALL" else "a claim"
    test = re.search(r"^(?:FAILED|ERROR) (\S+::\S+)", output, re.M)
    return test[1] if "KILLED-BY: tests" in output and test else None


def _competent(file: str, diff: str) -> bool:
    """Whether the mutant compiles (cosmic-ray's ``*`` in a signature can become ``+``)."""
    work = Path(tempfile.mkdtemp(prefix="linteach-compile-"))
    try:
        (work / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / file, work / file)
        patch = "\n".join(diff.splitlines()[1:]) + "\n"
        if _apply(patch, work).returncode:
            return True  # no longer applies: leave its recorded verdict alone
        try:
            compile((work / file).read_text(), file, "exec")
        except SyntaxError:
            return False
        return True
    finally:
        shutil.rmtree(work)


def recheck(targets, out: Path, survivors_only: bool = False) -> None:
    """Mark the mutants that do not compile as incompetent; re-apply every survivor to a
    fresh copy of today's tree and judge it again: a test or check added since kills it
    ("... (added since)"), or it survives still.  A mutant only the tests killed is judged
    again too: a claim check added since may now kill it ("killed by verify (added since)").
    The survivors of the population pass (``<out>/population/``) are judged again the
    pass's way, tests first, and only they (its tests-killed mutants are too many).  With
    ``survivors_only``, no mutant the tests killed is judged again; an equivalent survivor
    (one the report gives a reason) never is."""
    for target in targets:
        for population, path in ((False, out / f"{target}.json"),
                                 (True, out / "population" / f"{target}.json")):
            if path.exists():
                _recheck_file(target, path, population, not (population or survivors_only))


def _recheck_file(target, path: Path, population: bool, killed_too: bool) -> None:
    res = json.loads(path.read_text())
    _file, _functions, only, tests = TARGETS[target]
    # the kill-test files first: a survivor is most often killed by a test written for it,
    # and the judge's `pytest -x` stops at the first failure (any failing test kills)
    tests = sorted(tests, key=lambda t: "mutation_kills" not in t)
    for r in res["mutants"]:
        if r["verdict"] != "incompetent" and not _competent(res["file"], r["diff"]):
            r["verdict"] = "incompetent"
    for r in res["mutants"]:
        by_tests = (r["verdict"] in ("killed by tests", "killed by tests (added since)")
                    and only != ["NONE"] and killed_too)
        if r["verdict"] != "survived" and not by_tests or equivalent(target, r):
            continue  # (an equivalent mutant: no test can kill it)
        work = copy_repo(f"linteach-recheck-{target}-")
        patch = "\n".join(r["diff"].splitlines()[1:]) + "\n"  # drop cosmic-ray's header
        applied = _apply(patch, work)
        if applied.returncode:
            r["recheck"] = NO_LONGER_APPLIES
        else:
            judge = subprocess.run(
                ["bash", str(ROOT / "tools" / "mutation_judge.sh"),
                 *["--tests-first"] * population, *(only or ["ALL"]), "--",
                 *tests], cwd=work, text=True, capture_output=True,
                env={**os.environ, "PYTHONPATH": str(work), "MUTATE_PYTHON": sys.executable})
            for stage in ("verify",) if by_tests else ("verify", "tests"):
                if f"KILLED-BY: {stage}" in judge.stdout:
                    r["verdict"] = f"killed by {stage} (added since)"
                    r["killed_by"] = killer_of(judge.stdout)
                    if by_tests:
                        r["recheck"] = "killed by tests before"
        shutil.rmtree(work)
        print(f"[recheck] {target} line {r['line']} {r['operator']}: {r['verdict']}",
              flush=True)
    res["rechecked_with"] = {"proofs_check": "every claim" if only is None else
                             "no claim (tests only)" if only == ["NONE"] else " ".join(only),
                             "tests": tests}
    path.write_text(json.dumps(res, indent=1))


def equivalent(target, r) -> bool:
    """Whether the report gives mutant ``r`` an equivalence reason."""
    key = (target, r["function"], r["operator"], r["line"])
    return bool(EQUIVALENT.get(key + (r["occurrence"],), EQUIVALENT.get(key)))
