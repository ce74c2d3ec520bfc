"""App. D.1 (``appD.1``): with ReLU, a perfectly clustered two-neuron net is *not* linear.

``N(x) = v·(max(w·x, 0) − max(u·x, 0))`` (k = 1, and k copies of each neuron).  PASS means
the paper's counterexample is reproduced on every case, with three certificates:

* ``zero_region``: N is exactly 0 on points of the open cone ``{w·x < 0, u·x < 0}`` (a set
  with interior), although ``(w − u)·x ≠ 0`` there;
* ``nonlinear_boundary``: two points with ``N ≤ 0`` whose midpoint has ``N > 0`` — the
  set ``{N ≤ 0}`` is not convex, so ``{N > 0}`` is no half-space and no hyperplane is the
  boundary;
* ``thm51_violated``: the Theorem 5.1 sign test (r = 0, so every x is in its regime) finds
  violations.

Signs are exact (:mod:`proofs_check.kit.signs`).  The control runs the same certificates on
leaky nets (Corollary 6.1 says they must all fail there).
"""
from __future__ import annotations


import numpy as np

import linteach as lt

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of
from ..kit.audit import audit_cases
from ..kit.certified import certify_band
from ..kit.geometry import clustered_copies
from ..kit.items import map_cases
from ..kit.signs import TIE, output_signs, sign_agreement

__all__ = ["CLAIM", "check", "witness_points", "evaluate_cases"]

#: cases per ``ctx.map`` item (each its own certificate: items of about a second)
CHUNK = 32

CLAUSES = ("zero_region", "nonlinear_boundary", "thm51_violated")
CLAIM = Claim(
    id="appD.1",
    statement="a perfectly clustered ReLU net with two neurons (w, u) outputs 0 on the cone "
              "{w·x ≤ 0, u·x ≤ 0} and its decision boundary is not linear",
    reference="App. D.1, Fig. 5 (docs/math.md §5)",
    hypotheses="α = 0 (ReLU); w and u linearly independent",
    cases="random w, u in R^d (d 2–10, log-uniform scales), k = 1 and k copies (k ≤ 10), "
          "v drawn; 400 random points filtered to the open cone",
    control="the same certificates on leaky nets (α in (0.05, 0.95)) must FAIL",
    clauses=(Clause("zero_region", "depth inside the open cone of the sampled points where "
                    "N = 0 exactly (< 0: a cone point with N ≠ 0); proved for the whole cone when "
                    "α = 0 and every row is exactly w or u (each pre-activation is then ≤ 0 on "
                    "the cone and σ(z) = 0 there)", evidence="proved",
                    slack_unit="cone depth as a fraction of ‖x‖"),
             Clause("nonlinear_boundary", "+1 when two points with N ≤ 0 have a midpoint with "
                    "N > 0, all three signs exact", evidence="proved",
                    slack_unit="±1 (witness found / not)"),
             Clause("thm51_violated", "largest |cos∠(x, w − u)| of a disagreeing point: sampled, "
                    "and the exact decision's witness; −1 when the exact decision certifies "
                    "agreement for every x", evidence="proved",
                    slack_unit="|cos∠(x, w − u)| (−1: none)"),
             ENGINE))

#: the band of the exact decision: r = 0, so every band is the whole space
BAND = 0.0

#: random points drawn per case before keeping those in the open cone
DRAWS = 400


def witness_points(w, u) -> np.ndarray:
    """``x1, x2, (x1 + x2)/2`` with ``(w·x, (w − u)·x)`` = (2, −1), (−1, 2), (½, ½).

    For ReLU (k copies, any v): ``u·x1 = 3 > w·x1 = 2`` so N(x1) < 0; ``w·x2 = −1`` and
    ``u·x2 = −3`` so N(x2) = 0; ``w·m = ½ > u·m = 0`` so N(m) > 0.  For a leaky net
    N(x2) = 2αvk > 0, and no such pair exists.  Least-norm solutions of the two equations.
    """
    A = np.stack([w, w - u])
    targets = np.array([[2.0, -1.0], [-1.0, 2.0]])
    x1, x2 = (np.linalg.lstsq(A, t, rcond=None)[0] for t in targets)
    return np.stack([x1, x2, 0.5 * (x1 + x2)])


def _net(case: Case, alpha):
    rng = case.rng
    d = int(rng.integers(2, 11))
    k = 1 if rng.random() < 0.5 else int(rng.integers(2, 11))
    a = 0.0 if alpha is None else float(rng.uniform(*alpha))
    scale = np.exp(rng.uniform(np.log(1e-2), np.log(1e2), 2))
    w, u = scale[0] * rng.standard_normal(d), scale[1] * rng.standard_normal(d)
    v = float(np.exp(rng.uniform(np.log(0.2), np.log(5.0))))
    return lt.Net(k=k, alpha=a, v=v), w, u, rng


def _evaluate(case: Case, alpha) -> dict:
    net, w, u, rng = _net(case, alpha)
    W = clustered_copies(w, u, net.k)
    X = rng.standard_normal((DRAWS, len(w)))
    X = X[(X @ w < 0) & (X @ u < 0)]
    out = {"alpha": net.alpha, "k": net.k, "cone_points": int(len(X)),
           "cone_certified": bool(net.alpha == 0.0 and np.all(W[:net.k] == w)
                                  and np.all(W[net.k:] == u))}
    # zero region: exact N = 0 on the open cone; slack = the point's depth inside the cone
    if len(X):
        signs = output_signs(net, W, X)
        depth = np.minimum(-(X @ w) / np.linalg.norm(w), -(X @ u) / np.linalg.norm(u)) \
            / np.linalg.norm(X, axis=1)
        N = net.forward(W, X)
        scale = net.v * (np.abs(X) @ np.abs(W).T).sum(axis=1)
        out["zero_region"] = np.where(signs == 0, depth, np.minimum(-np.abs(N) / scale, -TIE))
    else:
        out["zero_region"] = np.array([-1.0])  # no cone found: the region is not exhibited
    # non-linear boundary: N(x1) ≤ 0, N(x2) ≤ 0, N(midpoint) > 0, all exact
    P = witness_points(w, u)
    s = output_signs(net, W, P)
    held = s[0] <= 0 and s[1] <= 0 and s[2] > 0
    out["nonlinear_boundary"] = 1.0 if held else -1.0
    out["witness_signs"] = s.tolist()
    # Theorem 5.1 violated: the largest |cos∠(x, w − u)| among violating points (−1: none)
    Y = np.concatenate([X, rng.standard_normal((100, len(w)))])
    info = sign_agreement(net, W, Y, c=BAND)
    bad = ~info["agree"]
    cosines = np.abs(info["D"]) / (np.linalg.norm(w - u) * np.linalg.norm(Y, axis=1))
    out["thm51_violated"] = float(cosines[bad].max()) if bad.any() else -1.0
    out["violations"] = int(bad.sum())
    # every x at once: an exact witness (ReLU) or a re-checked certificate (the leaky control)
    cert = certify_band(W, net.alpha, BAND)
    out["status"], out["reason"] = cert["status"], cert.get("reason")
    if cert["status"] == "witness":
        x = np.asarray(cert["x"])
        cos = abs(float((w - u) @ x)) / (np.linalg.norm(w - u) * np.linalg.norm(x))
        out["thm51_violated"] = max(out["thm51_violated"], cos)
    elif cert["status"] == "proved":
        out["thm51_violated"] = -1.0
    return out


def evaluate_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, alpha range or None for ReLU)``."""
    cases, alpha = item
    return [_evaluate(case, alpha) for case in cases]


def _run(ctx, *, alpha=None, count=20):
    cases = ctx.cases(ctx.n(count), "random")
    if not cases:
        return
    for case, res in zip(cases, map_cases(ctx, evaluate_cases, cases, alpha, chunk=CHUNK)):
        detail = {"alpha": res["alpha"], "k": res["k"], "cone_points": res["cone_points"]}
        ctx.record("zero_region", res["zero_region"], case,
                   evidence="proved" if res["cone_certified"] else "observed", **detail)
        ctx.record("nonlinear_boundary", res["nonlinear_boundary"], case,
                   witness_signs=res["witness_signs"], **detail)
        decided = res["status"] != "undecided"
        ctx.record("thm51_violated", res["thm51_violated"], case, violations=res["violations"],
                   evidence="proved" if decided else "observed", status=res["status"],
                   reason=res["reason"], **detail)


def check(ctx: Context) -> None:
    _run(ctx)
    audit_cases(ctx, ctx.drawn, audit_subject)
    sub = ctx.control_context("control")
    _run(sub, alpha=(0.05, 0.95), count=10)
    verdict = verdict_of(sub)
    failed = {c: sub.worst[c].violations for c in CLAUSES if c in sub.worst}
    ctx.negative_control(verdict == "FAIL" and all(failed.get(c, 0) > 0 for c in CLAUSES),
                         "leaky nets (α in (0.05, 0.95)) must fail every certificate",
                         controls=sub, verdict=verdict, violations=failed)


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s ReLU net (k copies of w and of u) and its random points, as drawn."""
    net, w, u, rng = _net(case, None)
    return {"net": net, "W": clustered_copies(w, u, net.k),
            "X": rng.standard_normal((DRAWS, len(w)))}
