"""The dataset container: points, labels and an optional teacher, validated once.

``X`` has shape ``(n, d)`` (or ``(..., n, d)`` for a stack of equal-shape sets, one per
run), labels ``y ∈ {-1, +1}`` shape ``(..., n)``.  ``Dataset.w_star``, when known, is a
**teacher in the theorem's normalisation**: ``y_i ⟨w*, x_i⟩ ≥ 1`` for every i
(docs/math.md §3).  Also the operations on datasets: stacking runs, lifting by a bias, the
max-margin teacher.  The generators are in :mod:`linteach.data`, which re-exports all of it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._check import check_array, check_X, check_y

__all__ = ["Dataset", "augment_bias", "max_margin_teacher", "stack"]


def _frozen(arr: np.ndarray) -> np.ndarray:
    """A read-only copy owned by the Dataset (the caller's array is never kept)."""
    out = np.array(arr, dtype=np.float64, copy=True)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, repr=False)
class Dataset:
    """Points ``X (..., n, d)``, labels ``y (..., n)``, optional teacher ``w_star (..., d)``.

    The arrays are validated once and **copied** into read-only arrays of the Dataset's
    own: changing the caller's arrays afterwards changes nothing here, and writing into
    ``ds.X`` raises (a label set to 0 or a NaN written after validation cannot slip in).
    """

    X: np.ndarray
    y: np.ndarray
    w_star: np.ndarray | None = None
    name: str = ""

    def __post_init__(self):
        X = _frozen(check_X(self.X))
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", _frozen(check_y(self.y, X)))
        if not isinstance(self.name, str):
            raise TypeError(f"`name` must be a str, got {type(self.name).__name__}")
        if self.w_star is not None:
            w_star = check_array("w_star", self.w_star, last_dim=X.shape[-1])
            if w_star.shape != X.shape[:-2] + X.shape[-1:]:
                raise ValueError(f"`w_star` must have shape {X.shape[:-2] + X.shape[-1:]} "
                                 f"(X's run axes, then d), got {w_star.shape}")
            object.__setattr__(self, "w_star", _frozen(w_star))

    def __repr__(self):
        runs = f", runs={self.X.shape[:-2]}" if self.X.ndim > 2 else ""
        teacher = "none" if self.w_star is None else "given"
        return f"Dataset({self.name!r}, n={self.n}, d={self.d}{runs}, w_star={teacher})"

    @property
    def n(self) -> int:
        return self.X.shape[-2]

    @property
    def d(self) -> int:
        return self.X.shape[-1]

    @property
    def R_x(self):
        """``max_i ‖x_i‖`` (per stacked set); no squaring, so points past 1e154 are fine."""
        return np.hypot.reduce(self.X, axis=-1).max(axis=-1)


def stack(datasets) -> Dataset:
    """Stack equal-shape datasets into one with a leading run axis (for batched training)."""
    if isinstance(datasets, Dataset) or not hasattr(datasets, "__iter__"):
        raise TypeError("`datasets` must be an iterable of linteach.Dataset objects, got "
                        f"{type(datasets).__name__}")
    datasets = list(datasets)
    if not datasets:
        raise ValueError("`datasets` must not be empty")
    bad = [type(ds).__name__ for ds in datasets if not isinstance(ds, Dataset)]
    if bad:
        raise TypeError(f"`datasets` must hold linteach.Dataset objects, got {bad[0]}")
    shapes = {ds.X.shape for ds in datasets}
    if len(shapes) != 1:
        raise ValueError(f"`datasets` must share one X shape to stack, got {sorted(shapes)}")
    teachers = [ds.w_star for ds in datasets]
    w_star = None if any(t is None for t in teachers) else np.stack(teachers)
    return Dataset(np.stack([ds.X for ds in datasets]), np.stack([ds.y for ds in datasets]),
                   w_star, datasets[0].name)


def augment_bias(data):
    """Append a constant 1 to every point (App. K): ``x' = (x, 1)``.

    Accepts a ``Dataset`` (its teacher is dropped: the lifted teacher needs a bias) or an
    array ``X (..., n, d)``; returns the same kind with ``d + 1`` columns.
    """
    if isinstance(data, Dataset):
        return Dataset(augment_bias(data.X), data.y, None, f"{data.name}+bias")
    X = check_X(data)
    return np.concatenate([X, np.ones(X.shape[:-1] + (1,))], axis=-1)


def max_margin_teacher(X, y) -> np.ndarray:
    """The tightest teacher: ``argmin ‖w‖ s.t. y_i w·x_i ≥ 1`` (hard-margin SVM, no bias).

    ``‖w*‖ = 1/γ`` with ``γ`` the max margin.  Raises :class:`NotSeparableError` when the
    data are not separable through the origin.  Solved by ``linteach.convex`` (cvxpy,
    imported only now).
    """
    from .convex import max_margin_teacher as _solve

    X = check_X(X)
    if X.ndim != 2:
        raise ValueError(f"`X` must be 2-D (n, d) here, got shape {X.shape}")
    return _solve(X, check_y(y, X))
