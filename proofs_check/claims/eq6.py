"""Eq. 6 (``eq6``): past Assumption 6.1 the smoothed margin γ̃ is ≤ γ̄ and non-decreasing.

Each case is a data set and two initialisations trained together in two phases:

1. the late-phase flow (``normalized=True``, turn 0.01 per step, every step recorded) from
   the initialisation deep into the late phase (‖W‖ up to ~e^10), with its step-halving
   companion;
2. plain Euler (``normalized=False``, time step 1) from the first state with
   ``L_sum < log 2``, with its companion at step 0.5, over the same continuous time.

Clauses on every recorded late-phase state: ``gamma_tilde_le_gamma_bar`` (γ̃ ≤ γ̄) and
``rate_nonnegative`` (dγ̃/dt ≥ 0, the continuous statement, free of discretisation:
:func:`proofs_check.flow.gamma_rate`); per run and phase ``breaks_shrink_with_step``: the
largest drop of γ̃ between two recorded states (a discretisation artefact if Eq. 6 holds)
shrinks when the step is halved: by SHRINK at the first halving, or, for a run not yet
asymptotic there (kinks of the leaky ReLU make the order below one), by SHRINK per halving
over two or three halvings (:data:`REFINE_LEVELS`; only such runs are refined).
"""
from __future__ import annotations


import numpy as np

import linteach as lt

from ..kit import flow
from ..kit.audit import audit_cases
from ..kit.margin_flows import (bad_step_drops, euler_phase, late_mask, late_phase,
                                phase_drops, refine)
from ..engine.contract import ENGINE, Case, Claim, Clause, digest
from ..engine.context import Context, verdict_of

__all__ = ["CLAIM", "FAMILIES", "check", "run_cases", "bound_slack", "rate_slack",
           "shrink_slack", "refined_slack", "mean_loss_gamma"]

CLAUSES = ("gamma_tilde_le_gamma_bar", "rate_nonnegative", "breaks_shrink_with_step")
#: what each clause's slack measures (the report's "slack unit")
SLACK_UNITS = {
    "gamma_tilde_le_gamma_bar": "relative to |γ̄|",
    "rate_nonnegative": "scale-free sign s of dγ̃/dt",
    "breaks_shrink_with_step": "fraction of the allowed drop SHRINK^ℓ·B(h) + DROP_FLOOR "
                               "(the best refinement level ℓ run)",
}
CLAIM = Claim(
    id="eq6",
    statement="under Assumption 6.1 (L_sum < log 2), γ̃(W(t)) ≤ γ̄(W(t)) and γ̃ is "
              "non-decreasing along gradient flow",
    reference="Eq. 5, Eq. 6, Assumption 6.1 (docs/math.md §4; Lyu & Li 2020)",
    hypotheses="the state is past Assumption 6.1: L_sum < log 2 with the summed loss",
    cases="per case a data set (symmetric Gaussians, v 1, or a separable ball, v 0.5; n 30, "
          "d 4) and inits 1e-2 and 0.3 (k 5, α 0.3); late-phase flow 1500 steps of turn 0.01 "
          "(companion 0.005) and plain Euler 200 steps of time 1 (companion 0.5), every step "
          "recorded; a run whose drop the first halving shrinks too little is refined to "
          "dt/4 and dt/8",
    control="γ̃ with the mean loss (slip 6) must FAIL gamma_tilde_le_gamma_bar; plain Euler "
            "with steps far too large (moving W by 1, 3, 10 times ‖W‖, and their halves, "
            "refined as the check's runs are) on 4 separable sets must FAIL "
            "breaks_shrink_with_step",
    clauses=tuple(Clause(c, slack_unit=SLACK_UNITS[c]) for c in CLAUSES) + (ENGINE,))

#: float64 evaluation of γ̃ and γ̄ (log-space, ~1e-15 relative each); relative allowance
BOUND_ROUND = 1e-12
#: the four terms of the rate's sign s are each accurate to ~1e-15 relative
RATE_ROUND = 1e-12
#: drops below this (relative) are rounding, not discretisation
DROP_FLOOR = 1e-12
#: a first-order artefact halves with the step (0.5); this allows non-asymptotic noise
SHRINK = 0.75
#: halvings a run is refined to at most when the first does not shrink its drop by SHRINK
#: (the drop at h/2^ℓ must be ≤ SHRINK^ℓ times the drop at h at some level ℓ ≤ this)
REFINE_LEVELS = 3
#: late-phase flow: turn per step and steps; rate evaluated at this many log-spaced steps
DT = flow.DT
N_LATE = 1500
RATE_POINTS = 60
#: plain Euler: time step and number of steps from the entry into the late phase
EULER_STEP = 1.0
EULER_STEPS = 200
#: the control's plain-Euler steps, in units of ‖W‖/‖∇L‖ at the entry into the late phase
#: (a step that moves W by K times its own norm), each with its half; BAD_COUNT steps each
BAD_K = (1.0, 3.0, 10.0)
BAD_COUNT = 8
#: control data sets (separable balls: symmetric sets stayed monotone at every step tried)
CONTROL_CASES = 4
INIT_SCALES = (1e-2, 0.3)
CHUNK = flow.cases_per_batch(len(INIT_SCALES))
_BASE = dict(n=30, d=4, k=5, alpha=0.3)
FAMILIES = {"symmetric": dict(_BASE, count=4, kind="symmetric"),
            "separable": dict(_BASE, count=4, kind="separable", margin=0.1, v=0.5)}


def bound_slack(gamma_tilde, gamma_bar):
    """Relative slack of γ̃ ≤ γ̄ (≥ 0 holds)."""
    return (gamma_bar - gamma_tilde) / np.abs(gamma_bar) + BOUND_ROUND


def rate_slack(s):
    """Slack of dγ̃/dt ≥ 0 from the scale-free sign ``s`` of :func:`flow.gamma_rate`."""
    return np.asarray(s) + RATE_ROUND


def shrink_slack(drop, drop_fine, level: int = 1) -> np.ndarray:
    """≥ 0 iff the largest drop at step ``h/2^level`` is ≤ SHRINK^level·(the drop at ``h``)
    + DROP_FLOOR."""
    drop, drop_fine = np.asarray(drop, float), np.asarray(drop_fine, float)
    allowed = SHRINK**level * drop + DROP_FLOOR
    with np.errstate(invalid="ignore"):
        slack = (allowed - drop_fine) / allowed
    # a main run that left the late phase (inf) is fine if the finer one did not
    return np.where(np.isinf(drop), np.where(np.isinf(drop_fine), -1.0, 1.0), slack)


def refined_slack(drop, drop_half, fine) -> np.ndarray:
    """Per run, the best :func:`shrink_slack` over the levels run: ``drop_half`` at level 1,
    then ``fine[:, ℓ − 2]`` at level ℓ where it is not NaN (:func:`margin_flows.refine`)."""
    best = shrink_slack(drop, drop_half)
    fine = np.asarray(fine, float).reshape(np.shape(best) + (-1,))
    for j in range(fine.shape[-1]):
        ran = ~np.isnan(fine[..., j])
        best = np.where(ran, np.fmax(best, shrink_slack(drop, fine[..., j], j + 2)), best)
    return best


def mean_loss_gamma(log_lsum, log_norm, n):
    """γ̃ computed with the **mean** loss (docs/math.md §9 slip 6): the negative control."""
    return lt.loss.smoothed_margin_from(log_lsum - np.log(n), log_norm)


def _phase_summary(trace, samples, n, trace_half, drops_at=None):
    """A phase's plain numbers per run; ``drops_at(runs, ℓ)`` refines runs whose drop has
    not shrunk by SHRINK at the first halving (``"drop_fine"``; None: never refined)."""
    valid = late_mask(trace["log_loss"], n)
    drop, drop_half = phase_drops(trace, n), phase_drops(trace_half, n)
    fine = np.full((len(drop), REFINE_LEVELS - 1), np.nan) if drops_at is None else \
        refine(drop, drop_half, refined_slack, REFINE_LEVELS, drops_at)
    out = {"drop": drop, "drop_half": drop_half, "drop_fine": fine,
           "bound": np.where(valid, bound_slack(trace["smoothed_margin"],
                                                trace["normalized_margin"]), np.inf).min(0),
           "entered": valid.any(axis=0),
           "mean_loss_bound": np.where(valid, bound_slack(
               mean_loss_gamma(trace["log_loss"] + np.log(n), trace["log_norm"], n),
               trace["normalized_margin"]), np.inf).min(0),
           "log_norm_end": trace["log_norm"][-1]}
    if samples:
        s = np.stack([smp["s"] for smp in samples])
        late = np.stack([smp["log_lsum"] for smp in samples]) < np.log(np.log(2.0))
        out["rate"] = np.where(late, rate_slack(s), np.inf).min(axis=0)
        out["rate_points"] = late.sum(axis=0)
    return out


def _build(cases, spec, net):
    built = []
    for case in cases:
        data_rng, init_rng = case.rng.spawn(2)
        ds = flow.make_data(spec["kind"], data_rng, n=spec["n"], d=spec["d"],
                             margin=spec.get("margin", 0.2))
        W0 = net.init(ds.d, scale=1.0, rng=init_rng, batch=len(INIT_SCALES))
        built.append((ds.X, ds.y, W0 * np.asarray(INIT_SCALES)[:, None, None]))
    return built


def _bad_steps(net, We, X, y) -> dict:
    """Plain Euler with steps ``K·‖W‖/‖∇L‖`` and their halves, per run (the control), refined
    as the check's own phases are."""
    phases = {}
    for K in BAD_K:
        drop, half = (bad_step_drops(net, We, X, y, K, f, BAD_COUNT) for f in (1.0, 0.5))
        fine = refine(drop, half, refined_slack, REFINE_LEVELS, lambda runs, level, K=K:
                      bad_step_drops(net, We[runs], X[runs], y[runs], K, 0.5**level, BAD_COUNT))
        phases[f"bad-{K:g}"] = {"drop": drop, "drop_half": half, "drop_fine": fine,
                                "entered": np.ones(len(We), dtype=bool)}
    return phases


def run_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, control, n_late)``; one batch.

    Phases: ``late`` and ``euler``; for the control only ``bad-<K>`` (steps far too large).
    """
    cases, family, control, n_late = item
    spec = FAMILIES.get(family) or FAMILIES["separable"]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec.get("v", 1.0))
    built = _build(cases, spec, net)
    per, n = len(INIT_SCALES), spec["n"]
    X, y, W0 = flow.stack_runs(built)
    run, entry_W, samples = late_phase(net, W0, X, y, DT, n_late, rate_points=RATE_POINTS)
    have = [r for r in range(len(W0)) if entry_W[r] is not None]
    phases = {}
    if not control:
        run_h = late_phase(net, W0, X, y, DT / 2, 2 * n_late)[0]
        phases["late"] = _phase_summary(run.trace, samples, n, run_h.trace, lambda r, level:
                                        phase_drops(late_phase(net, W0[r], X[r], y[r],
                                                               DT / 2**level, n_late * 2**level
                                                               )[0].trace, n))
    if have:
        We, Xe, ye = np.stack([entry_W[r] for r in have]), X[have], y[have]
        if control:
            found = _bad_steps(net, We, Xe, ye)
        else:
            eu, eu_samples = euler_phase(net, We, Xe, ye, EULER_STEP, EULER_STEPS,
                                         rate_points=RATE_POINTS)
            eu_h = euler_phase(net, We, Xe, ye, EULER_STEP / 2, 2 * EULER_STEPS)[0]
            found = {"euler": _phase_summary(eu.trace, eu_samples, n, eu_h.trace, lambda r, level:
                                             phase_drops(euler_phase(
                                                 net, We[r], Xe[r], ye[r], EULER_STEP / 2**level,
                                                 EULER_STEPS * 2**level)[0].trace, n))}
        for name, summary in found.items():
            full = {key: np.full((len(W0),) + np.shape(v)[1:], np.nan)
                    for key, v in summary.items()}
            for key, value in summary.items():
                full[key][have] = value
            phases[name] = full
    results = []
    for i, (Xc, _yc, W0c) in enumerate(built):
        rows = slice(i * per, (i + 1) * per)
        # a phase after the entry belongs to a case only if one of its own runs entered, so a
        # case's result does not depend on the cases batched with it
        entered = any(rows.start <= r < rows.stop for r in have)
        results.append({"phases": {name: {k: np.asarray(v)[rows] for k, v in ph.items()}
                                   for name, ph in phases.items()
                                   if name == "late" or entered},
                        "digests": {"data": digest(Xc), "W0": digest(W0c),
                                    "W": digest(run.direction[rows])}})
    return results


def _run(ctx: Context, control: bool = False):
    counts = {"control-separable": CONTROL_CASES} if control else \
        {family: ctx.n(spec["count"]) for family, spec in FAMILIES.items()}
    return flow.run_families(ctx, run_cases, counts, control,
                              flow.steps(N_LATE, ctx.budget), chunk=CHUNK)


def _record(ctx: Context, case: Case, res: dict, *, phases=("late", "euler"),
            mean_loss: bool = False) -> None:
    for phase in phases:
        ph = res["phases"].get(phase)
        if ph is None:
            ctx.inconclusive(case, f"{phase}: no run reached L_sum < log 2")
            continue
        for r in range(len(INIT_SCALES)):
            where = {"phase": phase, "run": r, "init": INIT_SCALES[r]}
            if not ph["entered"][r] == 1:
                ctx.inconclusive(case, f"{phase} run {r}: never reached L_sum < log 2")
                continue
            if "bound" in ph:
                bound = ph["mean_loss_bound" if mean_loss else "bound"][r]
                ctx.record("gamma_tilde_le_gamma_bar", bound, case, **where)
            if "rate" in ph and np.isfinite(ph["rate"][r]):
                ctx.record("rate_nonnegative", ph["rate"][r], case, **where,
                           points=int(ph["rate_points"][r]))
            fine = ph["drop_fine"][r]
            ctx.record("breaks_shrink_with_step",
                       refined_slack(ph["drop"][r], ph["drop_half"][r], fine), case, **where,
                       drop=ph["drop"][r], drop_half=ph["drop_half"][r],
                       **({"drop_refined": [float(f) for f in fine[~np.isnan(fine)]]}
                          if not np.isnan(fine).all() else {}))


def _control(ctx: Context, results) -> None:
    """The mean-loss γ̃ on the late and Euler phases; plain Euler with steps far too large."""
    verdicts, subs = {}, []
    bad = tuple(f"bad-{K:g}" for K in BAD_K)
    for name, phases, mean_loss, clause in (
            ("mean-loss", ("late", "euler"), True, "gamma_tilde_le_gamma_bar"),
            ("step-too-large", bad, False, "breaks_shrink_with_step")):
        sub = ctx.control_context(f"control-{name}", clauses=(clause,))
        subs.append(sub)
        for case, _family, res in (results if name == "mean-loss" else _run(sub, True)):
            _record(sub, case, res, phases=phases, mean_loss=mean_loss)
        worst = sub.worst.get(clause)
        verdicts[name] = {"verdict": verdict_of(sub),
                          "violations": worst.violations if worst else 0,
                          "evaluated": worst.evaluated if worst else 0}
    ctx.negative_control(all(v["verdict"] == "FAIL" for v in verdicts.values()),
                         "γ̃ with the mean loss must FAIL γ̃ ≤ γ̄; plain Euler with steps "
                         f"moving W by {BAD_K}·‖W‖ (and halves, refined) must FAIL "
                         "breaks_shrink_with_step", controls=subs, **verdicts)


def check(ctx: Context) -> None:
    results = _run(ctx)
    drops = {}
    for case, _family, res in results:
        ctx.ledger(case, **res["digests"])
        _record(ctx, case, res)
        for phase in ("late", "euler"):
            if phase in res["phases"]:
                ph = res["phases"][phase]
                drops.setdefault(phase, []).append((ph["drop"], ph["drop_half"]))
    for phase, pairs in drops.items():
        d, dh = (np.concatenate([p[i] for p in pairs]) for i in (0, 1))
        ok = np.isfinite(d) & (d > DROP_FLOOR)
        ctx.measure(f"largest_drop_{phase}", {
            "max": float(np.nanmax(d)), "max_half_step": float(np.nanmax(dh)),
            "median_ratio_half_over_full": float(np.median(dh[ok] / d[ok])) if ok.any() else None,
            "runs_with_drops": int(ok.sum())})
    audit_cases(ctx, ctx.drawn, audit_subject)
    _control(ctx, results)


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data and inits, and its flows' steps (late-phase turn, plain Euler step)."""
    spec = FAMILIES[case.family]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec.get("v", 1.0))
    X, y, W0 = _build([case], spec, net)[0]
    return {"net": net, "W": W0, "X": X, "y": y, "flow": {"dt": DT, "euler_dt": EULER_STEP}}
