"""Corollary 6.1 (``cor6.1``): a perfectly clustered leaky net has a hyperplane boundary.

All w neurons equal w and all u neurons equal u (r = 0 exactly); then
``sign N_W(x) = sign((w − u)·x)`` for **every** x.  Points are drawn uniformly, at
distances from 1e-3 down to 1e-15 (relative) off the hyperplane, exactly on it (integer
lattice nets), and on it up to rounding; every sign is decided exactly
(:mod:`proofs_check.kit.signs`).
"""
from __future__ import annotations


import numpy as np

import linteach as lt

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of
from ..kit.geometry import clustered_copies, near_plane_points
from ..kit.audit import audit_cases
from ..kit.certified import certify_band
from ..kit.signs import sign_agreement
from ..kit.items import map_cases

__all__ = ["CLAIM", "FAMILIES", "check"]

#: cases per ``ctx.map`` item (each its own certificate: items of about a second)
CHUNK = 32

CLAUSE = "sign_matches_hyperplane"
CLAIM = Claim(
    id="cor6.1",
    statement="if all w neurons are equal and all u neurons are equal (0 < α < 1), "
              "sign(N_W(x)) = sign((w − u)·x) for every x: the boundary is a hyperplane",
    reference="Corollary 6.1 (docs/math.md §5)",
    hypotheses="perfectly clustered W (r = 0), leaky ReLU 0 < α < 1, v > 0",
    cases="random w, u (k 1–20 copies, d 2–10, log-uniform scales), antiparallel and "
          "parallel w, u, small-integer lattice nets with points exactly on the plane; "
          "points uniform, at relative distances 1e-3 … 1e-15 and 0 from the plane",
    control="the same check on ReLU (α = 0) nets must FAIL (zero cone off the plane)",
    clauses=(Clause(CLAUSE, "s·N/(v·k·|D|) over the sampled points and, for all x, the exact "
                    "decision's bound (α for an exactly clustered leaky net); < 0: a "
                    "disagreement", evidence="proved",
                    slack_unit="fraction of v·k·|(w − u)·x|"), ENGINE))

#: the band constant of the exact decision: with r = 0 every band is the whole space
BAND = 0.0

FAMILIES = {"random": 30, "antiparallel": 10, "parallel": 10, "lattice": 10}


def _net_and_points(case: Case, family: str, alpha):
    rng = case.rng
    k, d = int(rng.integers(1, 21)), int(rng.integers(2, 11))
    a = float(rng.uniform(0.01, 0.99)) if alpha is None else alpha
    v = float(np.exp(rng.uniform(np.log(0.2), np.log(5.0))))
    if family == "lattice":  # exact zeros: integer weights and points with (w − u)·x = 0
        w, u = rng.integers(-3, 4, d).astype(float), rng.integers(-3, 4, d).astype(float)
        u[0] = w[0] - 1.0  # (w − u) has a 1 in coordinate 0, so the plane has integer points
        Z = rng.integers(-5, 6, (100, d)).astype(float)
        Z[:, 0] = -(Z[:, 1:] @ (w - u)[1:])
        X = np.concatenate([Z, Z + rng.integers(-1, 2, (100, d))])
    else:
        scale = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), 2))
        w = scale[0] * rng.standard_normal(d)
        u = {"random": scale[1] * rng.standard_normal(d), "antiparallel": -scale[1] * w,
             "parallel": scale[1] * w}[family]
        uni = rng.standard_normal((200, d)) * np.exp(rng.uniform(-3, 3, (200, 1)))
        X = np.concatenate([uni, near_plane_points(w - u, 20, rng=rng)]) if np.any(w != u) \
            else uni
    return lt.Net(k=k, alpha=a, v=v), clustered_copies(w, u, k), X


def evaluate_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, alpha override)``."""
    cases, family, alpha = item
    out = []
    for case in cases:
        net, W, X = _net_and_points(case, family, alpha)
        info = sign_agreement(net, W, X, c=BAND)  # r = 0: every point is in the regime
        j = int(np.argmin(info["slack"]))
        out.append({"slack": info["slack"], "alpha": net.alpha, "k": net.k,
                    "exact": int(info["exact"].sum()), "ties": int(np.sum(info["D"] == 0)),
                    "worst": {"N": float(info["N"][j]), "D": float(info["D"][j])},
                    "certified": certify_band(W, net.alpha, BAND)})
    return out


def _run(ctx, *, alpha=None, count=None):
    counts = {}
    for family, standard in FAMILIES.items():
        cases = ctx.cases(ctx.n(count or standard), family)
        if not cases:
            continue
        exact = ties = 0
        for case, res in zip(cases, map_cases(ctx, evaluate_cases, cases, family, alpha,
                                                   chunk=CHUNK)):
            cert = res["certified"]
            proved = cert["status"] != "undecided"  # a certificate or an exact witness
            slack = np.append(res["slack"], cert["slack"]) if proved else res["slack"]
            ctx.record(CLAUSE, slack, case, evidence="proved" if proved else "observed",
                       alpha=res["alpha"], k=res["k"], status=cert["status"],
                       reason=cert.get("reason"), **res["worst"])
            exact, ties = exact + res["exact"], ties + res["ties"]
            counts[cert["status"]] = counts.get(cert["status"], 0) + 1
        ctx.measure(f"{family}_points_decided_exactly", exact)
        ctx.measure(f"{family}_points_exactly_on_plane", ties)
    ctx.measure("exact_decisions", counts)
    return counts


def check(ctx: Context) -> None:
    counts = _run(ctx)
    ctx.note(f"every x decided per net: {counts.get('proved', 0)} nets certified (r = 0 exactly "
             "and α > 0, re-checked in rationals: σ is strictly increasing, so sign N = "
             f"sign((w − u)·x)), {counts.get('witness', 0)} with an exact disagreement, "
             f"{counts.get('undecided', 0)} sampled only")
    audit_cases(ctx, ctx.drawn, audit_subject)
    sub = ctx.control_context("control")
    _run(sub, alpha=0.0, count=5)
    verdict = verdict_of(sub)
    ctx.negative_control(verdict == "FAIL", "ReLU (α = 0) perfectly clustered nets must FAIL",
                         controls=sub, verdict=verdict,
                         violations=sub.worst[CLAUSE].violations)


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s perfectly clustered net and its points, as :func:`evaluate_cases` draws them."""
    net, W, X = _net_and_points(case, case.family, None)
    return {"net": net, "W": W, "X": X}
