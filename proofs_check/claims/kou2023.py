"""Nearly orthogonal data: stable rank → 1 and equal normalised margins (``kou2023``).

A test of the **abstract-level claim** of Kou, Chen & Gu (NeurIPS 2023) in our model; the
theorem's constants, step-size and width conditions, and *which* matrix's stable rank tends
to 1 could not be confirmed (docs/math.md §12).  Runs: one GD step, GD, then the late-phase
flow (:mod:`proofs_check.kit.orthogonal`), all cases of a family in one batch.

In our model the limit is the lifted Eq. 8 solution (PAR), so the **per-type** stable rank
tends to 1 while the **whole** first layer tends to Eq. 8's stable rank, which is > 1
(``2(1+α²)/(1+α)²`` on exactly orthogonal balanced data).  Clauses: per-type stable rank
→ 1; whole-W stable rank = Eq. 8's (not 1); the margin spread ``ρ_q = max q/min q`` falls
towards 1; every Eq. 8 dual is positive (every point a support vector: equal margins in the
limit, predicted from the data alone); the spread left at the end of the run is the Euler
floor (it shrinks with the turn per step halved, in a companion run), so the continuous
flow's spread tends to 1.  Control: correlated low-dimensional data.
"""
from __future__ import annotations

import numpy as np

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of
from ..kit.flow import span
from ..kit import orthogonal
from ..kit.audit import audit_cases
from ..kit.orthogonal import C_MIN, run_orth_families

__all__ = ["CLAIM", "CLAUSES", "FAMILIES", "SR_TOL", "RHO_TOL", "DUAL_TOL", "SR_MATCH", "HALVING", "check",
           "slacks", "dual_slack", "audit_subject"]

CLAUSES = ("type_stable_rank_to_1", "whole_stable_rank_is_eq8s", "margins_equalize",
           "spread_is_discretisation", "eq8_duals_positive")
CLAIM = Claim(
    id="kou2023",
    statement="(abstract-level claim of Kou, Chen & Gu 2023, in our model) on nearly orthogonal "
              "data GD from small init drives the stable rank to 1 — per neuron type; the "
              "whole first layer tends to the lifted Eq. 8 solution's stable rank, > 1 — and "
              "all training points to the same normalised margin",
    reference="docs/math.md §12 (the paper's theorem not confirmed: a test of its "
              "abstract-level claim; the per-type / whole-W split derived there)",
    hypotheses=f"near-orthogonality constant C_data = min_i ‖x_i‖²/(n max_k≠i |⟨x_i, x_k⟩|) ≥ "
               f"{C_MIN} (reported per case; cases below are ASSUMPTION-NOT-MET); small init "
               "(1e-4, 1e-3); GD step 0.5; the run ends in PAR for the Eq. 8 clause",
    cases="n orthogonal directions in R^d with norms in [1, 2] plus noise (n = 10, d = 40; "
          "n = 20, d = 100), random labels; thorough adds i.i.d. Gaussians (n = 8, d = 1000); "
          "k = 10, α = 0.3; one GD step, 300 GD steps, 2000 late-phase flow steps",
    control="correlated low-dimensional ball sets (n = 40, d = 6; C_data ≈ 0.02) must FAIL "
            "type_stable_rank_to_1, margins_equalize and eq8_duals_positive on every case",
    clauses=(Clause("type_stable_rank_to_1", "1 − (max per-type srank − 1)/SR_TOL at the end",
                    slack_unit="srank − 1 over SR_TOL"),
             Clause("whole_stable_rank_is_eq8s", "1 − |srank(W) − srank(W_Eq8)|/(SR_MATCH·"
                                                 "srank(W_Eq8)) (runs ending in PAR)",
                    slack_unit="relative srank gap over SR_MATCH"),
             Clause("margins_equalize", "min(1 − (ρ_end − 1)/RHO_TOL, ρ_gd − ρ_end)",
                    slack_unit="margin ratio ρ − 1 over RHO_TOL"),
             Clause("spread_is_discretisation", "1 − (mean(ρ − 1) at dt/2 ÷ at dt)/HALVING",
                    slack_unit="spread ratio over HALVING"),
             Clause("eq8_duals_positive", "log10(min λ / max λ / DUAL_TOL)/6, −1 for a zero dual",
                    slack_unit="decades of λ_min/λ_max over DUAL_TOL, ÷ 6"),
             ENGINE))

#: per-type stable rank − 1 allowed at the end
SR_TOL = 1e-3
#: relative agreement of the whole stable rank with Eq. 8's
SR_MATCH = 1e-2
#: ρ_q − 1 allowed at the end (the spread falls like the margins' log-time convergence)
RHO_TOL = 0.1
#: halving the flow's turn must shrink the mean remaining spread ρ − 1 to at most this
#: fraction (first order in dt predicts 1/2)
HALVING = 0.8
#: an Eq. 8 dual below this fraction of the largest counts as zero
DUAL_TOL = 1e-6
NET = dict(k=10, alpha=0.3)
#: the convex programs each case needs (kit.orthogonal)
NEEDS = ("eq8",)
SCALES = (1e-4, 1e-4, 1e-3, 1e-3)
FAMILIES = {"orth-n10-d40": dict(kind="orthogonal", n=10, d=40, noise=0.05, scales=SCALES,
                                 count=2, companion=True),
            "orth-n20-d100": dict(kind="orthogonal", n=20, d=100, noise=0.05, scales=SCALES,
                                  count=1, companion=True),
            "gauss-n8-d1000": dict(kind="gaussian", n=8, d=1000, scales=SCALES, count=1,
                                   thorough_only=True, companion=True)}
CONTROL = {"correlated": dict(kind="correlated", n=40, d=6, scales=SCALES, count=2)}


def dual_slack(ratio: float) -> float:
    """``log10(ratio/DUAL_TOL)/|log10 DUAL_TOL|``, at least −1 (a zero dual gives −1)."""
    if ratio <= 0:
        return -1.0
    return max(-1.0, float(np.log10(ratio / DUAL_TOL) / abs(np.log10(DUAL_TOL))))


def slacks(r: dict) -> dict:
    """The clause slacks of one case's result (``whole_stable_rank_is_eq8s`` only if in PAR)."""
    out = {"type_stable_rank_to_1": 1.0 - (r["type_srank_end"] - 1.0) / SR_TOL,
           "margins_equalize": min(float((1.0 - (r["rho_end"] - 1.0) / RHO_TOL).min()),
                                   float((r["rho_gd"] - r["rho_end"]).min())),
           "eq8_duals_positive": dual_slack(r["eq8_dual_ratio"])}
    if not np.isnan(r["rho_half"]).any():
        gap, gap_half = float(np.mean(r["rho_end"] - 1.0)), float(np.mean(r["rho_half"] - 1.0))
        out["spread_is_discretisation"] = 1.0 - (gap_half / gap) / HALVING if gap > 0 else 1.0
    if r["in_par"].all():
        out["whole_stable_rank_is_eq8s"] = 1.0 - abs(r["srank_end"] - r["srank_eq8"]) / (
            SR_MATCH * r["srank_eq8"])
    return out


def _run(ctx: Context, families: dict, c_min, extras=None) -> list:
    out = []
    for case, _family, r in run_orth_families(ctx, families, NET, NEEDS, c_min=c_min):
        if extras is not None:
            extras[case] = orthogonal.audit_extra(r, NET["alpha"])
        for clause, slack in slacks(r).items():
            if clause in ctx.claim.clause_names:
                ctx.record(clause, slack, case, C_data=r["C_data"], n=r["n"], d=r["d"])
        out.append(r)
    return out


def check(ctx: Context) -> None:
    extras = {}
    results = _run(ctx, FAMILIES, C_MIN, extras)
    if results:
        ctx.measure("C_data", span(r["C_data"] for r in results))
        ctx.measure("whole_stable_rank_end", span(x for r in results for x in r["srank_end"]))
        ctx.measure("eq8_stable_rank", span(r["srank_eq8"] for r in results))
        ctx.measure("per_type_stable_rank_minus_1_end",
                    span(x - 1 for r in results for x in r["type_srank_end"]))
        ctx.measure("rho_gd_to_end", {"gd": span(x for r in results for x in r["rho_gd"]),
                                      "end": span(x for r in results for x in r["rho_end"]),
                                      "end_at_half_turn": span(x for r in results
                                                               for x in r["rho_half"])})
        ctx.note("the whole first layer's stable rank does not tend to 1: it tends to the lifted "
                 "Eq. 8 solution's (measured above); only the per-type stable ranks tend to 1")
    ctrl = ("type_stable_rank_to_1", "margins_equalize", "eq8_duals_positive")
    audit_cases(ctx, ctx.drawn, audit_subject, extra=extras)
    sub = ctx.control_context("control", clauses=ctrl)
    _run(sub, CONTROL, None)
    caught = verdict_of(sub) == "FAIL" and all(
        c in sub.worst and sub.worst[c].violations == sub.worst[c].evaluated for c in ctrl)
    ctx.negative_control(caught, "correlated low-dimensional data: per-type stable rank, margin "
                         "spread and Eq. 8 duals must all fail, every case", controls=sub,
                         violations={c: w.violations for c, w in sub.worst.items()},
                         evaluations={c: w.evaluated for c, w in sub.worst.items()})


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data, inits, GD and flow; the check's recorded numbers come as ``extra``."""
    return orthogonal.audit_subject(case, FAMILIES[case.family], NET)
