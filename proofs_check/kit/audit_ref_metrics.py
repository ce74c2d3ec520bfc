"""Naive second implementations (engine audits): the metrics of docs/math.md §4–§8.

Part of :mod:`proofs_check.kit.audit_ref` (read its docstring for the rules).
"""
from __future__ import annotations

import math

import numpy as np

from .audit_ref_net import forward, log_sum_loss

__all__ = ["cluster_radius", "band_mask", "agreement", "par", "normalized_margin",
           "smoothed_margin"]


# -- metrics (docs/math.md §4, §5, §6) --------------------------------------------------------
def _mean(rows):
    total = np.zeros(len(rows[0]))
    for r in rows:
        total = total + r
    return total / len(rows)


def cluster_radius(W) -> float:
    """``r = max(max_j ‖w_j − w̄‖, max_j ‖u_j − ū‖)`` (§5)."""
    W = np.asarray(W, float)
    k = W.shape[0] // 2
    r = 0.0
    for rows in (W[:k], W[k:]):
        mean = _mean(list(rows))
        for row in rows:
            r = max(r, math.sqrt(sum(float(e) ** 2 for e in row - mean)))
    return r


def band_mask(W, X, c: float = 2.0):
    """``|(w̄ − ū)·x| ≥ c·r‖x‖`` per point (§5), with both sides ``(mask, lhs, rhs)``."""
    W = np.asarray(W, float)
    k = W.shape[0] // 2
    diff = _mean(list(W[:k])) - _mean(list(W[k:]))
    r = cluster_radius(W)
    lhs = np.array([abs(float(np.dot(diff, x))) for x in np.asarray(X, float)])
    rhs = np.array([c * r * math.sqrt(sum(float(e) ** 2 for e in x)) for x in np.asarray(X, float)])
    return lhs >= rhs, lhs, rhs


def agreement(W, X):
    """The agreement pattern (§6): ``side_w, side_u ∈ {−1, 0, +1}^n`` and β (0 if in no NAR)."""
    W, X = np.asarray(W, float), np.asarray(X, float)
    k = W.shape[0] // 2
    sides, beta = [], math.inf
    for rows in (W[:k], W[k:]):
        side = []
        for x in X:
            cos = [float(np.dot(row, x)) / math.sqrt(float(np.dot(row, row))) for row in rows]
            if min(cos) > 0:
                side.append(1)
            elif max(cos) < 0:
                side.append(-1)
            else:
                side.append(0)
            beta = min(beta, min(abs(c) for c in cos))
        sides.append(np.array(side))
    if any((s == 0).any() for s in sides):
        beta = 0.0
    return sides[0], sides[1], beta


def par(W, X, y):
    """§7 and §8: fractions of w and u neurons alone in PAR, whether all are (β = 0), and the
    most points on which two neurons of one type disagree in sign (``max n_diff``)."""
    W, X = np.asarray(W, float), np.asarray(X, float)
    k = W.shape[0] // 2
    in_w = [all(yi * float(np.dot(W[j], x)) > 0 for x, yi in zip(X, y)) for j in range(k)]
    in_u = [all(-yi * float(np.dot(W[j], x)) > 0 for x, yi in zip(X, y)) for j in range(k, 2 * k)]
    n_diff = []
    for rows in (range(k), range(k, 2 * k)):
        worst = 0
        for a in rows:
            for b in rows:
                worst = max(worst, sum((float(np.dot(W[a], x)) > 0) != (float(np.dot(W[b], x)) > 0)
                                       for x in X))
        n_diff.append(worst)
    return sum(in_w) / k, sum(in_u) / k, all(in_w) and all(in_u), n_diff


def normalized_margin(W, X, y, alpha, v) -> float:
    """``γ̄ = min_i q_i / ‖W‖`` (§4)."""
    q = np.asarray(y, float) * forward(W, X, alpha, v)
    return float(min(q)) / math.sqrt(float(np.sum(np.asarray(W, float) ** 2)))


def smoothed_margin(W, X, y, alpha, v) -> float:
    """Eq. 5: ``γ̃ = −log(e^{L_sum} − 1)/‖W‖`` with the **summed** loss."""
    q = np.asarray(y, float) * forward(W, X, alpha, v)
    lsum = math.exp(log_sum_loss(q))
    return -math.log(math.expm1(lsum)) / math.sqrt(float(np.sum(np.asarray(W, float) ** 2)))
