"""Cases per second per worker of two workloads under each executor, and its dispatch cost.

``python -m proofs_check.executor_throughput`` runs the self-test's GD claim (``self.sgd``,
:data:`WORKLOADS`) and ``thm4.1`` at a few cases per family in this process, in a local
process pool of one and of two workers, and on a Dask ``LocalCluster`` of two workers
(when the ``dask`` extra is installed), and prints JSON: per executor and workload the
cases drawn, the seconds of each timed run and cases/s per worker; per pool the time to
dispatch one trivial item.  Each workload runs once untimed first, so the workers have
imported everything before the clock starts.  ``linteach.bench`` (rows C5) runs it in a
subprocess and ``docs/scale.md`` shows the generated table.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time

from threadpoolctl import threadpool_limits

from .engine import executor as executors, selftest
from .engine.runner import run_one

#: (claim id, cases per family) of each workload
WORKLOADS = (("self.sgd", 1024), ("thm4.1", 6))
#: (name, workers, kind) of each executor: kind None runs in this process
EXECUTORS = (("in-process", 1, None), ("local pool", 1, "pool"), ("local pool", 2, "pool"),
             ("Dask LocalCluster", 2, "dask"))
#: items of the dispatch measurement (a trivial function through the executor)
DISPATCH_ITEMS = 2000


def noop(item):
    """The trivial task of the dispatch measurement."""
    return item


@contextlib.contextmanager
def _executor(kind, workers):
    if kind is None:
        with threadpool_limits(1):  # as a worker process runs
            yield None
    elif kind == "pool":
        with executors.local_pool(workers) as pool:
            yield pool
    else:
        from distributed import LocalCluster  # the dask extra; ImportError: not measured

        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, \
                executors.dask_executor(cluster.scheduler_address) as ex:
            yield ex


def _dispatch_ms(ex) -> float:
    """Milliseconds per item of :data:`DISPATCH_ITEMS` trivial items through ``ex``."""
    start = time.perf_counter()
    for future in [ex.submit(executors.run_task, noop, i) for i in range(DISPATCH_ITEMS)]:
        future.result()
    return 1e3 * (time.perf_counter() - start) / DISPATCH_ITEMS


def _timed(ex, claim, cases, *, seed, repeats, workers) -> dict:
    """One workload under executor ``ex``: a warm-up run, then ``repeats`` timed runs."""
    load = selftest.load if claim in selftest.CHECKS else None
    seconds = []
    for _ in range(repeats + 1):  # the first run warms the workers up
        start = time.perf_counter()
        result = run_one(claim, seed=seed, budget="standard", cases=cases, executor=ex,
                         load=load)
        seconds.append(time.perf_counter() - start)
    drawn = sum(result.families.values()) if result.families else result.cases
    return {"claim": claim, "cases": drawn, "seconds": seconds[1:],
            "cases_per_s_per_worker": [drawn / s / workers for s in seconds[1:]],
            "verdict": result.verdict}


def measure(*, seed: int = 0, repeats: int = 2, executors_=EXECUTORS, workloads=WORKLOADS):
    """One entry per executor: its workloads' cases/s per worker and its dispatch cost."""
    out = []
    for name, workers, kind in executors_:
        entry = {"executor": name, "workers": workers}
        with contextlib.ExitStack() as stack:  # the executor is shut down however we leave
            try:
                ex = stack.enter_context(_executor(kind, workers))
            except ImportError as exc:
                out.append({**entry, "workloads": [], "missing": f"{type(exc).__name__}: {exc}"})
                continue
            entry["workloads"] = [_timed(ex, claim, cases, seed=seed, repeats=repeats,
                                         workers=workers) for claim, cases in workloads]
            if ex is not None:
                entry["dispatch_ms"] = _dispatch_ms(ex)
        out.append(entry)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m proofs_check.executor_throughput",
                                description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=2, help="timed runs per workload")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error(f"`--repeats` must be >= 1, got {args.repeats}")
    json.dump(measure(seed=args.seed, repeats=args.repeats), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
