"""``python -m proofs_check``: run the claim checks, print a table, write the report.

Exit status 0 iff every claim was checked, PASSed, and had its negative control caught;
1 otherwise (FAIL, ERROR, a missed control, a claim not checked yet); 2 for a usage error;
130 when interrupted (the previous report is left as it was; ``--resume`` continues).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path

from . import report
from .engine import executor as executors
from .engine import registry, runner, selftest
from .engine.checkpoint import Checkpoint
from .engine.contract import Case
from .engine.context import BUDGET_SCALE

#: where ``--replay`` without ``--family`` looks for the recorded cases by default
DEFAULT_JSON = Path("docs/claims.json")


def _parser():
    p = argparse.ArgumentParser(prog="python -m proofs_check", description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", metavar="ID", help="check only these claims")
    p.add_argument("--cases", type=int, default=None, help="cases per family (overrides budget)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--budget", choices=list(BUDGET_SCALE), default="standard")
    p.add_argument("--json", metavar="PATH", help="write claims.json here")
    p.add_argument("--out", metavar="PATH", help="write claims.md here")
    p.add_argument("--replay", metavar="ID", help="rerun one recorded case of claim ID (with "
                   "--seed S; --family F unless claims.json records the seed for one family)")
    p.add_argument("--family", help="the case family to replay")
    p.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)),
                   help="local worker processes, BLAS pinned to 1 thread each (default: the "
                        "usable CPUs; 0 runs everything in this process)")
    p.add_argument("--dask", metavar="ADDRESS", help="send batches to this Dask scheduler "
                   "instead (needs the dask extra)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run with the same seed, budget and cases")
    p.add_argument("--state", metavar="DIR", default=".proofs_check_state",
                   help="checkpoint directory (default .proofs_check_state)")
    p.add_argument("--no-checkpoint", action="store_true", help="write no checkpoints")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="check that two claims.json agree except for timing, then exit")
    p.add_argument("--selftest", action="store_true",
                   help="run the runner's synthetic self-test claims instead of the paper's")
    return p


def _fmt_result(claim_id, result, suffix=""):
    if result is None:
        return f"{claim_id:10s} {'NOT CHECKED YET':20s}"
    slack = "—" if result.worst_slack is None else f"{result.worst_slack:.3g}"
    ctl = {True: "caught", False: "MISSED", None: "none"}[result.negative_control_caught]
    return (f"{claim_id:10s} {result.verdict:20s} {result.cases:8d} {slack:>12s} {ctl:>8s} "
            f"{result.seconds:8.1f}{suffix}")


def _recorded(path: Path, claim_id: str, seed: int):
    """``(family, ledger)`` of case ``seed`` of ``claim_id`` as recorded in ``path``.

    ``family`` is ``None`` when it cannot be told (then ``ledger`` is the reason).
    """
    if not path.exists():
        return None, f"no --family given and no {path} to look the seed up in"
    doc = json.loads(path.read_text())
    claim = next((c for c in doc.get("claims", []) if c["id"] == claim_id), None)
    if claim is None:
        return None, f"{path} has no results for {claim_id}"
    families = {w["family"] for w in claim["clauses"].values() if w["seed"] == seed}
    families |= {key.rsplit("/", 1)[0] for key in claim.get("ledger", {})
                 if key.rsplit("/", 1)[1] == str(seed)}
    if len(families) != 1:
        found = f"families {sorted(families)}" if families else "no case"
        return None, f"{path} records {found} with seed {seed} for {claim_id}; pass --family"
    return families.pop(), claim.get("ledger", {})


def _replay(args, load) -> int:
    family, ledger = args.family, {}
    if family is None:
        family, ledger = _recorded(Path(args.json or DEFAULT_JSON), args.replay, args.seed)
        if family is None:
            print(f"--replay: {ledger}", file=sys.stderr)
            return 2
    result = runner.run_one(args.replay, seed=0, budget=args.budget,
                            replay=Case(family, args.seed), load=load)
    if result is None:
        print(f"{args.replay}: no check written yet", file=sys.stderr)
        return 2
    print(f"{result.id} replay {family}/{args.seed}: verdict {result.verdict}")
    for name, w in result.clauses.items():
        print(f"  {name:32s} slack {w['worst_slack']:+.6g}  {json.dumps(w['detail'])}")
    key = f"{family}/{args.seed}"
    if key in ledger and key in result.ledger:
        same = ledger[key] == result.ledger[key]
        print(f"  content hashes {'match' if same else 'DIFFER FROM'} the recorded ledger")
    if result.error:
        print(result.error)
    return 0 if result.verdict == "PASS" else 1


def _compare(a, b) -> int:
    diff = report.differences(Path(a).read_text(), Path(b).read_text())
    for x, y in diff[:20]:
        print(f"- {x.strip()}\n+ {y.strip()}")
    print(f"{a} and {b} " + ("agree (timing aside)" if not diff else
                             f"DIFFER in {len(diff)} lines"))
    return 1 if diff else 0


def _executor_for(args):
    if args.dask:
        return executors.dask_executor(args.dask)
    if args.workers >= 1:
        return executors.local_pool(args.workers)
    return contextlib.nullcontext(None)


def _usage_error(args, known) -> str | None:
    unknown = [c for c in args.only or () if c not in known]
    if unknown:
        return f"--only: unknown claim id(s) {', '.join(unknown)}; known: {', '.join(known)}"
    if args.replay is not None and args.replay not in known:
        return f"--replay: unknown claim id {args.replay!r}; known: {', '.join(known)}"
    if args.cases is not None and args.cases < 1:
        return f"--cases must be >= 1, got {args.cases}"
    if args.workers < 0:
        return f"--workers must be >= 0, got {args.workers}"
    if args.resume and args.no_checkpoint:
        return "--resume needs checkpoints: drop --no-checkpoint"
    return None


def _interrupted(exc, checkpoint, argv) -> int:
    print("\ninterrupted: no report written (the previous one is intact)", file=sys.stderr)
    for result in exc.finished:
        print(f"  finished: {result.id} {result.verdict}", file=sys.stderr)
    for claim_id in exc.unfinished:
        done = checkpoint.batches_done(claim_id) if checkpoint else 0
        print(f"  unfinished: {claim_id} ({done} batches checkpointed)", file=sys.stderr)
    if checkpoint is not None:
        again = " ".join(a for a in argv if a != "--resume")
        print(f"continue with: python -m proofs_check {again} --resume".replace("  ", " "),
              file=sys.stderr)
    return 130


def _sigterm(signum, frame):
    raise KeyboardInterrupt  # a batch scheduler's SIGTERM stops as cleanly as Ctrl-C


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser().parse_args(argv)
    checks, load = ((selftest.CHECKS, selftest.load) if args.selftest
                    else (registry.CHECKS, registry.load))
    problem = _usage_error(args, list(checks))
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if args.compare:
        return _compare(*args.compare)
    if args.replay:
        return _replay(args, load)
    ids = args.only or list(selftest.DEFAULT if args.selftest else checks)
    checkpoint = None
    if not args.no_checkpoint:
        config = {"seed": args.seed, "budget": args.budget, "cases": args.cases,
                  "selftest": args.selftest}
        checkpoint = Checkpoint(args.state, config, resume=args.resume)
        if args.resume and not checkpoint.resumed:
            print("--resume: no checkpoint of this seed, budget, cases and code; starting fresh")
    resumed = []

    def progress(stage, claim_id, result):
        if stage == "start":
            if sys.stdout.isatty():
                print(f"{claim_id:10s} running...", end="\r", flush=True)
            return
        if stage == "checkpoint":
            resumed.append(claim_id)
        print(_fmt_result(claim_id, result, "  (from checkpoint)" if stage == "checkpoint"
                          else ""), flush=True)

    start = time.perf_counter()
    previous = signal.signal(signal.SIGTERM, _sigterm)
    try:
        with _executor_for(args) as executor:
            where = executors.describe(executor)
            print(f"proofs_check: budget {args.budget}, seed {args.seed}, {len(ids)} claims, "
                  f"{where}")
            print(f"{'claim':10s} {'verdict':20s} {'cases':>8s} {'worst slack':>12s} "
                  f"{'control':>8s} {'seconds':>8s}")
            at_once = len(ids) if args.dask else max(1, args.workers)
            results, missing = runner.run_all(
                ids, seed=args.seed, budget=args.budget, cases=args.cases, progress=progress,
                executor=executor, checkpoint=checkpoint,
                concurrency=at_once if executor is not None else 1, load=load)
    except runner.Interrupted as exc:
        return _interrupted(exc, checkpoint, argv)
    finally:
        signal.signal(signal.SIGTERM, previous)
    seconds = time.perf_counter() - start
    run = {"executor": where, "seconds": seconds, "resumed_claims": resumed}
    doc = report.to_json(results, missing, seed=args.seed, budget=args.budget,
                         cases=args.cases, run=run)
    if args.json:
        report.atomic_write(args.json, report.dumps(doc))
    if args.out:
        report.atomic_write(args.out, report.to_markdown(doc))
    if checkpoint is not None:
        checkpoint.clear()  # complete: the report now holds everything the checkpoint did
    if missing:
        print(f"not checked yet: {', '.join(missing)}")
    bad = [r for r in results if not r.ok]
    for r in bad:
        why = r.verdict if r.verdict != "PASS" else "negative control not caught"
        print(f"{r.id}: {why}" + (f"; reproduce: {r.reproduce}" if r.reproduce else ""))
        if r.error:
            print("  " + r.error.replace("\n", "\n  "))
    ok = not missing and not bad and bool(results)
    print(f"{'all claims held' if ok else 'NOT all claims held'} "
          f"({len(results)} checked, {seconds:.1f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
