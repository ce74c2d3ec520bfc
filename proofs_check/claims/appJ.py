"""App. J (``appJ``): learning can enter an NAR that is not a PAR (antipodal Gaussians + outlier).

An existence claim.  Each case is an outlier set (:func:`linteach.make_outlier_set`, d = 2)
and four small initialisations trained as one batch with the late-phase flow and its
step-halving companion.  A *witness* is a run that ends with 100% train accuracy, every
neuron of a type on one side of every point (``max n_diff = 0``, β > 0) and some neuron not
in PAR.  On each witness we check those properties, and that Theorem 6.2 — which would force
PAR — indeed does not apply (Assumption 4 or 3 fails).  We also report how far the limit is
from Eq. 8, whether the witness's pattern optimum is interior (a true NAR limit) or on the
NAR boundary (β → 0: the witness then lives only at finite time, its β halving with the
step), and which neuron type leaves PAR.  No witness within the budget ⇒ INCONCLUSIVE.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context
from ..kit import flow
from ..kit.audit import audit_cases
from ..kit.geometry import unit_rows
from ..kit.nar import PatternPrograms

__all__ = ["CLAIM", "FAMILIES", "check", "run_cases", "witness_slacks"]

CLAUSES = ("train_accuracy_100", "neurons_agree", "not_par", "thm6_2_not_applicable")
#: what each clause's slack measures (the report's "slack unit")
SLACK_UNITS = {
    "train_accuracy_100": "normalised margin γ̄",
    "neurons_agree": "NAR β, a cosine (−1: max n_diff > 0)",
    "not_par": "fraction of neurons (less 1/(2k))",
    "thm6_2_not_applicable": "−(LP slack), or 1 − γ̃ relative to α·v·√k·R_x",
}
CLAIM = Claim(
    id="appJ",
    statement="with two antipodal Gaussians and one positive outlier, gradient flow can reach "
              "100% train accuracy with max n_diff → 0 (an NAR) while not every neuron is in "
              "PAR (an NAR that is not a PAR), so Theorem 6.2's prediction need not hold",
    reference="App. J, Fig. 9 (docs/math.md §7, §8)",
    hypotheses="an outlier set (make_outlier_set: n = 30 + 1, d = 2, outlier_margin 0.2, "
               "outlier_spread 5); small init; witnesses are the runs ending in such an NAR",
    cases="10 outlier sets × 4 inits (scale 1e-2), k = 4, α = 0.3, 2000 steps of turn 0.01 "
          "and a companion at 0.005; a symmetric-Gaussian control family (no outlier)",
    control="the witness clauses applied to every run that ended in PAR (outlier sets and "
            "symmetric Gaussians) must FAIL not_par",
    clauses=tuple(Clause(c, slack_unit=SLACK_UNITS[c]) for c in CLAUSES) + (ENGINE,))

N_STEPS = 2000
INIT_SCALES = (1e-2,) * 4
CHUNK = flow.cases_per_batch(len(INIT_SCALES))
_BASE = dict(n=30, d=2, k=4, alpha=0.3)
FAMILIES = {"outlier": dict(_BASE, count=10, kind="outlier", outlier_margin=0.2,
                            outlier_spread=5.0)}
CONTROL_FAMILIES = {"symmetric": dict(_BASE, count=1, kind="symmetric")}


def witness_slacks(run: dict, k: int) -> dict:
    """Slacks (≥ 0 holds) of the witness clauses for one analysed run."""
    return {"train_accuracy_100": run["gamma_bar"],
            "neurons_agree": run["beta_end"] if run["max_n_diff"] == 0 else -1.0,
            # PAR fractions are multiples of 1/k: half a step below 1 means one neuron out
            "not_par": max(1.0 - run["par_w"], 1.0 - run["par_u"]) - 0.5 / k,
            "thm6_2_not_applicable": max(-run["a4_slack"], 1.0 - run["a3"] / run["a3_bound"])}


def _analyse(net, X, y, a4, eq8, pair, r, programs=None) -> dict:
    """One run's clause numbers (``programs``: the case's pattern programs, reused)."""
    programs = programs or PatternPrograms(X, y, net.alpha, k=net.k, v=net.v)
    s = flow.limit_summary(pair, r)
    D = s["direction"]
    pw, pu = (float(v) for v in lt.par_fractions(D, X, y))
    out = {"gamma_bar": float(pair["main"]["gamma_bar"][-1, r]), "beta_end": s["beta_end"],
           "beta_end_half": s["beta_end_half"], "max_n_diff": int(max(lt.max_n_diff(D, X))),
           "par_w": pw, "par_u": pu, "par": bool(lt.in_par(D, X, y)), "in_nar": s["in_nar"],
           "a4_slack": float(np.min(a4.slack)) if np.isfinite(np.min(a4.slack)) else 1.0,
           "eq8_one_minus_cos": 1.0 - flow.cosine(D, flow.lifted(*eq8, net.k)),
           "companion_gap": s["companion_gap"], "drift": s["drift"],
           "log_time_end": s["log_time_end"]}
    bound = net.alpha * net.v * np.sqrt(net.k) * float(np.linalg.norm(X, axis=-1).max())
    out.update(a3=float(pair["main"]["gamma_tilde"][-1, r]), a3_bound=bound)
    if s["in_nar"]:
        agree = lt.Agreement(s["side_w"], s["side_u"], np.float64(s["beta_end"]))
        W_pred = programs(*agree.c(net.alpha))
        out.update(beta_sol=flow.interior_beta(W_pred, X),
                   pattern_one_minus_cos=1.0 - flow.cosine(D, W_pred))
    return out


def run_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, families, n_steps)``; one batch."""
    from linteach import convex

    cases, family, families, n_steps = item
    spec = families[family]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"])
    built = []
    for case in cases:
        data_rng, init_rng = case.rng.spawn(2)
        extra = {key: spec[key] for key in ("outlier_margin", "outlier_spread") if key in spec}
        ds = flow.make_data(spec["kind"], data_rng, n=spec["n"], d=spec["d"], **extra)
        W0 = net.init(ds.d, scale=1.0, rng=init_rng, batch=len(INIT_SCALES))
        built.append((ds.X, ds.y, W0 * np.asarray(INIT_SCALES)[:, None, None]))
    per = len(INIT_SCALES)
    X, y, W0 = flow.stack_runs(built)
    pair = flow.flow_pair(net, W0, X, y, n_steps=n_steps)
    results = []
    for i, (Xc, yc, W0) in enumerate(built):
        a4 = convex.assumption4_lp(unit_rows(Xc), yc)
        eq8 = convex.solve_eq8(Xc, yc, net.alpha)
        programs = PatternPrograms(Xc, yc, net.alpha, k=net.k, v=net.v)
        runs = [_analyse(net, Xc, yc, a4, eq8, pair, i * per + r, programs) for r in range(per)]
        results.append({"runs": runs, "a4_holds": a4.holds,
                        "digests": flow.case_digests(Xc, W0, pair, i, per)})
    return results


def _run(ctx: Context, families: dict) -> list:
    return flow.family_runs(ctx, run_cases, families, N_STEPS, families, chunk=CHUNK)


def _is_witness(run: dict) -> bool:
    return run["in_nar"] and run["max_n_diff"] == 0 and not run["par"] and run["gamma_bar"] > 0


def check(ctx: Context) -> None:
    results = _run(ctx, FAMILIES)
    witnesses, par_runs = [], []
    for case, _family, res in results:
        ctx.ledger(case, **res["digests"])
        for r, run in enumerate(res["runs"]):
            if _is_witness(run):
                witnesses.append(run)
                for clause, slack in witness_slacks(run, FAMILIES["outlier"]["k"]).items():
                    ctx.record(clause, slack, case, run=r, beta_end=run["beta_end"],
                               beta_end_half=run["beta_end_half"], par_w=run["par_w"],
                               par_u=run["par_u"], beta_sol=run.get("beta_sol"))
            elif run["in_nar"] and run["par"]:
                par_runs.append((case, r, run))
    if not witnesses:
        for case, _family, _res in results:
            ctx.inconclusive(case, "no run ended in an NAR that is not a PAR")
    _measure(ctx, results, witnesses)
    audit_cases(ctx, ctx.drawn, audit_subject)
    _control(ctx, par_runs)


def _control(ctx: Context, par_runs) -> None:
    sub = flow.control_context(ctx, "not_par")
    extra = [(case, r, run) for case, _f, res in _run(sub, CONTROL_FAMILIES)
             for r, run in enumerate(res["runs"]) if run["in_nar"] and run["par"]]
    for case, r, run in par_runs + extra:
        sub.record("not_par", witness_slacks(run, FAMILIES["outlier"]["k"])["not_par"], case,
                   run=r)
    caught, verdict = flow.all_violated(sub, "not_par")
    ctx.negative_control(caught, "runs that ended in PAR (outlier sets and symmetric Gaussians) "
                         "fed to the witness clauses must FAIL not_par", controls=sub,
                         verdict=verdict, runs=len(par_runs + extra),
                         from_symmetric=len(extra))


def _measure(ctx: Context, results, witnesses) -> None:
    runs = [run for _c, _f, res in results for run in res["runs"]]
    par = [r for r in runs if r["in_nar"] and r["par"]]
    ctx.measure("flow", {"companion_gap": flow.span(r["companion_gap"] for r in runs),
                         "log_time_end": flow.span(r["log_time_end"] for r in runs)})
    ctx.measure("outcomes", {"runs": len(runs), "witnesses": len(witnesses),
                             "par": len(par), "no_nar": sum(not r["in_nar"] for r in runs),
                             "assumption4_fails_on_sets": sum(not res["a4_holds"]
                                                              for _c, _f, res in results),
                             "sets": len(results)})
    ctx.measure("distance_to_eq8", {
        "witness_one_minus_cos": [r["eq8_one_minus_cos"] for r in witnesses],
        "par_runs_median_one_minus_cos": float(np.median([r["eq8_one_minus_cos"] for r in par]))
        if par else None})
    if not witnesses:
        return
    boundary = [r for r in witnesses if r.get("beta_sol", 0.0) <= 1e-6]
    ratios = [r["beta_end_half"] / r["beta_end"] for r in witnesses]
    ctx.measure("witnesses", {
        "out_of_par_type": {"w": sum(r["par_w"] < 1 for r in witnesses),
                            "u": sum(r["par_u"] < 1 for r in witnesses)},
        "pattern_optimum_on_nar_boundary": len(boundary),
        "beta_end": [r["beta_end"] for r in witnesses],
        "beta_half_step_over_beta": ratios,
        "one_minus_cos_to_pattern_optimum": [r.get("pattern_one_minus_cos") for r in witnesses]})
    if boundary:
        ctx.note(f"{len(boundary)} of {len(witnesses)} witnesses converge to a pattern optimum "
                 "on the NAR boundary (a neuron type exactly on the outlier's kink): their β at "
                 "the end is a discretisation jitter (β(dt/2)/β(dt) in "
                 f"[{min(ratios):.2f}, {max(ratios):.2f}]), so in the limit they are in no NAR "
                 "with β > 0; the NAR that is not a PAR exists at finite time only")
    if all(r["par_w"] == 1.0 for r in witnesses):
        ctx.note("every witness had all w neurons in PAR and the u neurons out (on the positive "
                 "outlier's positive side); App. J reports the w neurons out of PAR")


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data and inits as :func:`run_cases` draws them, its flow, and the Eq. 8,
    Assumption 4 and (P) answers it uses."""
    from linteach import convex

    spec = FAMILIES[case.family]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"])
    data_rng, init_rng = case.rng.spawn(2)
    extra = {key: spec[key] for key in ("outlier_margin", "outlier_spread") if key in spec}
    ds = flow.make_data(spec["kind"], data_rng, n=spec["n"], d=spec["d"], **extra)
    W0 = net.init(ds.d, scale=1.0, rng=init_rng, batch=len(INIT_SCALES))
    return {"net": net, "W": W0 * np.asarray(INIT_SCALES)[:, None, None], "X": ds.X, "y": ds.y,
            "flow": {"dt": flow.DT, "pattern_from_late": True},
            "a4": (unit_rows(ds.X), convex.assumption4_lp(unit_rows(ds.X), ds.y)),
            "eq8": (net.alpha, *convex.solve_eq8(ds.X, ds.y, net.alpha))}
