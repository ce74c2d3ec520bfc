"""Geometric measures the paper plots and its theorems speak of (docs/math.md §4–§8).

Every function takes ``W`` of shape ``(..., 2k, d)`` (rows: k w neurons, then k u
neurons) and returns one value per run; points ``X`` are ``(n, d)`` or ``(..., n, d)``.

Any scale: quantities defined by angles or ratios (the linear regime, agreement, PAR,
n_diff, angles, ``r/‖w̄ − ū‖``, ``γ̄``) are computed on ``W`` rescaled by a power of two
(exact), neuron rows and points by their own powers of two, so ``W`` and ``c·W`` give the
same answer over the whole float range (``Run.W`` up to ``e^700``, ``W`` of 1e-300, one
subnormal neuron).  Scale-covariant values (``r``, ``w̄``, ``ū``) are rescaled at the end;
where one leaves float64 the error names it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import loss as _loss
from ._check import check_array, check_real, check_X, check_y, float_guard
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


def _net(net) -> Net:
    if not isinstance(net, Net):
        raise TypeError(f"`net` must be a linteach.Net, got {type(net).__name__}")
    return net


def _pow2(A, axes):
    """``(A·2^-e, e)``: ``A`` scaled by a power of two so its largest entry over ``axes`` is in
    [0.5, 1).  Exact (no rounding, bar entries 2^1074 below the largest), so a quantity of
    angles or ratios computed on it equals its value on ``A`` bit for bit, at any scale."""
    top = np.abs(A).max(axis=axes, keepdims=True)
    e = np.frexp(top)[1]
    return np.ldexp(A, -e), e


def _direction(W):
    """``(W·2^-e, e)`` per run (``e`` of shape ``(...)``): scale-free copy of ``W``."""
    Wd, e = _pow2(W, (-2, -1))
    return Wd, e[..., 0, 0]


def _unscale(value, e, what):
    """``value·2^e``, or a clear error when that leaves float64."""
    with float_guard(f"{what} of `W` overflows float64"):
        return np.ldexp(value, e)


def _norm_nonzero(W):
    """``‖W‖_F`` per run (of a scaled ``W``); margins divided by it are undefined at ``W = 0``."""
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


def _means(Wd):
    w, u = split_types(Wd)
    return _mean_rows(w)[..., 0, :], _mean_rows(u)[..., 0, :]


def neuron_means(W):
    """``(w̄, ū)``, the means of each neuron type, each ``(..., d)``."""
    Wd, e = _direction(_W(W))
    w_bar, u_bar = _means(Wd)
    return _unscale(w_bar, e[..., None], "w̄"), _unscale(u_bar, e[..., None], "ū")


def _radius(Wd):
    w, u = split_types(Wd)
    return np.maximum(_norms(w - _mean_rows(w)).max(axis=-1), _norms(u - _mean_rows(u)).max(axis=-1))


def cluster_radius(W):
    """``r = max(max_j ‖w_j − w̄‖, max_j ‖u_j − ū‖)`` (Theorem 5.1); exactly 0 when clustered."""
    Wd, e = _direction(_W(W))
    return _unscale(_radius(Wd), e, "the cluster radius r")


def relative_cluster_radius(W):
    """``r / ‖w̄ − ū‖`` (Fig. 7); ``inf`` when ``w̄ = ū`` (or when the ratio exceeds float64)."""
    Wd, _ = _direction(_W(W))
    w_bar, u_bar = _means(Wd)
    gap = _norms(w_bar - u_bar)
    r = _radius(Wd)
    with np.errstate(over="ignore"):  # r/gap past float max is the documented inf
        return np.divide(r, gap, out=np.full_like(r, np.inf), where=gap > 0)


def _unit_rows(V):
    """Rows of ``V`` divided by their norms (0 rows stay 0), each row first brought to
    [0.5, 1) by its own power of two, so no row underflows or overflows."""
    Vd = _pow2(V, -1)[0]
    norms = np.linalg.norm(Vd, axis=-1, keepdims=True)
    return np.divide(Vd, norms, out=np.zeros_like(Vd), where=norms > 0)


def max_within_type_angle(W):
    """Largest angle (radians) between two neurons of the same type (Fig. 7); zero rows ignored.

    The angle between unit vectors is ``2·atan2(‖â − b̂‖, ‖â + b̂‖)``, accurate near 0 and π
    (``arccos`` of a rounded cosine is off by ~1e-8 near 0).
    """
    def worst(V):
        Vh = _unit_rows(V)
        live = np.linalg.norm(Vh, axis=-1) > 0
        a, b = Vh[..., :, None, :], Vh[..., None, :, :]
        ang = 2.0 * np.arctan2(_norms(a - b), _norms(a + b))
        live = live[..., :, None] & live[..., None, :]
        return np.where(live, ang, 0.0).max(axis=(-2, -1))
    w, u = split_types(W)
    return np.maximum(worst(w), worst(u))


def linear_regime(W, X, *, c: float = 2.0):
    """Mask of points in Theorem 5.1's linear regime ``|(w̄ − ū)·x| ≥ c·r‖x‖`` (``c = 2``).

    On these points ``sign N_W(x) = sign((w̄ − ū)·x)``.  Shape ``(..., n)``.  Both sides are
    1-homogeneous in ``W`` and in each ``x``: computed on power-of-two rescalings of both.
    """
    W, X = _WX(W, X)
    c = check_real("c", c, ge=0.0)
    Wd, _ = _direction(W)
    Xd = _pow2(X, -1)[0]
    w_bar, u_bar = _means(Wd)
    lin = np.abs(Xd @ (w_bar - u_bar)[..., :, None])[..., 0]
    with np.errstate(over="ignore"):  # c·r past float max: no point is inside, exactly
        return lin >= c * _radius(Wd)[..., None] * _norms(Xd)


def fraction_outside_linear_regime(W, X, *, c: float = 2.0):
    """Fraction of points with ``|(w̄ − ū)·x| < c·r‖x‖`` (Figs. 2, 6)."""
    return 1.0 - linear_regime(W, X, c=c).mean(axis=-1)


def normalized_margin(net: Net, W, X, y):
    """``γ̄ = min_i q_i(W) / ‖W‖`` (docs/math.md §4), on ``W``'s direction (``q`` is 1-homogeneous)."""
    net = _net(net)
    Wd, _ = _direction(_W(W))
    q = net.margins(Wd, X, y)
    return q.min(axis=-1) / _norm_nonzero(Wd)


#: ‖W‖ within 2^±400: the direct formula (as trained at ordinary scales); else the split one
_DIRECT_EXP = 400


def smoothed_margin(net: Net, W, X, y):
    """``γ̃ = −log(e^{L_sum} − 1)/‖W‖`` with the **summed** loss (Eq. 5); ≤ γ̄ once L_sum < log 2.

    Not scale-invariant (``L_sum`` depends on ``‖W‖``): past ``‖W‖ = 2^±400`` it is
    evaluated from the direction's margins and ``log ‖W‖`` (``loss.scaled_loss_terms``),
    so it stays finite and right where ``q`` itself leaves float64.
    """
    net = _net(net)
    W = _W(W)
    Wd, e = _direction(W)
    norm_d = _norm_nonzero(Wd)
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


@dataclass(frozen=True, repr=False)
class Agreement:
    """A neural agreement pattern (docs/math.md §6) of each run.

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

    def __repr__(self):
        runs = self.beta.shape
        if runs:
            return (f"Agreement(runs={runs}, n={self.side_w.shape[-1]}, "
                    f"in_nar={int(np.count_nonzero(self.in_nar))}/{self.beta.size})")
        return f"Agreement(n={self.side_w.shape[-1]}, beta={float(self.beta):.3g})"


#: a neuron shorter than this fraction of ‖W‖ has no direction, hence no side of any point
VANISHING = 1e-9


def _products(Vh, X, what):
    with float_guard(f"{what}: unit neurons times `X` overflow float64"):
        return Vh @ np.swapaxes(X, -1, -2)


def agreement(W, X):
    """The NAR that ``W`` is in, with its β; ``None`` (unbatched) if it is in none.

    With run axes, returns an :class:`Agreement` whose ``beta`` is 0 for runs in no NAR.
    A neuron of norm ``≤ VANISHING·‖W‖`` has no direction: its type agrees on no point.
    """
    W, X = _WX(W, X)
    W = _direction(W)[0]
    W_norm = _norms(W.reshape(W.shape[:-2] + (-1,)))[..., None]
    sides, betas = [], []
    for V in split_types(W):
        P = _products(_unit_rows(V), X, "agreement")  # (..., k, n): ŵ_l · x_i
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
    yb = y[..., None, :]
    return (yb * _products(_unit_rows(w), X, "PAR margins"),
            -yb * _products(_unit_rows(u), X, "PAR margins"))


def in_par(W, X, y, *, beta: float = 0.0):
    """Whether ``W`` is in PAR(β): ``y_i ŵ_l·x_i ≥ β`` and ``−y_i û_l·x_i ≥ β`` for all i, l.

    ``beta = 0`` (the default) asks whether ``W`` is in PAR(β) for **some** β > 0, i.e.
    every margin is ``> 0`` (docs/math.md §7: PAR is an NAR, whose β is positive).
    """
    beta = check_real("beta", beta, ge=0.0)
    mw, mu = _par_margins(W, X, y)
    worst = np.minimum(mw.min(axis=(-2, -1)), mu.min(axis=(-2, -1)))
    return worst > 0 if beta == 0 else worst >= beta


def par_fractions(W, X, y):
    """Fractions of w neurons and of u neurons that are in PAR on their own (Figs. 8, 9)."""
    mw, mu = _par_margins(W, X, y)
    return (mw.min(axis=-1) > 0).mean(axis=-1), (mu.min(axis=-1) > 0).mean(axis=-1)


def max_n_diff(W, X):
    """``max n_diff`` per type: most points on which two same-type neurons disagree in sign.

    Returns ``(w_max, u_max)``, integer arrays of shape ``(...)``.  Signs are taken on
    neurons and points each rescaled by a power of two (exact), so no product underflows.
    """
    W, X = _WX(W, X)
    Xt = np.swapaxes(_pow2(X, -1)[0], -1, -2)
    out = []
    for V in split_types(W):
        S = (_pow2(V, -1)[0] @ Xt > 0).astype(np.float64)  # (..., k, n)
        # disagreements between rows a and b: S_a·(1−S_b) + (1−S_a)·S_b
        D = S @ np.swapaxes(1 - S, -1, -2)
        out.append(np.rint((D + np.swapaxes(D, -1, -2)).max(axis=(-2, -1))).astype(np.int64))
    return out[0], out[1]
