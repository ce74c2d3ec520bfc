"""Datasets: linear teachers, symmetric Gaussians, an outlier set, 2-D demos, real digits.

Conventions: ``X`` has shape ``(n, d)`` (or ``(..., n, d)`` for a stack of equal-shape
sets, one per run), labels ``y ∈ {-1, +1}`` shape ``(..., n)``.  ``Dataset.w_star``, when
known, is a **teacher in the theorem's normalisation**: ``y_i ⟨w*, x_i⟩ ≥ 1`` for every i
(docs/math.md §3), so ``1/‖w*‖`` lower-bounds the max margin.

The container and its operations (``Dataset``, ``stack``, ``augment_bias``,
``max_margin_teacher``) are in :mod:`linteach.dataset`, re-exported here.
"""
from __future__ import annotations

import numpy as np

from ._check import check_array, check_flag, check_int, check_real, check_rng, float_guard
# the container and its operations; re-exported so linteach.data.X keeps working
from .dataset import Dataset, augment_bias, max_margin_teacher, stack
from .errors import NotSeparableError, UndecidedError

__all__ = ["Dataset", "NotSeparableError", "augment_bias", "load_digit_pair", "make_blobs_2d",
           "make_outlier_set", "make_separable", "make_symmetric_gaussians",
           "max_margin_teacher", "stack", "UndecidedError"]


def _unit(v):
    """``v/‖v‖`` for any finite nonzero ``v`` (scaled first: no overflow or underflow)."""
    v = v / np.abs(v).max()
    return v / np.linalg.norm(v)


def _teacher(direction, margin):
    """``direction / margin``, the theorem-normalised teacher; refuses to overflow."""
    if not np.isfinite(1.0 / margin):
        raise ValueError(f"`margin` must be large enough for 1/margin to be finite, got {margin!r}")
    return direction / margin


def make_separable(n: int, d: int, *, margin: float, rng: np.random.Generator,
                   radius: float = 1.0) -> Dataset:
    """Points in the ball of ``radius`` labelled by a unit teacher with margin ≥ ``margin``.

    The margin holds by construction (no rejection): each point's component along the
    teacher is pushed out to at least ``margin`` and its orthogonal part shrunk to stay
    in the ball.  ``w_star = teacher / margin`` so ``y_i⟨w*, x_i⟩ ≥ 1``.

    Examples
    --------
    >>> import numpy as np, linteach as lt
    >>> ds = lt.make_separable(50, 3, margin=0.1, rng=np.random.default_rng(0))
    >>> bool(np.all(ds.y * (ds.X @ ds.w_star) >= 1 - 1e-12))
    True
    """
    n, d = check_int("n", n, ge=1), check_int("d", d, ge=1)
    radius = check_real("radius", radius, gt=0.0)
    margin = check_real("margin", margin, gt=0.0, lt=radius)
    rng = check_rng(rng)
    teacher = _unit(rng.standard_normal(d))
    Z = rng.standard_normal((n, d))
    X = Z / np.linalg.norm(Z, axis=1, keepdims=True) * radius * rng.random((n, 1)) ** (1.0 / d)
    t = X @ teacher
    y = np.where(t >= 0, 1.0, -1.0)
    t_new = y * np.maximum(np.abs(t), margin)
    perp = X - t[:, None] * teacher
    room = radius * np.sqrt(np.maximum(1.0 - (t_new / radius) ** 2, 0.0))  # no r² overflow
    perp_norm = np.hypot.reduce(perp, axis=1)  # no squaring: radii past 1e154 are valid
    shrink = np.minimum(1.0, room / np.where(perp_norm > 0, perp_norm, 1.0))
    X = t_new[:, None] * teacher + perp * shrink[:, None]
    return Dataset(X, y, _teacher(teacher, margin), f"separable(n={n}, d={d}, margin={margin:g})")


#: rejection rounds before giving up (each accepts at least half its draws in expectation)
_MAX_REJECTION_ROUNDS = 64


def _positive_gaussians(m, d, mean_norm, std, margin, rng):
    """``m`` draws of ``N(mean_norm·μ̂, std²I)`` truncated to ``μ̂·x ≥ margin``; returns (X, μ̂)."""
    mu = _unit(rng.standard_normal(d))
    X = np.empty((0, d))
    for _ in range(_MAX_REJECTION_ROUNDS):  # acceptance ≥ 1/2 since margin < mean_norm
        with float_guard(f"`std` = {std:g} times N(0, 1) draws overflows float64"):
            Z = mean_norm * mu + std * rng.standard_normal((2 * m, d))
        X = np.concatenate([X, Z[Z @ mu >= margin]])
        if len(X) >= m:
            return X[:m], mu
    raise ValueError(f"could not draw {m} points with μ̂·x ≥ margin = {margin!r} from "
                     f"N({mean_norm!r}·μ̂, {std!r}²I): `margin` is too close to `mean_norm`")


def make_symmetric_gaussians(n: int, d: int, *, rng: np.random.Generator, mean_norm: float = 1.0,
                             std: float = 0.3, margin: float = 0.05) -> Dataset:
    """Two Gaussians ``N(±mean_norm·μ̂, std²I)`` in exact antipodal pairs (Lemma 6.1).

    ``n/2`` positives are drawn (truncated to ``μ̂·x ≥ margin``, so the set is separable
    through the origin), and each is paired with ``(-x, -1)``.  ``n`` must be even.
    """
    n, d = check_int("n", n, ge=2), check_int("d", d, ge=1)
    if n % 2:
        raise ValueError(f"`n` must be even (antipodal pairs), got {n}")
    mean_norm = check_real("mean_norm", mean_norm, gt=0.0)
    std = check_real("std", std, ge=0.0)
    margin = check_real("margin", margin, gt=0.0, lt=mean_norm)
    Xp, mu = _positive_gaussians(n // 2, d, mean_norm, std, margin, check_rng(rng))
    X = np.concatenate([Xp, -Xp])
    y = np.concatenate([np.ones(n // 2), -np.ones(n // 2)])
    return Dataset(X, y, _teacher(mu, margin), f"symmetric_gaussians(n={n}, d={d})")


#: the outlier's spread may exceed its margin by at most this factor: its side of the teacher
#: is decided by a component ~1e-16·spread of rounding, which must stay far below the margin
_MAX_SPREAD_RATIO = 1e8


def make_outlier_set(n: int, d: int, *, rng: np.random.Generator, mean_norm: float = 1.0,
                     std: float = 0.3, margin: float = 0.05, outlier_margin: float = 0.1,
                     outlier_spread: float = 2.0) -> Dataset:
    """Antipodal Gaussians plus one positive outlier (App. J), ``n + 1`` points in all.

    The outlier is ``outlier_margin·μ̂ + outlier_spread·e`` with ``e ⊥ μ̂`` a random unit
    vector: still on the positive side of the teacher, but far off the class, so trained
    neurons can agree on its side (an NAR) without each classifying it (not a PAR).
    Needs ``d ≥ 2``.
    """
    d = check_int("d", d, ge=2)
    rng = check_rng(rng)
    base_rng, out_rng = rng.spawn(2)
    base = make_symmetric_gaussians(n, d, rng=base_rng, mean_norm=mean_norm, std=std,
                                    margin=margin)
    outlier_margin = check_real("outlier_margin", outlier_margin, gt=0.0)
    outlier_spread = check_real("outlier_spread", outlier_spread, ge=0.0,
                                le=_MAX_SPREAD_RATIO * outlier_margin)
    mu = _unit(base.w_star)
    e = out_rng.standard_normal(d)
    e = _unit(e - (e @ mu) * mu)
    with float_guard("`outlier_margin` and `outlier_spread` must keep the outlier's products "
                     "with the teacher finite"):
        x_out = outlier_margin * mu + outlier_spread * e
        teacher = _teacher(mu, min(margin, outlier_margin))
        on_side = (x_out @ teacher) >= 1 - 1e-9
    if not on_side:  # rounding of e ⊥ μ̂, bounded by the spread ratio
        raise ValueError(f"the outlier fell on the teacher's wrong side by rounding; reduce "
                         f"`outlier_spread`/`outlier_margin` (= {outlier_spread / outlier_margin:g})")
    return Dataset(np.vstack([base.X, x_out]), np.append(base.y, 1.0), teacher,
                   f"outlier_set(n={n}+1, d={d})")


def make_blobs_2d(n: int, *, rng: np.random.Generator, radius: float = 0.2,
                  center=(0.5, 0.0)) -> Dataset:
    """Two uniform discs of ``radius`` centred at ``±center`` (Fig. 1); ``n`` even, half each."""
    n = check_int("n", n, ge=2)
    if n % 2:
        raise ValueError(f"`n` must be even (half per disc), got {n}")
    radius = check_real("radius", radius, gt=0.0)
    c = check_array("center", center, last_dim=2)
    if c.shape != (2,):
        raise ValueError(f"`center` must have shape (2,), got {c.shape}")
    c_norm = float(np.hypot(*c))  # no squaring: a far centre keeps its norm
    if not c_norm - radius > 0:  # also refuses a radius lost in the rounding of |c|
        raise ValueError(f"`center` must lie farther than `radius` from the origin so the discs "
                         f"are separable through it, got |center| = {c_norm:g}")
    rng = check_rng(rng)
    m = n // 2
    ang = rng.uniform(0, 2 * np.pi, n)
    rad = radius * np.sqrt(rng.random(n))  # uniform in the disc
    offsets = rad[:, None] * np.column_stack([np.cos(ang), np.sin(ang)])
    with float_guard("`center` plus a disc offset overflows float64"):
        X = np.vstack([c + offsets[:m], -c + offsets[m:]])
    y = np.concatenate([np.ones(m), -np.ones(m)])
    # the unit direction along c separates with margin |c| - radius in real arithmetic; the
    # margin actually achieved by the rounded points is used if it is smaller, so that
    # y_i⟨w*, x_i⟩ ≥ 1 holds for the points as returned
    direction = _unit(c)
    with float_guard("`center` is so far out that the points' products overflow float64"):
        achieved = float(np.min(y * (X @ direction)))
    if not achieved > 0:
        raise ValueError(f"`radius` = {radius!r} is too close to |center| = {c_norm!r}: "
                         "rounding put a point on the wrong side of the origin")
    teacher = _teacher(direction, min(c_norm - radius, achieved))
    return Dataset(X, y, teacher, f"blobs_2d(n={n})")


def load_digit_pair(a: int, b: int, *, test_fraction: float = 0.25, rng: np.random.Generator,
                    bias: bool = False):
    """Real handwritten digits ``a`` (label +1) vs ``b`` (label -1), offline.

    Uses scikit-learn's bundled 8×8 digits (1797 images; MNIST cannot be fetched here).
    Images are flattened to 64 features, centred by the **training** mean, and scaled so
    the largest training row norm is 1; the test split gets the same transform.  The
    training split must be separable through the origin (checked with the max-margin SVM);
    otherwise :class:`NotSeparableError` suggests ``bias=True`` (App. K lifting).

    Returns
    -------
    (train, test) : tuple of Dataset
    """
    a, b = check_int("a", a, ge=0), check_int("b", b, ge=0)
    if a > 9 or b > 9 or a == b:
        raise ValueError(f"`a` and `b` must be two different digits 0-9, got {a} and {b}")
    test_fraction = check_real("test_fraction", test_fraction, ge=0.0, lt=1.0)
    bias = check_flag("bias", bias)
    rng = check_rng(rng)
    from sklearn.datasets import load_digits  # bundled with the package: no download

    digits = load_digits()
    keep = np.isin(digits.target, (a, b))
    X = digits.data[keep].astype(np.float64)
    y = np.where(digits.target[keep] == a, 1.0, -1.0)
    order = rng.permutation(len(y))
    n_test = int(round(test_fraction * len(y)))
    if n_test > len(y) - 2:
        raise ValueError(f"`test_fraction` must leave at least 2 training points of {len(y)}, "
                         f"got {test_fraction!r}")
    test_idx, train_idx = order[:n_test], order[n_test:]
    mean = X[train_idx].mean(axis=0)
    scale = np.linalg.norm(X[train_idx] - mean, axis=1).max()
    Xs = (X - mean) / scale
    if bias:
        Xs = augment_bias(Xs)
    name = f"digits {a} vs {b}" + (" +bias" if bias else "")
    try:
        w_star = max_margin_teacher(Xs[train_idx], y[train_idx])
    except NotSeparableError:
        raise NotSeparableError(
            f"digits {a} vs {b}: the training split is not linearly separable "
            + ("even with a bias" if bias else "through the origin; try bias=True (App. K)")
        ) from None
    train = Dataset(Xs[train_idx], y[train_idx], w_star, name + " (train)")
    test = Dataset(Xs[test_idx], y[test_idx], None, name + " (test)") if n_test else None
    return train, test
