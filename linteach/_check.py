"""Input validation at the public boundary: ``check_*`` helpers that validate *and* convert.

Messages name the argument, the rule and the value, e.g. "`eta` must be > 0, got -0.1".
``TypeError`` for wrong types, ``ValueError`` for wrong values.  Internal invariants use
``assert``; user input never does.
"""
from __future__ import annotations

import numbers
from contextlib import contextmanager

import numpy as np


def _fmt(value) -> str:
    return np.array2string(value, threshold=6) if isinstance(value, np.ndarray) else repr(value)


def check_real(name: str, value, *, gt=None, ge=None, lt=None, le=None) -> float:
    """Return ``value`` as a finite float within the given bounds."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number, got {type(value).__name__} {value!r}")
    try:
        value = float(value)
    except OverflowError:  # a Python int past float64's range, e.g. 10**400
        raise ValueError(f"`{name}` must be finite in float64, got an integer of "
                         f"{len(str(abs(int(value))))} digits") from None
    if not np.isfinite(value):
        raise ValueError(f"`{name}` must be finite, got {value!r}")
    for bound, ok, rule in ((gt, lambda b: value > b, ">"), (ge, lambda b: value >= b, ">="),
                            (lt, lambda b: value < b, "<"), (le, lambda b: value <= b, "<=")):
        if bound is not None and not ok(bound):
            raise ValueError(f"`{name}` must be {rule} {bound}, got {value!r}")
    return value


def _int_text(value: int) -> str:
    text = str(value)
    return text if len(text) <= 30 else f"an integer of {len(text.lstrip('-'))} digits"


#: the largest integer a float64 holds (integers past it cannot enter float arithmetic)
FLOAT_INT_MAX = int(np.finfo(np.float64).max)


#: the default upper bound of an integer argument: it must fit numpy's int64
INT64_MAX = int(np.iinfo(np.int64).max)


def check_int(name: str, value, *, ge=None, le=INT64_MAX) -> int:
    """Return ``value`` as an int, at least ``ge`` and at most ``le`` (default: int64's max)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer, got {type(value).__name__} "
                        f"{_fmt(value)[:60]}")
    value = int(value)
    if ge is not None and value < ge:
        raise ValueError(f"`{name}` must be >= {ge}, got {_int_text(value)}")
    if le is not None and value > le:
        raise ValueError(f"`{name}` must be <= {_int_text(le)}, got {_int_text(value)}")
    return value


def check_alpha(alpha) -> float:
    """Leaky slope: 0 <= alpha < 1 (alpha = 0 is plain ReLU, for negative controls)."""
    return check_real("alpha", alpha, ge=0.0, lt=1.0)


def check_rng(rng) -> np.random.Generator:
    """``np.random.default_rng(rng)``: a Generator is used as is (its stream continues), a
    seed (int, sequence of ints, SeedSequence, BitGenerator) gives the generator that
    ``default_rng(seed)`` gives, so the same seed gives the same result (SPEC 7)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (float, complex, str, bytes, np.floating)):
        raise TypeError("`rng` must be a seed or a numpy.random.Generator (anything "
                        f"np.random.default_rng accepts), got {type(rng).__name__} {rng!r}")
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as exc:
        raise type(exc)("`rng` must be a seed or a numpy.random.Generator (anything "
                        f"np.random.default_rng accepts), got {type(rng).__name__} "
                        f"{_fmt(rng)[:60]}: {exc}") from None


def check_array(name: str, value, *, min_ndim: int = 1, last_dim: int | None = None) -> np.ndarray:
    """Return a finite float64 array with at least ``min_ndim`` axes and no empty axis."""
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(f"`{name}` must be array-like of numbers: {exc}") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"`{name}` must hold real numbers, got dtype {arr.dtype}")
    if np.iscomplexobj(arr):
        raise TypeError(f"`{name}` must be real, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    if arr.ndim < min_ndim:
        axes = "axis" if min_ndim == 1 else "axes"
        raise ValueError(f"`{name}` must have at least {min_ndim} {axes}, got shape {arr.shape}")
    if 0 in arr.shape:
        raise ValueError(f"`{name}` must not be empty, got shape {arr.shape}")
    if last_dim is not None and arr.shape[-1] != last_dim:
        raise ValueError(f"`{name}` must have last axis of length {last_dim}, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must be finite, got {np.count_nonzero(~np.isfinite(arr))} "
                         "non-finite entries (NaN or inf)")
    return arr


def check_X(X) -> np.ndarray:
    """Inputs, shape ``(..., n, d)``."""
    return check_array("X", X, min_ndim=2)


def check_y(y, X: np.ndarray) -> np.ndarray:
    """Labels in {-1, +1}, shape ``(..., n)`` matching ``X (..., n, d)``."""
    y = check_array("y", y, min_ndim=1)
    bad = (y != 1.0) & (y != -1.0)
    if np.any(bad):
        raise ValueError(f"`y` must contain only -1 and +1, got {_fmt(np.unique(y[bad])[:5])}")
    if y.ndim >= 2 and y.shape[-1] == 1 and y.shape[-2] == X.shape[-2] != 1:
        raise ValueError(f"`y` must have shape (..., n) with n = {X.shape[-2]}, got a column "
                         f"vector of shape {y.shape}; pass y.ravel() (or y[..., 0])")
    if y.shape[-1] != X.shape[-2]:
        raise ValueError(f"`y` has {y.shape[-1]} labels but `X` has {X.shape[-2]} rows "
                         f"(y shape {y.shape}, X shape {X.shape})")
    return y


def check_W(W, *, k: int, d: int | None = None) -> np.ndarray:
    """First-layer weights, shape ``(..., 2k, d)``."""
    W = check_array("W", W, min_ndim=2)
    if W.shape[-2] != 2 * k:
        raise ValueError(f"`W` must have 2k = {2 * k} rows (w neurons then u neurons), "
                         f"got shape {W.shape}")
    if d is not None and W.shape[-1] != d:
        raise ValueError(f"`W` has input dimension {W.shape[-1]} but `X` has d = {d} "
                         f"(W shape {W.shape})")
    return W


def check_flag(name: str, value) -> bool:
    """A boolean switch: ``True``/``False`` only (a string like ``'no'`` is not False)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def check_callback(callback):
    """``None`` or a callable."""
    if callback is not None and not callable(callback):
        raise TypeError(f"`callback` must be callable or None, got {type(callback).__name__}")
    return callback


def check_batch(batch) -> tuple:
    """Run axes: an int or a sequence of ints, each >= 1."""
    items = (batch,) if isinstance(batch, numbers.Integral) else batch
    try:
        items = tuple(items)
    except TypeError:
        raise TypeError(f"`batch` must be an int or a tuple of ints, got {batch!r}") from None
    if any(isinstance(b, (bool, np.bool_)) or not isinstance(b, numbers.Integral) for b in items):
        raise TypeError(f"`batch` must be an int or a tuple of ints, got {batch!r}")
    if any(b < 1 for b in items):
        raise ValueError(f"`batch` sizes must be >= 1, got {batch!r}")
    return tuple(int(b) for b in items)


@contextmanager
def float_guard(what: str):
    """Turn float64 overflow (or an invalid operation) inside the block into a clear error.

    Finite inputs can still overflow (``W`` and ``X`` of 1e155, a step of 1e300); numpy
    would warn and return inf.  Blocks that expect overflow ignore it locally.
    """
    try:
        with np.errstate(over="raise", invalid="raise"):
            yield
    except FloatingPointError as exc:
        raise ValueError(f"{what} ({exc})") from None
