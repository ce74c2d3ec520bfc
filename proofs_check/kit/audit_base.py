"""Shared pieces of the engine audits (:mod:`proofs_check.kit.audit`): tolerances and findings."""
from __future__ import annotations

import numpy as np

__all__ = ["ROUND", "KKT_TOL", "FD_RTOL", "TRAJECTORY_RTOL", "FLOW_STEPS", "LATE_STEPS",
           "MAX_POINTS", "MAX_LP_POINTS", "finding"]

#: rounding allowance of a re-ordered float64 sum, relative to the sum of |terms|
ROUND = 1e-12
#: a polished solver answer is an exact KKT pair to ~1e-12; 1e-8 leaves four decades
KKT_TOL = 1e-8
#: central differences at step h (no kink within 10 h): truncation ~h² ≪ this, relative
FD_RTOL = 1e-5
#: replays of ≤ a few hundred steps: rounding grows ~linearly, far below this (relative to ‖W‖)
TRAJECTORY_RTOL = 1e-9
#: steps of each flow replay, and of the engine's flow that carries W into the late phase
FLOW_STEPS = 6
LATE_STEPS = 400
#: points the per-point loops visit at most (spread over the case's points)
MAX_POINTS = 64
#: Assumption 4 LPs re-solved (as dual LPs) per audited case, spread over its points
MAX_LP_POINTS = 12


def finding(quantity, engine, reference, *, rtol=0.0, atol=0.0, evidence="proved"):
    """One comparison: the engine's value against the reference's, with its allowance."""
    return {"quantity": quantity, "engine": np.asarray(engine, dtype=float),
            "reference": np.asarray(reference, dtype=float), "rtol": rtol,
            "atol": np.asarray(atol, dtype=float), "evidence": evidence}
