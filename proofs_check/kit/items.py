"""How a check hands its cases to ``ctx.map``: items of at most a fixed number of cases.

The number is a constant of the check (``CHUNK`` in its module), never of the executor or
the budget, so a report is the same whatever runs it: a case's numbers do not depend on its
item-mates (``tests/test_batched_claims.py``).  Items of several cases amortise the
interpreter (trained cases advance in one array program); a bounded item keeps a worker's
memory and its share of a large campaign bounded, so 10⁶ cases of a family spread over a
cluster instead of landing on one worker.
"""
from __future__ import annotations

import numpy as np

__all__ = ["RUNS_PER_BATCH", "cases_per_batch", "map_cases", "repeat_per_run", "stack_runs"]

#: runs advanced together in one array program (one ``ctx.map`` item) of a trained family:
#: a flow or SGD step of a small run costs ~30× its arithmetic in interpreter overhead, and
#: 256 runs per call cut that ~15× (``linteach.bench`` rows C)
RUNS_PER_BATCH = 256


def cases_per_batch(runs_per_case: int) -> int:
    """Cases per ``ctx.map`` item so that an item holds at most :data:`RUNS_PER_BATCH` runs."""
    return max(1, RUNS_PER_BATCH // runs_per_case)


def map_cases(ctx, fn, cases, *extra, chunk: int) -> list:
    """One result per case of ``cases``, in order: ``fn((part, *extra))`` through
    ``ctx.map`` over consecutive parts of at most ``chunk`` cases (``fn`` returns one result
    per case of its part)."""
    if chunk < 1:
        raise ValueError(f"`chunk` must be >= 1, got {chunk}")
    parts = [cases[i:i + chunk] for i in range(0, len(cases), chunk)]
    out = []
    for part, res in zip(parts, ctx.map(fn, [(part, *extra) for part in parts])):
        if len(res) != len(part):
            raise RuntimeError(f"{getattr(fn, '__name__', fn)} returned {len(res)} results "
                               f"for {len(part)} cases")
        out += list(res)
    return out


def repeat_per_run(arrays, runs) -> np.ndarray:
    """The per-case ``arrays`` on one leading run axis, ``arrays[c]`` repeated ``runs[c]``
    times (``runs`` an int: that many for every case); C-ordered, as the trainers take it."""
    counts = [runs] * len(arrays) if isinstance(runs, (int, np.integer)) else runs
    return np.concatenate([np.broadcast_to(a, (r,) + np.shape(a))
                           for a, r in zip(arrays, counts)])


def stack_runs(built: list):
    """Per-case ``(X, y, W0 (runs, 2k, d), ...)`` → one batch ``(X, y, W0)``, X and y per run."""
    per = len(built[0][2])
    return (repeat_per_run([b[0] for b in built], per), repeat_per_run([b[1] for b in built], per),
            np.concatenate([b[2] for b in built]))
