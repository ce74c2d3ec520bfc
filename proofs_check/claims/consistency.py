"""Cross-paper consistency on shared runs (``consistency``, docs/math.md §15).

The follow-up checks each test one paper; this one puts their predictions side by side on the
**same** runs, so a disagreement between two of them (or between a paper and Theorem 6.2) is
a finding with a reproducer rather than two unrelated passes.

* **Antipodal data** (late-phase flow and its step-halving companion,
  :mod:`proofs_check.kit.antipodal`): the lifted Eq. 8 solution is the lifted SVM (``u = −w ∝
  w_SVM``) and attains ``lyu2021``'s global max margin ``γ̄*`` (to solver accuracy); the flow's
  limit is Eq. 8's direction and its γ̄ is ``γ̄*`` within ``lyu2021``'s tolerance.
* **Nearly orthogonal data** (GD then the late-phase flow, :mod:`proofs_check.kit.orthogonal`):
  ``frei2023``'s limit (rank ≤ 2, the pattern's (P) solution) and ``kou2023``'s (per-type
  stable rank → 1, equal margins) are one object, the lifted Eq. 8 solution in PAR: the
  pattern is PAR, the limit is Eq. 8's direction, its whole stable rank is Eq. 8's and ≤ 2,
  and "every Eq. 8 dual positive" (kou2023's prediction of equal margins) goes with the
  margin spread falling towards 1 while the limit solves its pattern's (P).

Control: non-symmetric ball sets — there Eq. 8 is not the lifted SVM and the limit is not in
PAR, so both families' clauses must FAIL.
"""
from __future__ import annotations

import numpy as np

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of
from ..kit import antipodal, orthogonal
from ..kit.antipodal import antipodal_cases
from ..kit.audit import audit_cases
from ..kit.flow import span
from ..kit.items import cases_per_batch, map_cases
from ..kit.orthogonal import C_MIN, run_orth_families

__all__ = ["CLAIM", "CLAUSES", "SOLVER_TOL", "COS_TOL", "MARGIN_TOL", "RANK_TOL", "SR_TOL",
           "RHO_TOL", "SR_MATCH", "check", "antipodal_slacks", "orthogonal_slacks",
           "audit_subject"]

CLAUSES = ("eq8_is_lifted_svm", "limit_is_eq8_and_global_max", "orth_limit_is_eq8_par",
           "orth_ranks_agree", "orth_margins_agree")
CLAIM = Claim(
    id="consistency",
    statement="on shared runs the predictions agree: on antipodal data the flow's limit, the "
              "lifted Eq. 8 solution, the lifted linear SVM and lyu2021's global max margin "
              "coincide; on nearly orthogonal data frei2023's limit (rank ≤ 2, KKT of its "
              "pattern) and kou2023's (per-type stable rank 1, equal margins) are the lifted "
              "Eq. 8 solution in PAR",
    reference="docs/math.md §15 (derived there from §7, §10–§13)",
    hypotheses="those of lyu2021 (antipodal, separable, small init) and of kou2023/frei2023 "
               f"(C_data ≥ {C_MIN}, small init); cases below are ASSUMPTION-NOT-MET",
    cases="antipodal Gaussians (n = 20, d = 5; n = 40, d = 10), k = 5, α = 0.3, inits 1e-3 "
          "and 1e-2, 2000 late-phase steps; nearly orthogonal sets "
          "(n = 10, d = 40), k = 10, α = 0.3, as in kou2023",
    control="non-symmetric ball sets (n = 30, d = 3 for the antipodal clauses; n = 40, d = 6 "
            "for the orthogonal ones): eq8_is_lifted_svm and orth_limit_is_eq8_par must FAIL "
            "on every case",
    clauses=(Clause("eq8_is_lifted_svm", "1 − max(1 − cos(w8, w_SVM), 1 − cos(u8, −w_SVM), "
                                         "|γ̄(W8)/γ̄* − 1|)/SOLVER_TOL",
                    slack_unit="1 − cos or relative margin, over SOLVER_TOL"),
             Clause("limit_is_eq8_and_global_max", "min(1 − (1 − cos(Ŵ, Ŵ8))/COS_TOL, "
                                                   "1 − |γ̄/γ̄* − 1|/MARGIN_TOL)",
                    slack_unit="1 − cos over COS_TOL, relative margin over MARGIN_TOL"),
             Clause("orth_limit_is_eq8_par", "in PAR (else −1) and 1 − (1 − cos(Ŵ, Ŵ8))/COS_TOL",
                    slack_unit="1 − cos over COS_TOL (−1: not in PAR)"),
             Clause("orth_ranks_agree", "min(1 − (σ3/σ1)/RANK_TOL, 1 − (per-type srank − 1)/"
                                        "SR_TOL, 2 − srank, 1 − |srank − srank_Eq8|/(SR_MATCH·"
                                        "srank_Eq8))",
                    slack_unit="stable-rank gaps over their tolerances"),
             Clause("orth_margins_agree", "+1 if (all Eq. 8 duals > 0) = (ρ falls to within "
                                          "RHO_TOL of 1), −1 otherwise; and the limit solves "
                                          "its pattern's (P)",
                    slack_unit="±1 (predictions agree / not)"),
             ENGINE))

#: solver-level agreement of Eq. 8 with the lifted SVM (both re-checked to ~1e-9)
SOLVER_TOL = 1e-6
#: the shared tolerances of lyu2021, kou2023 and frei2023
COS_TOL = 1e-3
MARGIN_TOL = 0.02
RANK_TOL = 1e-3
SR_TOL = 1e-3
RHO_TOL = 0.1
#: relative agreement of the whole stable rank with Eq. 8's (kou2023's SR_MATCH)
SR_MATCH = 1e-2
#: an Eq. 8 dual below this fraction of the largest counts as zero
DUAL_TOL = 1e-6
ANTI_NET = dict(k=5, alpha=0.3)
ANTI_SCALES = (1e-3, 1e-3, 1e-2, 1e-2)
ANTIPODAL = {"anti-n20-d5": dict(n=20, d=5, count=2, steps=2000, companion=False),
             "anti-n40-d10": dict(n=40, d=10, count=2, steps=2000, companion=False)}
ORTH_NET = dict(k=10, alpha=0.3)
ORTH = {"orth-n10-d40": dict(kind="orthogonal", n=10, d=40, noise=0.05,
                             scales=(1e-4, 1e-4, 1e-3, 1e-3), count=3)}
CONTROL_ANTI = {"ball-anti": dict(n=30, d=3, count=1, steps=2000, ball=True, companion=False)}
CONTROL_ORTH = {"ball-orth": dict(kind="correlated", n=40, d=6, scales=(1e-3, 1e-3), count=1)}


def antipodal_slacks(r: dict) -> dict:
    gs = r["gamma_star"]
    solver = max(1.0 - r["eq8_cos_svm"], 1.0 - r["eq8_cos_u"], abs(r["eq8_gamma"] / gs - 1.0))
    limit = np.minimum(1.0 - (1.0 - r["limit_cos_eq8"]) / COS_TOL,
                       1.0 - np.abs(r["gamma"] / gs - 1.0) / MARGIN_TOL)
    return {"eq8_is_lifted_svm": 1.0 - solver / SOLVER_TOL, "limit_is_eq8_and_global_max": limit}


def orthogonal_slacks(r: dict) -> dict:
    par = bool(r["in_par"].all())
    eq8 = np.where(par, 1.0 - (1.0 - r["eq8_cos"]) / COS_TOL, -1.0)
    ranks = np.minimum.reduce([1.0 - r["rank_ratio"] / RANK_TOL,
                               1.0 - (r["type_srank_end"] - 1.0) / SR_TOL,
                               2.0 - r["srank_end"],
                               1.0 - np.abs(r["srank_end"] - r["srank_eq8"])
                               / (SR_MATCH * r["srank_eq8"])])
    duals_positive = r["eq8_dual_ratio"] > DUAL_TOL
    equalizing = bool(np.all(r["rho_end"] - 1.0 <= RHO_TOL) and np.all(r["rho_end"] < r["rho_gd"]))
    solves = bool(np.all(1.0 - r["pattern_cos"] <= COS_TOL))  # NaN (no NAR) is False
    return {"orth_limit_is_eq8_par": eq8, "orth_ranks_agree": ranks,
            "orth_margins_agree": 1.0 if (duals_positive == equalizing and solves) else -1.0}


def _antipodal(ctx: Context, families: dict, extras=None) -> list:
    out = []
    for family, spec in families.items():
        cases = ctx.cases(ctx.n(spec["count"]), family)
        if not cases:  # a replay of another family
            continue
        res = map_cases(ctx, antipodal_cases, cases, spec, ANTI_NET, ANTI_SCALES, True,
                        chunk=cases_per_batch(len(ANTI_SCALES)))
        for case, r in zip(cases, res):
            ctx.ledger(case, data=r["data"])
            if extras is not None:
                extras[case] = antipodal.audit_extra(r, ANTI_NET["alpha"])
            if np.any(r["gamma"] <= 0):
                ctx.inconclusive(case, "a run has not classified every point")
                continue
            for clause, slack in antipodal_slacks(r).items():
                if clause in ctx.claim.clause_names:
                    ctx.record(clause, slack, case, eq8_cos_svm=r["eq8_cos_svm"])
            out.append(r)
    return out


def _orthogonal(ctx: Context, families: dict, c_min, extras=None) -> list:
    out = []
    for case, _f, r in run_orth_families(ctx, families, ORTH_NET, ("eq8", "pattern"),
                                         c_min=c_min):
        if extras is not None:
            extras[case] = orthogonal.audit_extra(r, ORTH_NET["alpha"])
        for clause, slack in orthogonal_slacks(r).items():
            if clause in ctx.claim.clause_names:
                ctx.record(clause, slack, case, C_data=r["C_data"])
        out.append(r)
    return out


def check(ctx: Context) -> None:
    extras = {}
    anti = _antipodal(ctx, ANTIPODAL, extras)
    orth = _orthogonal(ctx, ORTH, C_MIN, extras)
    if anti:
        ctx.measure("antipodal", {
            "eq8_one_minus_cos_svm": span(1 - r["eq8_cos_svm"] for r in anti),
            "eq8_gamma_over_global_max": span(r["eq8_gamma"] / r["gamma_star"] for r in anti),
            "limit_one_minus_cos_eq8": span(x for r in anti for x in 1 - r["limit_cos_eq8"]),
            "limit_gamma_over_global_max": span(x for r in anti
                                                for x in r["gamma"] / r["gamma_star"])})
    if orth:
        ctx.measure("orthogonal", {
            "srank_limit": span(x for r in orth for x in r["srank_end"]),
            "srank_eq8": span(r["srank_eq8"] for r in orth),
            "eq8_dual_ratio": span(r["eq8_dual_ratio"] for r in orth),
            "rho_end": span(x for r in orth for x in r["rho_end"])})
    audit_cases(ctx, ctx.drawn, audit_subject, extra=extras)
    sub = ctx.control_context("control", clauses=("eq8_is_lifted_svm", "orth_limit_is_eq8_par"))
    _antipodal(sub, CONTROL_ANTI)
    _orthogonal(sub, CONTROL_ORTH, None)
    caught = verdict_of(sub) == "FAIL" and all(
        c in sub.worst and sub.worst[c].violations == sub.worst[c].evaluated
        for c in ("eq8_is_lifted_svm", "orth_limit_is_eq8_par"))
    ctx.negative_control(caught, "non-symmetric ball sets: Eq. 8 is not the lifted SVM, and the "
                         "limit is not Eq. 8's PAR solution, every case", controls=sub,
                         violations={c: w.violations for c, w in sub.worst.items()},
                         evaluations={c: w.evaluated for c, w in sub.worst.items()})


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data, inits and runs; the check's recorded numbers come as ``extra``."""
    if case.family in ANTIPODAL:
        return antipodal.audit_subject(case, ANTIPODAL[case.family], ANTI_NET, ANTI_SCALES)
    return orthogonal.audit_subject(case, ORTH[case.family], ORTH_NET)
