"""Trainers: SGD exactly as Theorem 4.1 states it, full-batch GD, and gradient flow.

Calling convention (every trainer): ``trainer(net, W0, data, *, knobs..., callback=None,
grad=None)`` returns a :class:`~linteach.runs.Run`; ``W0`` is never mutated.  ``W0`` may
carry leading run axes ``(..., 2k, d)`` and ``data`` may be shared ``(n, d)`` or stacked
``(..., n, d)``: the runs advance together in one array program and equal the same runs
done one by one.  Every trainer evaluates the network only through the kernel of
``linteach._kernels`` (its docstring says what is bit-identical to what).

``grad`` is the seam for negative controls: a callable ``grad(G) -> G'`` (same shape)
replacing every gradient the trainer forms before it is used (``∇ℓ`` of each SGD update,
``∇L`` of each gd/flow step, ``∇L/L`` of each normalized step), e.g. ``np.zeros_like`` for a
frozen trainer.  The forward pass stays the true one.

Gradient flow ``dW/dt = -∇L(W)`` (docs/math.md §4) has two Euler discretisations:

* ``normalized=False``: ``W ← W - dt ∇L(W)``; continuous time advances by ``dt``.
* ``normalized=True`` (late phase): every step turns ``W`` by a fixed relative amount,
  ``W ← W - dt ‖W‖ ∇L/‖∇L‖``, i.e. an Euler step of the same flow with the time step
  ``h = dt ‖W‖ / ‖∇L(W)‖``.  This is the angle-controlled step: the loss-normalised step
  ``h ∝ 1/L`` alone lets ``h`` grow unchecked on separable data and the direction
  freezes.  Because ``N`` is 1-homogeneous the state is carried as a unit direction and
  ``log ‖W‖``; ``∇L/L`` is evaluated in log space, so margins far past 500 (and ``‖W‖``
  past float64) stay finite.  See :func:`gradient_flow` for how time is integrated.
"""
from __future__ import annotations

import numpy as np

from . import loss as _loss
from ._check import check_callback, check_flag, check_int, check_real, float_guard
from ._kernels import (flow_state, frobenius, grad_over_loss, kernel_for, loss_and_grad,
                       underflow_free)
from .network import Net
from .runs import (MAX_LOG_NORM, EpochFiler, EpochUpdates, Run, Trace, finish, flow_row,
                   generators, per_run_nets, per_run_real, schedule, setup, split)

__all__ = ["EpochUpdates", "Run", "Trace", "gd", "gradient_flow", "sgd"]



# -- SGD (Theorem 4.1) ----------------------------------------------------------------------
def sgd(net: Net, W0, data, *, eta: float, n_epochs: int, rng: np.random.Generator,
        eps0: float | None = None, callback=None, on_epoch=None, grad=None) -> Run:
    """Batch-size-1 SGD with a constant step, epochs without replacement (Eq. 3, docs/math.md §3).

    Parameters
    ----------
    net : Net, or a list or tuple of Nets of one width ``k``
        A sequence gives each run its own ``α`` and ``v`` (``net[r]`` for run ``r`` of the
        flattened run axes), so configurations of one shape train as one batch.
    W0 : ndarray, shape ``(..., 2k, d)``
    data : Dataset or (X, y)
    eta : float or ndarray
        Step size ``η > 0``; an array of the run axes' shape gives one per run.
    n_epochs : int
        Each epoch visits a fresh permutation of the points.
    rng : numpy.random.Generator or sequence of them
        Draws the permutations; with run axes each run uses its own ``rng.spawn`` child,
        or the i-th of a sequence of one generator per run.
    eps0 : float or ndarray, optional
        Count per epoch the ε0-mistakes: updates whose example had loss ``≥ eps0``
        *before* the update (docs/math.md §3); an array of the run axes' shape: one per run.
    callback : callable, optional
        ``callback(t, W, info)`` after every update ``t = 1, 2, …``; ``W`` is read-only
        and ``info`` holds ``epoch``, ``index``, ``g`` and ``loss_before`` per run.
        A Python call per update about doubles small problems' cost: audits use ``on_epoch``.
    on_epoch : callable, optional
        ``on_epoch(updates)`` after every epoch: an :class:`EpochUpdates` of the epoch's
        n + 1 iterates and each update's ``index``, ``g``, ``loss_before``, filed by the
        trainer (no Python call per update; the bits the callback sees), so audits of every
        update run vectorised.  Read-only and reused by the next epoch: copy what you keep.
    grad : callable, optional
        Negative controls only (module docstring): ``grad(G)`` replaces each update's
        gradient ``G`` of shape ``(R, 2k, d)`` (the runs flattened).

    Returns
    -------
    Run
        ``trace`` per epoch (entry 0 = initial state): ``epoch``, ``loss`` (mean),
        ``max_loss``, ``min_margin`` and, with ``eps0``, ``mistakes`` (0 at entry 0).

    Notes
    -----
    ``w_j ← w_j + η v g(yN(x)) σ'(w_j·x) y x`` and ``u_j ← u_j - η v g(yN(x)) σ'(u_j·x) y x``.
    """
    net, nets = per_run_nets(net)
    W, X, y, batch = setup(net, W0, data)
    R = int(np.prod(batch, dtype=np.int64))
    if nets is not None and len(nets) != R:
        raise ValueError(f"`net` must be one Net or {R} Nets (one per run), got {len(nets)}")
    eta = per_run_real("eta", eta, batch, gt=0.0)
    n_epochs = check_int("n_epochs", n_epochs, ge=0)
    callback = check_callback(callback)
    if on_epoch is not None and not callable(on_epoch):
        raise TypeError(f"`on_epoch` must be callable or None, got {type(on_epoch).__name__}")
    if eps0 is not None:
        eps0 = per_run_real("eps0", eps0, batch, gt=0.0)
    kernel = kernel_for(net if nets is None or R == 1 else nets, grad)
    gens = generators(rng, R, batch)
    with float_guard(f"SGD diverged: the weights overflow float64 (`eta` = {np.max(eta):g}; "
                     "use a smaller step)"):
        return _sgd_loop(kernel, W, X, y, batch, gens, eta=eta, n_epochs=n_epochs, eps0=eps0,
                         callback=callback, on_epoch=on_epoch)


def _sgd_loop(kernel, W, X, y, batch, gens, *, eta, n_epochs, eps0, callback, on_epoch):
    n, R = X.shape[-2], len(gens)
    Wf = W.reshape((R,) + W.shape[-2:])
    Xf = np.broadcast_to(X, batch + X.shape[-2:]).reshape((R,) + X.shape[-2:])
    yf = y.reshape(R, n)
    runs = np.arange(R)[:, None]
    view = Wf.reshape(W.shape).view()
    view.flags.writeable = False
    scratch = np.empty_like(Wf)  # the kernel forms large outer products here
    rows_work = np.empty((R, n, Wf.shape[-2]))  # the epoch rows' forward pass, reused

    def epoch_row(e, mistakes):
        q = yf * kernel.forward(Wf, Xf, rows_work)[0]
        losses = _loss.ell(q)
        row = {"epoch": e, "loss": losses.mean(-1).reshape(batch),
               "max_loss": losses.max(-1).reshape(batch), "min_margin": q.min(-1).reshape(batch)}
        if eps0 is not None:
            row["mistakes"] = mistakes.reshape(batch)
        return row

    rows = [epoch_row(0, np.zeros(R, dtype=np.int64))]
    per_update_loss = callback is not None or (eps0 is not None and on_epoch is None)
    filed = None if on_epoch is None else EpochFiler(Wf, n, batch)
    if filed is not None:  # slot i of these is update i's (the runs on the next axis)
        W_slots, q_slots, g_slots = filed.slots()
    step = eta if np.ndim(eta) == 0 else eta[..., None]  # (R, 1, 1): a Controlled update
    eps0_run = None if eps0 is None else np.ravel(eps0)  # one per run, against loss_before
    t = 0
    for e in range(1, n_epochs + 1):
        perms = np.stack([gen.permutation(n) for gen in gens])
        # this epoch's examples in visiting order, gathered once: step i reads slice i
        Xp, yp = Xf[runs, perms], yf[runs, perms]  # (R, n, d), (R, n)
        ex = (eta * yp)[..., None] * Xp  # a per-run eta is (R, 1)
        mistakes = np.zeros(R, dtype=np.int64)
        checked = not underflow_free(Wf, Xf)  # almost always: no check inside the epoch
        if R == 1:  # a single run: plain 1-D examples, the fewest numpy calls per update
            W_run, out = Wf[0], scratch[0]
            examples = zip(Xp[0], yp[0], ex[0])
        else:
            W_run, out = Wf, scratch
            examples = zip(Xp.transpose(1, 0, 2)[..., None], yp.T,
                           ex[:, :, None, :].transpose(1, 0, 2, 3))
        for i, (x, yy, exi) in enumerate(examples):
            q, gq = kernel.sgd_update(W_run, x, yy, exi, eta=step, out=out, checked=checked)
            t += 1
            if filed is not None:  # three copies into the epoch's arrays, no Python call
                W_slots[i + 1] = W_run
                q_slots[i] = q
                g_slots[i] = gq
            if per_update_loss:
                loss_before = _loss.ell(q)
                if eps0 is not None:
                    mistakes += loss_before >= eps0_run
                if callback is not None:
                    callback(t, view, {"epoch": e, "index": perms[:, i].reshape(batch),
                                       "g": np.reshape(gq, batch),
                                       "loss_before": np.reshape(loss_before, batch)})
        if filed is not None:
            updates = filed.epoch(e, t - n, perms)
            if eps0 is not None and not per_update_loss:
                mistakes = (updates.loss_before.reshape(R, n) >= eps0).sum(axis=-1)
            on_epoch(updates)
            filed.next_epoch()
        rows.append(epoch_row(e, mistakes))
    direction, log_norm = split(Wf.reshape(W.shape))
    return finish(direction, log_norm, rows)


# -- full batch -----------------------------------------------------------------------------
def _euler(net, W0, data, *, step, n_steps, callback, record, name, grad):
    W, X, y, batch = setup(net, W0, data)
    step = per_run_real(name, step, batch, gt=0.0)  # a float, or (R, 1): one per run
    n_steps = check_int("n_steps", n_steps, ge=0)
    callback = check_callback(callback)
    kernel = kernel_for(net, grad)
    if np.ndim(step):
        step = step.reshape(batch)
    with float_guard(f"the weights overflow float64 (`{name}` = {np.max(step):g}; use a "
                     "smaller step)"):
        return _euler_loop(kernel, W, X, y, batch, step=step, n_steps=n_steps,
                           callback=callback, record=record)


def _euler_loop(kernel, W, X, y, batch, *, step, n_steps, callback, record):
    when = set(schedule(n_steps, record).tolist())
    rows, work = [], np.empty(W.shape[:-2] + (X.shape[-2], W.shape[-2]))
    scale = np.asarray(step)[..., None, None]  # one step per run: the same product each
    for s in range(n_steps + 1):
        if s:
            G = loss_and_grad(kernel, W, X, y, work)[1]
            G *= scale
            W -= G
        if s in when:
            direction, log_norm = split(W)
            q_hat, terms, _ = flow_state(kernel, direction, X, y, log_norm, work)
            with np.errstate(divide="ignore"):
                row = flow_row(q_hat, terms, log_norm, s, np.log(s * step) * np.ones(batch))
            rows.append(row)
            if callback is not None:
                callback(s, W, {**row, "direction": direction})
    direction, log_norm = split(W)
    with np.errstate(divide="ignore"):
        log_time = np.log(n_steps * step) * np.ones(batch)
    return finish(direction, log_norm, rows, log_time)


def gd(net: Net, W0, data, *, eta: float, n_steps: int, callback=None, record="log",
       grad=None) -> Run:
    """Full-batch gradient descent ``W ← W - η ∇L(W)`` with a constant step (docs/math.md §4).

    ``eta`` is a float, or an array of the run axes' shape: one step per run.

    The trace (``record``: ``'log'`` ≈ 200 log-spaced steps, ``'all'``, or a count) holds
    ``step``, ``log_time``, ``log_loss`` (log of the mean loss), ``min_margin``,
    ``normalized_margin`` (γ̄), ``smoothed_margin`` (γ̃, Eq. 5) and ``log_norm``.
    ``callback(step, W, info)`` runs at every recorded step; ``grad`` as in the module
    docstring (negative controls).
    """
    return _euler(net, W0, data, step=eta, n_steps=n_steps, callback=callback, record=record,
                  name="eta", grad=grad)


def gradient_flow(net: Net, W0, data, *, dt: float, n_steps: int, normalized: bool = False,
                  callback=None, record="log", grad=None) -> Run:
    """Euler-discretised gradient flow ``dW/dt = -∇L(W)`` (docs/math.md §4).

    Parameters
    ----------
    dt : float or ndarray
        ``normalized=False``: the time step (> 0); an array of the run axes' shape gives
        one per run (the runs still advance together, each as it would alone).  ``normalized=True``: the relative turn
        per step, ``‖ΔW‖ = dt ‖W‖`` with ``0 < dt ≤ 0.5`` (0.01 converges well; halve it to
        measure the discretisation error).
    n_steps : int
    normalized : bool
        The late-phase mode described in the module docstring; needs ``W0 ≠ 0``.
    grad : callable, optional
        Negative controls only (module docstring).

    Returns
    -------
    Run
        ``W`` (``None`` once ‖W‖ leaves float64), ``direction``, ``log_norm``,
        ``log_time`` (log of the continuous time reached) and the trace of :func:`gd`.

    Notes
    -----
    Time of the normalized flow.  A step covers the arc length ``dt ‖W_s‖`` and the flow
    runs at speed ``‖∇L‖``, so it takes ``∫ dℓ/‖∇L‖``.  In the late phase ``‖∇L‖`` falls
    by a factor ``≈ e^{x}``, ``x = γ dt ‖W‖``, over one step, so the left-endpoint time
    ``dt ‖W_s‖/‖∇L(W_s)‖`` would be short by ``log((e^x − 1)/x) ≈ x/2`` in ``log t``, an
    error growing with ``‖W‖``.  Instead each step's time is the integral with
    ``log ‖∇L‖`` linear between the step's two ends (exact when ``‖∇L‖`` varies
    exponentially along the step, as it does once the direction settles):
    ``dt ‖W_s‖ (b − a)/(log b − log a)`` with ``a, b = 1/‖∇L‖`` at ``W_s, W_{s+1}``.
    Against a fine-step integrator of the exact flow (``tests/test_train.py``) the error
    in ``log t`` at a given ``‖W‖`` is then ``O(dt)`` with a constant that does not grow
    with ``‖W‖`` (the direction's own accuracy), instead of ``O(dt ‖W‖)``.
    """
    if not check_flag("normalized", normalized):
        return _euler(net, W0, data, step=dt, n_steps=n_steps, callback=callback, record=record,
                      name="dt", grad=grad)
    try:
        got = None if np.shape(dt) == () else f"an array of shape {np.shape(dt)}"
    except ValueError:
        got = "a ragged sequence"
    if got:
        raise TypeError("`dt` must be one number with normalized=True (every run turns by "
                        f"the same relative amount), got {got}")
    dt = check_real("dt", dt, gt=0.0, le=0.5)
    n_steps = check_int("n_steps", n_steps, ge=0)
    callback = check_callback(callback)
    W, X, y, batch = setup(net, W0, data)
    kernel = kernel_for(net, grad)
    direction, log_norm = split(W)
    if not np.all(np.isfinite(log_norm)):
        raise ValueError("`W0` must be nonzero for normalized=True (the step is relative to ‖W‖)")
    with float_guard("the normalized flow overflowed float64 computing ∇L/L: entries of `X` "
                     "or `W0` near 1e154 or beyond; rescale `X`"):
        return _normalized_loop(kernel, direction, log_norm, X, y, batch, dt=dt,
                                n_steps=n_steps, callback=callback, record=record)


def _log_logmean(a, b):
    """``log((e^b − e^a)/(b − a))``, the log of the logarithmic mean of ``e^a`` and ``e^b``
    (``max(a, b)`` when either is infinite: a time beyond float64 stays ``inf``)."""
    with np.errstate(invalid="ignore", divide="ignore"):  # inf − inf is dealt with below
        hi, gap = np.maximum(a, b), np.abs(b - a)
        tail = np.where(gap > 1e-8, np.log(-np.expm1(-gap) / np.where(gap > 0, gap, 1.0)),
                        -0.5 * gap)  # (1 − e^-g)/g = 1 − g/2 + O(g²)
        return np.where(np.isfinite(gap), hi + tail, hi)


def _normalized_loop(kernel, direction, log_norm, X, y, batch, *, dt, n_steps, callback, record):
    log_n = np.log(X.shape[-2])
    log_time = np.full(batch, -np.inf)
    when = set(schedule(n_steps, record).tolist())
    rows, work = [], np.empty(direction.shape[:-2] + (X.shape[-2], direction.shape[-2]))
    for s in range(n_steps + 1):
        q_hat, terms, pre = flow_state(kernel, direction, X, y, log_norm, work)
        Gn, gnorm, log_gnorm = grad_over_loss(kernel, pre, X, y, terms[2])  # ∇L/L, rescaled
        # log(1/‖∇L‖) = −log L − log ‖∇L/L‖: the time per unit of arc length here
        log_slow = (log_n - _loss.log_sum_loss_scaled(*terms[:2], log_norm, checked=False)) \
            - log_gnorm
        if s:  # the step just taken: arc length dt‖W_{s-1}‖ at a speed log-linear in between
            log_h = np.log(dt) + last_norm + _log_logmean(last_slow, log_slow)
            log_time = np.where(moving, np.logaddexp(log_time, log_h), log_time)
        if s in when:
            row = flow_row(q_hat, terms, log_norm, s, log_time)
            rows.append(row)
            if callback is not None:
                W_now = direction * np.exp(log_norm)[..., None, None] \
                    if np.all(log_norm < MAX_LOG_NORM) else None
                callback(s, W_now, {**row, "direction": direction})
        if s == n_steps:
            break
        moving = gnorm > 0  # a zero ∇L is a stationary point: the exact flow stays there too
        Gn *= dt
        Gn /= np.where(moving, gnorm, 1.0)[..., None, None]
        direction = direction - Gn  # a new array: callbacks may keep the old one
        new_norm = frobenius(direction)
        direction /= new_norm[..., None, None]
        last_norm, last_slow = log_norm, log_slow
        log_norm = log_norm + np.log(new_norm)
    return finish(direction, log_norm, rows, log_time)
