"""Exact separability through the origin, and the exact max-margin direction (docs/math.md §3).

The hard-margin SVM without bias, ``min ‖w‖ s.t. y_i w·x_i ≥ 1``, is the minimum-norm
point ``p`` of the convex hull of ``g_i = y_i x_i``: ``w* = p/‖p‖²`` and the max margin is
``γ = ‖p‖`` (Gordan: the data are separable through the origin iff ``p ≠ 0``).  Solvers
decide this with absolute tolerances of ~1e-8, so at margins of 1e-8 of ‖x‖ and below
they say "infeasible" for separable data.  Here the answer is **decided exactly**:

1. guess the active set ``S`` (the support of ``p``) from a non-negative least-squares
   fit (floating point, only a guess);
2. solve the KKT system of ``min ‖Σ_{i∈S} μ_i g_i‖² s.t. Σ μ_i = 1`` in rational
   arithmetic (the floats of ``X`` are exact dyadic rationals);
3. accept only if, exactly, ``μ ≥ 0`` and ``g_i·p ≥ ‖p‖²`` for **every** i (the optimality
   conditions of the min-norm point).  Then ``p`` is the exact min-norm point: ``p = 0``
   proves non-separability (``μ`` is a Gordan certificate), ``p ≠ 0`` gives ``w*`` exactly,
   rounded once to float64.

When no guess passes, the verdict is ``"undecided"``: never a false statement.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import nnls

from ._check import check_X, check_y
from .errors import NotSeparableError, UndecidedError

__all__ = ["Separability", "separability", "exact_svm"]

#: weights of the Σμ = 1 row in the NNLS guesses, tried in turn
_SUM_WEIGHTS = (1.0, 1e3, 1e-3)
#: relative sizes below which an NNLS weight is taken as 0 (inactive), tried in turn
_SUPPORT_CUTS = (0.0, 1e-12, 1e-8)


@dataclass(frozen=True)
class Separability:
    """Exact verdict of :func:`separability`.

    ``verdict``: ``"separable"``, ``"not separable"`` (both proved in exact arithmetic) or
    ``"undecided"``.  ``w``: the max-margin teacher ``p/‖p‖²`` rounded to float64 (``None``
    unless separable, or when it overflows); ``margin``: ``γ = ‖p‖`` rounded (0 when not
    separable, ``nan`` when undecided); ``support``: indices of the points carrying ``p``
    (the support vectors, or the Gordan certificate's points).
    """

    verdict: str
    w: np.ndarray | None
    margin: float
    support: tuple

    def __repr__(self):
        return (f"Separability({self.verdict!r}, margin={self.margin:.3g}, "
                f"support={len(self.support)} points)")


def _exact_solve(A, b):
    """Solve the integer system ``A x = b`` exactly: ``(num, den)`` with ``x = num/den`` and
    ``den > 0``, or ``None`` if singular (fraction-free Bareiss elimination, then exact
    back-substitution on a common denominator)."""
    n = len(A)
    M = [list(row) + [rhs] for row, rhs in zip(A, b)]
    prev = 1
    for k in range(n):
        pivot = next((r for r in range(k, n) if M[r][k] != 0), None)
        if pivot is None:
            return None
        M[k], M[pivot] = M[pivot], M[k]
        pk = M[k][k]
        for i in range(k + 1, n):
            mik = M[i][k]
            M[i] = [(pk * M[i][j] - mik * M[k][j]) // prev for j in range(n + 1)]
        prev = pk
    x = [Fraction(0)] * n
    for i in range(n - 1, -1, -1):
        acc = M[i][n] - sum(M[i][j] * x[j] for j in range(i + 1, n))
        x[i] = Fraction(acc) / M[i][i]
    den = math.lcm(*(v.denominator for v in x))
    num = [int(v * den) for v in x]
    return num, den


def _integer_rows(G):
    """``G·2^E`` as Python ints, exactly (every float64 is a dyadic rational)."""
    mant, expo = np.frexp(G)
    m = (mant * 2.0**53).astype(np.int64)           # exact: 53-bit mantissas
    e = expo.astype(np.int64) - 53
    low = int(e[m != 0].min()) if np.any(m) else 0
    return [[int(mi) << int(ei - low) if mi else 0 for mi, ei in zip(mr, er)]
            for mr, er in zip(m, e)], low


def _try_support(Gi, S):
    """Exact min-norm point on the support ``S`` if it is the hull's: ``(p_int, D)`` with
    ``p = p_int/D`` in ``Gi``'s units, or ``None``."""
    gram = [[sum(a * b for a, b in zip(Gi[i], Gi[j])) for j in S] for i in S]
    # KKT of min ½‖Σμ_i g_i‖² s.t. Σμ_i = 1:  Gram μ − ν 1 = 0,  1ᵀμ = 1
    A = [row + [-1] for row in gram] + [[1] * len(S) + [0]]
    sol = _exact_solve(A, [0] * len(S) + [1])
    if sol is None:
        return None
    num, D = sol
    mu = num[:-1]
    if any(m < 0 for m in mu):
        return None
    d = len(Gi[0])
    p = [sum(m * Gi[i][c] for m, i in zip(mu, S)) for c in range(d)]
    pp = sum(c * c for c in p)
    # optimal over the whole hull iff g_i·p ≥ ‖p‖² for every i (p = p_int/D, D > 0)
    if any(sum(a * b for a, b in zip(g, p)) * D < pp for g in Gi):
        return None
    return p, D


def _affine_weights(Gi, S):
    """Exact weights of the min-norm point of the affine hull of ``{g_i : i ∈ S}``."""
    gram = [[sum(a * b for a, b in zip(Gi[i], Gi[j])) for j in S] for i in S]
    sol = _exact_solve([row + [-1] for row in gram] + [[1] * len(S) + [0]],
                       [0] * len(S) + [1])
    if sol is None:
        return None
    num, D = sol
    return [Fraction(v, D) for v in num[:-1]]


#: exact Wolfe iterations are run only on problems this small (n·d), each costing O(n·d)
_WOLFE_MAX_SIZE = 4000


def _wolfe(Gi):
    """Wolfe's min-norm-point algorithm in exact arithmetic: ``(p_int, D, S)`` or ``None``.

    The fallback when no floating-point guess of the support passes: exact at every step,
    so it ends (finitely) at the min-norm point of the hull, given iterations enough.
    """
    n, d = len(Gi), len(Gi[0])
    norms = [sum(a * a for a in g) for g in Gi]
    S, lam = [min(range(n), key=norms.__getitem__)], [Fraction(1)]
    for _ in range(20 * n + 100):
        L = math.lcm(*(v.denominator for v in lam))
        p = [sum(int(v * L) * Gi[i][c] for v, i in zip(lam, S)) for c in range(d)]
        pp = sum(c * c for c in p)
        dots = [sum(a * b for a, b in zip(g, p)) * L for g in Gi]  # = g·x·L², x = p/L
        j = min(range(n), key=dots.__getitem__)
        if dots[j] >= pp:
            return p, L, tuple(S)
        if j in S:
            return None
        S, lam = S + [j], lam + [Fraction(0)]
        while True:
            alpha = _affine_weights(Gi, S)
            if alpha is None:
                return None
            if all(a > 0 for a in alpha):
                lam = alpha
                break
            theta = min(v / (v - a) for v, a in zip(lam, alpha) if a <= 0)
            lam = [v + theta * (a - v) for v, a in zip(lam, alpha)]
            S, lam = [i for i, v in zip(S, lam) if v > 0], [v for v in lam if v > 0]
    return None


def _guesses(G):
    """Candidate supports from NNLS fits of ``Σμ_i g_i = 0, Σμ_i = 1`` (floating point)."""
    seen = []
    n = G.shape[0]
    for weight in _SUM_WEIGHTS:
        A = np.vstack([G.T, weight * np.ones((1, n))])
        b = np.concatenate([np.zeros(G.shape[1]), [weight]])
        try:
            mu = nnls(A, b, maxiter=50 * n)[0]
        except RuntimeError:  # iteration cap
            continue
        for cut in _SUPPORT_CUTS:
            S = tuple(int(i) for i in np.flatnonzero(mu > cut * mu.max()))
            if S and S not in seen:
                seen.append(S)
                yield S


def separability(X, y) -> Separability:
    """Decide exactly whether ``y_i w·x_i > 0`` for some ``w`` and every i; if so, ``w*``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,), entries in {-1, +1}

    Returns
    -------
    Separability
        ``"separable"`` with the max-margin teacher ``w`` (``y_i w·x_i ≥ 1``, tight), or
        ``"not separable"``, both proved in rational arithmetic; else ``"undecided"``.

    Examples
    --------
    >>> separability([[1.0, 1e-13], [-1.0, 1e-13]], [1, 1]).verdict
    'separable'
    >>> separability([[1.0], [-1.0]], [1, 1]).verdict
    'not separable'
    """
    X = check_X(X)
    if X.ndim != 2:
        raise ValueError(f"`X` must be 2-D (n, d), got shape {X.shape}")
    y = check_y(y, X)
    G = y[:, None] * X
    top = np.abs(G).max()
    if top == 0:
        return Separability("not separable", None, 0.0, (0,))
    G = np.ldexp(G, -int(np.frexp(top)[1]))            # exact: largest entry in [0.5, 1)
    Gi, low = _integer_rows(G)
    found = None
    for S in _guesses(G):
        found = _try_support(Gi, S)
        if found is not None:
            break
    if found is None and G.size <= _WOLFE_MAX_SIZE:
        found = _wolfe(Gi)
        if found is not None:
            S = found[2]
            found = found[:2]
    if found is not None:
        p_int, D = found
        p = [Fraction(c, D) for c in p_int]
        pp = sum(c * c for c in p)
        if pp == 0:
            return Separability("not separable", None, 0.0, S)
        # back to X's scale: g = Gi·2^low·2^e, so p_X = p·2^{low+e} and w = p_X/‖p_X‖²
        shift = low + int(np.frexp(top)[1])
        unit = Fraction(2) ** -shift
        try:
            w = np.array([float(Fraction(c) / pp * unit) for c in p])
        except OverflowError:  # ‖w‖ = 1/γ past float64: the verdict stands, w does not
            w = None
        gamma2 = pp / (unit * unit)
        margin = math.exp(0.5 * (math.log(gamma2.numerator) - math.log(gamma2.denominator)))
        return Separability("separable", w, margin, S)
    return Separability("undecided", None, float("nan"), ())


NOT_SEPARABLE = ("data are not linearly separable through the origin (no w with y_i w·x_i > 0 "
                 "for all i); if they are separable with a bias, lift them with "
                 "linteach.augment_bias")


def exact_svm(X, y, *, failure: str = "not asked") -> np.ndarray:
    """The hard-margin SVM through the origin, decided exactly (:func:`separability`).

    Used by :func:`linteach.convex.svm_no_bias` when the solvers fail or say "infeasible"
    (``failure`` says what they said).  Returns the max-margin teacher; raises
    :class:`~linteach.NotSeparableError` only with a proof, ``ValueError`` when the teacher
    overflows float64, :class:`~linteach.errors.UndecidedError` when nothing is proved.
    """
    sep = separability(X, y)
    if sep.verdict == "not separable":
        raise NotSeparableError(NOT_SEPARABLE + " (proved by an exact Gordan certificate on "
                                f"{len(sep.support)} points)")
    if sep.verdict == "separable":
        if sep.w is None:
            raise ValueError(f"`X`: the data are separable with max margin {sep.margin:.3g}, "
                             "but the max-margin teacher (norm 1/margin) overflows float64")
        return sep.w
    raise UndecidedError("separability of `X`, `y` is undecided at this scale: the solvers "
                         f"failed ({failure}) and the exact re-check found no certificate "
                         "either way")
