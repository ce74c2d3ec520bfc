"""The distribution of a clause's slacks over its evaluations, as the report records it.

Each quantile is an observed slack (the order statistic at index ⌊q·(n−1)⌋, NumPy's ``method="lower"``:
no interpolation arithmetic), so the numbers are exactly reproducible and every one was measured on a case.
"""
from __future__ import annotations

import numpy as np

__all__ = ["QUANTILES", "slack_distribution"]

#: the quantile levels recorded per clause
QUANTILES = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0)


def slack_distribution(values) -> dict:
    """``{"evaluated", "negative", "quantiles": [[level, slack], ...]}`` of ``values``.

    ``values`` are the per-evaluation slacks (each evaluation's minimum); empty gives no
    quantiles.
    """
    arr = np.asarray(values, dtype=np.float64)
    out = {"evaluated": int(arr.size), "negative": int(np.sum(arr < 0)), "quantiles": []}
    if arr.size:
        ordered = np.sort(arr)  # by hand: infinite slacks are valid and must not warn
        out["quantiles"] = [[q, float(ordered[int(np.floor(q * (arr.size - 1)))])]
                            for q in QUANTILES]
    return out
