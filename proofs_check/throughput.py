"""Cases per second per worker of each claim check, with its batching and with the old one.

``python -m proofs_check.throughput --claims thm6.1,eq6 --budget standard`` runs each claim's
whole check in this process (one worker: ``ctx.map`` runs its items here, in order), once
with the batch size the check fixes (``CHUNK``) and once with the grouping the check used
before cases were trained together (:data:`OLD_CHUNK`), alternating which goes first, and
prints JSON: per claim and grouping the cases drawn, the seconds, cases/s, the seconds spent
in the deliberately naive reference implementations of the engine audit
(``proofs_check.kit.audit_ref``: what no speedup of the engine can remove), the seconds in
linteach's trainers less their hooks into the check (what a faster engine could remove at
most), and whether the
two reports' verdicts, slacks and ledgers agree (they must: a run's bits do not depend on
its batch).  ``linteach.bench`` (rows C) runs it in a subprocess, so the library never imports
the checks.
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from contextlib import contextmanager

from threadpoolctl import threadpool_limits

from .engine import registry
from .engine.runner import run_one

#: cases per ``ctx.map`` item before issue 16 (each check's ``CHUNK`` then); ``None``: the
#: check's grouping did not change
OLD_CHUNK = {"thm6.1": 6, "thm6.2": 3, "eq6": 4, "appJ": 3, "thm4.1": 1, "appK": 1}


def _loader(chunk):
    def load(claim_id):
        module = registry.load(claim_id)
        if module is not None and chunk is not None:
            module.CHUNK = chunk
        return module
    return load


@contextmanager
def _outermost_seconds(module, names, hooks=()):
    """The block's time inside ``module.<name>`` for each of ``names`` (a one-item list,
    filled on exit), less the time in the callables passed to them as the keyword arguments
    ``hooks``.  The calls go through the module's attributes, so wrapping them sees every
    call; only the outermost call of a nest counts, and so does only the outermost hook."""
    spent, depth, saved = [0.0], [0, 0], {}  # depth: of the calls, of the hooks

    def hooked(hook):
        @functools.wraps(hook)
        def wrapper(*args, **kwargs):
            depth[1] += 1
            start = time.perf_counter()
            try:
                return hook(*args, **kwargs)
            finally:
                depth[1] -= 1
                if not depth[1]:
                    spent[0] -= time.perf_counter() - start
        return wrapper

    def timed(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            kwargs = {k: hooked(v) if k in hooks and v is not None else v
                      for k, v in kwargs.items()}
            depth[0] += 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                depth[0] -= 1
                if not depth[0]:
                    spent[0] += time.perf_counter() - start
        return wrapper

    for name in names:
        saved[name] = getattr(module, name)
        setattr(module, name, timed(saved[name]))
    try:
        yield spent
    finally:
        for name, fn in saved.items():
            setattr(module, name, fn)


def naive_seconds():
    """Time spent in the public functions of :mod:`proofs_check.kit.audit_ref` while the
    block runs (a one-item list, filled on exit).  Every audit calls them as ``ref.<name>``;
    a reference calling another through the module's globals counts once."""
    from .kit import audit_ref

    return _outermost_seconds(audit_ref, [name for name in audit_ref.__all__
                                          if callable(getattr(audit_ref, name))])


#: the trainers the checks call (as ``lt.<name>``): what a faster engine would speed up
TRAINERS = ("sgd", "gd", "gradient_flow")
#: their hooks into the checks' own code (a faster trainer would still call them)
HOOKS = ("callback", "on_epoch")


def trainer_seconds():
    """Time spent inside linteach's trainers (:data:`TRAINERS`) while the block runs, less
    the time in the checks' hooks they call back (:data:`HOOKS`: monitors and recorders,
    which a faster trainer would still call): a one-item list, filled on exit.  Cases over
    the seconds outside the trainers bound the rate any speedup of the trainers alone gives.
    """
    import linteach

    return _outermost_seconds(linteach, TRAINERS, HOOKS)


def _fingerprint(result) -> dict:
    """The report entry of ``result`` without its timing (what must not depend on batching)."""
    doc = result.to_dict()
    doc.pop("seconds")
    return doc


def measure(claim_id: str, *, budget: str, seed: int = 0, cases=None, old: bool = True) -> dict:
    """One claim: cases/s of its check now and (if its grouping changed) with the old one."""
    module = registry.load(claim_id)
    if module is None:
        return {"claim": claim_id, "missing": True}
    now_chunk = getattr(module, "CHUNK", None)
    old_chunk = OLD_CHUNK.get(claim_id) if old else None
    modes = {"now": now_chunk}
    if old_chunk is not None and old_chunk != now_chunk:
        modes["old"] = old_chunk
    order = list(modes) if sum(map(ord, claim_id)) % 2 else list(modes)[::-1]
    out, prints = {"claim": claim_id, "budget": budget, "chunk": modes}, {}
    with threadpool_limits(1):  # as a worker process runs
        for mode in order:
            with naive_seconds() as naive, trainer_seconds() as trainers:
                start = time.perf_counter()
                result = run_one(claim_id, seed=seed, budget=budget, cases=cases,
                                 load=_loader(modes[mode]))
                seconds = time.perf_counter() - start
            drawn = sum(result.families.values()) if result.families else result.cases
            out[mode] = {"cases": drawn, "seconds": seconds, "cases_per_s": drawn / seconds,
                         "naive_seconds": naive[0], "trainer_seconds": trainers[0],
                         "verdict": result.verdict}
            prints[mode] = _fingerprint(result)
    module.CHUNK = now_chunk
    if "old" in prints:
        out["same_report"] = prints["old"] == prints["now"]
        out["speedup"] = out["now"]["cases_per_s"] / out["old"]["cases_per_s"]
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m proofs_check.throughput",
                                description=__doc__.split("\n")[0])
    p.add_argument("--claims", required=True,
                   help="comma-separated claim ids, or 'all' (every registered claim)")
    p.add_argument("--budget", default="standard", choices=("quick", "standard", "thorough"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cases", type=int, default=None, help="cases per family (override)")
    p.add_argument("--no-old", action="store_true", help="skip the old grouping")
    args = p.parse_args(argv)
    ids = list(registry.CHECKS) if args.claims == "all" else \
        [c for c in args.claims.split(",") if c]
    rows = [measure(c, budget=args.budget, seed=args.seed, cases=args.cases,
                    old=not args.no_old) for c in ids]
    json.dump(rows, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
