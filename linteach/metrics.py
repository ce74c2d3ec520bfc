"""Geometric measures the paper plots and its theorems speak of (docs/math.md §4–§8).

Every function takes ``W`` of shape ``(..., 2k, d)`` (rows: k w neurons, then k u
neurons) and returns one value per run; points ``X`` are ``(n, d)`` or ``(..., n, d)``.

Any scale: quantities defined by angles or ratios (the linear regime, agreement, PAR,
n_diff, angles, ``r/‖w̄ − ū‖``, ``γ̄``) are computed on ``W`` rescaled by a power of two
(exact), neuron rows and points by their own powers of two, so ``W`` and ``c·W`` give the
same answer over the whole float range (``Run.W`` up to ``e^700``, ``W`` of 1e-300, one
subnormal neuron).  Scale-covariant values (``r``, ``w̄``, ``ū``) are rescaled at the end;
where one leaves float64 the error names it.

The agreement patterns (NAR, PAR, n_diff) live in :mod:`linteach.patterns`, re-exported
here so ``linteach.metrics.agreement`` and the rest keep working; the exact rescaling
helpers shared by both modules are in ``linteach._scale``.
"""
from __future__ import annotations

import numpy as np

from . import loss as _loss
from ._check import check_real
from ._scale import (check_net, check_W, check_WX, direction, norm_nonzero, norms, pow2,
                     split_types, unit_rows, unscale)
# agreement patterns live in linteach.patterns; re-exported so linteach.metrics.X still works
from .patterns import (VANISHING, Agreement, agreement, in_par, max_n_diff,  # noqa: F401
                       par_fractions)
from .network import Net

__all__ = ["Agreement", "agreement", "cluster_radius", "fraction_outside_linear_regime",
           "in_par", "linear_regime", "max_n_diff", "max_within_type_angle", "neuron_means",
           "normalized_margin", "par_fractions", "relative_cluster_radius", "smoothed_margin",
           "split_types"]


def _mean_rows(V):
    """Mean over neurons, taken about the first row so equal rows give their value exactly."""
    first = V[..., :1, :]
    return first + (V - first).mean(axis=-2, keepdims=True)


def _means(Wd):
    w, u = split_types(Wd)
    return _mean_rows(w)[..., 0, :], _mean_rows(u)[..., 0, :]


def neuron_means(W):
    """``(w̄, ū)``, the means of each neuron type, each ``(..., d)``."""
    Wd, e = direction(check_W(W))
    w_bar, u_bar = _means(Wd)
    return unscale(w_bar, e[..., None], "w̄"), unscale(u_bar, e[..., None], "ū")


def _radius(Wd):
    w, u = split_types(Wd)
    return np.maximum(norms(w - _mean_rows(w)).max(axis=-1), norms(u - _mean_rows(u)).max(axis=-1))


def cluster_radius(W):
    """``r = max(max_j ‖w_j − w̄‖, max_j ‖u_j − ū‖)`` (Theorem 5.1); exactly 0 when clustered."""
    Wd, e = direction(check_W(W))
    return unscale(_radius(Wd), e, "the cluster radius r")


def relative_cluster_radius(W):
    """``r / ‖w̄ − ū‖`` (Fig. 7); ``inf`` when ``w̄ = ū`` (or when the ratio exceeds float64)."""
    Wd, _ = direction(check_W(W))
    w_bar, u_bar = _means(Wd)
    gap = norms(w_bar - u_bar)
    r = _radius(Wd)
    with np.errstate(over="ignore"):  # r/gap past float max is the documented inf
        return np.divide(r, gap, out=np.full_like(r, np.inf), where=gap > 0)


def max_within_type_angle(W):
    """Largest angle (radians) between two neurons of the same type (Fig. 7); zero rows ignored.

    The angle between unit vectors is ``2·atan2(‖â − b̂‖, ‖â + b̂‖)``, accurate near 0 and π
    (``arccos`` of a rounded cosine is off by ~1e-8 near 0).
    """
    def worst(V):
        Vh = unit_rows(V)
        live = np.linalg.norm(Vh, axis=-1) > 0
        a, b = Vh[..., :, None, :], Vh[..., None, :, :]
        ang = 2.0 * np.arctan2(norms(a - b), norms(a + b))
        live = live[..., :, None] & live[..., None, :]
        return np.where(live, ang, 0.0).max(axis=(-2, -1))
    w, u = split_types(W)
    return np.maximum(worst(w), worst(u))


def linear_regime(W, X, *, c: float = 2.0):
    """Mask of points in Theorem 5.1's linear regime ``|(w̄ − ū)·x| ≥ c·r‖x‖`` (``c = 2``).

    On these points ``sign N_W(x) = sign((w̄ − ū)·x)``.  Shape ``(..., n)``.  Both sides are
    1-homogeneous in ``W`` and in each ``x``: computed on power-of-two rescalings of both.
    """
    W, X = check_WX(W, X)
    c = check_real("c", c, ge=0.0)
    Wd, _ = direction(W)
    Xd = pow2(X, -1)[0]
    w_bar, u_bar = _means(Wd)
    lin = np.abs(Xd @ (w_bar - u_bar)[..., :, None])[..., 0]
    with np.errstate(over="ignore"):  # c·r past float max: no point is inside, exactly
        return lin >= c * _radius(Wd)[..., None] * norms(Xd)


def fraction_outside_linear_regime(W, X, *, c: float = 2.0):
    """Fraction of points with ``|(w̄ − ū)·x| < c·r‖x‖`` (Figs. 2, 6)."""
    return 1.0 - linear_regime(W, X, c=c).mean(axis=-1)


def normalized_margin(net: Net, W, X, y):
    """``γ̄ = min_i q_i(W) / ‖W‖`` (docs/math.md §4), on ``W``'s direction (``q`` is 1-homogeneous)."""
    net = check_net(net)
    Wd, _ = direction(check_W(W))
    q = net.margins(Wd, X, y)
    return q.min(axis=-1) / norm_nonzero(Wd)


#: ‖W‖ within 2^±400: the direct formula (as trained at ordinary scales); else the split one
_DIRECT_EXP = 400


def smoothed_margin(net: Net, W, X, y):
    """``γ̃ = −log(e^{L_sum} − 1)/‖W‖`` with the **summed** loss (Eq. 5); ≤ γ̄ once L_sum < log 2.

    Not scale-invariant (``L_sum`` depends on ``‖W‖``): past ``‖W‖ = 2^±400`` it is
    evaluated from the direction's margins and ``log ‖W‖`` (``loss.scaled_loss_terms``),
    so it stays finite and right where ``q`` itself leaves float64.
    """
    net = check_net(net)
    W = check_W(W)
    Wd, e = direction(W)
    norm_d = norm_nonzero(Wd)
    if np.all(np.abs(e) <= _DIRECT_EXP):
        q = net.margins(W, X, y)
        return _loss.smoothed_margin_from(_loss.log_sum_loss(q), np.log(np.linalg.norm(W, axis=(-2, -1))))
    q_hat = net.margins(Wd, X, y) / norm_d[..., None]
    log_norm = np.log(norm_d) + e * np.log(2.0)
    lead, rest, _ = _loss.scaled_loss_terms(q_hat, log_norm)
    out = _loss.smoothed_margin_scaled(lead, rest, log_norm)
    if not np.all(np.isfinite(out)):
        raise ValueError("the smoothed margin −log(e^{L_sum} − 1)/‖W‖ overflows float64 for "
                         f"`W` of norm e^{float(np.min(log_norm)):.4g}")
    return out
