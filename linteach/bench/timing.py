"""Interleaved timing: every repeat times each contender once, in turn, so slow drifts in
the load of a shared machine hit all contenders alike; ratios are medians of per-repeat
ratios, measured in one process."""
from __future__ import annotations

import statistics
import time


def _calibrate(fn, min_seconds):
    """Calls per timed sample so that one sample lasts at least ``min_seconds``."""
    fn()  # warm-up: first-call allocations, BLAS thread start, caches
    inner = 1
    while True:
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds or inner >= 1 << 20:
            return inner
        inner = max(inner * 2, int(inner * 1.2 * min_seconds / max(elapsed, 1e-9)))


def compare(contenders: dict, *, repeats: int = 11, min_seconds: float = 0.02) -> dict:
    """Time each ``name -> fn()`` ``repeats`` times, interleaved.

    Returns ``{name: {"median": s, "samples": [s, ...]}}`` with seconds per call, and for
    every pair the median of per-repeat ratios under ``"ratio"`` via :func:`ratio`.
    """
    inner = {name: _calibrate(fn, min_seconds) for name, fn in contenders.items()}
    samples = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, fn in contenders.items():
            start = time.perf_counter()
            for _ in range(inner[name]):
                fn()
            samples[name].append((time.perf_counter() - start) / inner[name])
    return {name: {"median": statistics.median(s), "samples": s, "calls": inner[name]}
            for name, s in samples.items()}


def ratio(timings: dict, num: str, den: str) -> float:
    """Median over repeats of ``time(num) / time(den)`` (same repeat, so same load)."""
    pairs = zip(timings[num]["samples"], timings[den]["samples"])
    return statistics.median(a / b for a, b in pairs)
