"""The paper's convex programs, solved with cvxpy and re-checked in NumPy.

With :mod:`linteach.qp`, the only modules that import cvxpy (both imported lazily).  Every
program is ``min ½‖θ‖² s.t. Gθ ≥ h``, solved and re-checked by
:func:`linteach.qp.solve_qp`: the SVM without bias (max-margin teacher,
docs/math.md §3); Eq. 8 of Theorem 6.2 on ``θ = (w, u)``, also via its kernel dual (§7); (P)
restricted to an agreement pattern over all ``2k`` neurons, ``θ = vec(W)`` (§6).

Solver policy (:mod:`linteach.qp`; :data:`SOLVER_ORDER` and :data:`SOLVER_OPTIONS` are
re-exported here): CLARABEL, then the other installed solvers of :data:`SOLVER_ORDER`.  An
"optimal" status is never trusted alone: the answer is polished to an exact KKT pair
(:func:`linteach.kkt.polish`, our own multipliers) or must pass
:func:`linteach.kkt.qp_kkt_report` with the solver's duals; "infeasible" is confirmed by
a HiGHS LP.  Otherwise :class:`SolverError`.  Assumption 4 (§7) is decided by HiGHS LPs
whose dual certificates are re-checked too (:func:`assumption4_lp`).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._check import check_alpha, check_array, check_int, check_real, float_guard
from .errors import NotSeparableError, SolverError, UndecidedError  # noqa: F401 (re-exported)
from .assumption4 import A4_MARGIN, Assumption4Result, assumption4_lp
from .kkt import KKTCertificate, check_Xy, kkt_certificate
# the solver policy and its settings live in linteach.qp; re-exported as linteach.convex.X
from .qp import SOLVER_OPTIONS, SOLVER_ORDER, Infeasible, rescaled, solve_qp, unit_scale
from .separable import exact_svm

__all__ = ["svm_no_bias", "max_margin_teacher", "solve_eq8", "eq8_kernel", "eq8_kernel_dual",
           "nar_program", "assumption4_lp", "Assumption4Result", "A4_MARGIN",
           "kkt_certificate", "KKTCertificate", "SOLVER_ORDER", "SOLVER_OPTIONS",
           "NotSeparableError", "SolverError", "UndecidedError"]


def svm_no_bias(X, y, *, solver=None) -> np.ndarray:
    """Hard-margin SVM through the origin: ``argmin ‖w‖² s.t. y_i w·x_i ≥ 1``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,), entries in {-1, +1}
    solver : str, optional
        Force one cvxpy solver (e.g. ``"OSQP"``); default tries :data:`SOLVER_ORDER`.

    Returns
    -------
    w : ndarray, shape (d,)
        The max-margin teacher: ``‖w‖ = 1/γ`` with ``γ`` the max margin (docs/math.md §3).

    Raises
    ------
    NotSeparableError
        If no ``w`` has ``y_i w·x_i > 0`` for every i (confirmed by a HiGHS LP).

    Examples
    --------
    >>> svm_no_bias([[2.0, 0.0], [-1.0, 1.0]], [1, -1]).round(6)
    array([ 0.5, -0.5])
    """
    X, y = check_Xy(X, y)
    X_in = X
    X, s = unit_scale(X)
    try:
        w = solve_qp(y[:, None] * X, np.ones(len(y)), solver=solver, what="SVM")[0]
    except Infeasible:  # the solvers' word at tolerance ~1e-8: decide it exactly
        return exact_svm(X_in, y, failure="CLARABEL and HiGHS reported infeasible")
    except SolverError as exc:
        return exact_svm(X_in, y, failure=str(exc))
    return rescaled(w, s, "the SVM")


def max_margin_teacher(X, y) -> np.ndarray:
    """Alias of :func:`svm_no_bias` used by :func:`linteach.max_margin_teacher`."""
    return svm_no_bias(X, y)


def _eq8_features(X, y, alpha):
    """Rows ``y_i ψ_i`` of Eq. 8: ``(x, −αx)`` for ``y = +1``, ``(−αx, x)`` for ``y = −1``."""
    pos = (y > 0)[:, None]
    return np.hstack([np.where(pos, X, -alpha * X), np.where(pos, -alpha * X, X)])


def _eq8_args(X, y, alpha):
    X, y = check_Xy(X, y)
    zero = np.flatnonzero(~X.any(axis=1))
    if zero.size:  # its constraint reads 0 ≥ 1: infeasible before any solver is asked
        raise ValueError(f"`X` row {int(zero[0])} is the origin: Eq. 8's constraint for it "
                         "reads 0 >= 1, so the program is infeasible")
    return X, y, check_real("alpha", alpha, ge=0.0, le=1.0)


def solve_eq8(X, y, alpha, *, solver=None):
    """Theorem 6.2's program (Eq. 8): ``argmin ‖w‖² + ‖u‖²`` s.t. the PAR margins.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,), entries in {-1, +1}
    alpha : float
        ``0 <= alpha <= 1`` (``alpha = 1`` is the linear-SVM limit).
    solver : str, optional

    Returns
    -------
    w, u : ndarray, shape (d,) each

    Notes
    -----
    Constraints: ``w·x_i − α u·x_i ≥ 1`` for ``y_i = +1`` and ``u·x_i − α w·x_i ≥ 1``
    for ``y_i = −1`` (docs/math.md §7, Eq. 8).  The predicted boundary is ``(w − u)·x = 0``.

    Examples
    --------
    >>> w, u = solve_eq8([[1.0, 0.0], [-1.0, 0.0]], [1, -1], 0.5)
    >>> w.round(6), u.round(6)
    (array([0.666667, 0.      ]), array([-0.666667,  0.      ]))
    """
    X, y, alpha = _eq8_args(X, y, alpha)
    X_in = X
    X, s = unit_scale(X)
    try:
        theta = rescaled(solve_qp(_eq8_features(X, y, alpha), np.ones(len(y)), solver=solver,
                                    what="Eq. 8")[0], s, "Eq. 8")
    except Infeasible:
        raise ValueError("Eq. 8 is infeasible for these `X` and `y`") from None
    except SolverError as exc:  # Eq. 8 is the SVM of its rows y_i ψ_i: decide it exactly
        try:
            theta = exact_svm(_eq8_features(X_in, y, alpha), np.ones(len(y)),
                              failure=str(exc))
        except NotSeparableError:
            raise ValueError("Eq. 8 is infeasible for these `X` and `y`") from None
    return theta[: X.shape[1]], theta[X.shape[1]:]


def eq8_kernel(X, y, alpha) -> np.ndarray:
    """Eq. 8's kernel: ``K_ij = (1+α²)⟨x_i, x_j⟩`` if ``y_i = y_j``, else ``2α⟨x_i, x_j⟩``."""
    X, y, alpha = _eq8_args(X, y, alpha)
    with float_guard("Eq. 8's kernel of `X` overflows float64 (entries of X·Xᵀ)"):
        return np.where(np.equal.outer(y, y), 1.0 + alpha**2, 2.0 * alpha) * (X @ X.T)


def eq8_kernel_dual(X, y, alpha, *, solver=None):
    """Solve Eq. 8 through its dual, an SVM without bias with :func:`eq8_kernel`.

    Returns
    -------
    w, u : ndarray, shape (d,) each
        Recovered primal, ``θ = ½ Σ_i λ_i y_i ψ_i``.
    lam : ndarray, shape (n,)
        Dual optimum ``λ ≥ 0`` of ``max Σλ − ¼ λᵀ(yyᵀ∘K)λ``.

    Notes
    -----
    With ``ψ_i = (x_i, −αx_i)`` for ``y_i = +1`` and ``(αx_i, −x_i)`` for ``y_i = −1``,
    Eq. 8 is ``min ‖θ‖² s.t. y_i θ·ψ_i ≥ 1`` and ``ψ_i·ψ_j = K_ij``.  Its Lagrangian gives
    ``2θ = Σ λ_i y_i ψ_i`` (objective ``‖θ‖²``, not ``½‖θ‖²``, hence the ¼), so
    ``w = ½(Σ_{+} λ_i x_i − α Σ_{−} λ_i x_i)`` and ``u = ½(Σ_{−} λ_i x_i − α Σ_{+} λ_i x_i)``.
    At the optimum ``Σλ = 2‖θ‖²``.  Solved as ``μ = λ/2`` of the ½-form and re-checked
    as a primal–dual pair.
    """
    X, y, alpha = _eq8_args(X, y, alpha)
    X, s = unit_scale(X)  # at scale s: θ = θ'/s and λ = λ'/s²
    evals, evecs = np.linalg.eigh(np.outer(y, y) * eq8_kernel(X, y, alpha))
    keep = evals > 1e-12 * max(evals.max(), 1e-300)
    L = evecs[:, keep] * np.sqrt(evals[keep])            # yyᵀ∘K = L Lᵀ (PSD, rank ≤ 2d)
    try:
        theta, mu = solve_qp(_eq8_features(X, y, alpha), np.ones(len(y)), solver=solver,
                              what="Eq. 8 (kernel dual)", dual_factor=L)
    except Infeasible:
        raise ValueError("Eq. 8 is infeasible for these `X` and `y` (its dual is unbounded)"
                         ) from None
    theta = rescaled(theta, s, "Eq. 8 (kernel dual)")
    return theta[: X.shape[1]], theta[X.shape[1]:], rescaled(rescaled(2.0 * mu, s, "Eq. 8's "
                                                                        "dual"), s, "Eq. 8's dual")


def _check_pattern(name, c, n, alpha):
    c = check_array(name, c)
    if c.shape != (n,):
        raise ValueError(f"`{name}` must have shape (n,) = ({n},), got shape {c.shape}")
    is_one, is_alpha = c == 1.0, c == alpha
    if not np.all(is_one | is_alpha):
        raise ValueError(f"`{name}` entries must be alpha={alpha} or 1, got "
                         f"{np.unique(c[~(is_one | is_alpha)])[:5]}")
    return np.where(is_one, 1.0, -1.0)                   # side of each point: +1 or −1


def nar_program(X, y, alpha, c_w, c_u, *, k=1, v=1.0, solver=None) -> np.ndarray:
    """(P) restricted to one agreement pattern: ``argmin ½‖W‖² s.t. q_i(W) ≥ 1`` in the NAR.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,), entries in {-1, +1}
    alpha : float
        Leaky slope, ``0 <= alpha < 1``.
    c_w, c_u : array_like, shape (n,), entries in {alpha, 1}
        The pattern (docs/math.md §6): ``c_i = 1`` puts every neuron of that type on the
        positive side of ``x_i`` (``w_l·x_i ≥ 0``), ``c_i = alpha`` on the negative side.
    k : int, default 1
        Neurons per type.
    v : float, default 1.0
    solver : str, optional

    Returns
    -------
    W : ndarray, shape (2k, d)
        The unique minimiser over all ``2k`` neurons (clustering is not imposed; it comes
        out: the program is strictly convex and symmetric under permuting neurons).

    Raises
    ------
    ValueError
        If no ``W`` in the (closed) pattern reaches margin 1 on every point.

    Notes
    -----
    Inside the pattern ``N_W(x_i) = v Σ_l c^w_i w_l·x_i − v Σ_l c^u_i u_l·x_i`` is linear
    in ``W``, so this is a convex QP (docs/math.md §6).

    Examples
    --------
    >>> W = nar_program([[1.0], [-1.0]], [1, -1], 0.5, [1, 0.5], [0.5, 1], k=2)
    >>> W.round(6).ravel()
    array([ 0.333333,  0.333333, -0.333333, -0.333333])
    """
    X, y = check_Xy(X, y)
    X, s = unit_scale(X)
    alpha = check_alpha(alpha)
    k = check_int("k", k, ge=1)
    v = check_real("v", v, gt=0.0)
    n, d = X.shape
    side_w, side_u = _check_pattern("c_w", c_w, n, alpha), _check_pattern("c_u", c_u, n, alpha)
    cw, cu = np.where(side_w > 0, 1.0, alpha), np.where(side_u > 0, 1.0, alpha)
    M = np.hstack([(v * y * cw)[:, None] * X, -(v * y * cu)[:, None] * X])   # on (Σw, Σu)
    B = sp.block_diag([sp.kron(np.ones((1, k)), sp.eye(d))] * 2)             # θ ↦ (Σw, Σu)
    signs = sp.block_diag([sp.kron(sp.eye(k), side[:, None] * X) for side in (side_w, side_u)])
    G = sp.vstack([sp.csr_matrix(M) @ B, signs]).tocsr()
    h = np.concatenate([np.ones(n), np.zeros(2 * k * n)])
    try:
        theta = solve_qp(G, h, solver=solver, what="pattern-restricted (P)", lift=(M, B))[0]
    except Infeasible:
        raise ValueError("the agreement pattern (c_w, c_u) is infeasible: no W with every "
                         "neuron on its prescribed side of every x_i reaches y_i N_W(x_i) ≥ 1"
                         ) from None
    return rescaled(theta.reshape(2 * k, d), s, "the pattern-restricted (P)")
