"""The node LPs of the band searches (:mod:`linteach.certify.search`, ``normsearch``): one
HiGHS solve with its retries, the float Lagrangian bound of its multipliers, and the Farkas
multipliers of an empty node.

Every bound computed here is a float *proposal*: a leaf counts only once
:func:`linteach.certify.recheck.recheck` has re-verified its multipliers in rationals.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from ..errors import SolverError

__all__ = ["LP_OPTIONS", "RETRIES", "solve_node_lp", "lagrangian_bound", "farkas_proof"]

#: HiGHS tolerances (tight: leaf bounds are evaluated from the multipliers, not the status)
LP_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
#: (method, options) tried in turn when HiGHS returns neither optimal nor infeasible
RETRIES = (("highs", {}), ("highs", {"presolve": False}), ("highs-ipm", {}))


def solve_node_lp(obj, A, b, Aeq, box):
    """``min obj·z`` s.t. ``A z ≤ b``, ``Aeq z = (1, 0)``, ``z`` in ``box``; returns
    ``(result, solves)``.  A status other than optimal or infeasible after every retry is a
    :class:`SolverError` naming it, never a verdict."""
    for tries, (method, extra) in enumerate(RETRIES, start=1):
        res = linprog(obj, A_ub=A, b_ub=b, A_eq=Aeq, b_eq=[1.0, 0.0], bounds=box,
                      method=method, options={**LP_OPTIONS, **extra})
        if res.status in (0, 2):
            return res, tries
    raise SolverError(f"HiGHS returned status {res.status} ({res.message}) on a node "
                      "LP: neither optimal nor infeasible")


def lagrangian_bound(obj, const, A, b, box, lam, mu, Aeq):
    """The Lagrangian bound in floats, and its scale (sum of the magnitudes it adds)."""
    r = obj + A.T @ lam - Aeq.T @ mu
    lo, hi = np.array(box).T
    terms = np.minimum(r * lo, r * hi)
    parts = np.concatenate([[const, mu[0]], -lam * b, terms])
    return float(parts.sum()), float(np.abs(parts).sum()) + 1e-300


def farkas_proof(solve, obj, A, b, Aeq, box):
    """Multipliers proving the node empty (min of a uniform row relaxation s > 0), by
    ``solve`` (:func:`solve_node_lp`'s signature, returning the result only):
    ``(lam, mu, bound, scale)``."""
    n = A.shape[1]
    A2 = np.hstack([A, -np.ones((A.shape[0], 1))])
    res = solve(np.r_[np.zeros(n), 1.0], A2, b, np.hstack([Aeq, [[0.0], [0.0]]]),
                box + [(0.0, None)])
    if res.status != 0:
        raise SolverError(f"HiGHS could not solve the emptiness LP (status {res.status})")
    lam = np.maximum(-res.ineqlin.marginals, 0.0)
    mu = np.asarray(res.eqlin.marginals, dtype=float)
    val, scale = lagrangian_bound(np.zeros(n), 0.0, A, b, box, lam, mu, Aeq)
    return lam, mu, val, scale
