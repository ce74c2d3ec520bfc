"""What every trainer shares: the ``Run``/``Trace`` schema, input set-up, the trace schedule.

The state of a run is a unit direction and ``log ‖W‖`` (``N`` is 1-homogeneous), so every
recorded quantity stays finite past float64's range of ``‖W‖``.  Used by
``linteach.train``; not part of the public API beyond :class:`Run` and :class:`Trace`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import loss as _loss
from ._check import check_int, check_real, check_rng, check_W, check_X, check_y
from ._kernels import frobenius
from .data import Dataset
from .network import Net

#: ``Run.W`` is materialised only while every entry fits comfortably in float64.
MAX_LOG_NORM = 700.0


@dataclass
class Trace:
    """Recorded quantities: ``trace[key]`` is an array of shape ``(n_records, *batch)``."""

    data: dict = field(default_factory=dict)

    def __getitem__(self, key):
        return self.data[key]

    def __contains__(self, key):
        return key in self.data

    def keys(self):
        return self.data.keys()

    def __repr__(self) -> str:
        shapes = ", ".join(f"{k}: {np.shape(v)}" for k, v in self.data.items())
        return f"Trace({shapes})"

    @classmethod
    def from_rows(cls, rows: list[dict]) -> "Trace":
        return cls({key: np.asarray([row[key] for row in rows]) for key in rows[0]})


@dataclass
class Run:
    """A finished run of any trainer (``sgd``, ``gd``, ``gradient_flow``).

    ``W`` holds the weights, scale included, whenever they fit in float64 (else ``None``);
    ``direction = W/‖W‖`` and ``log_norm = log ‖W‖`` are always set.  ``log_time`` is the
    log of the continuous gradient-flow time reached (``None`` for SGD); for the normalized
    flow its accuracy is stated in :func:`linteach.gradient_flow`.
    """

    W: np.ndarray | None
    trace: Trace
    direction: np.ndarray
    log_norm: np.ndarray
    log_time: np.ndarray | None = None

    def __repr__(self) -> str:
        W = "None (beyond float64)" if self.W is None else f"array{self.W.shape}"
        return (f"Run(W={W}, log_norm={np.round(self.log_norm, 3)}, "
                f"records={len(next(iter(self.trace.data.values()), ()))}, "
                f"log_time={None if self.log_time is None else np.round(self.log_time, 3)})")


@dataclass
class EpochUpdates:
    """One epoch of SGD updates as ``sgd(..., on_epoch=...)`` hands them over.

    ``W[..., i, :, :]`` is the iterate after the epoch's ``i``-th update (``i = 0``: the
    epoch's start), shape ``(*batch, n + 1, 2k, d)``; ``index``, ``g`` (``g(q)`` of the
    visited example before the update) and ``loss_before`` (its loss before the update)
    have shape ``(*batch, n)``.  Update ``i`` of the epoch is update ``t0 + i`` of the
    call (``t`` of the per-update callback).  Read-only and reused by the next epoch.
    """

    epoch: int
    t0: int
    W: np.ndarray
    index: np.ndarray
    g: np.ndarray
    loss_before: np.ndarray


class EpochFiler:
    """The arrays ``sgd`` files an epoch's updates into (see :class:`EpochUpdates`)."""

    def __init__(self, Wf, n: int, batch: tuple):
        R = Wf.shape[0]
        self.n, self.batch = n, batch
        self.W = np.empty((R, n + 1) + Wf.shape[1:])
        self.W[:, 0] = Wf
        self.q, self.g = np.empty((R, n)), np.empty((R, n))

    def slots(self):
        """``(W, q, g)`` views whose slot ``i`` holds update ``i``'s value of every run: one
        run's own arrays when there is one, else the runs on the second axis."""
        if self.W.shape[0] == 1:
            return self.W[0], self.q[0], self.g[0]
        return self.W.swapaxes(0, 1), self.q.T, self.g.T

    def epoch(self, e: int, t0: int, perms) -> EpochUpdates:
        """The filed epoch, the losses before each update computed at once."""
        views = [a.reshape(self.batch + a.shape[1:]).view()
                 for a in (self.W, perms, self.g, _loss.ell(self.q))]
        for a in views:
            a.flags.writeable = False
        return EpochUpdates(e, t0, *views)

    def next_epoch(self) -> None:
        self.W[:, 0] = self.W[:, -1]


def per_run_nets(net):
    """``(net, nets)``: a Net gives ``(net, None)``; a sequence of Nets of one width gives
    ``(its first, the tuple)`` (``sgd``'s per-run α and v)."""
    if not isinstance(net, (list, tuple)):
        return net, None
    nets = tuple(net)
    if not nets or not all(isinstance(m, Net) for m in nets):
        raise TypeError("`net` must be a linteach.Net or a non-empty list or tuple of them")
    widths = sorted({m.k for m in nets})
    if len(widths) > 1:
        raise ValueError(f"the nets of `net` must share one width k, got k in {widths}")
    return nets[0], nets


def per_run_real(name: str, value, batch: tuple, **bounds):
    """A float, or (an array of the run axes' shape ``batch``) a ``(R, 1)`` float array of
    one value per flattened run; each value checked as :func:`check_real` checks it."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):  # a ragged nest of sequences
        raise ValueError(f"`{name}` must be a number or an array of the run axes' shape "
                         f"{tuple(batch)}, got a ragged {type(value).__name__}") from None
    if arr.ndim == 0:
        return check_real(name, value.item() if isinstance(value, np.ndarray) else value,
                          **bounds)
    if arr.shape != tuple(batch):
        raise ValueError(f"`{name}` must be a number or an array of the run axes' shape "
                         f"{tuple(batch)}, got shape {arr.shape}")
    flat = arr.reshape(-1)
    if flat.dtype.kind not in "iuf":
        return _checked_each(name, flat, bounds)
    values = flat.astype(np.float64)
    ok = np.isfinite(values)
    for bound, holds in (("gt", np.greater), ("ge", np.greater_equal), ("lt", np.less),
                         ("le", np.less_equal)):
        if bound in bounds:
            ok &= holds(values, bounds[bound])
    if not ok.all():  # the first bad entry, with check_real's message
        bad = int(np.argmin(ok))
        check_real(f"{name}[{bad}]", flat[bad].item(), **bounds)
    return values[:, None]


def _checked_each(name, flat, bounds):
    """:func:`per_run_real` for an array that is not numeric (bool, object): entry by entry."""
    return np.array([check_real(f"{name}[{i}]", v.item(), **bounds)
                     for i, v in enumerate(flat)], dtype=np.float64)[:, None]


def setup(net, W0, data):
    """Validated ``(W, X, y, batch)``: a fresh C-ordered ``W`` with the broadcast run axes and
    a C-ordered ``X``."""
    if not isinstance(net, Net):
        raise TypeError(f"`net` must be a linteach.Net, got {type(net).__name__}")
    if isinstance(data, Dataset):
        X, y = data.X, data.y
    elif isinstance(data, tuple) and len(data) == 2:
        X = check_X(data[0])
        y = check_y(data[1], X)
    else:
        raise TypeError(f"`data` must be a Dataset or a tuple (X, y), got {type(data).__name__}")
    # C order for X too: its layout decides which loop forms X Wᵀ (BLAS for C-ordered runs,
    # NumPy's own strided loop for e.g. a concatenation of broadcasts, whose run axis is
    # innermost), hence the last bits, so equal data must not differ in layout
    X = np.ascontiguousarray(X)
    W = check_W(W0, k=net.k, d=X.shape[-1])
    try:
        batch = np.broadcast_shapes(W.shape[:-2], X.shape[:-2], y.shape[:-1])
    except ValueError:
        raise ValueError(f"run axes of `W0` {W.shape[:-2]} and of the data (`X` "
                         f"{X.shape[:-2]}, `y` {y.shape[:-1]}) do not broadcast") from None
    # a fresh C-ordered copy (W0 is never mutated); C order also when W0 is broadcast over
    # stacked data, which would otherwise put the run axis innermost and change every
    # reduction's rounding
    W = np.array(np.broadcast_to(W, batch + W.shape[-2:]), order="C")
    return W, X, np.broadcast_to(y, batch + y.shape[-1:]), batch


def split(W):
    """``(W/‖W‖, log ‖W‖)`` per run; ``W = 0`` gives ``(0, −inf)``."""
    # scale by the largest entry first: a nonzero W of 1e-300 entries has a norm that
    # underflows when squared
    top = np.abs(W).max(axis=(-2, -1))
    top = np.where(top > 0, top, 1.0)
    norm = top * frobenius(W / top[..., None, None])
    safe = np.where(norm > 0, norm, 1.0)
    with np.errstate(divide="ignore"):
        log_norm = np.where(norm > 0, np.log(safe), -np.inf)
    return W / safe[..., None, None], log_norm


def finish(direction, log_norm, rows, log_time=None) -> Run:
    """The :class:`Run` of a finished trainer from its state and trace rows."""
    fits = np.all(log_norm < MAX_LOG_NORM)
    W = direction * np.exp(np.where(np.isfinite(log_norm), log_norm, -np.inf))[..., None, None] \
        if fits else None
    return Run(W, Trace.from_rows(rows), direction, log_norm, log_time)


def schedule(n_steps: int, record) -> np.ndarray:
    """Steps (0 = the initial state) at which the trace records."""
    if record == "all":
        return np.arange(n_steps + 1)
    if isinstance(record, str) and record != "log":
        raise ValueError(f"`record` must be 'log', 'all' or a positive int, got {record!r}")
    count = 200 if record == "log" else check_int("record", record, ge=1)
    steps = np.unique(np.round(np.geomspace(1, max(n_steps, 1), count)).astype(np.int64))
    return np.unique(np.concatenate([[0], steps[steps <= n_steps], [n_steps]]))


def flow_row(q_hat, terms, log_norm, step, log_time) -> dict:
    """One trace row of ``gd``/``gradient_flow``, valid past float64's ``‖W‖``.

    ``q_hat`` are the direction's margins and ``terms = loss.scaled_loss_terms(q_hat,
    log_norm)``.
    """
    lead, rest, _ = terms
    log_lsum = _loss.log_sum_loss_scaled(lead, rest, log_norm)
    with np.errstate(over="ignore"):  # min margin is honestly +inf once ‖W‖ leaves float64
        min_margin = q_hat.min(axis=-1) * np.exp(log_norm)
    zero = ~np.isfinite(log_norm)  # W = 0: γ̃ = −log(e^{L_sum} − 1)/0 is undefined (NaN)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        smoothed = np.where(zero, np.nan, _loss.smoothed_margin_scaled(
            lead, rest, np.where(zero, 0.0, log_norm)))
    return {"step": step, "log_time": np.array(log_time, dtype=float),
            "log_loss": log_lsum - np.log(q_hat.shape[-1]),
            "min_margin": min_margin,
            "normalized_margin": q_hat.min(axis=-1), "smoothed_margin": smoothed,
            "log_norm": np.array(log_norm, dtype=float)}


def generators(rng, R: int, batch: tuple) -> list:
    """One permutation stream per run: for a single run the generator of ``rng`` (a
    Generator itself, or ``default_rng(seed)``), for ``R`` runs its ``spawn(R)``; or a
    sequence of ``R`` Generators given by the caller (so cases drawn from their own seeds
    can share a batch and still replay alone)."""
    if isinstance(rng, (list, tuple)) and rng and all(
            isinstance(g, np.random.Generator) for g in rng):
        if len(rng) != R:
            raise ValueError(f"`rng` must be one Generator (or seed) or {R} Generators (one "
                             f"per run), got {len(rng)}")
        return list(rng)
    gen = check_rng(rng)
    return gen.spawn(R) if batch else [gen]
