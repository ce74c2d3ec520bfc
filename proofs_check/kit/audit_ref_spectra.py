"""Naive second implementations (engine audits): spectra and the follow-up papers' quantities.

Singular values by one-sided Jacobi (Hestenes): rotate pairs of rows in their plane until
every pair is orthogonal; the row norms are then the singular values.  It shares nothing with
LAPACK's SVD and is accurate to ~ε·σ_1 per singular value (docs/math.md §12, §13).  Part of
:mod:`proofs_check.kit.audit_ref` (read its docstring for the rules).
"""
from __future__ import annotations

import math

import numpy as np

from .audit_ref_net import forward

__all__ = ["singular_values", "stable_rank", "type_stable_ranks", "rank_ratio", "margin_ratio",
           "cosine", "orthogonality_constant", "lifted_svm_margin"]

#: Jacobi sweeps at most (convergence is quadratic: a handful suffice)
MAX_SWEEPS = 60


def singular_values(W) -> np.ndarray:
    """Singular values of the matrix ``W`` (descending), by one-sided Jacobi on its rows."""
    A = [np.array(row, dtype=float) for row in np.asarray(W, float)]
    tiny = np.finfo(float).eps
    for _ in range(MAX_SWEEPS):
        rotated = False
        for i in range(len(A)):
            for j in range(i + 1, len(A)):
                a, b, c = float(A[i] @ A[i]), float(A[j] @ A[j]), float(A[i] @ A[j])
                if c == 0.0 or abs(c) <= tiny * math.sqrt(a * b):
                    continue
                rotated = True
                zeta = (b - a) / (2.0 * c)  # the rotation that zeroes the pair's inner product
                t = math.copysign(1.0, zeta) / (abs(zeta) + math.sqrt(1.0 + zeta * zeta))
                cs = 1.0 / math.sqrt(1.0 + t * t)
                sn = cs * t
                A[i], A[j] = cs * A[i] - sn * A[j], sn * A[i] + cs * A[j]
        if not rotated:
            break
    # the first min(m, n) (the others are zero up to rounding: rank ≤ min(m, n))
    values = sorted((math.sqrt(float(r @ r)) for r in A), reverse=True)
    return np.array(values[:min(np.shape(W))])


def stable_rank(W, sigma_1: float | None = None) -> float:
    """``‖W‖_F² / σ_1²`` of one matrix (the Frobenius norm summed entry by entry; ``sigma_1``
    if already known, from :func:`singular_values`)."""
    fro2 = sum(float(e) ** 2 for e in np.asarray(W, float).ravel())
    return fro2 / float(singular_values(W)[0] if sigma_1 is None else sigma_1) ** 2


def type_stable_ranks(W):
    """``(stable rank of the w rows, of the u rows)``."""
    k = len(W) // 2
    return stable_rank(W[:k]), stable_rank(W[k:])


def rank_ratio(W, r: int = 2) -> float:
    """``σ_{r+1}/σ_1`` (0 with at most r singular values)."""
    s = singular_values(W)
    return float(s[r] / s[0]) if len(s) > r else 0.0


def margin_ratio(W, X, y, alpha, v) -> float:
    """``max_i q_i / min_i q_i`` (``inf`` unless every point is classified)."""
    q = np.asarray(y, float) * forward(W, X, alpha, v)
    return float(max(q) / min(q)) if min(q) > 0 else math.inf


def cosine(A, B) -> float:
    """Frobenius cosine, summed entry by entry."""
    a, b = np.asarray(A, float).ravel(), np.asarray(B, float).ravel()
    dot = sum(float(x) * float(z) for x, z in zip(a, b))
    return dot / math.sqrt(sum(float(x) ** 2 for x in a) * sum(float(z) ** 2 for z in b))


def orthogonality_constant(X) -> float:
    """``min_i ‖x_i‖² / (n max_{k≠i} |⟨x_i, x_k⟩|)`` (docs/math.md §12)."""
    X = np.asarray(X, float)
    n, best = len(X), math.inf
    for i in range(n):
        off = max(abs(float(X[i] @ X[k])) for k in range(n) if k != i)
        if off > 0:
            best = min(best, float(X[i] @ X[i]) / (n * off))
    return best


def lifted_svm_margin(w_svm, k: int, alpha: float, v: float) -> float:
    """γ̄ of ``W = (w…w, −w…−w)``, ``w = w_SVM/‖w_SVM‖`` (docs/math.md §10): each point's
    margin is ``k v (1+α) y w·x ≥ k v (1+α)/‖w_SVM‖`` and ``‖W‖ = √(2k)``."""
    return k * v * (1.0 + alpha) / math.sqrt(float(np.dot(w_svm, w_svm))) / math.sqrt(2.0 * k)
