"""The one quadratic program behind every convex program of linteach, solved and re-checked.

``min ½‖θ‖² s.t. Gθ ≥ h`` (:func:`solve_qp`), with the solver policy of
:mod:`linteach.convex`: CLARABEL, then the other installed solvers of :data:`SOLVER_ORDER`.
CLARABEL is called through its own API first (:data:`DIRECT_CLARABEL`, the same solver at
the same settings): cvxpy compiling each small program cost ten times the solve, once per
record of every flow claim.  If that answer fails, CLARABEL through cvxpy (whose own
reformulation and scaling can succeed on an ill-conditioned program) and then the other
solvers are tried.
An "optimal" status is never trusted alone: the answer is polished to an exact KKT pair
(:func:`linteach.kkt.polish`, our own multipliers) or must pass
:func:`linteach.kkt.qp_kkt_report` with the solver's duals; "infeasible" is confirmed by a
HiGHS LP (:class:`Infeasible`).  Otherwise :class:`~linteach.errors.SolverError`.  Programs
are solved at unit scale (:func:`unit_scale`, :func:`rescaled`).

With :mod:`linteach.convex`, the only modules that import cvxpy (both imported lazily).
"""
from __future__ import annotations

import functools
import warnings

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .assumption4 import lp_feasible
from .errors import SolverError
from .kkt import polish, qp_kkt_report

__all__ = ["SOLVER_ORDER", "SOLVER_OPTIONS", "DIRECT_CLARABEL", "Infeasible", "solve_qp",
           "unit_scale", "rescaled"]

#: Solvers tried in order (those not installed are skipped).
SOLVER_ORDER = ("CLARABEL", "OSQP", "SCS")
#: Tight settings (so that an answer polish cannot improve still passes the re-check).
SOLVER_OPTIONS = {
    "CLARABEL": {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12},
    "OSQP": {"eps_abs": 1e-10, "eps_rel": 1e-10, "max_iter": 200_000, "polish": True},
    "SCS": {"eps_abs": 1e-10, "eps_rel": 1e-10, "max_iters": 200_000},
}


#: solve the primal (no ``dual_factor``) with CLARABEL through its own API rather than cvxpy
DIRECT_CLARABEL = True


class Infeasible(Exception):
    """The program is infeasible (confirmed by HiGHS); each program turns it into its own
    error or answer."""


@functools.lru_cache(maxsize=1)
def _installed():
    """cvxpy's installed solvers, asked once per process (the answer cannot change while it
    runs; asking imports every solver interface, about 14 ms, once per program solved)."""
    return tuple(cp.installed_solvers())


def _solvers(solver):
    installed = _installed()
    if solver is None:
        return [s for s in SOLVER_ORDER if s in installed]
    if not isinstance(solver, str):
        raise TypeError(f"`solver` must be a str or None, got {type(solver).__name__}")
    if solver.upper() not in installed or solver.upper() not in SOLVER_OPTIONS:
        usable = sorted(set(installed) & set(SOLVER_OPTIONS))
        raise ValueError(f"`solver` must be one of {usable} (installed QP solvers), "
                         f"got {solver!r}")
    return [solver.upper()]


def _run(problem, name):
    # Solver warnings ("inaccurate") are superseded by our own re-check, so keep them as text.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            problem.solve(solver=name, **SOLVER_OPTIONS[name])
        except cp.error.SolverError as exc:
            return f"{name}: {exc}"
    note = "; ".join(str(w.message).splitlines()[0] for w in caught)
    return None if problem.status == cp.OPTIMAL else f"{name}: status {problem.status} {note}"


def _direct(G, h, lift):
    """``(status, θ, μ)`` of ``min ½‖θ‖² s.t. Gθ ≥ h`` by Clarabel's own API; with ``lift =
    (M, B)`` over ``z = (θ, s)``: ``s − Bθ = 0``, ``M s ≥ h[:r]``, ``G[r:] θ ≥ h[r:]``.

    Clarabel solves ``min ½zᵀPz`` s.t. ``Az + slack = b``, slack in the cones, with duals y;
    stationarity ``Pz + Aᵀy = 0`` gives ``θ = Gᵀμ`` for μ the inequality rows' duals (with
    the lift, the equality rows' duals are ``Mᵀ y_M`` and drop out).  ``status`` is
    "optimal", "infeasible" or Clarabel's own word."""
    import clarabel

    n = G.shape[1]
    if lift is None:
        m, A, b = 0, sp.csc_matrix(-G), -h
    else:
        (M, B), r = lift, len(lift[0])
        m = B.shape[0]
        A = sp.bmat([[sp.csr_matrix(-B), sp.identity(m)],
                     [None, sp.csr_matrix(-M)],
                     [sp.csr_matrix(-G[r:]), None]], format="csc")
        b = np.concatenate([np.zeros(m), -h[:r], -h[r:]])
    P = sp.diags(np.r_[np.ones(n), np.zeros(m)]).tocsc()
    cones = ([clarabel.ZeroConeT(m)] if m else []) + [clarabel.NonnegativeConeT(len(h))]
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    for key, value in SOLVER_OPTIONS["CLARABEL"].items():  # cvxpy passes the same names
        setattr(settings, key, value)
    sol = clarabel.DefaultSolver(P, np.zeros(n + m), A, b, cones, settings).solve()
    status = str(sol.status).rsplit(".", 1)[-1]
    if status == "PrimalInfeasible":
        return "infeasible", None, None
    if status != "Solved":
        return status, None, None
    return "optimal", np.asarray(sol.x[:n], dtype=np.float64), \
        np.asarray(sol.z[m:], dtype=np.float64)


def _certify(theta, G, h, mu, name):
    """``(θ, μ)`` passing the KKT re-check (polished if possible), or a failure string."""
    polished = polish(theta, G, h)
    if polished is not None:
        return polished
    report = qp_kkt_report(theta, G, h, mu)
    return (theta, np.maximum(mu, 0.0)) if report.ok() else \
        f"{name}: re-check failed ({report.worst()})"


def solve_qp(G, h, *, solver=None, what="program", dual_factor=None, lift=None):
    """``argmin ½‖θ‖² s.t. Gθ ≥ h`` and multipliers ``μ`` (``θ = Gᵀμ``), re-checked.

    With ``dual_factor = L`` (``L Lᵀ = G Gᵀ``) solve the dual ``max_{μ≥0} μᵀh − ½‖Lᵀμ‖²``
    instead and recover ``θ = Gᵀμ``.  With ``lift = (M, B)``, the first ``len(M)`` rows of
    ``G`` are ``M B`` and go to the solver as ``M s ≥ h``, ``s = Bθ`` (far sparser).
    """
    failures = []
    for name in _solvers(solver):
        if name == "CLARABEL" and DIRECT_CLARABEL and dual_factor is None:
            status, th, m = _direct(G, h, lift)
            if status == "infeasible":
                if not lp_feasible(G, h):
                    raise Infeasible
                out = f"{name} (direct): reported infeasible, but HiGHS finds a feasible point"
            else:
                out = _certify(th, G, h, m, name) if status == "optimal" else \
                    f"{name} (direct): status {status}"
            if not isinstance(out, str):
                return out
            failures.append(out)  # then the same solver through cvxpy (its own scaling)
        if dual_factor is None:
            theta = cp.Variable(G.shape[1])
            if lift is None:
                cons = [G @ theta >= h]
            else:
                (M, B), r, s = lift, len(lift[0]), cp.Variable(lift[1].shape[0])
                cons = [M @ s >= h[:r], G[r:] @ theta >= h[r:], s == B @ theta]
            problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(theta)), cons)
        else:
            mu = cp.Variable(G.shape[0], nonneg=True)
            problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(dual_factor.T @ mu) - h @ mu))
        failure = _run(problem, name)
        if problem.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED,
                              cp.UNBOUNDED_INACCURATE):
            if not lp_feasible(G, h):
                raise Infeasible
            failure = f"{name}: reported {problem.status}, but HiGHS finds a feasible point"
        if failure is None:
            if dual_factor is None:
                th, m = theta.value, np.concatenate([c.dual_value for c in cons[:2]])
            else:
                m = np.asarray(mu.value, dtype=np.float64)
                th = G.T @ m
            out = _certify(np.asarray(th, dtype=np.float64), G, h,
                           np.asarray(m, dtype=np.float64), name)
            if not isinstance(out, str):
                return out
            failure = out
        failures.append(failure)
    raise SolverError(f"{what}: no solver returned an answer passing the KKT re-check: "
                      + " | ".join(failures))


def unit_scale(X):
    """``(X/s, s)`` with ``s`` the largest row norm (never overflowing).

    Every program here is solved at unit scale and its answer rescaled (``w = w'/s``):
    the solvers' tolerances are absolute, so at 1e-9 or 1e150 they would otherwise
    decide feasibility and optimality wrongly.
    """
    top = np.abs(X).max()
    if top == 0:
        return X, 1.0
    with np.errstate(over="ignore"):
        s = top * np.linalg.norm(X / top, axis=1).max()
    if not np.isfinite(s):
        raise ValueError(f"`X` has a row norm beyond float64 (largest entry {top:.3g}): "
                         "rescale it")
    return X / s, s


def rescaled(theta, s, what):
    """``θ/s`` for a program solved at unit scale; a clear error if ``1/s`` leaves float64."""
    with np.errstate(over="ignore"):
        out = theta / s
    if not np.all(np.isfinite(out)):
        raise ValueError(f"`X` is too small (largest row norm {s:.3g}): the solution of {what} "
                         "grows as ‖X‖ shrinks and overflows float64")
    return out
