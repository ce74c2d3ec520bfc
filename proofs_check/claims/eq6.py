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
shrinks when the step is halved.
"""
from __future__ import annotations


import numpy as np

import linteach as lt

from ..kit import flow
from ..kit.audit import audit_cases
from ..engine.contract import ENGINE, Case, Claim, Clause, digest
from ..engine.context import Context, verdict_of

__all__ = ["CLAIM", "FAMILIES", "check", "run_cases", "bound_slack", "rate_slack",
           "shrink_slack", "mean_loss_gamma"]

CLAUSES = ("gamma_tilde_le_gamma_bar", "rate_nonnegative", "breaks_shrink_with_step")
#: what each clause's slack measures (the report's "slack unit")
SLACK_UNITS = {
    "gamma_tilde_le_gamma_bar": "relative to |γ̄|",
    "rate_nonnegative": "scale-free sign s of dγ̃/dt",
    "breaks_shrink_with_step": "fraction of the allowed drop SHRINK·B(h) + DROP_FLOOR",
}
CLAIM = Claim(
    id="eq6",
    statement="under Assumption 6.1 (L_sum < log 2), γ̃(W(t)) ≤ γ̄(W(t)) and γ̃ is "
              "non-decreasing along gradient flow",
    reference="Eq. 5, Eq. 6, Assumption 6.1 (docs/math.md §4; Lyu & Li 2020)",
    hypotheses="the state is past Assumption 6.1: L_sum < log 2 with the summed loss",
    cases="per case a data set (symmetric Gaussians, v 1, or a separable ball, v 0.5; n 30, "
          "d 4) and inits 1e-2 and 0.3 (k 5, α 0.3); late-phase flow 1500 steps of turn 0.01 "
          "(companion 0.005) and plain Euler 200 steps of time 1 (companion 0.5), every step recorded",
    control="γ̃ with the mean loss (slip 6) must FAIL gamma_tilde_le_gamma_bar; plain Euler "
            "with steps far too large (moving W by 1, 3, 10 times ‖W‖, and their halves) on 4 "
            "separable sets must FAIL breaks_shrink_with_step",
    clauses=tuple(Clause(c, slack_unit=SLACK_UNITS[c]) for c in CLAUSES) + (ENGINE,))

#: float64 evaluation of γ̃ and γ̄ (log-space, ~1e-15 relative each); relative allowance
BOUND_ROUND = 1e-12
#: the four terms of the rate's sign s are each accurate to ~1e-15 relative
RATE_ROUND = 1e-12
#: drops below this (relative) are rounding, not discretisation
DROP_FLOOR = 1e-12
#: a first-order artefact halves with the step (0.5); this allows non-asymptotic noise
SHRINK = 0.75
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


def shrink_slack(drop, drop_half) -> np.ndarray:
    """≥ 0 iff the companion's largest drop ≤ SHRINK·(the main run's) + DROP_FLOOR."""
    drop, drop_half = np.asarray(drop, float), np.asarray(drop_half, float)
    allowed = SHRINK * drop + DROP_FLOOR
    with np.errstate(invalid="ignore"):
        slack = (allowed - drop_half) / allowed
    # a main run that left the late phase (inf) is fine if the companion did not
    return np.where(np.isinf(drop), np.where(np.isinf(drop_half), -1.0, 1.0), slack)


def mean_loss_gamma(log_lsum, log_norm, n):
    """γ̃ computed with the **mean** loss (docs/math.md §9 slip 6): the negative control."""
    return lt.loss.smoothed_margin_from(log_lsum - np.log(n), log_norm)


def _late(net, W0, X, y, dt, n_steps):
    """Late-phase run recording every step; entry W and rate samples per run."""
    n_runs = len(W0)
    marks = set(np.unique(np.geomspace(1, n_steps, RATE_POINTS).astype(int)).tolist())
    entry_W, samples = [None] * n_runs, []

    def keep(step, W, info):
        late = info["log_loss"] + np.log(X.shape[-2]) < np.log(np.log(2.0))
        for r in np.flatnonzero(late):
            if entry_W[r] is None and W is not None:
                entry_W[r] = np.array(W[r])
        if step in marks:
            samples.append(flow.gamma_rate(net, info["direction"], info["log_norm"], X, y))

    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=n_steps, normalized=True,
                           callback=keep, record="all")
    return run, entry_W, samples


def _euler(net, W0, X, y, h, n_steps, rate=True):
    marks = set(np.unique(np.geomspace(1, n_steps, RATE_POINTS).astype(int)).tolist())
    samples = []

    def keep(step, W, info):
        if rate and step in marks:
            samples.append(flow.gamma_rate(net, info["direction"], info["log_norm"], X, y))

    run = lt.gradient_flow(net, W0, (X, y), dt=h, n_steps=n_steps, callback=keep, record="all")
    return run, samples


def _phase_summary(trace, samples, n, trace_half):
    valid = trace["log_loss"] + np.log(n) < np.log(np.log(2.0))
    valid_h = trace_half["log_loss"] + np.log(n) < np.log(np.log(2.0))
    out = {"drop": flow.largest_drop(trace["smoothed_margin"], valid),
           "drop_half": flow.largest_drop(trace_half["smoothed_margin"], valid_h),
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
    """Plain Euler with steps ``K·‖W‖/‖∇L‖`` and their halves, per run (the control)."""
    late = np.log(np.log(2.0)) - np.log(X.shape[-2])  # log of the mean loss at L_sum = log 2
    ratio = np.linalg.norm(We, axis=(-2, -1)) / np.linalg.norm(
        net.loss_and_grad(We, X, y)[1], axis=(-2, -1))
    phases = {}
    for K in BAD_K:
        drops = np.empty((len(We), 2))
        for r in range(len(We)):
            for j, f in enumerate((1.0, 0.5)):
                t = lt.gradient_flow(net, We[r], (X[r], y[r]), dt=K * ratio[r] * f,
                                     n_steps=int(BAD_COUNT / f), record="all").trace
                drops[r, j] = flow.largest_drop(t["smoothed_margin"][:, None],
                                                 (t["log_loss"] < late)[:, None])[0]
        phases[f"bad-{K:g}"] = {"drop": drops[:, 0], "drop_half": drops[:, 1],
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
    run, entry_W, samples = _late(net, W0, X, y, DT, n_late)
    have = [r for r in range(len(W0)) if entry_W[r] is not None]
    phases = {}
    if not control:
        run_h, _, _ = _late(net, W0, X, y, DT / 2, 2 * n_late)
        phases["late"] = _phase_summary(run.trace, samples, n, run_h.trace)
    if have:
        We, Xe, ye = np.stack([entry_W[r] for r in have]), X[have], y[have]
        if control:
            found = _bad_steps(net, We, Xe, ye)
        else:
            eu, eu_samples = _euler(net, We, Xe, ye, EULER_STEP, EULER_STEPS)
            eu_h, _ = _euler(net, We, Xe, ye, EULER_STEP / 2, 2 * EULER_STEPS, False)
            found = {"euler": _phase_summary(eu.trace, eu_samples, n, eu_h.trace)}
        for name, summary in found.items():
            full = {key: np.full(len(W0), np.nan) for key in summary}
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
            ctx.record("breaks_shrink_with_step", shrink_slack(ph["drop"][r], ph["drop_half"][r]),
                       case, **where, drop=ph["drop"][r], drop_half=ph["drop_half"][r])


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
                         f"moving W by {BAD_K}·‖W‖ (and halves) must FAIL "
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
