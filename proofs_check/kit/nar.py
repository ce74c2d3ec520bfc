"""Shared pieces of the NAR checks (``thm6.1``, ``thm6.2``): run outcomes, clause (a), records.

A run is classified before its pattern program (:func:`classify`); the cluster-radius
clause (:func:`radius_slack`) and the pattern-invariance test (:func:`left_pattern`) use the
tolerances below; :func:`record_run` turns an analysed run into clause records.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from ..engine.contract import Case
from ..engine.context import Context
from . import flow

__all__ = ["COS_TOL", "RADIUS_TOL", "RADIUS_DECADES", "INVARIANCE_TOL", "DRIFT_TOL", "DETAIL",
           "classify", "radius_slack", "left_pattern", "record_run", "PatternPrograms"]

#: 1 − cos(limit, pattern optimum) allowed (the issue's floor; measured ~1e-5 at dt = 0.01)
COS_TOL = 1e-3
#: r(Ŵ) at the end counts as 0 below this; otherwise it must have fallen RADIUS_DECADES
#: decades since T_NAR (‖W‖ grows by up to e^{dt} per step; measured ≥ e^{0.005})
RADIUS_TOL = 1e-9
RADIUS_DECADES = 2.0
#: within one pattern every neuron of a type gets the same update, so r·‖W‖ (absolute
#: deviations) is invariant in the flow and in its discretisation: a larger relative change
#: means the run left its pattern between two records (hypothesis not verified)
INVARIANCE_TOL = 1e-2
#: a run whose direction moved less than this over its last quarter has settled
#: (the normalized step jitters by O(dt) around its limit: 5·dt leaves room for that)
DRIFT_TOL = 5 * flow.DT

def classify(s: dict, X) -> tuple[str, str]:
    """``(outcome, reason)`` of a run before its pattern program: 'ok', 'anm' or 'inconclusive'."""
    if s["late"] < 0:
        return "inconclusive", "never reached Assumption 6.1 (L_sum < log 2)"
    if not s["in_nar"]:
        nd = [int(v) for v in lt.max_n_diff(s["direction"], X)]
        if s["drift"] <= DRIFT_TOL:
            return "anm", f"settled outside every NAR (max n_diff w, u = {nd})"
        return "inconclusive", f"not in an NAR at the end and still moving (drift {s['drift']:.2g})"
    return "ok", ""


def radius_slack(r_end: float, r_entry: float | None = None) -> float:
    """Clause (a), r(Ŵ) → 0 along the run, ≥ 0 iff it holds.

    r(Ŵ) at the end is below :data:`RADIUS_TOL`, or (given its value at ``T_NAR``) it fell
    at least :data:`RADIUS_DECADES` decades since then.
    """
    r_end = max(r_end, 1e-300)
    absolute = float(np.log10(RADIUS_TOL / r_end))
    if r_entry is None or r_end <= RADIUS_TOL:
        return absolute
    return float(np.log10(max(r_entry, 1e-300) / r_end)) - RADIUS_DECADES


def left_pattern(r_end: float, r_entry: float, log_gain: float) -> bool:
    """Whether ``r·‖W‖`` changed since T_NAR: then the run left its pattern between records.

    Inside one pattern every neuron of a type gets the same update, so the absolute
    deviations are exactly invariant; below :data:`RADIUS_TOL` r is too close to rounding
    to tell.
    """
    if min(r_end, r_entry) <= RADIUS_TOL:
        return False
    return abs(np.log(r_end / r_entry) + log_gain) > INVARIANCE_TOL


#: run quantities copied into each clause record's detail
DETAIL = ("one_minus_cos", "entry_step", "beta_sol", "par", "log_time_end")


def record_run(ctx: Context, case: Case, run: dict, r: int, keys=DETAIL, **extra) -> None:
    """Record one run's clause slacks, or count why they could not be evaluated.

    A violated clause counts as a failure only once the direction has settled (drift ≤
    :data:`DRIFT_TOL`); before that the run is still converging: inconclusive.
    """
    where = f"run {r} (init {run['scale']:g})"
    if run["outcome"] != "ok":
        (ctx.assumption_not_met if run["outcome"] == "anm" else ctx.inconclusive)(
            case, f"{where}: {run['reason']}")
        return
    detail = {**extra, "run": r, "init": run["scale"], **{key: run[key] for key in keys}}
    for clause, slack in run["slacks"].items():
        if np.min(slack) < 0 and run["drift"] > DRIFT_TOL:
            ctx.inconclusive(case, f"{where}: {clause} not met yet, direction still moving "
                                   f"(drift {run['drift']:.2g})")
            continue
        ctx.record(clause, slack, case, **detail)


class PatternPrograms:
    """:func:`linteach.convex.nar_program` of one data set and net, each agreement pattern
    solved once: a case's runs (its initialisations) mostly end in the same pattern.

    ``programs(c_w, c_u)`` returns a fresh copy of the pattern's optimum, or raises the
    ``ValueError`` of an infeasible pattern, exactly as ``nar_program`` itself (a solve
    depends on its arguments only, so the memo changes no bit).
    """

    def __init__(self, X, y, alpha, *, k, v):
        self.args, self.kw, self.memo = (X, y, alpha), {"k": k, "v": v}, {}

    def __call__(self, c_w, c_u):
        from linteach import convex

        key = (np.asarray(c_w, dtype=np.float64).tobytes(),
               np.asarray(c_u, dtype=np.float64).tobytes())
        if key not in self.memo:
            try:
                self.memo[key] = convex.nar_program(*self.args, c_w, c_u, **self.kw)
            except ValueError as exc:
                self.memo[key] = exc
        answer = self.memo[key]
        if isinstance(answer, ValueError):
            raise ValueError(*answer.args)
        return answer.copy()
