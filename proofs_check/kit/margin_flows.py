"""The flows of the smoothed-margin check (``eq6``), and the refinement of their step.

* :func:`late_phase`: the late-phase flow (``normalized=True``, a fixed turn per step) with
  every step recorded, each run's first state past Assumption 6.1 (``L_sum < log 2``) and
  rate samples (:func:`proofs_check.kit.flow.gamma_rate`) on a log-spaced schedule;
* :func:`euler_phase`: plain Euler (``normalized=False``) from given states, every step
  recorded;
* :func:`bad_step_drops`: plain Euler with steps far too large (the check's control);
* :func:`refine`: the largest drops of γ̃ of the runs whose breaks have not yet shrunk
  enough, at successively halved steps over the same total turn or time.

Runs are batched; each run's bits do not depend on its batch-mates (the engine's contract),
so neither do the runs a refinement selects.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import flow

__all__ = ["late_mask", "late_phase", "euler_phase", "bad_step_drops", "phase_drops",
           "refine"]

_LOG_LOG2 = float(np.log(np.log(2.0)))


def late_mask(log_loss, n: int) -> np.ndarray:
    """``L_sum < log 2`` from the trainers' log mean loss over ``n`` points."""
    return np.asarray(log_loss) + np.log(n) < _LOG_LOG2


def _marks(n_steps: int, points: int) -> set:
    return set(np.unique(np.geomspace(1, n_steps, points).astype(int)).tolist()) if points \
        else set()


def late_phase(net, W0, X, y, dt, n_steps, *, rate_points: int = 0):
    """``(run, entry_W, samples)``: the late-phase flow of every run of ``W0``, its first
    recorded state past Assumption 6.1 per run (``None`` if it never got there) and the rate
    samples at ``rate_points`` log-spaced steps."""
    marks, entry_W, samples = _marks(n_steps, rate_points), [None] * len(W0), []

    def keep(step, W, info):
        for r in np.flatnonzero(late_mask(info["log_loss"], X.shape[-2])):
            if entry_W[r] is None and W is not None:
                entry_W[r] = np.array(W[r])
        if step in marks:
            samples.append(flow.gamma_rate(net, info["direction"], info["log_norm"], X, y))

    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=n_steps, normalized=True,
                           callback=keep, record="all")
    return run, entry_W, samples


def euler_phase(net, W0, X, y, h, n_steps, *, rate_points: int = 0):
    """``(run, samples)``: plain Euler with time step ``h`` from ``W0``, every step recorded."""
    marks, samples = _marks(n_steps, rate_points), []

    def keep(step, W, info):
        if step in marks:
            samples.append(flow.gamma_rate(net, info["direction"], info["log_norm"], X, y))

    run = lt.gradient_flow(net, W0, (X, y), dt=h, n_steps=n_steps, callback=keep, record="all")
    return run, samples


def phase_drops(trace, n: int) -> np.ndarray:
    """The largest relative drop of γ̃ per run over the states past Assumption 6.1."""
    return flow.largest_drop(trace["smoothed_margin"], late_mask(trace["log_loss"], n))


def bad_step_drops(net, We, X, y, K: float, factor: float, count: int) -> np.ndarray:
    """Largest drop per run of plain Euler from ``We`` with the step ``factor·K·‖W‖/‖∇L‖``
    (a step that moves W by ``factor·K`` times its own norm), ``count/factor`` steps; the
    runs together, each with its own step (each equals that run alone, bit for bit)."""
    ratio = np.linalg.norm(We, axis=(-2, -1)) / np.linalg.norm(
        net.loss_and_grad(We, X, y)[1], axis=(-2, -1))
    trace = lt.gradient_flow(net, We, (X, y), dt=K * ratio * factor,
                             n_steps=int(round(count / factor)), record="all").trace
    return flow.largest_drop(trace["smoothed_margin"], late_mask(trace["log_loss"], X.shape[-2]))


def refine(drop, drop_half, slack, levels: int, drops_at) -> np.ndarray:
    """``(R, levels − 1)`` largest drops at steps ``h/4, h/8, …, h/2^levels``.

    At each level ``ℓ = 2 … levels`` the runs whose ``slack(drop, drop_half, fine)`` (the
    clause's, over the levels run so far) is still negative are run again by
    ``drops_at(runs, ℓ)`` (their largest drops at step ``h/2^ℓ``); the other entries are NaN
    (not run).  A run whose drop is NaN (never past Assumption 6.1) is never refined.
    """
    drop = np.asarray(drop, dtype=np.float64)
    fine = np.full((len(drop), levels - 1), np.nan)
    for level in range(2, levels + 1):
        with np.errstate(invalid="ignore"):
            todo = np.flatnonzero(slack(drop, drop_half, fine) < 0)
        if todo.size == 0:
            break
        fine[todo, level - 2] = drops_at(todo, level)
    return fine
