"""``make bench``: every benchmark row, printed and written to Markdown and JSON.

    linteach bench [--md PATH] [--json PATH] [--quick] [--skip-verify]
    python -m linteach.bench ...                     (the same)

Targets are marked met or missed from the measured value; nothing here asserts a speed.
The process runs with the environment it was given: the environment rows measure glibc's
malloc thresholds and the BLAS thread count in child processes, with and without.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import scipy
from threadpoolctl import threadpool_limits

from .._progress import Steps
from . import rows_campaign, rows_claims, rows_env, rows_executors, rows_speed, rows_verify
from .baselines import torch, torch_version
from .report import table, to_markdown


def machine() -> dict:
    from threadpoolctl import threadpool_info

    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    env = {key: os.environ.get(key) for key in (
        "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
        "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")}
    return {"cpu": model, "cpus": os.cpu_count(), "load_average_start": os.getloadavg(),
            "python": platform.python_version(), "numpy": np.__version__,
            "scipy": scipy.__version__, "torch": torch_version() or "not installed",
            "blas": [{k: info.get(k) for k in ("internal_api", "version", "architecture",
                                               "num_threads", "filepath")}
                     for info in threadpool_info()],
            "env": env}


def main(argv=None) -> int:
    start = time.perf_counter()
    p = argparse.ArgumentParser(prog="linteach bench", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--md", help="write the Markdown report here")
    p.add_argument("--json", help="write the JSON results here")
    p.add_argument("--quick", action="store_true",
                   help="fewer repeats, no large case, no whole claim checks (rows C3, C4, C5)")
    p.add_argument("--skip-verify", action="store_true", help="leave out row 5 (make verify)")
    p.add_argument("--blas-threads", type=int, default=1,
                   help="BLAS threads for rows 1-4 (as make verify's workers; "
                        "0 = leave the library default)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--scale-md", help="rewrite the generated campaign part of this page "
                                      "(docs/scale.md)")
    p.add_argument("--campaign-only", action="store_true", help="only rows C (campaign costs)")
    p.add_argument("--campaign-budgets", default=None,
                   help="budgets of the per-claim cases/s rows C3 (comma-separated; "
                        "'' skips them; thorough takes tens of minutes; default: standard, "
                        "none with --quick)")
    p.add_argument("--claims-budgets", default=None,
                   help="budgets of rows C4, every claim's cases/s per worker "
                        "(comma-separated; '' skips them; tens of minutes; default: "
                        "standard,thorough, none with --quick)")
    p.add_argument("--campaign-cases", type=int, default=rows_campaign.CAMPAIGN_CASES,
                   help="cases per family of rows C3 (a campaign's size; 0 = the budget's "
                        "own counts, few at standard, so batching cannot show)")
    args = p.parse_args(argv)
    if args.campaign_cases < 0:
        p.error(f"`--campaign-cases` must be >= 0, got {args.campaign_cases}")
    if args.campaign_budgets is None:  # whole claim checks take minutes: not in a quick run
        args.campaign_budgets = "" if args.quick else "standard"
    if args.claims_budgets is None:
        args.claims_budgets = "" if args.quick else "standard,thorough"
    every = [b for b in args.claims_budgets.split(",") if b]
    unknown = [b for b in every if b not in rows_claims.BUDGET_CASES]
    if unknown:
        p.error(f"`--claims-budgets` must name budgets among "
                f"{', '.join(rows_claims.BUDGET_CASES)}, got {', '.join(unknown)}")
    if args.blas_threads < 0:
        p.error(f"`--blas-threads` must be >= 0, got {args.blas_threads}")
    for name in ("md", "json"):  # fail before minutes of measuring, not after
        path = getattr(args, name)
        if path is not None and Path(path).parent.exists() and not Path(path).parent.is_dir():
            p.error(f"`--{name}` {path!r}: its folder is a file")
    repeats = 5 if args.quick else 11
    info = machine()
    info["blas_threads_rows_1_4"] = args.blas_threads or "library default"
    if torch is not None and args.blas_threads:
        torch.set_num_threads(args.blas_threads)  # the same thread budget on both sides
    info["torch_threads"] = None if torch is None else torch.get_num_threads()
    plan = [] if args.campaign_only else _plan(repeats, quick=args.quick,
                                               skip_verify=args.skip_verify)
    plan += rows_campaign_plan(repeats, [b for b in args.campaign_budgets.split(",") if b],
                               cases=args.campaign_cases or None,
                               every=every, executors=not args.quick)
    steps = Steps("bench", len(plan), quiet=args.quiet)
    steps.write(table([]))
    rows, env_rows = [], []
    for name, kind, fn in plan:
        steps.start(name)
        if kind == "env":
            env_rows.append(fn())
            continue
        limit = threadpool_limits(args.blas_threads) if args.blas_threads and kind == "speed" \
            else nullcontext()
        with limit:
            produced = fn()
        for row in (produced if isinstance(produced, list) else [produced]):
            rows.append(row)
            steps.write(table([row]).splitlines()[-1])
    steps.done()
    info["load_average_end"] = os.getloadavg()
    doc = {"rows": rows, "env_rows": env_rows, "machine": info, "repeats": repeats,
           "seconds": time.perf_counter() - start}
    for path, text in ((args.json, json.dumps(doc, indent=1, default=str) + "\n"),
                       (args.md, None)):
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text if text is not None else to_markdown(doc))
    if args.scale_md is not None:
        rows_campaign.write_scale(args.scale_md, doc)
    missed = [row["id"] for row in rows if row.get("met") is False]
    print(f"{len(rows)} rows, {len(missed)} targets missed"
          + (f": {', '.join(missed)}" if missed else "") + f" ({doc['seconds']:.0f} s)")
    return 0


def _plan(repeats, *, quick, skip_verify):
    """Every step of the run as ``(name, kind, callable)``, in order."""
    plan = [("row 1: loss_and_grad vs floor, n=1000", "speed",
             lambda: rows_speed.full_batch_vs_floor(1000, 50, 100, repeats=repeats))]
    if not quick:
        plan.append(("row 1: loss_and_grad vs floor, n=10000", "speed",
                     lambda: rows_speed.full_batch_vs_floor(10_000, 200, 500,
                                                            repeats=max(5, repeats // 2))))
    for size in ((100, 10, 20), (100, 50, 100)):
        plan.append((f"row 2: per-sample SGD vs baselines, (n, d, k) = {size}", "speed",
                     lambda size=size: rows_speed.sgd_vs_baselines(*size, epochs=2,
                                                                   repeats=repeats)))
    plan.append(("row 3: batched vs sequential runs", "speed",
                 lambda: rows_speed.batched_vs_sequential(100, 10, 20,
                                                          repeats=max(3, repeats // 2))))
    plan.append(("row 4: full-batch step vs torch, n=1000", "speed",
                 lambda: rows_speed.full_batch_vs_torch(1000, 50, 100, steps=10,
                                                        repeats=repeats)))
    plan.append(("row 4: full-batch step vs torch, n=100", "speed",
                 lambda: rows_speed.full_batch_vs_torch(100, 10, 20, steps=50,
                                                        repeats=repeats)))
    env_rounds, env_repeats = (1, 3) if quick else (3, 5)
    for fn in (rows_env.malloc_thresholds, rows_env.blas_threads, rows_env.openblas_coretype):
        plan.append((f"environment: {fn.__name__.replace('_', ' ')}", "env",
                     lambda fn=fn: fn(rounds=env_rounds, repeats=env_repeats)))
    if not skip_verify:
        held = {}  # row 5's standard run: the thorough rows' case ratio is against it
        plan.append(("row 5: make verify (standard budget, a few minutes)", "verify",
                     lambda: held.setdefault("standard", rows_verify.make_verify())))
        if not quick:
            plan.append(("rows 5: proofs_check --budget thorough (up to 25 minutes)",
                         "verify", lambda: rows_verify.thorough_rows(held.get("standard"))))
    return plan


def rows_campaign_plan(repeats, budgets, *, cases=None, every=(), executors=False):
    """Rows C (:mod:`linteach.bench.rows_campaign`, :mod:`linteach.bench.rows_claims`,
    :mod:`linteach.bench.rows_executors`): flow and SGD steps, claims' cases/s against their
    old grouping, every claim's cases/s, cases/s under each executor."""
    plan = [("rows C1: flow step per run vs R, per claim family", "speed",
             lambda: rows_campaign.flow_steps(repeats=max(3, repeats // 2))),
            ("rows C2: SGD update per run vs R", "speed",
             lambda: rows_campaign.sgd_updates(repeats=max(3, repeats // 2)))]
    for budget in budgets:
        plan.append((f"rows C3: claims' cases/s per worker ({budget} budget, minutes)",
                     "verify", lambda budget=budget: rows_campaign.claim_throughput(
                         budget=budget, cases=cases)))
    for budget in every:
        plan.append((f"rows C4: every claim's cases/s per worker ({budget}, minutes)",
                     "verify", lambda budget=budget: rows_claims.budget_rows(budget)))
    if executors:
        plan.append(("rows C5: cases/s per worker under each executor (minutes)", "verify",
                     rows_executors.executor_rows))
    return plan


if __name__ == "__main__":
    sys.exit(main())
