"""Trainers: SGD exactly as Theorem 4.1 states it, full-batch GD, and gradient flow.

Calling convention (every trainer): ``trainer(net, W0, data, *, knobs..., callback=None)``
returns a :class:`Run`; ``W0`` is never mutated.  ``W0`` may carry leading run axes
``(..., 2k, d)`` and ``data`` may be shared ``(n, d)`` or stacked ``(..., n, d)``: the runs
advance together in one array program and equal the same runs done one by one.

Gradient flow ``dW/dt = -∇L(W)`` (App. A) has two Euler discretisations:

* ``normalized=False``: ``W ← W - dt ∇L(W)``; continuous time advances by ``dt``.
* ``normalized=True`` (late phase): every step turns ``W`` by a fixed relative amount,
  ``W ← W - dt ‖W‖ ∇L/‖∇L‖``, i.e. an Euler step of the same flow with the time step
  ``h = dt ‖W‖ / ‖∇L(W)‖``.  This is the angle-controlled step: the loss-normalised step
  ``h ∝ 1/L`` alone lets ``h`` grow unchecked on separable data and the direction
  freezes.  Because ``N`` is 1-homogeneous the state is carried as a unit direction and
  ``log ‖W‖``; ``∇L/L`` is evaluated in log space, so margins far past 500 (and ``‖W‖``
  past float64) stay finite.  Continuous time is accumulated in log space.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import loss as _loss
from ._check import check_int, check_real, check_rng, check_W, check_X, check_y
from .data import Dataset
from .network import Net

__all__ = ["Run", "Trace", "gd", "gradient_flow", "sgd"]

#: ``Run.W`` is materialised only while every entry fits comfortably in float64.
_MAX_LOG_NORM = 700.0


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

    @classmethod
    def from_rows(cls, rows: list[dict]) -> "Trace":
        return cls({key: np.asarray([row[key] for row in rows]) for key in rows[0]})


@dataclass
class Run:
    """A finished run.

    ``W`` holds the weights, scale included, whenever they fit in float64 (else ``None``);
    ``direction = W/‖W‖`` and ``log_norm = log ‖W‖`` are always set.  ``log_time`` is the
    log of the continuous gradient-flow time reached (``None`` for SGD).
    """

    W: np.ndarray | None
    trace: Trace
    direction: np.ndarray
    log_norm: np.ndarray
    log_time: np.ndarray | None = None


# -- shared plumbing ------------------------------------------------------------------------
def _setup(net, W0, data):
    if not isinstance(net, Net):
        raise TypeError(f"`net` must be a linteach.Net, got {type(net).__name__}")
    if isinstance(data, Dataset):
        X, y = data.X, data.y
    elif isinstance(data, tuple) and len(data) == 2:
        X = check_X(data[0])
        y = check_y(data[1], X)
    else:
        raise TypeError(f"`data` must be a Dataset or a tuple (X, y), got {type(data).__name__}")
    W = check_W(W0, k=net.k, d=X.shape[-1])
    try:
        batch = np.broadcast_shapes(W.shape[:-2], X.shape[:-2], y.shape[:-1])
    except ValueError:
        raise ValueError(f"run axes of `W0` {W.shape[:-2]} and of the data {X.shape[:-2]} "
                         "do not broadcast") from None
    # a fresh C-ordered copy (W0 is never mutated); C order also when W0 is broadcast over
    # stacked data, which would otherwise put the run axis innermost and change every
    # reduction's rounding
    W = np.array(np.broadcast_to(W, batch + W.shape[-2:]), order="C")
    return W, X, np.broadcast_to(y, batch + y.shape[-1:]), batch


def _frobenius(A):
    """``‖A‖`` over the last two axes, rounded the same for a run alone or inside a batch.

    (``np.linalg.norm(A, axis=(-2, -1))`` is not: its reduction order depends on the
    number of leading axes.)
    """
    flat = A.reshape(A.shape[:-2] + (-1,))
    return np.sqrt(np.add.reduce(flat * flat, axis=-1))


def _split(W):
    norm = _frobenius(W)
    safe = np.where(norm > 0, norm, 1.0)
    with np.errstate(divide="ignore"):
        log_norm = np.where(norm > 0, np.log(safe), -np.inf)
    return W / safe[..., None, None], log_norm


def _finish(direction, log_norm, rows, log_time=None):
    fits = np.all(log_norm < _MAX_LOG_NORM)
    W = direction * np.exp(np.where(np.isfinite(log_norm), log_norm, -np.inf))[..., None, None] \
        if fits else None
    return Run(W, Trace.from_rows(rows), direction, log_norm, log_time)


def _schedule(n_steps: int, record) -> np.ndarray:
    """Steps (0 = the initial state) at which the trace records."""
    if record == "all":
        return np.arange(n_steps + 1)
    if isinstance(record, str) and record != "log":
        raise ValueError(f"`record` must be 'log', 'all' or a positive int, got {record!r}")
    count = 200 if record == "log" else check_int("record", record, ge=1)
    steps = np.unique(np.round(np.geomspace(1, max(n_steps, 1), count)).astype(np.int64))
    return np.unique(np.concatenate([[0], steps[steps <= n_steps], [n_steps]]))


def _output(net, W, X, work):
    """``N_W(X)``: the fused forward in the step buffer ``work`` when the net is stock."""
    return net._fused_forward(W, X, work)[0] if net._fused_ok else net._forward(W, X)[0]


def _row(state, log_norm, step, log_time):
    """The flow's recorded quantities from ``Net._flow_state``, valid past float64's ‖W‖."""
    q_hat, (lead, rest, _), _ = state
    log_lsum = _loss.log_sum_loss_scaled(lead, rest, log_norm)
    with np.errstate(over="ignore"):  # min margin is honestly +inf once ‖W‖ leaves float64
        min_margin = q_hat.min(axis=-1) * np.exp(log_norm)
    with np.errstate(divide="ignore"):  # log 0 = −inf for W = 0 is the right answer
        smoothed = _loss.smoothed_margin_scaled(lead, rest, log_norm)
    return {"step": step, "log_time": np.array(log_time, dtype=float),
            "log_loss": log_lsum - np.log(q_hat.shape[-1]),
            "min_margin": min_margin,
            "normalized_margin": q_hat.min(axis=-1), "smoothed_margin": smoothed,
            "log_norm": np.array(log_norm, dtype=float)}


# -- SGD (Theorem 4.1) ----------------------------------------------------------------------
def sgd(net: Net, W0, data, *, eta: float, n_epochs: int, rng: np.random.Generator,
        eps0: float | None = None, callback=None) -> Run:
    """Batch-size-1 SGD with a constant step, epochs without replacement (Eq. 3).

    Parameters
    ----------
    net : Net
    W0 : ndarray, shape ``(..., 2k, d)``
    data : Dataset or (X, y)
    eta : float
        Step size ``η > 0``.
    n_epochs : int
        Each epoch visits a fresh permutation of the points.
    rng : numpy.random.Generator
        Draws the permutations; with run axes each run uses its own ``rng.spawn`` child.
    eps0 : float, optional
        Count per epoch the ε0-mistakes: updates whose example had loss ``≥ eps0``
        *before* the update (EQUATIONS §3).
    callback : callable, optional
        ``callback(t, W, info)`` after every update ``t = 1, 2, …``; ``W`` is read-only
        and ``info`` holds ``epoch``, ``index``, ``g`` and ``loss_before`` per run.

    Returns
    -------
    Run
        ``trace`` per epoch (entry 0 = initial state): ``epoch``, ``loss`` (mean),
        ``max_loss``, ``min_margin`` and, with ``eps0``, ``mistakes`` (0 at entry 0).

    Notes
    -----
    ``w_j ← w_j + η v g(yN(x)) σ'(w_j·x) y x`` and ``u_j ← u_j - η v g(yN(x)) σ'(u_j·x) y x``.
    """
    W, X, y, batch = _setup(net, W0, data)
    eta = check_real("eta", eta, gt=0.0)
    n_epochs = check_int("n_epochs", n_epochs, ge=0)
    rng = check_rng(rng)
    if eps0 is not None:
        eps0 = check_real("eps0", eps0, gt=0.0)
    n, R = X.shape[-2], int(np.prod(batch, dtype=np.int64))
    Wf = W.reshape((R,) + W.shape[-2:])
    Xf = np.broadcast_to(X, batch + X.shape[-2:]).reshape((R,) + X.shape[-2:])
    yf = y.reshape(R, n)
    gens = rng.spawn(R) if batch else [rng]
    runs = np.arange(R)[:, None]
    view = Wf.reshape(W.shape).view()
    view.flags.writeable = False
    one = net._fused_ok and R == 1
    step = net._sgd_stepper(Wf, eta)

    rows_work = _workspace(net, Wf, Xf)  # the epoch rows' forward pass reuses one buffer

    def epoch_row(e, mistakes):
        q = yf * _output(net, Wf, Xf, rows_work)
        losses = _loss.ell(q)
        row = {"epoch": e, "loss": losses.mean(-1).reshape(batch),
               "max_loss": losses.max(-1).reshape(batch), "min_margin": q.min(-1).reshape(batch)}
        if eps0 is not None:
            row["mistakes"] = mistakes.reshape(batch)
        return row

    rows = [epoch_row(0, np.zeros(R, dtype=np.int64))]
    t = 0
    for e in range(1, n_epochs + 1):
        perms = np.stack([gen.permutation(n) for gen in gens])
        # this epoch's examples in visiting order, gathered once: step i reads slice i
        Xp, yp = Xf[runs, perms], yf[runs, perms]  # (R, n, d), (R, n)
        ex = (eta * yp)[..., None] * Xp
        mistakes = np.zeros(R, dtype=np.int64)
        if one:  # a single stock run: plain 1-D examples, the fewest numpy calls per update
            examples = zip(Xp[0], yp[0], ex[0])
        else:
            examples = zip(Xp.transpose(1, 0, 2)[..., None], yp.T,
                           ex[:, :, None, :].transpose(1, 0, 2, 3))
        for i, (x, yy, exi) in enumerate(examples):
            q, gq = step(Wf, x, yy, exi)
            t += 1
            if eps0 is not None or callback is not None:
                loss_before = _loss.ell(q)
                if eps0 is not None:
                    mistakes += loss_before >= eps0
                if callback is not None:
                    callback(t, view, {"epoch": e, "index": perms[:, i].reshape(batch),
                                       "g": gq.reshape(batch),
                                       "loss_before": loss_before.reshape(batch)})
        rows.append(epoch_row(e, mistakes))
    direction, log_norm = _split(Wf.reshape(W.shape))
    return _finish(direction, log_norm, rows)


# -- full batch -----------------------------------------------------------------------------
def _workspace(net, W, X):
    """The ``(..., n, 2k)`` buffer the fused kernels reuse every step (``None`` if unfused)."""
    return np.empty(W.shape[:-2] + (X.shape[-2], W.shape[-2])) if net._fused_ok else None


def _euler(net, W0, data, *, step, n_steps, callback, record):
    W, X, y, batch = _setup(net, W0, data)
    n_steps = check_int("n_steps", n_steps, ge=0)
    when = set(_schedule(n_steps, record).tolist())
    rows, work = [], _workspace(net, W, X)
    for s in range(n_steps + 1):
        if s:
            G = net._loss_and_grad_into(W, X, y, work)[1] if net._fused_ok \
                else net._loss_and_grad(W, X, y)[1]  # a subclass's own, if it has one
            G *= step
            W -= G
        if s in when:
            direction, log_norm = _split(W)
            state = net._flow_state(direction, X, y, log_norm, work)
            with np.errstate(divide="ignore"):
                row = _row(state, log_norm, s, np.log(s * step) * np.ones(batch))
            rows.append(row)
            if callback is not None:
                callback(s, W, {**row, "direction": direction})
    direction, log_norm = _split(W)
    with np.errstate(divide="ignore"):
        log_time = np.log(n_steps * step) * np.ones(batch)
    return _finish(direction, log_norm, rows, log_time)


def gd(net: Net, W0, data, *, eta: float, n_steps: int, callback=None, record="log") -> Run:
    """Full-batch gradient descent ``W ← W - η ∇L(W)`` with a constant step.

    The trace (``record``: ``'log'`` ≈ 200 log-spaced steps, ``'all'``, or a count) holds
    ``step``, ``log_time``, ``log_loss`` (log of the mean loss), ``min_margin``,
    ``normalized_margin`` (γ̄), ``smoothed_margin`` (γ̃, Eq. 5) and ``log_norm``.
    ``callback(step, W, info)`` runs at every recorded step.
    """
    eta = check_real("eta", eta, gt=0.0)
    return _euler(net, W0, data, step=eta, n_steps=n_steps, callback=callback, record=record)


def gradient_flow(net: Net, W0, data, *, dt: float, n_steps: int, normalized: bool = False,
                  callback=None, record="log") -> Run:
    """Euler-discretised gradient flow ``dW/dt = -∇L(W)`` (App. A).

    Parameters
    ----------
    dt : float
        ``normalized=False``: the time step (> 0).  ``normalized=True``: the relative turn
        per step, ``‖ΔW‖ = dt ‖W‖`` with ``0 < dt ≤ 0.5`` (0.01 converges well; halve it to
        measure the discretisation error).
    n_steps : int
    normalized : bool
        The late-phase mode described in the module docstring; needs ``W0 ≠ 0``.

    Returns
    -------
    Run
        ``W`` (``None`` once ‖W‖ leaves float64), ``direction``, ``log_norm``,
        ``log_time`` (log of the continuous time reached) and the trace of :func:`gd`.
    """
    if not normalized:
        dt = check_real("dt", dt, gt=0.0)
        return _euler(net, W0, data, step=dt, n_steps=n_steps, callback=callback, record=record)
    dt = check_real("dt", dt, gt=0.0, le=0.5)
    n_steps = check_int("n_steps", n_steps, ge=0)
    W, X, y, batch = _setup(net, W0, data)
    direction, log_norm = _split(W)
    if not np.all(np.isfinite(log_norm)):
        raise ValueError("`W0` must be nonzero for normalized=True (the step is relative to ‖W‖)")
    log_n = np.log(X.shape[-2])
    log_time = np.full(batch, -np.inf)
    when = set(_schedule(n_steps, record).tolist())
    rows, work, fused = [], _workspace(net, W, X), net._fused_ok
    for s in range(n_steps + 1):
        if s:  # Gn = ∇L/L at the previous state
            log_lsum, Gn = net._flow_grad(state, X, y, log_norm) if fused \
                else net._normalized_grad(direction, X, y, log_norm)
            gnorm = _frobenius(Gn)
            moving = gnorm > 0
            safe = np.where(moving, gnorm, 1.0)
            Gn *= dt
            Gn /= safe[..., None, None]
            direction = direction - Gn  # a new array: callbacks may keep the old one
            new_norm = _frobenius(direction)
            direction /= new_norm[..., None, None]
            log_h = np.log(dt) + log_norm - (log_lsum - log_n) - np.log(safe)
            log_time = np.where(moving, np.logaddexp(log_time, log_h), log_time)
            log_norm = log_norm + np.log(new_norm)
        if s in when or (fused and s < n_steps):  # one forward: the record and next step
            state = net._flow_state(direction, X, y, log_norm, work)
        if s in when:
            row = _row(state, log_norm, s, log_time)
            rows.append(row)
            if callback is not None:
                W_now = direction * np.exp(log_norm)[..., None, None] \
                    if np.all(log_norm < _MAX_LOG_NORM) else None
                callback(s, W_now, {**row, "direction": direction})
    return _finish(direction, log_norm, rows, log_time)
