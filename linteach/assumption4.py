"""Condition 4 of Theorem 6.2 ("data approximately symmetric about the origin"), by LPs.

docs/math.md §7 (derived): for every z, if z is positive on all positive points then it is
negative on all negative points, and vice versa.  Each implication is decided by one LP
per point, whose dual certificate is re-checked in NumPy; HiGHS solves the points' LPs of
a class together as block-diagonal programs (:data:`BLOCKS` at a time), each block checked
as if alone, and any block it does not answer point by point.  No cvxpy.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from ._check import check_array, check_real, float_guard
from ._scale import pow2
from .errors import SolverError
from .kkt import check_Xy

__all__ = ["A4_MARGIN", "Assumption4Result", "assumption4_lp", "lp_feasible"]


def highs(c, A_ub, b_ub):
    """``linprog`` with HiGHS's default method, then its interior-point method if the first
    ends with status 4 (HiGHS "model status unknown", seen on nearly degenerate Assumption 4
    programs of flipped-label sets where the simplex stalls; the caller re-checks the answer)."""
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=(None, None), method="highs")
    if res.status == 4:
        res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=(None, None), method="highs-ipm")
    return res


def lp_feasible(G, h) -> bool:
    """Independent feasibility test of ``Gθ ≥ h`` (HiGHS simplex); ``G (p, m)``, ``h (p,)``."""
    if not hasattr(G, "tocsr"):  # dense: validate (sparse programs come from linteach.convex)
        G = check_array("G", G, min_ndim=2)
        if G.ndim != 2:
            raise ValueError(f"`G` must be 2-D (p, m), got shape {G.shape}")
    h = check_array("h", h)
    if h.shape != (G.shape[0],):
        raise ValueError(f"`h` must have shape (p,) = ({G.shape[0]},), got {h.shape}")
    # Gθ ≥ h ⇔ (r_i G_i)(θ/c) ≥ r_i h_i / c for r_i, c > 0: rows by their largest entry and
    # h by its largest entry, each a power of two, so HiGHS's absolute tolerances mean the
    # same at any scale (at G ~ 1e-300 every θ it could return would be too short)
    sparse = hasattr(G, "tocsr")
    top = abs(G).max(axis=1).toarray().ravel() if sparse else np.abs(G).max(axis=1)
    zero = top == 0
    if np.any(zero & (h > 0)):
        return False  # a row 0·θ ≥ h_i > 0
    if not np.any(h > 0):
        return True  # θ = 0 meets every row
    r = -np.frexp(np.where(zero, 1.0, top))[1]
    if sparse:
        from scipy.sparse import diags
        G = diags(np.ldexp(1.0, r)) @ G
    else:
        G = np.ldexp(G, r[:, None])
    # ĥ_i = r_i h_i / c with c the largest r_i h_i > 0, all in exponents: a row with h_i ≤ 0
    # holds at θ = 0 and must not set the scale (θ ≥ −1e8 beside θ ≥ 2 and θ ≤ 1 squeezed
    # these into HiGHS's tolerance: "feasible"); a ĥ_i < −2^100 (only h_i < 0) is capped
    # there, past HiGHS's infinite bound 1e20 either way, so nothing overflows
    e_h = np.frexp(h)[1] + r
    c = int(e_h[h > 0].max())
    h = np.ldexp(h, np.minimum(r - c, 100 - np.frexp(h)[1]))
    res = highs(np.zeros(G.shape[1]), -G, -h)
    if res.status not in (0, 2):
        raise SolverError(f"HiGHS could not decide feasibility: {res.message}")
    return res.status == 0


#: Assumption 4 "holds" only when every per-point LP slack is at least this (scale-free).
A4_MARGIN = 1e-7


@dataclass(frozen=True, repr=False)
class Assumption4Result:
    """Verdict of :func:`assumption4_lp`.

    ``holds``: every ``slack ≥ margin``.  ``slack (n,)``: for a negative j,
    ``−max{z·x_j : z·x_i ≥ 1 ∀ y_i = +1, z·x_j ≤ 1}`` (symmetrically for a positive j);
    ``≥ 1`` is comfortable, ``−1`` a strict violation, ``+inf`` when the other class's cone
    is empty; invariant to rescaling ``X``.  ``witness`` (d,) and ``witness_index`` j, when
    it fails: ``z`` positive on the whole other class (``min z·x_i = 1`` exactly) but not
    negative on ``x_j`` (``z·x_j ≥ 0``, up to ``margin`` when borderline).
    ``positive_cone_empty``: ``{z : z·x_i ≥ 1 ∀ y_i = +1}`` is empty, so that half holds
    vacuously (``negative_cone_empty`` likewise with ``≤ −1`` on negatives).
    """

    holds: bool
    witness: np.ndarray | None
    witness_index: int | None
    slack: np.ndarray
    positive_cone_empty: bool
    negative_cone_empty: bool
    margin: float

    def __repr__(self):
        worst = float(np.min(self.slack))
        where = "" if self.holds else f", witness_index={self.witness_index}"
        return (f"Assumption4Result(holds={self.holds}, worst_slack={worst:.3g}, "
                f"n={self.slack.size}{where})")


def _unit_min(z, A, e):
    """``z / min_i z·x_i`` over the rows ``x_i = A_i·2^e_i`` (``z·x_i > 0``), the minimum
    taken on mantissas and exponents: rows whose norms overflow float64 still answer, and
    only a witness that itself leaves float64 is an error."""
    m, k = np.frexp(A @ z)
    k = k + e
    i = np.lexsort((m, k))[0]                            # the smallest m_i·2^k_i, m_i ∈ [½, 1)
    with float_guard("the Assumption 4 witness for `X` leaves float64"):
        return np.ldexp(z / m[i], -k[i])


def _a4_slack(P, xj):
    """``(slack, z)`` of ``max z·x_j s.t. Pz ≥ 1, z·x_j ≤ 1``, with its dual re-checked."""
    A = np.vstack([-P, xj])
    b = np.concatenate([-np.ones(len(P)), [1.0]])
    res = highs(-xj, A, b)
    if res.status == 2:  # every z with Pz ≥ 1 has z·x_j > 1: x_j lies deep in the cone
        inside = highs(np.zeros(len(xj)), -P, -np.ones(len(P)))
        if inside.status == 0 and xj @ inside.x > 0:
            return -1.0, inside.x  # a strict violation, with its witness
    if res.status != 0:
        raise SolverError(f"Assumption 4 LP: HiGHS status {res.status}: {res.message}")
    a = -res.ineqlin.marginals                           # ≥ 0: x_j (a_b − 1) = Σ a_i x_i
    if not _certified(P, xj, res.x, a):
        raise SolverError("Assumption 4 LP: HiGHS dual certificate failed the NumPy re-check")
    return -float(xj @ res.x), res.x


#: per-point LPs solved as one block-diagonal HiGHS program at a time (one call's overhead,
#: ~1.5 ms, dominated a program that takes HiGHS ~0.4 ms)
BLOCKS = 32


def _a4_slacks(P, Xj):
    """:func:`_a4_slack` for every row of ``Xj`` at once: ``[(slack, z), ...]``.

    The programs share ``Pz ≥ 1`` and differ in one row and the objective, so up to
    :data:`BLOCKS` of them form one block-diagonal LP (variables ``z_b``; rows ``Pz_b ≥ 1``
    and ``x_b·z_b ≤ 1`` per block; objective ``Σ_b x_b·z_b``).  Its optimum restricted to a
    block is that block's optimum and its row duals are that block's duals, so each block's
    certificate is re-checked exactly as alone.  A program HiGHS does not solve to status 0
    as a whole (some block infeasible: ``x_j`` deep in the cone; status 4), or a block whose
    certificate fails, is solved alone by :func:`_a4_slack`.
    """
    from scipy.sparse import csr_matrix

    out = []
    m, d = P.shape
    for lo in range(0, len(Xj), BLOCKS):
        part = Xj[lo:lo + BLOCKS]
        if len(part) == 1:
            out.append(_a4_slack(P, part[0]))
            continue
        # block b: rows b(m+1) + (0..m) hold (−P; x_b), columns bd + (0..d−1)
        blocks = np.concatenate([np.broadcast_to(-P, (len(part), m, d)), part[:, None]], axis=1)
        b_, i, j = np.indices(blocks.shape)
        nz = blocks != 0.0
        A = csr_matrix((blocks[nz], ((b_ * (m + 1) + i)[nz], (b_ * d + j)[nz])),
                       shape=(len(part) * (m + 1), len(part) * d))
        b = np.tile(np.concatenate([-np.ones(m), [1.0]]), len(part))
        res = highs(-part.ravel(), A, b)
        if res.status != 0:
            out += [_a4_slack(P, x) for x in part]
            continue
        z = res.x.reshape(len(part), d)
        duals = -res.ineqlin.marginals.reshape(len(part), m + 1)
        for x, zb, a in zip(part, z, duals):
            ok = _certified(P, x, zb, a)
            out.append((-float(x @ zb), zb) if ok else _a4_slack(P, x))
    return out


def _certified(P, xj, z, a) -> bool:
    """The NumPy re-check of one program's HiGHS answer: the dual ``a ≥ 0`` (rows ``Pz ≥ 1``,
    then ``z·x_j ≤ 1``) certifies ``x_j (a_b − 1) = Σ a_i P_i`` and closes the gap."""
    scale = (np.abs(a).sum() + 1.0) * max(np.abs(P).max(), np.abs(xj).max())
    gap = abs((a[-1] - a[:-1].sum()) - xj @ z)
    return not (np.linalg.norm(xj * (a[-1] - 1.0) - a[:-1] @ P) > 1e-7 * scale
                or a.min() < -1e-9 * (1.0 + a.max()) or gap > 1e-7 * (1.0 + abs(xj @ z)))


def assumption4_lp(X, y, *, margin=A4_MARGIN) -> Assumption4Result:
    """Condition 4 of Theorem 6.2: z > 0 on all positives ⇒ z < 0 on all negatives, and back.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,), entries in {-1, +1}, both classes present
    margin : float, default :data:`A4_MARGIN`
        Required slack; borderline data (slack in ``(−margin, margin)``) count as failing.

    Returns
    -------
    Assumption4Result

    Notes
    -----
    docs/math.md §7: for each negative j, ``{z : z·x_i ≥ 1 ∀ y_i = +1, z·x_j ≥ 0}`` must be
    empty, and for each positive j, ``{z : z·x_i ≤ −1 ∀ y_i = −1, z·x_j ≤ 0}``.  Each is
    decided by one HiGHS LP whose optimum is the slack; the LP's dual certificate
    ``−x_j ∈ cone{x_i}`` is re-checked in NumPy.

    Examples
    --------
    >>> assumption4_lp([[1.0, 0.0], [-1.0, 0.0]], [1, -1]).holds
    True
    """
    X_in, y = check_Xy(X, y)
    # Assumption 4 is about cones: scaling each point by a positive factor changes nothing,
    # and unit rows keep HiGHS's absolute tolerances meaningful (norms spanning 10 decades
    # gave slack 0.726 for an exact value ≥ 1, and spurious 'unbounded' answers)
    top = np.abs(X_in).max(axis=1, keepdims=True)
    top = np.where(top > 0, top, 1.0)
    with np.errstate(over="ignore"):
        norms = top * np.linalg.norm(X_in / top, axis=1, keepdims=True)
    X = X_in / np.where(norms > 0, norms, 1.0)
    past = ~np.isfinite(norms[:, 0])  # a norm past float64: the row's direction directly
    if np.any(past):
        Y = X_in[past] / top[past]
        X[past] = Y / np.linalg.norm(Y, axis=1, keepdims=True)
    margin = check_real("margin", margin, ge=0.0)
    if np.all(y == y[0]):
        raise ValueError("`y` must contain both classes for Assumption 4, got only "
                         f"{int(y[0]):+d}")
    slack, zs = np.full(len(y), np.inf), [None] * len(y)
    empty = {}
    for cls in (1.0, -1.0):                              # z positive on cls ⇒ check the others
        P = cls * X[y == cls]
        empty[cls] = not lp_feasible(P, np.ones(len(P)))
        if empty[cls]:
            continue
        others = np.flatnonzero(y != cls)
        for j, (s_j, z) in zip(others, _a4_slacks(P, cls * X[others])):
            slack[j], zs[j] = s_j, cls * z / (P @ z).min()              # exactly ≥ 1 on the other class
    j = int(np.argmin(slack))
    holds = bool(slack[j] >= margin)
    witness = None
    if not holds:  # ≥ 1 on the other class of the points as given, signs unchanged
        on = y == -y[j]
        A, e = pow2(X_in[on], 1)                             # exact: rows ∈ [½, 1)
        witness = _unit_min(zs[j], A, e[:, 0])
    return Assumption4Result(holds, witness, None if holds else j, slack,
                             empty[1.0], empty[-1.0], margin)
