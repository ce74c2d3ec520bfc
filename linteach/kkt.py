"""Certificates in NumPy/SciPy (no cvxpy): convex-program re-checks and (P)'s KKT conditions.

* :func:`qp_kkt_report` checks an answer of ``min ½‖θ‖² s.t. Gθ ≥ h`` (every program of
  ``linteach.convex``) condition by condition; :func:`polish` turns a near-optimal answer
  into an exact KKT pair.  Residuals are relative: ``≤ tol`` means "holds" at any scale.
* :func:`kkt_certificate`: is a trained ``W`` (any scale), in direction, a KKT point of
  (P) ``min ½‖W‖² s.t. q_i(W) ≥ 1`` (docs/math.md §4, §6)?

Condition 4 of Theorem 6.2 (the Assumption 4 LP) lives in ``linteach.assumption4``.

Network conventions (docs/math.md §1): rows ``0..k-1`` of ``W (2k, d)`` are w neurons
(second layer ``+v``), rows ``k..2k-1`` u neurons (``−v``); ``σ'(z) = 1`` if ``z > 0``
else ``α``, so ``σ'(0) = α``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import nnls

from ._check import (check_alpha, check_array, check_real, check_W, check_X, check_y,
                     float_guard)
from .errors import SolverError

__all__ = ["FEAS_TOL", "KKT_TOL", "POLISH_TOL", "DIST_TOL", "KINK_TOL",
           "QPReport", "KKTCertificate", "qp_kkt_report", "polish",
           "kkt_certificate"]

#: Relative primal-feasibility tolerance: ``(h_i - G_iθ) / max(1, ‖G_i‖‖θ‖)``.
FEAS_TOL = 1e-7
#: Relative tolerance for the other KKT residuals of an unpolished solver answer.
KKT_TOL = 1e-6
#: Every residual of a polished (exactly re-solved) answer must be below this ...
POLISH_TOL = 1e-10
#: ... except ``distance`` (a square root of a duality gap, so its floor is ~1e-8).
DIST_TOL = 1e-6
#: Relative slacks under which a constraint is guessed active, tried in turn by `polish`.
ACTIVE_GUESSES = (1e-9, 1e-7, 1e-5, 1e-3)
#: ``|w_j·x_i| ≤ KINK_TOL ‖w_j‖‖x_i‖`` counts as sitting on the kink of σ.
KINK_TOL = 1e-6


def check_Xy(X, y):
    """Validate one data set: ``X`` finite 2-D ``(n, d)``, ``y`` in {-1, +1} of length n."""
    X = check_X(X)
    if X.ndim != 2:
        raise ValueError(f"`X` must be 2-D (n, d), got shape {X.shape}")
    y = check_y(y, X)
    if y.ndim != 1:
        raise ValueError(f"`y` must be 1-D (n,) here, got shape {y.shape}")
    return X, y


def _check_qp(theta, G, h, mu=False):
    """Validate ``θ (m,)``, ``G (p, m)`` (dense or scipy sparse), ``h (p,)``, ``μ (p,)``."""
    theta = check_array("theta", theta)
    if theta.ndim != 1:
        raise ValueError(f"`theta` must be 1-D (m,), got shape {theta.shape}")
    if hasattr(G, "tocsr") and hasattr(G, "shape"):  # scipy sparse
        G = G.tocsr().astype(np.float64)
        if G.ndim != 2 or not np.all(np.isfinite(G.data)):
            raise ValueError("`G` (sparse) must be 2-D with finite entries")
    else:
        G = check_array("G", G, min_ndim=2)
        if G.ndim != 2:
            raise ValueError(f"`G` must be 2-D (p, m), got shape {G.shape}")
    if G.shape[1] != theta.shape[0]:
        raise ValueError(f"`G` has {G.shape[1]} columns but `theta` has {theta.shape[0]} "
                         "entries")
    out = [theta, G]
    for name, vec in (("h", h), ("mu", mu)):
        if vec is False:  # polish takes no multipliers
            continue
        vec = check_array(name, vec)
        if vec.shape != (G.shape[0],):
            raise ValueError(f"`{name}` must have shape (p,) = ({G.shape[0]},), got {vec.shape}")
        out.append(vec)
    return out


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
    distance: float

    def ok(self, tol: float = KKT_TOL) -> bool:
        """Residuals ``≤ tol``, feasibility ``≤ min(tol, FEAS_TOL)``, distance ``≤ DIST_TOL``."""
        return (self.feasibility <= min(tol, FEAS_TOL) and self.distance <= DIST_TOL
                and max(self.dual_feasibility, self.stationarity, self.complementarity) <= tol)

    def worst(self) -> str:
        """The residuals as text, for error messages."""
        return ", ".join(f"{k}={v:.2e}" for k, v in vars(self).items())


def qp_kkt_report(theta, G, h, mu) -> QPReport:
    """Check every optimality condition of ``min ½‖θ‖² s.t. Gθ ≥ h`` by name.

    ``theta (m,)``, ``G (p, m)`` (dense or sparse), ``h (p,)`` and multipliers ``mu (p,)``;
    KKT means ``θ = Gᵀμ``, ``μ ≥ 0``, ``Gθ ≥ h``, ``μ_i (G_iθ − h_i) = 0``.  Reported:
    ``feasibility = max_i (h_i − G_iθ)⁺ / max(1, ‖G_i‖‖θ‖)``,
    ``dual_feasibility = max_i (−μ_i)⁺ ‖G_i‖ / ‖θ‖``, ``stationarity = ‖θ − Gᵀμ‖ / ‖θ‖``,
    ``complementarity = max_i |μ_i (G_iθ − h_i)| / ‖θ‖²`` (at the optimum
    ``Σ μ_i h_i = ‖θ‖²``) and ``distance = sqrt(2·gap) / ‖θ‖`` with ``gap`` the duality gap
    at ``μ⁺``: for feasible θ, strong convexity gives ``‖θ − θ*‖ ≤ sqrt(2·gap)``, a
    guarantee the other residuals do not give on degenerate problems.
    """
    theta, G, h, mu = _check_qp(theta, G, h, mu)
    norm = max(float(np.linalg.norm(theta)), np.finfo(float).tiny)
    with float_guard("the KKT residuals of `theta`, `G`, `h`, `mu` overflow float64"):
        return _report(theta, G, h, mu, norm)


def _report(theta, G, h, mu, norm):
    rows = _row_norms(G)
    slack = G @ theta - h
    r = G.T @ mu - theta
    r_plus = G.T @ np.maximum(mu, 0.0) - theta
    gap = np.maximum(mu, 0.0) @ slack + 0.5 * r_plus @ r_plus   # = f(θ) − g(μ⁺)
    return QPReport(
        feasibility=float(np.max(np.maximum(-slack, 0.0) / np.maximum(1.0, rows * norm))),
        dual_feasibility=float(np.max(np.maximum(-mu, 0.0) * rows) / norm),
        stationarity=float(np.linalg.norm(r) / norm),
        complementarity=float(np.max(np.abs(mu * slack)) / norm**2),
        distance=float(np.sqrt(2.0 * max(gap, 0.0)) / norm),
    )


def polish(theta, G, h):
    """Exact KKT pair from a near-optimal ``θ``, or ``None``.

    Guess the active set ``A`` (relative slack below each of :data:`ACTIVE_GUESSES`),
    take the least-norm ``θ`` with ``G_A θ = h_A`` and ``μ_A ≥ 0`` by NNLS on
    ``θ = G_Aᵀ μ_A``; accept the first guess whose :func:`qp_kkt_report` is within
    :data:`POLISH_TOL`.  Safe: the program is strictly convex, so an exact KKT pair is
    the unique optimum whichever guess produced it.
    """
    theta, G, h = _check_qp(theta, G, h)
    with float_guard("polishing `theta` against `G`, `h` overflows float64"):
        return _polish(theta, G, h)


def _polish(theta, G, h):
    rel = (G @ theta - h) / np.maximum(1.0, _row_norms(G) * np.linalg.norm(theta))
    for guess in ACTIVE_GUESSES:
        active = np.flatnonzero(rel <= guess)
        if not 0 < active.size <= 20 * G.shape[1]:
            continue
        GA = G[active]
        GA = GA.toarray() if hasattr(GA, "toarray") else GA
        try:
            with np.errstate(all="raise"):
                th = np.linalg.lstsq(GA, h[active], rcond=None)[0]
            mu = np.zeros(G.shape[0])
            mu[active] = nnls(GA.T, th, maxiter=50 * active.size)[0]
        except (RuntimeError, ValueError, FloatingPointError, np.linalg.LinAlgError):
            continue  # iteration cap, or this guess leaves float64: try the next one
        if qp_kkt_report(th, G, h, mu).ok(POLISH_TOL):
            return th, mu
    return None


@dataclass(frozen=True, repr=False)
class KKTCertificate:
    """How far ``W / min_i q_i(W)`` is from a KKT point of (P); residuals are relative.

    ``lam (n,)``: multipliers ``λ ≥ 0`` for the normalised ``W``;
    ``stationarity = ‖W − Σ_i λ_i ∇q_i(W)‖ / ‖W‖``;
    ``complementarity = max_i λ_i (q_i − 1) / ‖W‖²`` (at a KKT point ``Σ λ_i = ‖W‖²``);
    ``feasibility = max(0, 1 − min_i q_i)`` (0 up to rounding, by the normalisation);
    ``gamma = min_i q_i(W) / ‖W‖`` the normalised margin; ``n_kinks``: pre-activations on
    σ's kink, where ``σ'(0) = α`` is a convention and Clarke KKT allows any slope in [α, 1].
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

    def __repr__(self):
        return (f"KKTCertificate(gamma={self.gamma:.6g}, stationarity={self.stationarity:.2e}, "
                f"complementarity={self.complementarity:.2e}, feasibility={self.feasibility:.2e}, "
                f"n={self.lam.size}, n_kinks={self.n_kinks})")


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
    ``q`` is 1-homogeneous, so ``W`` is first scaled to unit norm (safe for any norm),
    then divided by ``min_i q_i`` so that ``min_i q_i = 1``.  The multipliers solve
    ``min_{λ≥0} ‖W − Σ_i λ_i ∇_W q_i(W)‖² + Σ_i (λ_i (q_i − 1) / ‖W‖)²``
    (``scipy.optimize.nnls``, allowed 50n iterations for n points, against scipy's default
    3n; past them a :class:`~linteach.errors.SolverError`; stationarity alone has many
    solutions), with
    ``∇_{w_j} q_i = v y_i σ'(w_j·x_i) x_i`` and ``∇_{u_j} q_i = −v y_i σ'(u_j·x_i) x_i``
    (docs/math.md §1, §6).  The ``(2k·d, n)`` gradient matrix is formed explicitly.

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
    W = _check_W2k(W, X.shape[1])
    k = W.shape[0] // 2
    W = W / np.abs(W).max()
    W = W / np.linalg.norm(W)                            # two steps: no overflow at any scale
    Z = W @ X.T                                         # (2k, n) pre-activations
    S = alpha + (1.0 - alpha) * (Z > 0)                 # σ'(Z), σ'(0) = α
    sgn = np.repeat([1.0, -1.0], k)
    q = y * (v * sgn @ (S * Z))
    if not q.min() > 0:
        raise ValueError("`W`: KKT conditions of (P) need every point correctly classified "
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
    try:
        lam = nnls(A_aug, np.concatenate([W.ravel(), np.zeros(len(q))]),
                   maxiter=50 * len(q))[0]
    except RuntimeError as exc:  # iteration cap
        raise SolverError(f"KKT multipliers: scipy.optimize.nnls failed ({exc})") from None
    return KKTCertificate(
        lam=lam,
        stationarity=float(np.linalg.norm(W.ravel() - A @ lam) / wnorm),
        complementarity=float(np.max(lam * (q - 1.0)) / wnorm**2),
        feasibility=float(max(0.0, 1.0 - q.min())),
        gamma=gamma,
        n_kinks=int(np.count_nonzero(kinks)),
    )


def _check_W2k(W, d: int) -> np.ndarray:
    """Validate ``W`` of shape ``(2k, d)``: 2-D, an even number of rows, matching ``d``, not all 0."""
    W = check_array("W", W, min_ndim=2)
    if W.ndim != 2 or W.shape[0] % 2:
        raise ValueError("`W` must be 2-D with an even number 2k of rows (w neurons, then u "
                         f"neurons), got shape {W.shape}")
    W = check_W(W, k=W.shape[0] // 2, d=d)
    if not np.any(W):
        raise ValueError("`W` must not be all zeros (its direction is undefined)")
    return W
