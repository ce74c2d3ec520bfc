"""``python -m proofs_check``: run the claim checks, print a table, write the report.

Exit status 0 iff every claim was checked, PASSed, and had its negative control caught.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from . import registry, report, runner
from .result import BUDGET_SCALE, Case


def _parser():
    p = argparse.ArgumentParser(prog="python -m proofs_check", description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", metavar="ID", choices=list(registry.CHECKS),
                   help="check only these claims")
    p.add_argument("--cases", type=int, default=None, help="cases per family (overrides budget)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--budget", choices=list(BUDGET_SCALE), default="standard")
    p.add_argument("--json", metavar="PATH", help="write claims.json here")
    p.add_argument("--out", metavar="PATH", help="write claims.md here")
    p.add_argument("--replay", metavar="ID", choices=list(registry.CHECKS),
                   help="rerun one recorded case of this claim (with --family and --seed)")
    p.add_argument("--family", help="the case family to replay")
    return p


def _replay(args) -> int:
    if args.family is None:
        print("--replay needs --family F --seed S (the case's family and seed, as printed "
              "in the report)", file=sys.stderr)
        return 2
    result = runner.run_one(args.replay, seed=0, budget=args.budget,
                            replay=Case(args.family, args.seed))
    if result is None:
        print(f"{args.replay}: no check written yet", file=sys.stderr)
        return 2
    print(f"{result.id} replay {args.family}/{args.seed}: verdict {result.verdict}")
    for name, w in result.clauses.items():
        print(f"  {name:32s} slack {w['worst_slack']:+.6g}  {json.dumps(w['detail'])}")
    if result.error:
        print(result.error)
    return 0 if result.verdict in ("PASS",) else 1


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.replay:
        return _replay(args)
    if args.cases is not None and args.cases < 1:
        print("--cases must be >= 1", file=sys.stderr)
        return 2
    ids = args.only or list(registry.CHECKS)
    print(f"proofs_check: budget {args.budget}, seed {args.seed}, {len(ids)} claims")
    print(f"{'claim':8s} {'verdict':20s} {'cases':>6s} {'worst slack':>12s} {'control':>8s} "
          f"{'seconds':>8s}")

    def progress(stage, claim_id, result):
        if stage == "start":
            if sys.stdout.isatty():
                print(f"{claim_id:8s} running...", end="\r", flush=True)
        elif result is None:
            print(f"{claim_id:8s} {'NOT CHECKED YET':20s}")
        else:
            slack = "—" if result.worst_slack is None else f"{result.worst_slack:.3g}"
            ctl = {True: "caught", False: "MISSED", None: "none"}[result.negative_control_caught]
            print(f"{claim_id:8s} {result.verdict:20s} {result.cases:6d} {slack:>12s} {ctl:>8s} "
                  f"{result.seconds:8.1f}", flush=True)

    start = time.perf_counter()
    try:
        results, missing = runner.run_all(ids, seed=args.seed, budget=args.budget,
                                          cases=args.cases, progress=progress)
    except KeyboardInterrupt:
        print("\ninterrupted: no report written (the previous one is intact)", file=sys.stderr)
        return 130
    doc = report.to_json(results, missing, seed=args.seed, budget=args.budget)
    doc["seconds"] = time.perf_counter() - start
    if args.json:
        report.atomic_write(args.json, json.dumps(doc, indent=2, sort_keys=False) + "\n")
    if args.out:
        report.atomic_write(args.out, report.to_markdown(doc))
    if missing:
        print(f"not checked yet: {', '.join(missing)}")
    bad = [r for r in results if not r.ok]
    for r in bad:
        why = r.verdict if r.verdict != "PASS" else "negative control not caught"
        print(f"{r.id}: {why}" + (f"; reproduce: {r.reproduce}" if r.reproduce else ""))
    ok = not missing and not bad and bool(results)
    print(f"{'all claims held' if ok else 'NOT all claims held'} "
          f"({len(results)} checked, {time.perf_counter() - start:.1f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
