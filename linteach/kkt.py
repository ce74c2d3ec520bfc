"""KKT re-checks in NumPy: for the convex programs of ``linteach.convex`` and for (P).

Two kinds of certificate live here, both pure NumPy/SciPy (no cvxpy):

* :func:`qp_kkt_report` checks an answer of ``min ½‖θ‖² s.t. Gθ ≥ h`` (every program in
  ``linteach.convex`` is of this form) condition by condition, with the solver's
  multipliers or with our own (:func:`active_set_multipliers`).  Residuals are relative, so
  ``≤ tol`` means "holds" whatever the scale of the data.
* :func:`kkt_certificate` asks whether a trained network ``W`` (any scale) is, in
  direction, a KKT point of (P) ``min ½‖W‖² s.t. q_i(W) ≥ 1`` (EQUATIONS §4, §6).

Network conventions (EQUATIONS §1): rows ``0..k-1`` of ``W (2k, d)`` are w neurons
(second-layer ``+v``), rows ``k..2k-1`` u neurons (``-v``); ``σ'(z) = 1`` if ``z > 0``
else ``α``, so ``σ'(0) = α``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import nnls

from ._check import check_alpha, check_array, check_real, check_W, check_X, check_y

__all__ = ["KKT_TOL", "FEAS_TOL", "ACTIVE_TOL", "KINK_TOL", "QPReport", "KKTCertificate",
           "qp_kkt_report", "active_set_multipliers", "kkt_certificate"]

#: Relative primal-feasibility tolerance: ``(h_i - G_iθ) / max(1, ‖G_i‖‖θ‖)``.
FEAS_TOL = 1e-7
#: Relative tolerance for stationarity, complementarity and dual feasibility.
KKT_TOL = 1e-6
#: A constraint counts as active when its relative slack is below this (own multipliers).
ACTIVE_TOL = 1e-6
#: ``|w_j·x_i| ≤ KINK_TOL ‖w_j‖‖x_i‖`` counts as sitting on the kink of σ.
KINK_TOL = 1e-9


def check_Xy(X, y):
    """Validate one data set: ``X`` finite 2-D ``(n, d)``, ``y`` in {-1, +1} of length n."""
    X = check_X(X)
    if X.ndim != 2:
        raise ValueError(f"`X` must be 2-D (n, d), got shape {X.shape}")
    return X, check_y(y, X)


def _row_norms(G):
    if isinstance(G, np.ndarray):
        return np.linalg.norm(G, axis=1)
    return np.sqrt(np.asarray(G.multiply(G).sum(axis=1)).ravel())


@dataclass(frozen=True)
class QPReport:
    """Named relative residuals of ``min ½‖θ‖² s.t. Gθ ≥ h`` at ``(θ, μ)``; 0 is exact."""

    feasibility: float
    dual_feasibility: float
    stationarity: float
    complementarity: float

    def ok(self) -> bool:
        """All four conditions within the module tolerances."""
        return (self.feasibility <= FEAS_TOL and self.dual_feasibility <= KKT_TOL
                and self.stationarity <= KKT_TOL and self.complementarity <= KKT_TOL)

    def worst(self) -> str:
        """The residuals as text, for error messages."""
        return ", ".join(f"{k}={v:.2e}" for k, v in vars(self).items())


def qp_kkt_report(theta, G, h, mu) -> QPReport:
    """Check every optimality condition of ``min ½‖θ‖² s.t. Gθ ≥ h`` by name.

    Parameters
    ----------
    theta : ndarray, shape (m,)
    G : ndarray or scipy.sparse matrix, shape (p, m)
    h : ndarray, shape (p,)
    mu : ndarray, shape (p,)
        Multipliers; the KKT conditions are ``θ = Gᵀμ``, ``μ ≥ 0``, ``Gθ ≥ h`` and
        ``μ_i (G_iθ − h_i) = 0``.

    Returns
    -------
    QPReport
        ``feasibility = max_i (h_i − G_iθ)⁺ / max(1, ‖G_i‖‖θ‖)``;
        ``stationarity = ‖θ − Gᵀμ‖ / ‖θ‖``;
        ``dual_feasibility = max_i (−μ_i)⁺ ‖G_i‖ / ‖θ‖`` (size of the negative part in
        the stationarity equation); ``complementarity = max_i |μ_i (G_iθ − h_i)| / ‖θ‖²``
        (at the optimum ``Σ μ_i h_i = ‖θ‖²``).
    """
    theta, h, mu = (np.asarray(a, dtype=np.float64) for a in (theta, h, mu))
    norm = max(float(np.linalg.norm(theta)), np.finfo(float).tiny)
    rows = _row_norms(G)
    slack = G @ theta - h
    return QPReport(
        feasibility=float(np.max(np.maximum(-slack, 0.0) / np.maximum(1.0, rows * norm))),
        dual_feasibility=float(np.max(np.maximum(-mu, 0.0) * rows) / norm),
        stationarity=float(np.linalg.norm(theta - G.T @ mu) / norm),
        complementarity=float(np.max(np.abs(mu * slack)) / norm**2),
    )


def active_set_multipliers(theta, G, h) -> np.ndarray:
    """Our own multipliers: ``μ ≥ 0`` on the active constraints minimising ``‖θ − Gᵀμ‖``.

    Used when a solver's duals fail :func:`qp_kkt_report` but its primal may be right.
    """
    theta = np.asarray(theta, dtype=np.float64)
    rows = _row_norms(G)
    slack = G @ theta - h
    active = np.flatnonzero(slack <= ACTIVE_TOL * np.maximum(1.0, rows * np.linalg.norm(theta)))
    mu = np.zeros(G.shape[0])
    if active.size:
        GA = G[active]
        GA = GA.toarray() if hasattr(GA, "toarray") else GA
        mu[active] = nnls(GA.T, theta, maxiter=50 * active.size)[0]
    return mu


@dataclass(frozen=True)
class KKTCertificate:
    """How far ``W/min_i q_i(W)`` is from a KKT point of (P); every residual is relative.

    Attributes
    ----------
    lam : ndarray, shape (n,)
        Multipliers ``λ ≥ 0`` (non-negative least squares) for the normalised ``W``.
    stationarity : float
        ``‖W − Σ_i λ_i ∇q_i(W)‖ / ‖W‖``.
    complementarity : float
        ``max_i λ_i (q_i − 1) / ‖W‖²`` (at a KKT point ``Σ_i λ_i = ‖W‖²``).
    feasibility : float
        ``max(0, 1 − min_i q_i)`` (0 up to rounding: ``W`` is normalised so ``min q = 1``).
    gamma : float
        Normalised margin ``γ̄ = min_i q_i(W) / ‖W‖`` (scale-free).
    n_kinks : int
        Pre-activations ``w_j·x_i`` on the kink of σ, where ``σ'(0) = α`` is a convention
        and (P)'s Clarke KKT conditions allow any slope in ``[α, 1]``.
    """

    lam: np.ndarray
    stationarity: float
    complementarity: float
    feasibility: float
    gamma: float
    n_kinks: int

    def holds(self, tol: float = KKT_TOL) -> bool:
        """Stationarity, complementarity and feasibility all ``≤ tol``."""
        return max(self.stationarity, self.complementarity, self.feasibility) <= tol


def kkt_certificate(W, X, y, *, alpha, v=1.0) -> KKTCertificate:
    """KKT residuals of (P) ``min ½‖W‖² s.t. y_i N_W(x_i) ≥ 1`` at the direction of ``W``.

    Parameters
    ----------
    W : array_like, shape (2k, d)
        First-layer weights (w rows, then u rows), any positive scale.
    X : array_like, shape (n, d)
    y : array_like, shape (n,), entries in {-1, +1}
    alpha : float
        Leaky slope, ``0 <= alpha < 1``.
    v : float, default 1.0
        Second-layer magnitude, ``v > 0``.

    Returns
    -------
    KKTCertificate

    Notes
    -----
    ``q`` is 1-homogeneous, so ``W`` is first scaled to unit norm (any norm is safe), then
    divided by ``min_i q_i`` so that ``min_i q_i = 1``.  The multipliers solve
    ``min_{λ≥0} ‖W − Σ_i λ_i ∇_W q_i(W)‖`` (``scipy.optimize.nnls``), with
    ``∇_{w_j} q_i = v y_i σ'(w_j·x_i) x_i`` and ``∇_{u_j} q_i = −v y_i σ'(u_j·x_i) x_i``
    (EQUATIONS §1, §6).  The (2k·d, n) gradient matrix is formed explicitly.

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    >>> W = np.array([[3.0, 0.0], [-3.0, 0.0]])     # k = 1: w = -u = e_1
    >>> c = kkt_certificate(W, X, y, alpha=0.5)
    >>> round(c.gamma, 6), c.stationarity < 1e-12
    (1.06066, True)
    """
    X, y = check_Xy(X, y)
    alpha = check_alpha(alpha)
    v = check_real("v", v, gt=0.0)
    W = check_array_2k(W, X.shape[1])
    k = W.shape[0] // 2
    W = W / np.linalg.norm(W)
    Z = W @ X.T                                         # (2k, n) pre-activations
    S = alpha + (1.0 - alpha) * (Z > 0)                 # σ'(Z), σ'(0) = α
    sgn = np.repeat([1.0, -1.0], k)
    q = y * (v * sgn @ (S * Z))
    if not q.min() > 0:
        raise ValueError("KKT conditions of (P) need every point correctly classified "
                         f"(min_i y_i N_W(x_i) > 0), got min margin {q.min():.3g} at unit ‖W‖")
    kinks = np.abs(Z) <= KINK_TOL * np.outer(np.linalg.norm(W, axis=1),
                                             np.linalg.norm(X, axis=1))
    gamma = float(q.min())
    W, q = W / gamma, q / gamma                          # now min_i q_i = 1
    A = v * np.einsum("j,ji,i,id->jdi", sgn, S, y, X).reshape(-1, X.shape[0])
    wnorm = np.linalg.norm(W)
    # Stationarity alone has many non-negative solutions; weigh complementarity in too
    # (rows (q_i − 1)/‖W‖ with target 0), on the same scale as the reported residuals.
    A_aug = np.vstack([A, np.diag((q - 1.0) / wnorm)])
    b_aug = np.concatenate([W.ravel(), np.zeros(len(q))])
    lam = nnls(A_aug, b_aug, maxiter=50 * X.shape[0])[0]
    return KKTCertificate(
        lam=lam,
        stationarity=float(np.linalg.norm(W.ravel() - A @ lam) / wnorm),
        complementarity=float(np.max(lam * (q - 1.0)) / wnorm**2),
        feasibility=float(max(0.0, 1.0 - q.min())),
        gamma=gamma,
        n_kinks=int(np.count_nonzero(kinks)),
    )


def check_array_2k(W, d: int) -> np.ndarray:
    """``W`` of shape ``(2k, d)``: even number of rows, matching ``d``, not all zero."""
    W = check_array("W", W, min_ndim=2)
    if W.ndim != 2:
        raise ValueError(f"`W` must be 2-D (2k, d), got shape {W.shape}")
    if W.shape[0] % 2:
        raise ValueError(f"`W` must have an even number 2k of rows (w then u neurons), "
                         f"got shape {W.shape}")
    W = check_W(W, k=W.shape[0] // 2, d=d)
    if not np.any(W):
        raise ValueError("`W` must not be all zeros (its direction is undefined)")
    return W
