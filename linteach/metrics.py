"""Geometric measures the paper plots and its theorems speak of (EQUATIONS §4–§8).

Every function takes ``W`` of shape ``(..., 2k, d)`` (rows: k w neurons, then k u
neurons) and returns one value per run; points ``X`` are ``(n, d)`` or ``(..., n, d)``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import loss as _loss
from ._check import check_array, check_real, check_X, check_y
from .network import Net

__all__ = ["Agreement", "agreement", "cluster_radius", "fraction_outside_linear_regime",
           "in_par", "linear_regime", "max_n_diff", "max_within_type_angle", "neuron_means",
           "normalized_margin", "par_fractions", "relative_cluster_radius", "smoothed_margin",
           "split_types"]


def _W(W) -> np.ndarray:
    W = check_array("W", W, min_ndim=2)
    if W.shape[-2] % 2:
        raise ValueError(f"`W` must have shape (..., 2k, d) with k >= 1, got {W.shape}")
    return W


def _norm_nonzero(W):
    """``‖W‖_F`` per run; margins divided by it are undefined at ``W = 0``."""
    norm = np.linalg.norm(W, axis=(-2, -1))
    if np.any(norm == 0):
        raise ValueError("`W` must be nonzero: normalised margins of W = 0 are undefined")
    return norm


def _WX(W, X):
    W, X = _W(W), check_X(X)
    if W.shape[-1] != X.shape[-1]:
        raise ValueError(f"`W` has input dimension {W.shape[-1]} but `X` has d = {X.shape[-1]}")
    return W, X


def _norms(A, axis=-1):
    """Euclidean norms along ``axis`` without squaring entries (no overflow past 1e154)."""
    return np.hypot.reduce(A, axis=axis)


def split_types(W):
    """The w neurons and the u neurons, each ``(..., k, d)``."""
    W = _W(W)
    k = W.shape[-2] // 2
    return W[..., :k, :], W[..., k:, :]


def _mean_rows(V):
    """Mean over neurons, taken about the first row so equal rows give their value exactly."""
    first = V[..., :1, :]
    return first + (V - first).mean(axis=-2, keepdims=True)


def neuron_means(W):
    """``(w̄, ū)``, the means of each neuron type, each ``(..., d)``."""
    w, u = split_types(W)
    return _mean_rows(w)[..., 0, :], _mean_rows(u)[..., 0, :]


def cluster_radius(W):
    """``r = max(max_j ‖w_j − w̄‖, max_j ‖u_j − ū‖)`` (Theorem 5.1); exactly 0 when clustered."""
    w, u = split_types(W)
    dw = _norms(w - _mean_rows(w)).max(axis=-1)
    du = _norms(u - _mean_rows(u)).max(axis=-1)
    return np.maximum(dw, du)


def relative_cluster_radius(W):
    """``r / ‖w̄ − ū‖`` (Fig. 7); ``inf`` when ``w̄ = ū``."""
    w_bar, u_bar = neuron_means(W)
    gap = np.linalg.norm(w_bar - u_bar, axis=-1)
    r = cluster_radius(W)
    return np.divide(r, gap, out=np.full_like(r, np.inf), where=gap > 0)


def max_within_type_angle(W):
    """Largest angle (radians) between two neurons of the same type (Fig. 7); zero rows ignored."""
    def worst(V):
        norms = np.linalg.norm(V, axis=-1, keepdims=True)
        Vh = np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)
        cos = np.clip(Vh @ np.swapaxes(Vh, -1, -2), -1.0, 1.0)
        live = (norms > 0) & (np.swapaxes(norms, -1, -2) > 0)
        return np.where(live, np.arccos(cos), 0.0).max(axis=(-2, -1))
    w, u = split_types(W)
    return np.maximum(worst(w), worst(u))


def linear_regime(W, X, *, c: float = 2.0):
    """Mask of points in Theorem 5.1's linear regime ``|(w̄ − ū)·x| ≥ c·r‖x‖`` (``c = 2``).

    On these points ``sign N_W(x) = sign((w̄ − ū)·x)``.  Shape ``(..., n)``.
    """
    W, X = _WX(W, X)
    c = check_real("c", c, ge=0.0)
    w_bar, u_bar = neuron_means(W)
    lin = np.abs(X @ (w_bar - u_bar)[..., :, None])[..., 0]
    return lin >= c * cluster_radius(W)[..., None] * _norms(X)


def fraction_outside_linear_regime(W, X, *, c: float = 2.0):
    """Fraction of points with ``|(w̄ − ū)·x| < c·r‖x‖`` (Figs. 2, 6)."""
    return 1.0 - linear_regime(W, X, c=c).mean(axis=-1)


def normalized_margin(net: Net, W, X, y):
    """``γ̄ = min_i q_i(W) / ‖W‖`` (EQUATIONS §4)."""
    q = net.margins(W, X, y)
    return q.min(axis=-1) / _norm_nonzero(_W(W))


def smoothed_margin(net: Net, W, X, y):
    """``γ̃ = −log(e^{L_sum} − 1)/‖W‖`` with the **summed** loss (Eq. 5); ≤ γ̄ once L_sum < log 2."""
    q = net.margins(W, X, y)
    log_norm = np.log(_norm_nonzero(_W(W)))
    return _loss.smoothed_margin_from(_loss.log_sum_loss(q), log_norm)


@dataclass(frozen=True)
class Agreement:
    """A neural agreement pattern (EQUATIONS §6) of each run.

    ``side_w[..., i] = +1`` when every w neuron has ``ŵ·x_i ≥ β`` (``c^w_i = 1``) and
    ``-1`` when every one has ``ŵ·x_i ≤ −β`` (``c^w_i = α``); likewise ``side_u``.
    ``beta`` is the largest such β (0 where the run is in no NAR).
    """

    side_w: np.ndarray
    side_u: np.ndarray
    beta: np.ndarray

    @property
    def in_nar(self):
        return self.beta > 0

    def c(self, alpha: float):
        """``(c^w, c^u)`` with entries in ``{α, 1}``."""
        return np.where(self.side_w > 0, 1.0, alpha), np.where(self.side_u > 0, 1.0, alpha)


def _unit_rows(V):
    norms = np.linalg.norm(V, axis=-1, keepdims=True)
    return np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)


#: a neuron shorter than this fraction of ‖W‖ has no direction, hence no side of any point
VANISHING = 1e-9


def agreement(W, X):
    """The NAR that ``W`` is in, with its β; ``None`` (unbatched) if it is in none.

    With run axes, returns an :class:`Agreement` whose ``beta`` is 0 for runs in no NAR.
    A neuron of norm ``≤ VANISHING·‖W‖`` has no direction: its type agrees on no point.
    """
    W, X = _WX(W, X)
    W_norm = _norms(W.reshape(W.shape[:-2] + (-1,)))[..., None]
    sides, betas = [], []
    for V in split_types(W):
        P = _unit_rows(V) @ np.swapaxes(X, -1, -2)  # (..., k, n): ŵ_l · x_i
        live = (_norms(V) > VANISHING * W_norm).all(axis=-1)[..., None]
        side = np.where(P.min(axis=-2) > 0, 1, np.where(P.max(axis=-2) < 0, -1, 0))
        side = np.where(live, side, 0)
        sides.append(side.astype(np.int8))
        betas.append(np.where(side != 0, np.abs(P).min(axis=-2), 0.0).min(axis=-1))
    beta = np.where((sides[0] != 0).all(-1) & (sides[1] != 0).all(-1),
                    np.minimum(*betas), 0.0)
    result = Agreement(sides[0], sides[1], beta)
    if beta.ndim == 0 and not beta > 0:
        return None
    return result


def _par_margins(W, X, y):
    """``y_i ŵ_l·x_i`` and ``−y_i û_l·x_i``, each ``(..., k, n)``."""
    W, X = _WX(W, X)
    y = check_y(y, X)
    w, u = split_types(W)
    Xt = np.swapaxes(X, -1, -2)
    yb = y[..., None, :]
    return yb * (_unit_rows(w) @ Xt), -yb * (_unit_rows(u) @ Xt)


def in_par(W, X, y, *, beta: float = 0.0):
    """Whether ``W`` is in PAR(β): ``y_i ŵ_l·x_i > β`` and ``−y_i û_l·x_i > β`` for all i, l."""
    beta = check_real("beta", beta, ge=0.0)
    mw, mu = _par_margins(W, X, y)
    return (mw.min(axis=(-2, -1)) > beta) & (mu.min(axis=(-2, -1)) > beta)


def par_fractions(W, X, y):
    """Fractions of w neurons and of u neurons that are in PAR on their own (Figs. 8, 9)."""
    mw, mu = _par_margins(W, X, y)
    return (mw.min(axis=-1) > 0).mean(axis=-1), (mu.min(axis=-1) > 0).mean(axis=-1)


def max_n_diff(W, X):
    """``max n_diff`` per type: most points on which two same-type neurons disagree in sign.

    Returns ``(w_max, u_max)``, integer arrays of shape ``(...)``.
    """
    W, X = _WX(W, X)
    out = []
    for V in split_types(W):
        S = (V @ np.swapaxes(X, -1, -2) > 0).astype(np.float64)  # (..., k, n)
        # disagreements between rows a and b: S_a·(1−S_b) + (1−S_a)·S_b
        D = S @ np.swapaxes(1 - S, -1, -2)
        out.append(np.rint((D + np.swapaxes(D, -1, -2)).max(axis=(-2, -1))).astype(np.int64))
    return out[0], out[1]
