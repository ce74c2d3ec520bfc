"""Nearly orthogonal data: rank ≤ 2, a max-margin KKT limit, a linear boundary (``frei2023``).

A test of the **abstract-level claim** of Frei, Vardi, Bartlett, Srebro & Hu (ICLR 2023) in
our model (fixed ±v second layer, leaky ReLU); the exact near-orthogonality assumption and
the one-step thresholds could not be confirmed (docs/math.md §13).  Runs as ``kou2023``
(:mod:`proofs_check.kit.orthogonal`; its own cases).

Clauses: the limit's numerical rank is ≤ 2 at threshold :data:`RANK_TOL` (``σ_3/σ_1``) —
**proved** on a case when Weyl's inequality ``σ_3(Ŵ) ≤ √(2k)·r(Ŵ)`` already gives it; the
limit is the solution of (P) restricted to its own agreement pattern (the ℓ2 max-margin
solution there); its boundary is linear — **proved** per network outside Theorem 5.1's band
``|cos∠(x, w̄ − ū)| < 2r/‖w̄ − ū‖``, which must be narrower than :data:`BAND_TOL`, and
**observed** by sign agreement on fresh points (inside the band: no exact per-network
certificate is in linteach yet);
one GD step from small init cuts the stable rank to at most 2 and to at most half its
initial value.  Controls: correlated low-dimensional data (rank > 2), a large init (one step
leaves the rank high).
"""
from __future__ import annotations

import numpy as np

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of
from ..kit.flow import span
from ..kit import orthogonal
from ..kit.audit import audit_cases
from ..kit.orthogonal import C_MIN, run_orth_families

__all__ = ["CLAIM", "CLAUSES", "FAMILIES", "RANK_TOL", "COS_TOL", "BOUNDARY_TOL", "BAND_TOL",
           "ONE_STEP_BOUND", "ONE_STEP_FACTOR", "check", "slacks", "audit_subject"]

CLAUSES = ("limit_rank_at_most_2", "limit_is_pattern_max_margin", "boundary_linear",
           "boundary_sampled", "one_step_reduces_rank")
CLAIM = Claim(
    id="frei2023",
    statement="(abstract-level claim of Frei, Vardi, Bartlett, Srebro & Hu 2023, in our model) "
              "on nearly orthogonal data the flow's limit has rank ≤ 2, is the ℓ2 max-margin "
              "(KKT) solution of its pattern, and has a linear decision boundary; one GD step "
              "from small init already cuts the stable rank drastically",
    reference="docs/math.md §13 (the paper's theorem not confirmed: a test of its "
              "abstract-level claim; the Weyl rank certificate and the one-step structure "
              "derived there)",
    hypotheses=f"C_data ≥ {C_MIN} (reported; below: ASSUMPTION-NOT-MET); small init (1e-4, "
               "1e-3); the limit in an NAR for the pattern clause",
    cases="as kou2023: orthogonal directions plus noise (n = 10, d = 40; n = 20, d = 100), "
          "thorough adds Gaussians (n = 8, d = 1000); k = 10, α = 0.3; 2000 fresh points per "
          "case for the boundary",
    control="correlated low-dimensional ball sets (n = 40, d = 6) from inits 1e-3 and 2: "
            "limit_rank_at_most_2 must FAIL on every case, and one_step_reduces_rank must FAIL "
            "(the init-2 runs: one step leaves the stable rank of the init)",
    clauses=(Clause("limit_rank_at_most_2", "1 − (σ_3/σ_1)/RANK_TOL at the end",
                    evidence="proved", slack_unit="σ₃/σ₁ over RANK_TOL"),
             Clause("limit_is_pattern_max_margin", "1 − (1 − cos(Ŵ, W_P))/COS_TOL, W_P the "
                                                   "pattern-restricted (P) solution",
                    slack_unit="1 − cos over COS_TOL"),
             Clause("boundary_linear", "1 − (2r/‖w̄ − ū‖)/BAND_TOL: Theorem 5.1 gives sign N = "
                                       "sign (w̄ − ū)·x outside that band", evidence="proved",
                    slack_unit="band width 2r/‖w̄ − ū‖ over BAND_TOL"),
             Clause("boundary_sampled", "1 − (fraction of fresh points where sign N ≠ "
                                        "sign (w̄ − ū)·x)/BOUNDARY_TOL",
                    slack_unit="disagreeing fraction over BOUNDARY_TOL"),
             Clause("one_step_reduces_rank", "min(1 − srank(W_1)/ONE_STEP_BOUND, 1 − "
                                             "srank(W_1)/(ONE_STEP_FACTOR·srank(W_0)))",
                    slack_unit="stable rank relative to its bound"),
             ENGINE))

#: numerical-rank threshold on σ_3/σ_1
RANK_TOL = 1e-3
#: 1 − cos allowed between the limit and its pattern's (P) solution
COS_TOL = 1e-3
#: fraction of fresh points allowed to disagree with the linear predictor's sign
BOUNDARY_TOL = 1e-3
#: Theorem 5.1's band |cos∠(x, w̄ − ū)| < 2r/‖w̄ − ū‖, outside which the boundary is the
#: hyperplane (w̄ − ū)·x = 0, must be narrower than this
BAND_TOL = 1e-3
#: stable rank after one step: the rows are a common vector plus per-neuron sign parts, so
#: srank(W_1) → 2(1+α²)/(1+α)² ≤ 2 as the width grows (docs/math.md §13)
ONE_STEP_BOUND = 2.0
#: and at most this fraction of the init's stable rank
ONE_STEP_FACTOR = 0.5
NET = dict(k=10, alpha=0.3)
#: the convex programs each case needs (kit.orthogonal)
NEEDS = ("svm", "pattern")
SCALES = (1e-4, 1e-4, 1e-3, 1e-3)
FAMILIES = {"orth-n10-d40": dict(kind="orthogonal", n=10, d=40, noise=0.05, scales=SCALES,
                                 count=2),
            "orth-n20-d100": dict(kind="orthogonal", n=20, d=100, noise=0.05, scales=SCALES,
                                  count=1),
            "gauss-n8-d1000": dict(kind="gaussian", n=8, d=1000, scales=SCALES, count=1,
                                   thorough_only=True)}
CONTROL = {"correlated": dict(kind="correlated", n=40, d=6, scales=(1e-3, 1e-3, 2.0, 2.0),
                              count=2)}


def slacks(r: dict) -> dict:
    """Clause slacks of one case (the pattern clause only where every run is in an NAR)."""
    out = {"limit_rank_at_most_2": 1.0 - r["rank_ratio"] / RANK_TOL,
           "boundary_linear": 1.0 - r["band"] / BAND_TOL,
           "boundary_sampled": 1.0 - r["disagree"] / BOUNDARY_TOL,
           "one_step_reduces_rank": np.minimum(
               1.0 - r["srank_one_step"] / ONE_STEP_BOUND,
               1.0 - r["srank_one_step"] / (ONE_STEP_FACTOR * r["srank_init"]))}
    if not np.isnan(r["pattern_cos"]).any():
        out["limit_is_pattern_max_margin"] = 1.0 - (1.0 - r["pattern_cos"]) / COS_TOL
    return out


def _run(ctx: Context, families: dict, c_min, extras=None) -> list:
    out = []
    for case, _family, r in run_orth_families(ctx, families, NET, NEEDS, c_min=c_min):
        if extras is not None:
            extras[case] = orthogonal.audit_extra(r, NET["alpha"])
        for clause, slack in slacks(r).items():
            if clause not in ctx.claim.clause_names:
                continue
            evidence = None
            if clause == "limit_rank_at_most_2" and not np.all(r["weyl_bound"] <= RANK_TOL):
                evidence = "observed"  # Weyl's certificate does not close: the ratio is measured
            ctx.record(clause, slack, case, evidence=evidence, C_data=r["C_data"],
                       weyl_bound=float(np.max(r["weyl_bound"])))
        if np.isnan(r["pattern_cos"]).any():
            ctx.note(f"{case.family}/{case.seed}: a run ended outside every NAR (no pattern QP)")
        out.append(r)
    return out


def check(ctx: Context) -> None:
    extras = {}
    results = _run(ctx, FAMILIES, C_MIN, extras)
    if results:
        ctx.measure("sigma3_over_sigma1", span(x for r in results for x in r["rank_ratio"]))
        ctx.measure("weyl_certificate", span(x for r in results for x in r["weyl_bound"]))
        ctx.measure("stable_rank", {
            "init": span(x for r in results for x in r["srank_init"]),
            "one_step": span(x for r in results for x in r["srank_one_step"]),
            "limit": span(x for r in results for x in r["srank_end"])})
        ctx.measure("linear_predictor_margin_over_svm",
                    span(x for r in results for x in r["lin_over_svm"]))
        ctx.measure("theorem_5_1_band", span(x for r in results for x in r["band"]))
        ctx.note("boundary_linear is proved per network through Theorem 5.1's band (paper "
                 "constant 2); inside the band it is only sampled (boundary_sampled): no exact "
                 "per-network certificate of the band is in linteach yet")
    ctrl = ("limit_rank_at_most_2", "one_step_reduces_rank")
    audit_cases(ctx, ctx.drawn, audit_subject, extra=extras)
    sub = ctx.control_context("control", clauses=ctrl)
    _run(sub, CONTROL, None)
    rank = sub.worst.get("limit_rank_at_most_2")
    caught = (verdict_of(sub) == "FAIL" and rank is not None
              and rank.violations == rank.evaluated
              and sub.worst.get("one_step_reduces_rank") is not None
              and sub.worst["one_step_reduces_rank"].violations > 0)
    ctx.negative_control(caught, "correlated low-dimensional data: rank > 2 on every case; the "
                         "init-2 runs: one step leaves the stable rank high", controls=sub,
                         violations={c: w.violations for c, w in sub.worst.items()},
                         evaluations={c: w.evaluated for c, w in sub.worst.items()})


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data, inits, GD and flow; the check's recorded numbers come as ``extra``."""
    return orthogonal.audit_subject(case, FAMILIES[case.family], NET)
