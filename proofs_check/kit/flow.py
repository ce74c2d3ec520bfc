"""Shared machinery of the gradient-flow checks (``eq6``, ``thm6.1``, ``thm6.2``, ``appJ``).

* :func:`flow_pair` runs the late-phase flow (``gradient_flow(normalized=True)``: a fixed
  relative turn ``dt`` per step) and its **step-halving companion** (``dt/2``, twice the
  steps, the same total turn), batched over runs, recording directions and agreement
  patterns on a log-spaced schedule.
* :func:`nar_entry` finds ``T_NAR``: the first record from which the agreement pattern
  equals the final one with ``β > 0`` at every later record.
* :func:`late_entry`, :func:`drift`, :func:`cosine`, :func:`interior_beta` and
  :func:`limit_summary` turn a run into the plain numbers the checks record.

Everything returned is plain NumPy data (picklable: ``ctx.map`` workers return it).
"""
from __future__ import annotations


import numpy as np

import linteach as lt

from ..engine.context import Context, verdict_of
from ..engine.contract import digest
from .items import RUNS_PER_BATCH, cases_per_batch, map_cases, stack_runs

__all__ = ["DT", "RECORDS", "STEP_SCALE", "RUNS_PER_BATCH", "cases_per_batch", "steps", "DRIFT_FRACTION", "DEGENERATE_NEURON",
           "flow_pair", "one_run",
           "nar_entry", "late_entry", "drift", "cosine", "interior_beta", "par_pattern",
           "limit_summary", "lifted", "make_data", "gamma_rate", "largest_drop",
           "run_families", "family_runs", "stack_runs", "span", "control_context", "case_digests",
           "all_violated"]

#: relative turn per step of the main run (0.01 reaches the dt-floor of the direction in
#: ~10³ steps on our sizes; the companion halves it)
DT = 0.01
#: log-spaced records per run (resolves T_NAR to ~3% of the steps)
RECORDS = 120
#: late-phase steps per budget, relative to the standard count (quick still reaches the
#: direction's dt-floor: ~10³ steps at dt = 0.01)
STEP_SCALE = {"quick": 0.6, "standard": 1.0, "thorough": 2.0}
#: the drift of the direction is measured over this last fraction of the steps
DRIFT_FRACTION = 0.25
#: a neuron whose norm is below this fraction of ‖W‖ has no direction (it is 0 in the limit)
DEGENERATE_NEURON = 1e-9
def steps(standard: int, budget: str) -> int:
    """Steps of a late-phase run under ``budget`` (standard count × :data:`STEP_SCALE`)."""
    return int(round(standard * STEP_SCALE[budget]))


def one_run(net, W0, X, y, *, dt, n_steps, record=RECORDS) -> dict:
    """One batched late-phase run; per-record arrays have a leading record axis.

    Returns ``steps (n_rec,)``, ``log_time``, ``log_lsum`` (log of the summed loss),
    ``gamma_bar``, ``gamma_tilde``, ``log_norm`` (each ``(n_rec, R)``), ``directions``
    ``(n_rec, R, 2k, d)``, ``side_w``/``side_u`` ``(n_rec, R, n)`` and ``beta (n_rec, R)``.
    """
    dirs, side_w, side_u, beta = [], [], [], []

    def keep(step, W, info):
        D = info["direction"]
        dirs.append(np.array(D))
        agree = lt.agreement(D, X)
        side_w.append(agree.side_w)
        side_u.append(agree.side_u)
        beta.append(agree.beta)

    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=n_steps, normalized=True,
                           callback=keep, record=record)
    tr = run.trace
    return {"dt": dt, "n_steps": n_steps, "steps": np.asarray(tr["step"]),
            "log_time": tr["log_time"], "log_lsum": tr["log_loss"] + np.log(X.shape[-2]),
            "gamma_bar": tr["normalized_margin"], "gamma_tilde": tr["smoothed_margin"],
            "log_norm": tr["log_norm"], "directions": np.stack(dirs),
            "side_w": np.stack(side_w), "side_u": np.stack(side_u), "beta": np.stack(beta)}


def flow_pair(net, W0, X, y, *, dt=DT, n_steps, record=RECORDS) -> dict:
    """The main run (``dt``, ``n_steps``) and its companion (``dt/2``, ``2·n_steps``)."""
    return {"main": one_run(net, W0, X, y, dt=dt, n_steps=n_steps, record=record),
            "half": one_run(net, W0, X, y, dt=dt / 2, n_steps=2 * n_steps, record=record)}


def nar_entry(run: dict) -> np.ndarray:
    """Record index of ``T_NAR`` per run (``-1``: not in an NAR at the last record).

    ``T_NAR`` is the first record from which every later record is in an NAR (``β > 0``)
    with exactly the final pattern ``(c^w, c^u)``.
    """
    sw, su, beta = run["side_w"], run["side_u"], run["beta"]
    same = (np.all(sw == sw[-1], axis=-1) & np.all(su == su[-1], axis=-1) & (beta > 0))
    n_rec = same.shape[0]
    # index of the last record that is *not* in the final NAR, per run
    bad = np.where(~same, np.arange(n_rec)[:, None], -1).max(axis=0)
    return np.where(same[-1], bad + 1, -1)


def late_entry(run: dict) -> np.ndarray:
    """First record index with ``L_sum < log 2`` (Assumption 6.1) per run, ``-1`` if none."""
    late = run["log_lsum"] < np.log(np.log(2.0))
    return np.where(late.any(axis=0), np.argmax(late, axis=0), -1)


def drift(run: dict, r: int) -> float:
    """Largest ``‖Ŵ_t − Ŵ_end‖`` over the records of the last :data:`DRIFT_FRACTION` of steps."""
    steps = run["steps"]
    tail = steps >= (1.0 - DRIFT_FRACTION) * steps[-1]
    D = run["directions"][tail, r]
    return float(np.linalg.norm(D - D[-1], axis=(-2, -1)).max())


def span(values) -> list:
    """``[min, max]`` of some numbers, as floats (for measurements)."""
    values = [float(v) for v in values]
    return [min(values), max(values)]


def cosine(A, B) -> float:
    """Cosine of the angle between two weight arrays (Frobenius)."""
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    return float(np.sum(A * B) / (np.linalg.norm(A) * np.linalg.norm(B)))


def interior_beta(W, X) -> float:
    """β of the NAR that ``W`` is in, 0 if none or if a neuron vanishes (``W`` on its boundary).

    Unlike :func:`linteach.agreement`, a neuron of (relative) norm below
    :data:`DEGENERATE_NEURON` counts as having no side: such a limit is in the closure of
    every pattern of that type, i.e. on the boundary of the NAR.
    """
    W = np.asarray(W, dtype=np.float64)
    norms = np.linalg.norm(W, axis=-1)
    if norms.min() <= DEGENERATE_NEURON * np.linalg.norm(W):
        return 0.0
    agree = lt.agreement(W, X)
    return 0.0 if agree is None else float(agree.beta)


def par_pattern(y, alpha):
    """``(c^w, c^u)`` of PAR (docs/math.md §7): w on the positive side of positives, u opposite."""
    y = np.asarray(y)
    return np.where(y > 0, 1.0, alpha), np.where(y > 0, alpha, 1.0)


def lifted(w, u, k: int) -> np.ndarray:
    """The perfectly clustered ``W`` with k copies of ``w`` and of ``u``."""
    return np.vstack([np.tile(w, (k, 1)), np.tile(u, (k, 1))])


def limit_summary(pair: dict, r: int) -> dict:
    """The numbers every limit check needs about run ``r`` of a :func:`flow_pair`."""
    m, h = pair["main"], pair["half"]
    entry, entry_h = int(nar_entry(m)[r]), int(nar_entry(h)[r])
    late = int(late_entry(m)[r])
    D, Dh = m["directions"][-1, r], h["directions"][-1, r]
    same_pattern = bool(np.array_equal(m["side_w"][-1, r], h["side_w"][-1, r])
                        and np.array_equal(m["side_u"][-1, r], h["side_u"][-1, r]))
    out = {"entry": entry, "late": late, "entry_half": entry_h,
           "T_NAR_step": int(m["steps"][entry]) if entry >= 0 else -1,
           "in_nar": entry >= 0, "in_nar_half": entry_h >= 0, "same_pattern": same_pattern,
           "side_w": m["side_w"][-1, r], "side_u": m["side_u"][-1, r],
           "beta_end": float(m["beta"][-1, r]), "beta_end_half": float(h["beta"][-1, r]),
           "direction": D, "direction_half": Dh,
           "companion_gap": float(np.linalg.norm(D - Dh)),
           "drift": drift(m, r), "drift_half": drift(h, r),
           "log_norm_end": float(m["log_norm"][-1, r]),
           "log_time_end": float(m["log_time"][-1, r]),
           "log_time_end_half": float(h["log_time"][-1, r]),
           "gamma_tilde_end": float(m["gamma_tilde"][-1, r]),
           "gamma_tilde_end_half": float(h["gamma_tilde"][-1, r]),
           "radius_end": float(lt.cluster_radius(D))}
    if entry >= 0:
        De = m["directions"][entry, r]
        out.update(direction_entry=De, radius_entry=float(lt.cluster_radius(De)),
                   log_norm_entry=float(m["log_norm"][entry, r]),
                   log_time_entry=float(m["log_time"][entry, r]),
                   gamma_tilde_after_entry=m["gamma_tilde"][entry:, r],
                   gamma_tilde_after_entry_half=h["gamma_tilde"][max(entry_h, 0):, r])
    return out


def run_families(ctx, fn, counts: dict, *extra, chunk: int = 4) -> list:
    """``counts[family]`` cases per family, mapped with ``ctx.map`` over chunks.

    ``fn`` gets ``(cases, family, *extra)`` and returns one result per case; returns
    ``[(case, family, result), ...]`` in draw order.
    """
    out = []
    for family, count in counts.items():
        cases = ctx.cases(count, family)
        out += [(case, family, r)
                for case, r in zip(cases, map_cases(ctx, fn, cases, family, *extra, chunk=chunk))]
    return out


def family_runs(ctx, fn, families: dict, n_steps: int, *extra, chunk: int) -> list:
    """:func:`run_families` over ``families`` (their budget-scaled counts); items end with the
    budget-scaled ``n_steps``: ``(cases, family, *extra, steps)``."""
    counts = {family: ctx.n(spec["count"]) for family, spec in families.items()}
    return run_families(ctx, fn, counts, *extra, steps(n_steps, ctx.budget), chunk=chunk)


def control_context(ctx, clause: str) -> Context:
    """A fresh context for a negative control that must FAIL ``clause``."""
    return ctx.control_context("control", clauses=(clause,))


def all_violated(sub: Context, clause: str) -> tuple[bool, str]:
    """``(caught, verdict)``: the control FAILs and every evaluation of ``clause`` violated it."""
    verdict, worst = verdict_of(sub), sub.worst.get(clause)
    return bool(verdict == "FAIL" and worst.violations == worst.evaluated), verdict


def make_data(kind: str, rng: np.random.Generator, **kw) -> lt.Dataset:
    """The data sets of the gradient-flow families, drawn from ``rng``.

    ``symmetric`` (antipodal Gaussians), ``rescaled`` (antipodal up to a per-point positive
    factor of the negatives, log-uniform in ``[1/spread, spread]``: the cones of the two
    classes stay opposite, so Assumption 4 holds while the set is not symmetric),
    ``blobs`` (Fig. 1), ``separable`` (a ball through a linear teacher), ``outlier`` (App. J).
    """
    if kind == "symmetric":
        return lt.make_symmetric_gaussians(kw["n"], kw["d"], rng=rng, std=kw.get("std", 0.3))
    if kind == "rescaled":
        base_rng, scale_rng = rng.spawn(2)
        ds = lt.make_symmetric_gaussians(kw["n"], kw["d"], rng=base_rng, std=kw.get("std", 0.3))
        spread = np.log(kw.get("spread", 2.0))
        factor = np.where(ds.y < 0, np.exp(scale_rng.uniform(-spread, spread, ds.n)), 1.0)
        return lt.Dataset(ds.X * factor[:, None], ds.y, None, f"rescaled({ds.name})")
    if kind == "blobs":
        return lt.make_blobs_2d(kw["n"], rng=rng)
    if kind == "separable":
        return lt.make_separable(kw["n"], kw["d"], margin=kw.get("margin", 0.2), rng=rng)
    if kind == "outlier":
        return lt.make_outlier_set(kw["n"], kw["d"], rng=rng, std=kw.get("std", 0.3),
                                   outlier_margin=kw["outlier_margin"],
                                   outlier_spread=kw["outlier_spread"])
    raise ValueError(f"unknown data kind {kind!r}")


def gamma_rate(net, direction, log_norm, X, y) -> dict:
    """The sign of dγ̃/dt along ``dW/dt = −∇L`` (Eq. 6 in differential form), scale-free.

    With ``ρ = ‖W‖``, ``Gn = ∇L_sum/L_sum`` (0-homogeneous) and ``p_i = g(q_i)/L_sum``:
    ``dγ̃/dt = (L_sum/(nρ))·‖Gn‖²·s`` with
    ``s = L_sum/(1 − e^{−L_sum}) − γ̃·⟨Ŵ, −Gn⟩/‖Gn‖²`` and ``⟨Ŵ, −Gn⟩ = Σ_i p_i q̂_i``
    (homogeneity).  Computed from the direction in log space: valid at any ``‖W‖``.

    Returns ``s``, ``gamma_tilde``, ``gamma_bar``, ``log_lsum`` and ``grad_norm2`` per run.
    """
    q_hat = y * net.forward(direction, X)
    lead, rest, log_w = lt.loss.scaled_loss_terms(q_hat, log_norm)
    log_lsum = lt.loss.log_sum_loss_scaled(lead, rest, log_norm)
    gamma = lt.loss.smoothed_margin_scaled(lead, rest, log_norm)
    p = np.exp(log_w)
    grads = net.grad_output(direction, X)  # (..., n, 2k, d): ∇_W N_W(x_i) at the direction
    Gn = -np.einsum("...i,...ijk->...jk", p * y, grads)
    g2 = np.sum(Gn * Gn, axis=(-2, -1))
    inner = np.sum(p * q_hat, axis=-1)
    L = np.exp(log_lsum)
    with np.errstate(invalid="ignore", divide="ignore"):  # L → 0: the factor's limit is 1
        factor = np.where(L > 1e-8, L / -np.expm1(-np.maximum(L, 1e-300)), 1.0 + 0.5 * L)
    return {"s": factor - gamma * inner / g2, "gamma_tilde": gamma,
            "gamma_bar": q_hat.min(axis=-1), "log_lsum": log_lsum, "grad_norm2": g2}


def largest_drop(gamma, valid) -> np.ndarray:
    """Largest relative drop ``(γ̃_s − γ̃_t)/γ̃_s`` over record pairs ``s < t``, per run.

    ``gamma``, ``valid`` have shape ``(n_rec, R)``; only records with ``valid`` count (the
    late phase).  ``inf`` where a run leaves the late phase after entering it (γ̃ is not
    defined there: a break of the late phase itself).
    """
    gamma = np.where(valid, gamma, -np.inf)
    peak = np.maximum.accumulate(gamma, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        drop = np.where(valid & (peak > 0), (peak - gamma) / peak, 0.0)
    entered = np.maximum.accumulate(valid, axis=0)
    left = (entered & ~valid).any(axis=0)
    return np.where(left, np.inf, drop.max(axis=0))


def case_digests(X, W0, pair: dict, i: int, per: int) -> dict:
    """Content hashes of case ``i`` of a batch: its data, its inits and its final directions
    (runs ``i·per … (i+1)·per − 1`` of :func:`flow_pair`'s main run)."""
    return {"data": digest(X), "W0": digest(W0),
            "W": digest(pair["main"]["directions"][-1, i * per:(i + 1) * per])}

