"""Mutation testing of linteach and proofs_check with cosmic-ray (``make mutate``).

    python tools/mutate.py run [TARGET ...] [--out docs/mutation]    # run the campaign
    python tools/mutate.py recheck [TARGET ...]      # rejudge the survivors on today's tree
    python tools/mutate.py report [--out docs/mutation]              # write docs/mutation.md

Each target is a file (optionally a set of its functions).  The repository is copied to a
scratch folder and cosmic-ray mutates the copy, one mutant at a time; each mutant is judged
by ``tools/mutation_judge.sh``: first ``python -m proofs_check`` at the quick budget (so we
learn what ``make verify`` alone kills), then the fast tests.  Results land in
``<out>/<target>.json`` (committed: ``docs/mutation.md`` is generated from them, so the
report can be regenerated after a kill test or an equivalence reason is added); the report
adds the equivalence reasons of :data:`EQUIVALENT`.
Not part of CI: a full campaign takes hours on two cores.  The report is written by
``tools/mutation_report.py``.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from mutation_report import report  # noqa: E402
from mutation_targets import EXCLUDE, TARGETS  # noqa: E402


def _spans(path: Path, functions):
    """Line spans of ``functions``, and of the functions nested in them that are not listed
    (keyed ``~name``: their lines are not mutated).  A method may be named ``Class.method``
    where two classes of the file both have it; a bare name matches any function so named."""
    spans = {}

    def visit(node, prefix, inside):
        for child in ast.iter_child_nodes(node):
            name = getattr(child, "name", "")
            here = inside
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                key = next((k for k in (prefix + name, name) if k in functions), None)
                if key or inside:
                    spans[key or f"~{prefix}{name}"] = (child.lineno, child.end_lineno)
                here = inside or key is not None
            visit(child, f"{name}." if isinstance(child, ast.ClassDef) else prefix, here)

    visit(ast.parse(path.read_text()), "", False)
    return spans


def _config(work: Path, target: str, timeout: float) -> Path:
    file, _functions, only, tests = TARGETS[target]
    judge = f"bash {ROOT / 'tools' / 'mutation_judge.sh'} {' '.join(only or ['ALL'])} -- " \
            + " ".join(tests)
    excl = ", ".join(json.dumps(e) for e in EXCLUDE)
    cfg = work / "cosmic-ray.toml"
    cfg.write_text(f"""[cosmic-ray]
module-path = "{file}"
timeout = {timeout}
excluded-modules = []
test-command = "{judge}"

[cosmic-ray.distributor]
name = "local"

[cosmic-ray.filters.operators-filter]
exclude-operators = [{excl}]
""")
    return cfg


#: the output of a mutant left out of a campaign's random sample (``run --sample``)
SAMPLED_OUT = "not in the sample"


def _skip_outside(session: Path, spans: dict, sample=None, seed: int = 0) -> None:
    """Skip the mutants outside the target's functions; with ``sample``, run only a random
    ``sample`` of the rest (an unbiased estimate where the campaign would take hours)."""
    import random

    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        kept = []
        for item in list(db.pending_work_items):
            line = item.mutations[0].start_pos[0]
            if _function_of(line, spans).startswith(("-", "~")):  # outside, or nested unlisted
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
            else:
                kept.append(item.job_id)
        if sample is not None and sample < len(kept):
            chosen = set(random.Random(seed).sample(sorted(kept), sample))
            for job in set(kept) - chosen:
                db.set_result(job, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                              output=SAMPLED_OUT))


def _function_of(line: int, spans: dict) -> str:
    """The innermost function of ``spans`` holding ``line`` (a nested one, not its parent)."""
    inside = [(hi - lo, name) for name, (lo, hi) in spans.items() if lo <= line <= hi]
    return min(inside)[1] if inside else "-"


def run(targets, out: Path, timeout: float, sample=None, seed: int = 0) -> None:
    out.mkdir(parents=True, exist_ok=True)
    bin_dir = Path(sys.executable).parent
    for target in targets:
        file, functions, *_ = TARGETS[target]
        work = _copy_repo(f"linteach-mutate-{target}-")
        cfg, session = _config(work, target, timeout), work / "session.sqlite"
        env = {**os.environ, "PYTHONPATH": str(work), "MUTATE_PYTHON": sys.executable}
        for cmd in ([bin_dir / "cosmic-ray", "init", cfg, session],
                    [bin_dir / "cr-filter-operators", session, cfg]):
            subprocess.run([str(c) for c in cmd], cwd=work, check=True, env=env)
        spans = _spans(work / file, functions) if functions else {"(file)": (1, 10 ** 9)}
        _skip_outside(session, spans, sample, seed)
        print(f"[mutate] {target}: running the mutants of {file} in {work}", flush=True)
        subprocess.run([str(bin_dir / "cosmic-ray"), "exec", str(cfg), str(session)], cwd=work,
                       check=True, env=env)
        (out / f"{target}.json").write_text(json.dumps(_collect(target, session, spans),
                                                       indent=1))
        shutil.rmtree(work)


def _copy_repo(prefix: str) -> Path:
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


def recheck(targets, out: Path) -> None:
    """Mark the mutants that do not compile as incompetent; re-apply every survivor to a
    fresh copy of today's tree and judge it again: a test or check added since kills it
    ("... (added since)"), or it survives still.  A mutant only the tests killed is judged
    again too: a claim check added since may now kill it ("killed by verify (added since)")."""
    for target in targets:
        path = out / f"{target}.json"
        if not path.exists():
            continue
        res = json.loads(path.read_text())
        _file, _functions, only, tests = TARGETS[target]
        for r in res["mutants"]:
            if r["verdict"] != "incompetent" and not _competent(res["file"], r["diff"]):
                r["verdict"] = "incompetent"
        for r in res["mutants"]:
            by_tests = (r["verdict"] in ("killed by tests", "killed by tests (added since)")
                        and only != ["NONE"])
            if r["verdict"] != "survived" and not by_tests:
                continue
            work = _copy_repo(f"linteach-recheck-{target}-")
            patch = "\n".join(r["diff"].splitlines()[1:]) + "\n"  # drop cosmic-ray's header
            applied = _apply(patch, work)
            if applied.returncode:
                r["recheck"] = "the mutant no longer applies (its code changed)"
            else:
                judge = subprocess.run(
                    ["bash", str(ROOT / "tools" / "mutation_judge.sh"), *(only or ["ALL"]), "--",
                     *tests], cwd=work, text=True, capture_output=True,
                    env={**os.environ, "PYTHONPATH": str(work), "MUTATE_PYTHON": sys.executable})
                for stage in ("verify",) if by_tests else ("verify", "tests"):
                    if f"KILLED-BY: {stage}" in judge.stdout:
                        r["verdict"] = f"killed by {stage} (added since)"
                        if by_tests:
                            r["recheck"] = "killed by tests before"
            shutil.rmtree(work)
            print(f"[recheck] {target} line {r['line']} {r['operator']}: {r['verdict']}",
                  flush=True)
        res["rechecked_with"] = {"proofs_check": "every claim" if only is None else
                                 "no claim (tests only)" if only == ["NONE"] else " ".join(only),
                                 "tests": tests}
        path.write_text(json.dumps(res, indent=1))


def _pending(session) -> int:
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(session), WorkDB.Mode.open) as db:
        return len(list(db.pending_work_items))


def _collect(target, session, spans) -> dict:
    from cosmic_ray.work_db import WorkDB, use_db

    rows = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        sampled_out = sum(r.worker_outcome.name == "SKIPPED" and r.output == SAMPLED_OUT
                          for _item, r in db.completed_work_items)
        for item, result in db.completed_work_items:
            if result.worker_outcome.name == "SKIPPED":
                continue
            m = item.mutations[0]
            output = result.output or ""
            if result.test_outcome is None or result.worker_outcome.name != "NORMAL":
                verdict = "incompetent"  # the mutant did not even import / the worker died
            elif result.test_outcome.name == "SURVIVED":
                verdict = "survived"
            elif "KILLED-BY: import" in output:
                verdict = "incompetent"
            elif "KILLED-BY: verify" in output:
                verdict = "killed by verify"
            elif "KILLED-BY: tests" in output:
                verdict = "killed by tests"
            else:
                verdict = "killed (timeout or crash)"
            rows.append({"operator": m.operator_name, "occurrence": m.occurrence,
                         "line": m.start_pos[0], "function": _function_of(m.start_pos[0], spans),
                         "verdict": verdict, "diff": result.diff or ""})
    _file, functions, only, tests = TARGETS[target]
    return {"target": target, "file": TARGETS[target][0], "functions": functions,
            "judge": {"proofs_check": "every claim" if only is None else
                      "no claim (tests only)" if only == ["NONE"] else " ".join(only),
                      "tests": tests},
            "mutants": rows, **({"sampled_out": sampled_out} if sampled_out else {})}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("command", choices=("run", "collect", "recheck", "report"))
    p.add_argument("--session", type=Path, help="collect: a session.sqlite of a stopped run")
    p.add_argument("targets", nargs="*", default=list(TARGETS))
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "mutation")
    p.add_argument("--doc", type=Path, default=ROOT / "docs" / "mutation.md")
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument("--sample", type=int, default=None,
                   help="run: only a random sample of this many mutants per target (the "
                        "report says how many were left out)")
    p.add_argument("--seed", type=int, default=0, help="run --sample: the sample's seed")
    p.add_argument("--only", nargs="*", default=None,
                   help="judge with these claims only instead of the target's (a cheaper, "
                        "weaker campaign; the report says so)")
    p.add_argument("--tests", nargs="*", default=None,
                   help="judge with these test files instead of the target's (run: cheaper; "
                        "recheck the survivors without it to judge them by the full list)")
    args = p.parse_args(argv)
    for name in args.targets:
        file, functions, only, tests = TARGETS[name]
        TARGETS[name] = (file, functions, args.only or only, args.tests or tests)
    if args.command == "run":
        run(args.targets, args.out, args.timeout, args.sample, args.seed)
    elif args.command == "collect":  # the finished part of a run that was stopped
        for name in args.targets:
            file, functions, *_ = TARGETS[name]
            spans = _spans(ROOT / file, functions) if functions else {"(file)": (1, 10 ** 9)}
            res = _collect(name, args.session, spans)
            res["not_run"] = _pending(args.session)
            (args.out / f"{name}.json").write_text(json.dumps(res, indent=1))
    elif args.command == "recheck":
        recheck(args.targets, args.out)
    else:
        report(args.out, args.doc)


if __name__ == "__main__":
    main()
