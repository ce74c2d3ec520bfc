"""Mutation testing of linteach and proofs_check with cosmic-ray (``make mutate``).

    python tools/mutate.py run [TARGET ...] [--out docs/mutation]    # run the campaign
    python tools/mutate.py run TARGET ... --population [--minutes M]  # the rest, tests first
    python tools/mutate.py run TARGET ... --refresh   # judge only what changed since
    python tools/mutate.py recheck [TARGET ...] [--survivors]  # rejudge the survivors today
    python tools/mutate.py report [--out docs/mutation]              # write docs/mutation.md

Each target is a file (optionally a set of its functions).  The repository is copied to a
scratch folder and cosmic-ray mutates the copy, one mutant at a time; each mutant is judged
by ``tools/mutation_judge.sh``: first ``python -m proofs_check`` at the quick budget (so we
learn what ``make verify`` alone kills), then the fast tests; ``--population`` judges every
mutant a sampled or stopped campaign left out the cheap way round (tests first:
``tools/mutation_population.py``), into ``<out>/population/``.  Results land in
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from mutation_population import IN_SAMPLE, exec_until, skip_sampled  # noqa: E402
from mutation_recheck import copy_repo, killer_of, recheck  # noqa: E402
from mutation_refresh import carry, merged, stored_campaign  # noqa: E402
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


def _config(work: Path, target: str, timeout: float, tests_first: bool = False) -> Path:
    file, _functions, only, tests = TARGETS[target]
    judge = f"bash {ROOT / 'tools' / 'mutation_judge.sh'} " + "--tests-first " * tests_first \
            + f"{' '.join(only or ['ALL'])} -- " + " ".join(tests)
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


def run(targets, out: Path, timeout: float, sample=None, seed: int = 0, population=False,
        seconds=None, refresh=False) -> None:
    """A verify-first campaign, or with ``population`` the population pass (its module's
    docstring) of every mutant the target's campaign did not judge; each target stops after
    ``seconds`` (the mutants judged so far are kept, the rest counted as not run).  With
    ``refresh``, the stored campaign's verdicts on unchanged code are carried and only the
    other mutants judged (tools/mutation_refresh.py)."""
    import time

    if refresh and (population or sample is not None):
        raise SystemExit("--refresh judges a whole campaign: not with --population or --sample")

    start, final = time.monotonic(), out
    if population:
        out = out / "population"
    out.mkdir(parents=True, exist_ok=True)
    bin_dir = Path(sys.executable).parent
    for target in targets:
        file, functions, *_ = TARGETS[target]
        work = copy_repo(f"linteach-mutate-{target}-")
        cfg, session = _config(work, target, timeout, population), work / "session.sqlite"
        env = {**os.environ, "PYTHONPATH": str(work), "MUTATE_PYTHON": sys.executable}
        for cmd in ([bin_dir / "cosmic-ray", "init", cfg, session],
                    [bin_dir / "cr-filter-operators", session, cfg]):
            subprocess.run([str(c) for c in cmd], cwd=work, check=True, env=env)
        spans = _spans(work / file, functions) if functions else {"(file)": (1, 10 ** 9)}
        _skip_outside(session, spans, None if population else sample, seed)
        if refresh:
            stored = stored_campaign(final / f"{target}.json")
            carried = carry(session, work, stored, lambda line: _function_of(line, spans))
            print(f"[mutate] {target}: {len(carried)} verdicts carried from the stored "
                  f"campaign, {_pending(session)} mutants to judge", flush=True)
        if population:  # the campaign's sample (and its stopped part's judged) are done
            skip_sampled(session, work / file,
                         json.loads((final / f"{target}.json").read_text())["mutants"])
        print(f"[mutate] {target}: running the mutants of {file} in {work}", flush=True)
        left = None if seconds is None else seconds - (time.monotonic() - start)
        exec_until([str(bin_dir / "cosmic-ray"), "exec", str(cfg), str(session)], cwd=work,
                   env=env, seconds=left)
        res = _collect(target, session, spans)
        if _pending(session):
            res["not_run"] = _pending(session)
        if refresh:
            res = merged(stored, res, carried)
        (out / f"{target}.json").write_text(json.dumps(res, indent=1))
        shutil.rmtree(work)


def _pending(session) -> int:
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(session), WorkDB.Mode.open) as db:
        return len(list(db.pending_work_items))


def _collect(target, session, spans) -> dict:
    from cosmic_ray.work_db import WorkDB, use_db

    rows = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        skipped = [r.output for _item, r in db.completed_work_items
                   if r.worker_outcome.name == "SKIPPED"]
        sampled_out, in_sample = skipped.count(SAMPLED_OUT), skipped.count(IN_SAMPLE)
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
                         "verdict": verdict, "diff": result.diff or "",
                         **({"killed_by": killer_of(output)} if killer_of(output) else {})})
    _file, functions, only, tests = TARGETS[target]
    return {"target": target, "file": TARGETS[target][0], "functions": functions,
            "judge": {"proofs_check": "every claim" if only is None else
                      "no claim (tests only)" if only == ["NONE"] else " ".join(only),
                      "tests": tests},
            "mutants": rows, **({"sampled_out": sampled_out} if sampled_out else {}),
            **({"in_sample": in_sample} if in_sample else {})}


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
    p.add_argument("--population", action="store_true",
                   help="run, collect: the population pass (tools/mutation_population.py)")
    p.add_argument("--survivors", action="store_true",
                   help="recheck: the survivors only (not the mutants the tests killed)")
    p.add_argument("--refresh", action="store_true",
                   help="run: carry the stored campaign's verdicts on unchanged code and "
                        "judge only the other mutants (tools/mutation_refresh.py)")
    p.add_argument("--minutes", type=float, default=None,
                   help="run: stop after this many minutes (the judged mutants are kept)")
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
        run(args.targets, args.out, args.timeout, args.sample, args.seed, args.population,
            None if args.minutes is None else 60.0 * args.minutes, args.refresh)
    elif args.command == "collect":  # the finished part of a run that was stopped
        for name in args.targets:
            file, functions, *_ = TARGETS[name]
            spans = _spans(ROOT / file, functions) if functions else {"(file)": (1, 10 ** 9)}
            res = _collect(name, args.session, spans)
            res["not_run"] = _pending(args.session)
            out = args.out / "population" if args.population else args.out
            (out / f"{name}.json").write_text(json.dumps(res, indent=1))
    elif args.command == "recheck":
        recheck(args.targets, args.out, args.survivors)
    else:
        report(args.out, args.doc)


if __name__ == "__main__":
    main()
