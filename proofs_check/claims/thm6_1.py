"""Theorem 6.1 (``thm6.1``): a flow that stays in an NAR converges to a perfectly clustered net.

Each case is a data set and four initialisations (two small, two moderate) trained as one
batch with the late-phase flow and its step-halving companion (:mod:`proofs_check.kit.flow`).
Per run: ``T_NAR`` is the first record after which the agreement pattern never changes (with
``β > 0``); inside a fixed pattern ``N`` is linear in ``W`` and (P) restricted to the pattern
is a convex QP (:func:`linteach.convex.nar_program`) whose unique minimiser is the predicted
limit direction.  Runs that settle outside every NAR, or whose pattern optimum lies on the
NAR's boundary (a neuron on a kink or vanishing, so β → 0), do not meet the hypothesis
("W(t) ∈ N(β) for all t ≥ T_NAR with a fixed β > 0") and are counted, not dropped.

Reusable by ``thm6.2`` and ``appJ``: :func:`pattern_slacks`, :func:`classify`,
:data:`DRIFT_TOL`.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from ..kit import flow
from ..kit.audit import audit_cases
from ..kit.nar import (COS_TOL, DRIFT_TOL, RADIUS_TOL, classify, left_pattern, radius_slack,
                       record_run, PatternPrograms)
from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context

__all__ = ["CLAIM", "FAMILIES", "check", "run_cases", "pattern_slacks", "limit_slack",
           "wrong_pattern_prediction"]

CLAUSES = ("cluster_radius_vanishes", "limit_solves_pattern_program",
           "pattern_program_clustered", "kkt_residual_small")
#: what each clause's slack measures (the report's "slack unit")
SLACK_UNITS = {
    "cluster_radius_vanishes": "decades of r(Ŵ) (nar.RADIUS_TOL, nar.RADIUS_DECADES)",
    "limit_solves_pattern_program": "1 − cos over COS_TOL",
    "pattern_program_clustered": "r/‖W‖ over PROGRAM_CLUSTER_TOL",
    "kkt_residual_small": "KKT residual over KKT_TOL",
}
CLAIM = Claim(
    id="thm6.1",
    statement="under Assumption 6.1, if W(t) stays in an NAR N(β, c^w, c^u) from T_NAR on, "
              "gradient flow converges in direction to a point of N whose normalized network "
              "is perfectly clustered (a KKT point of (P) restricted to the pattern)",
    reference="Theorem 6.1, App. F (docs/math.md §6)",
    hypotheses="Assumption 6.1 (L_sum < log 2 reached); the final agreement pattern held with "
               "β > 0 from T_NAR to the end, with an interior limit (β of the pattern optimum "
               "> 0) and the same pattern in the step-halving companion",
    cases="per case one data set and 4 inits (scales 1e-2, 1e-2, 0.5, 0.5) in one batch: "
          "symmetric Gaussians (n 30, d 4, k 8, α 0.3, v 2), 2-D blobs (n 30, k 8, α 0.2), small "
          "separable sets (n 12, d 2 and 3, k 4, α 0.3 and 0.4: where non-PAR NARs occur), "
          "App. J outlier sets (n 30+1, d 3, k 4); 2000 steps of turn 0.01 and a companion "
          "at 0.005 (quick: 60%)",
    control="the prediction of a wrong agreement pattern (one point's w-side flipped, the "
            "first feasible flip from the deepest point; on the first evaluated run of each "
            "case) must FAIL limit_solves_pattern_program",
    clauses=tuple(Clause(c, slack_unit=SLACK_UNITS[c]) for c in CLAUSES) + (ENGINE,))

#: relative cluster radius of the solver's pattern optimum (solutions are polished to 1e-10)
PROGRAM_CLUSTER_TOL = 1e-6
#: KKT residual at the end (median over the records of the last quarter of the steps: the
#: O(dt) jitter of the direction makes single values noisy): first order in the distance to
#: the KKT point, and COS_TOL allows the distance sqrt(2·COS_TOL) ≈ 0.045
KKT_TOL = float(np.sqrt(2 * COS_TOL))
#: β of a pattern optimum below this: the limit is on the NAR boundary
BETA_INTERIOR = 1e-6
#: steps of the main run at the standard budget (the companion takes twice as many at half
#: the turn; other budgets scale them by flow.STEP_SCALE)
N_STEPS = 2000
INIT_SCALES = (1e-2, 1e-2, 0.5, 0.5)

#: cases per ctx.map item: their runs advance together in one batch (same n, d, k, α)
CHUNK = flow.cases_per_batch(len(INIT_SCALES))
#: per family: data kind and sizes, k and α fixed so that all its runs batch together
FAMILIES = {
    "symmetric": dict(count=2, kind="symmetric", n=30, d=4, k=8, alpha=0.3, v=2.0),
    "blobs": dict(count=2, kind="blobs", n=30, d=2, k=8, alpha=0.2),
    # small sets are where non-PAR NARs with an interior limit show up (≈ 1 set in 6)
    "small-2d": dict(count=6, kind="separable", n=12, d=2, k=4, alpha=0.3),
    "small-3d": dict(count=8, kind="separable", n=12, d=3, k=4, alpha=0.4),
    "outlier": dict(count=3, kind="outlier", n=30, d=3, k=4, alpha=0.3,
                    outlier_margin=0.2, outlier_spread=5.0),
}


def build_case(case: Case, spec: dict):
    """``(X, y, W0)`` of ``case`` (data and its inits), drawn from its seed alone."""
    data_rng, init_rng = case.rng.spawn(2)
    extra = {key: spec[key] for key in ("outlier_margin", "outlier_spread") if key in spec}
    ds = flow.make_data(spec["kind"], data_rng, n=spec["n"], d=spec["d"], **extra)
    scales = np.asarray(spec.get("scales", INIT_SCALES))
    W0 = lt.Net(k=spec["k"], alpha=spec["alpha"]).init(ds.d, scale=1.0, rng=init_rng,
                                                       batch=len(scales))
    return ds.X, ds.y, W0 * scales[:, None, None]


def kkt_residual(direction, X, y, *, alpha, v=1.0) -> float:
    """Largest KKT residual of (P) at ``direction`` (:func:`linteach.convex.kkt_certificate`)."""
    from linteach import convex

    cert = convex.kkt_certificate(direction, X, y, alpha=alpha, v=v)
    return max(cert.stationarity, cert.complementarity, cert.feasibility)


def limit_slack(direction, W_pred) -> float:
    """Slack of ``1 − cos(Ŵ, W_pred) ≤ COS_TOL`` (≥ 0 holds)."""
    return 1.0 - (1.0 - flow.cosine(direction, W_pred)) / COS_TOL


def pattern_slacks(direction, W_pred, X, y, *, alpha, v=1.0, kkt_end=None,
                   radius_entry=None):
    """Clause slacks (≥ 0 holds) of a final direction against a pattern optimum ``W_pred``.

    Returns ``(slacks, info)``.  The radius clause uses its values at ``T_NAR``; the KKT
    clause the residual ``kkt_end`` over the final records (without it, none).
    """
    cos = flow.cosine(direction, W_pred)
    r_pred = float(lt.cluster_radius(W_pred)) / float(np.linalg.norm(W_pred))
    r_end = float(lt.cluster_radius(direction))
    kkt = kkt_residual(direction, X, y, alpha=alpha, v=v)
    slacks = {"cluster_radius_vanishes": radius_slack(r_end, radius_entry),
              "limit_solves_pattern_program": limit_slack(direction, W_pred),
              "pattern_program_clustered": 1.0 - r_pred / PROGRAM_CLUSTER_TOL}
    if kkt_end is not None:
        slacks["kkt_residual_small"] = 1.0 - kkt_end / KKT_TOL
    return slacks, {"one_minus_cos": 1.0 - cos, "radius": r_end, "pred_radius": r_pred,
                    "kkt": kkt}


def wrong_pattern_prediction(X, y, side_w, side_u, direction, *, alpha, k, v=1.0,
                             programs=None):
    """The optimum of the pattern with one point's w-side flipped (deepest first), or None
    (``programs``: a :class:`~proofs_check.kit.nar.PatternPrograms` of ``X``, reused)."""
    programs = programs or PatternPrograms(X, y, alpha, k=k, v=v)
    w = direction[:k] / np.linalg.norm(direction[:k], axis=-1, keepdims=True)
    depth = np.abs(w @ (X / np.linalg.norm(X, axis=-1, keepdims=True)).T).min(axis=0)
    for i in np.argsort(-depth)[:4]:
        flipped = np.array(side_w)
        flipped[i] = -flipped[i]
        c_w, c_u = np.where(flipped > 0, 1.0, alpha), np.where(side_u > 0, 1.0, alpha)
        try:
            return int(i), programs(c_w, c_u)
        except ValueError:  # that flip admits no margin-1 network: try the next point
            continue
    return None


def _analyse(net, X, y, pair, r, scale, control=True, programs=None) -> dict:
    """One run's outcome and clause numbers (``programs``: the case's pattern programs)."""
    programs = programs or PatternPrograms(X, y, net.alpha, k=net.k, v=net.v)
    s = flow.limit_summary(pair, r)
    out = {"scale": scale, "entry_step": s["T_NAR_step"], "drift": s["drift"],
           "companion_gap": s["companion_gap"], "log_time_end": s["log_time_end"],
           "log_norm_end": s["log_norm_end"], "beta_end": s["beta_end"]}
    outcome, reason = classify(s, X)
    if outcome != "ok":
        return {**out, "outcome": outcome, "reason": reason}
    agree = lt.Agreement(s["side_w"], s["side_u"], np.float64(s["beta_end"]))
    c_w, c_u = agree.c(net.alpha)
    W_pred = programs(c_w, c_u)
    beta_sol = flow.interior_beta(W_pred, X)
    par = bool(np.array_equal(s["side_w"], y) and np.array_equal(s["side_u"], -y))
    out.update(beta_sol=beta_sol, par=par, T_NAR_log_time=s["log_time_entry"])
    if beta_sol <= BETA_INTERIOR:
        return {**out, "outcome": "anm",
                "reason": f"the pattern optimum lies on the NAR boundary (β = {beta_sol:.1e}): "
                          f"β(t) → 0, no fixed β > 0 holds (run β at the end {s['beta_end']:.2g})"}
    n_steps = pair["main"]["n_steps"]
    if s["T_NAR_step"] > n_steps // 2:
        return {**out, "outcome": "inconclusive",
                "reason": f"entered its final NAR only at step {s['T_NAR_step']} of {n_steps}: "
                          "too late to watch it converge"}
    if not s["same_pattern"]:
        return {**out, "outcome": "inconclusive",
                "reason": "the step-halving companion ended in another pattern"}
    def kkt(run, j):
        return kkt_residual(run["directions"][j, r], X, y, alpha=net.alpha, v=net.v)

    def kkt_tail(run):  # median over the records of the last quarter of the steps
        tail = np.flatnonzero(run["steps"] >= (1 - flow.DRIFT_FRACTION) * run["steps"][-1])
        return float(np.median([kkt(run, j) for j in tail]))

    kkt_entry = kkt(pair["main"], max(s["entry"], s["late"]))
    kkt_end = kkt_tail(pair["main"])
    gain = s["log_norm_end"] - s["log_norm_entry"]
    if left_pattern(s["radius_end"], s["radius_entry"], gain):
        return {**out, "outcome": "inconclusive",
                "reason": "left its NAR between records: r·‖W‖ changed by a factor "
                          f"{np.exp(gain) * s['radius_end'] / s['radius_entry']:.3g} since T_NAR "
                          f"(the pattern optimum's β = {beta_sol:.2g} vs the turn {flow.DT})"}
    slacks, info = pattern_slacks(s["direction"], W_pred, X, y, alpha=net.alpha, v=net.v,
                                  kkt_end=kkt_end, radius_entry=s["radius_entry"])
    wrong = None if not control else wrong_pattern_prediction(
        X, y, s["side_w"], s["side_u"], s["direction"], alpha=net.alpha, k=net.k, v=net.v,
        programs=programs)
    out.update(outcome="ok", slacks=slacks, **info, kkt_entry=kkt_entry, kkt_end=kkt_end,
               kkt_end_half=kkt_tail(pair["half"]),
               one_minus_cos_half=1.0 - flow.cosine(s["direction_half"], W_pred),
               # r·‖W‖ is invariant within one pattern: this ratio is 1 up to rounding
               radius_norm_ratio=float(np.exp(gain) * max(info["radius"], 1e-300)
                                       / max(s["radius_entry"], 1e-300)),
               wrong=None if wrong is None else {
                   "point": wrong[0], "slack": limit_slack(s["direction"], wrong[1]),
                   "one_minus_cos": 1.0 - flow.cosine(s["direction"], wrong[1])})
    return out


def run_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, n_steps)``, all runs in one batch."""
    cases, family, n_steps = item
    spec = FAMILIES[family]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec.get("v", 1.0))
    built = [build_case(case, spec) for case in cases]
    per = len(built[0][2])
    X, y, W0 = flow.stack_runs(built)
    pair = flow.flow_pair(net, W0, X, y, n_steps=n_steps)
    scales = spec.get("scales", INIT_SCALES)
    results = []
    for i, (Xc, yc, W0) in enumerate(built):
        runs, programs = [], PatternPrograms(Xc, yc, net.alpha, k=net.k, v=net.v)
        for r in range(per):  # the control's wrong pattern: on the first evaluated run only
            control = not any(run.get("wrong") is not None for run in runs)
            runs.append(_analyse(net, Xc, yc, pair, i * per + r, scales[r], control, programs))
        results.append({"runs": runs, "digests": flow.case_digests(Xc, W0, pair, i, per)})
    return results


def _cases(ctx: Context):
    return flow.family_runs(ctx, run_cases, FAMILIES, N_STEPS, chunk=CHUNK)


def _control(ctx: Context, results) -> None:
    """Feed each evaluated run's wrong-pattern optimum to the limit clause: it must FAIL."""
    sub = flow.control_context(ctx, "limit_solves_pattern_program")
    tried = []
    for case, _family, res in results:
        for r, run in enumerate(res["runs"]):
            if run["outcome"] == "ok" and run.get("wrong") is not None:
                sub.record("limit_solves_pattern_program", run["wrong"]["slack"], case, run=r,
                           point=run["wrong"]["point"])
                tried.append(run["wrong"]["one_minus_cos"])
    caught, verdict = flow.all_violated(sub, "limit_solves_pattern_program")
    ctx.negative_control(caught, "the optimum of a wrong agreement pattern (one point's w-side "
                         "flipped) as the prediction must FAIL on every run it was tried on",
                         controls=sub, verdict=verdict, runs=len(tried),
                         min_one_minus_cos=min(tried) if tried else None)


def check(ctx: Context) -> None:
    results = _cases(ctx)
    for case, family, res in results:
        ctx.ledger(case, **res["digests"])
        for r, run in enumerate(res["runs"]):
            record_run(ctx, case, run, r, family=family, alpha=FAMILIES[family]["alpha"])
    _measure(ctx, results)
    audit_cases(ctx, ctx.drawn, audit_subject)
    _control(ctx, results)


def _measure(ctx: Context, results) -> None:
    runs = [(fam, run) for _c, fam, res in results for run in res["runs"]]
    ok = [run for _f, run in runs if run["outcome"] == "ok"]
    counts = {}
    for fam, run in runs:
        key = run["outcome"] if run["outcome"] != "ok" else ("par" if run["par"] else "non-par")
        if key == "anm":  # which hypothesis failed
            key = "anm-boundary" if "boundary" in run["reason"] else "anm-outside-nar"
        counts.setdefault(fam, {}).setdefault(key, 0)
        counts[fam][key] += 1
    ctx.measure("outcomes_per_family", counts)
    if not ok:
        return
    span = flow.span
    ctx.measure("limit", {
        "one_minus_cos": span(r["one_minus_cos"] for r in ok),
        "median_one_minus_cos": float(np.median([r["one_minus_cos"] for r in ok])),
        "median_one_minus_cos_half_step": float(np.median([r["one_minus_cos_half"] for r in ok])),
        "companion_gap": span(r["companion_gap"] for r in ok),
        "radius_end": span(r["radius"] for r in ok),
        "radius_times_norm_ratio": span(r["radius_norm_ratio"] for r in ok
                                        if r["radius"] > RADIUS_TOL) if any(
            r["radius"] > RADIUS_TOL for r in ok) else None,
        "kkt_at_T_NAR": span(r["kkt_entry"] for r in ok),
        "kkt_end_median_of_last_quarter": span(r["kkt_end"] for r in ok),
        "kkt_shrink_factor_since_T_NAR": span(r["kkt_entry"] / r["kkt_end"] for r in ok),
        "median_kkt_half_step_over_full": float(np.median([r["kkt_end_half"] / r["kkt_end"]
                                                           for r in ok])),
        "T_NAR_steps": span(r["entry_step"] for r in ok),
        "log_time_end": span(r["log_time_end"] for r in ok),
        "non_par_runs": sum(not r["par"] for r in ok)})
    tracked = [r["radius_norm_ratio"] for r in ok if r["radius"] > RADIUS_TOL]
    if not tracked:
        return
    low, high = span(tracked)
    ctx.note("inside a fixed pattern every neuron of a type receives the same update, so "
             "r·‖W‖ is invariant and r/‖W‖ = O(1/‖W‖): measured (r‖W‖)_end/(r‖W‖)_T_NAR in "
             f"[{low:.6f}, {high:.6f}]")


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data and inits; the flow and the (P) program in the pattern it reaches."""
    spec = FAMILIES[case.family]
    X, y, W0 = build_case(case, spec)
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec.get("v", 1.0))
    return {"net": net, "W": W0, "X": X, "y": y,
            "flow": {"dt": flow.DT, "pattern_from_late": True}}
