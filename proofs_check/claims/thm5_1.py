"""Theorem 5.1 (``thm5.1``): outside the band ``|(w̄ − ū)·x| < 2r‖x‖`` the net is linear in sign.

Cases are random nets with a controlled cluster radius (:func:`linteach.strategies.
clustered_weights`) and points drawn uniformly, on the band edge, just inside and just
outside it (:func:`linteach.strategies.band_points`), plus the extremal construction of
docs/math.md §5.  Signs are decided exactly (:mod:`proofs_check.kit.signs`).

The band, the net draw and the slacks are shared with ``appK``
(:mod:`proofs_check.kit.linear_regime`).
"""
from __future__ import annotations


import numpy as np

import linteach as lt
from linteach.strategies import band_points

from ..engine.contract import ENGINE, Case, Claim
from ..engine.context import Context, verdict_of
from ..kit.linear_regime import (EDGE_OFFSET, NET_SPEC, draw_net, sharp,
                                 theorem51_slacks)
from ..kit.audit import audit_cases
from ..kit.signs import sign_agreement

__all__ = ["CLAIM", "FAMILIES", "check", "draw_points", "extremal_net", "sharp_constant",
           "evaluate_cases"]

CLAUSE = "sign_agreement_in_linear_regime"
CLAIM = Claim(
    id="thm5.1",
    statement="sign(N_W(x)) = sign((w̄ − ū)·x) for every x with |(w̄ − ū)·x| ≥ 2r‖x‖",
    reference="Theorem 5.1 (docs/math.md §5)",
    hypotheses="any W; 0 < α < 1; v > 0; r = max deviation of a neuron from its type's mean",
    cases="random nets (k 2–10, d 2–10, α in (0, 1), v ≠ 1, r/‖w̄ − ū‖ from 1e-6 to 0.5); "
          "tight (r down to 1e-16 relative, exact arithmetic), loose, many-neuron (k ≤ 200) "
          "and k = 1 families; points uniform, on the band edge, 1e-9 inside and outside it, "
          "and deep in the regime; the extremal construction of docs/math.md §5 at c ∈ [c*, 2]",
    control="ReLU (α = 0) nets must show violations; the constant shrunk to 0.9·(1−α)/(1+α) "
            "must show violations on the extremal construction",
    clauses=(CLAUSE, ENGINE))

#: shrink factor of the second negative control (strictly below the sharp constant)
SHRINK = 0.9
#: cases per family in each negative control (ReLU's zero cone needs exact arithmetic: slow)
CONTROL_CASES = 10
#: cases per ctx.map item (cases are cheap; this amortises the per-item overhead)
CHUNK = 8

#: families: ranges drawn from the case seed; ``points`` = (uniform, edge, inside, outside, deep)
FAMILIES = {
    "random": dict(NET_SPEC, count=60),
    "tight": dict(NET_SPEC, count=6, rel_r=(1e-16, 1e-9), center=(1.0, 1e3), points=(10, 20, 5, 5, 5)),
    "loose": dict(NET_SPEC, count=15, rel_r=(0.3, 0.49)),
    "many": dict(NET_SPEC, count=6, k=(50, 200)),
    "k1": dict(NET_SPEC, count=15, k=(1, 1), points=(200, 20, 5, 5, 0)),
    "extremal": dict(count=15, alpha=(0.01, 0.99), d=(2, 10)),
}


def draw_points(rng, W, counts, *, c=2.0):
    """Uniform, band-edge, just-inside, just-outside and deep-regime points for ``W``."""
    n_uni, n_edge, n_in, n_out, n_deep = counts
    d = W.shape[-1]
    U = rng.standard_normal((n_uni, d)) * np.exp(rng.uniform(np.log(0.1), np.log(10.0),
                                                             (n_uni, 1)))
    parts = [U]
    for n, factor in ((n_edge, c), (n_in, c * (1 + EDGE_OFFSET)), (n_out, c * (1 - EDGE_OFFSET))):
        parts.append(band_points(W, n, c=factor, rng=rng))
    gap = np.linalg.norm(np.subtract(*lt.neuron_means(W)))
    top = gap / max(float(lt.cluster_radius(W)), 1e-300) * (1 - 1e-12)  # largest reachable c
    deep = np.exp(rng.uniform(np.log(c), np.log(max(c, min(top, 1e6))), n_deep))
    parts += [band_points(W, 1, c=float(f), rng=rng) for f in deep]
    return np.concatenate(parts)


def extremal_net(alpha: float, r: float, c: float, *, d: int, rng, v: float = 1.0):
    """docs/math.md §5's extremal net and point: k = 2, w's at w̄, u's at ū ± r·x̂, and x̂.

    ``w̄·x̂ = 0``, ``ū·x̂ = −c·r``; the signs disagree exactly when ``c ≤ (1−α)/(1+α)``.
    Built on coordinate axes (then a random signed permutation: no rounding), so the
    construction is exact up to the one product ``c·r``.
    """
    W = np.zeros((4, d))
    p, q = rng.standard_normal(2)
    W[0, 1] = W[1, 1] = p                          # w1 = w2 = w̄ = (0, p, …)
    W[2, 0], W[3, 0] = -c * r + r, -c * r - r      # u = ū ± r e1, ū = (−c r, q, …)
    W[2, 1] = W[3, 1] = q
    x = np.zeros(d)
    x[0] = 1.0
    perm, signs = rng.permutation(d), np.where(rng.random(d) < 0.5, -1.0, 1.0)
    return lt.Net(k=2, alpha=alpha, v=v), (W * signs)[:, perm], (x * signs)[perm][None, :]


def sharp_constant(alpha: float, *, rng, iters: int = 60) -> float:
    """Largest ``c`` with a sign violation of the extremal net at ``|D| = c·r‖x‖``, by bisection."""
    lo, hi = 0.0, 2.0                               # violation at lo (D ≈ 0⁺), none at hi
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        net, W, x = extremal_net(alpha, 1.0, mid, d=2, rng=rng)
        if sign_agreement(net, W, x, c=0.0)["agree"][0]:
            hi = mid
        else:
            lo = mid
    return lo


def _evaluate(case: Case, family: str, alpha, c_factor):
    spec = FAMILIES[family]
    rng = case.rng
    if family == "extremal":
        a = float(rng.uniform(*spec["alpha"])) if alpha is None else alpha
        d = int(rng.integers(spec["d"][0], spec["d"][1] + 1))
        c = 2.0 if c_factor is None else c_factor * sharp(a)
        grid = np.concatenate([[sharp(a), 2.0], rng.uniform(sharp(a), 2.0, 4),
                               rng.uniform(2.0, 10.0, 2)])
        if c_factor is not None:  # the shrunk control: points between c and the sharp constant
            grid = np.linspace(c, sharp(a), 8, endpoint=False)
        r = float(np.exp(rng.uniform(np.log(1e-3), np.log(10.0))))
        built = [extremal_net(a, r, g, d=d, rng=rng) for g in grid]
        infos = [sign_agreement(net, W, x, c=c) for net, W, x in built]
        net = built[0][0]
        keys = ("slack", "in_regime", "agree", "ratio", "exact", "N", "D")
        info = {key: np.concatenate([i[key] for i in infos]) for key in keys}
    else:
        net, W = draw_net(rng, spec, alpha=alpha)
        c = 2.0 if c_factor is None else c_factor * sharp(net.alpha)
        info = sign_agreement(net, W, draw_points(rng, W, spec["points"], c=2.0), c=c)
    reg = info["in_regime"]
    out = {"family": family, "seed": case.seed, "alpha": net.alpha, "k": net.k,
           "c": c, "regime_points": int(reg.sum()), "points": int(len(reg)),
           "exact": int(info["exact"].sum()),
           "violation_ratios": info["ratio"][~info["agree"]].tolist()}
    if reg.any():
        slack = info["slack"][reg]
        j = int(np.argmin(slack))
        out.update(min_slack=float(slack[j]), slack=slack,
                   worst={key: float(info[key][reg][j]) for key in ("N", "D", "ratio")})
    return out


def evaluate_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, alpha override, constant factor)``."""
    cases, family, alpha, c_factor = item
    return [_evaluate(case, family, alpha, c_factor) for case in cases]


def _run(ctx, families, *, alpha=None, c_factor=None, count=None):
    results = []
    for family in families:
        cases = ctx.cases(ctx.n(count or FAMILIES[family]["count"]), family)
        chunks = [cases[i:i + CHUNK] for i in range(0, len(cases), CHUNK)]
        for chunk, outs in zip(chunks, ctx.map(evaluate_cases,
                                               [(ch, family, alpha, c_factor) for ch in chunks])):
            for case, out in zip(chunk, outs):
                if out["regime_points"]:
                    ctx.record(CLAUSE, out["slack"], case, alpha=out["alpha"], k=out["k"],
                               c=out["c"], **out["worst"])
                else:
                    ctx.inconclusive(case, "no point of this case fell in the linear regime")
                results.append(out)
    return results


def _control(ctx) -> None:
    verdicts, subs = {}, []
    for name, families, kwargs in (("relu", ("random", "k1"), {"alpha": 0.0}),
                                   ("shrunk", ("extremal",), {"c_factor": SHRINK})):
        sub = ctx.control_context(f"control-{name}")
        subs.append(sub)
        _run(sub, families, count=CONTROL_CASES, **kwargs)
        verdicts[name] = {"verdict": verdict_of(sub),
                          "violations": sub.worst[CLAUSE].violations if CLAUSE in sub.worst else 0}
    ctx.negative_control(all(v["verdict"] == "FAIL" for v in verdicts.values()),
                         "ReLU nets (α = 0), and the regime constant shrunk to "
                         f"{SHRINK}·(1−α)/(1+α) on the extremal construction, must both FAIL",
                         controls=subs, **verdicts)


def check(ctx: Context) -> None:
    results = _run(ctx, list(FAMILIES))
    if results:
        _measure(ctx, results)
    audit_cases(ctx, ctx.drawn, audit_subject)
    _control(ctx)


def _measure(ctx, results) -> None:
    evaluated = [r for r in results if r["regime_points"]]
    ctx.measure("points", {"total": sum(r["points"] for r in results),
                           "in_regime": sum(r["regime_points"] for r in results),
                           "decided_exactly": sum(r["exact"] for r in results)})
    if evaluated:
        low = min(r["min_slack"] / r["alpha"] for r in evaluated)
        ctx.measure("min_slack_over_alpha", low)
        ctx.note(f"quantitatively, s·N ≥ α·v·k·|D| on every regime point: min s·N/(α·v·k·|D|) = "
                 f"{low:.10f} (1 up to the float rounding of N and D; the signs themselves are "
                 "exact). The bound follows from the sharp analysis and is attained where "
                 "every neuron is off")
    ratios = [max(r["violation_ratios"]) / sharp(r["alpha"]) for r in results
              if r["violation_ratios"] and r["family"] != "extremal"]
    sharp_cases = ctx.cases(1, "sharp-constant")
    if not sharp_cases:  # replaying another family
        return
    alphas = (0.05, 0.3, 0.5, 0.7, 0.95)
    found = {a: sharp_constant(a, rng=sharp_cases[0].rng) for a in alphas}
    ctx.measure("sharp_constant", {
        "extremal_bisection": {str(a): {"found": c, "(1-a)/(1+a)": sharp(a), "paper": 2.0}
                               for a, c in found.items()},
        "random_nets_max_violation_ratio_over_sharp": max(ratios) if ratios else None,
        "random_nets_with_violations": len(ratios)})
    worst = max(abs(c / sharp(a) - 1.0) for a, c in found.items())
    ctx.note(f"sharp constant: the extremal construction violates sign agreement for every "
             f"c ≤ (1−α)/(1+α) (bisection within a relative {worst:.1e}, α ∈ {alphas}), and "
             "never above; random nets' violations reach at most "
             f"{max(ratios) if ratios else float('nan'):.3f}·(1−α)/(1+α). The paper's 2 is "
             "loose by (1+α)·2/(1−α) ≥ 2; at c = (1−α)/(1+α) exactly N = 0 (a tie), so "
             "docs/math.md §5's '≥' must be '>'")


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s net and points, drawn as :func:`_evaluate` draws them (extremal: its first net)."""
    spec, rng = FAMILIES.get(case.family), case.rng
    if spec is None:
        return None
    if case.family != "extremal":
        net, W = draw_net(rng, spec)
        return {"net": net, "W": W, "X": draw_points(rng, W, spec["points"], c=2.0)}
    a, d = float(rng.uniform(*spec["alpha"])), int(rng.integers(spec["d"][0], spec["d"][1] + 1))
    rng.uniform(sharp(a), 2.0, 4), rng.uniform(2.0, 10.0, 2)  # the grid's draws
    net, W, X = extremal_net(a, float(np.exp(rng.uniform(np.log(1e-3), np.log(10.0)))),
                             sharp(a), d=d, rng=rng)
    return {"net": net, "W": W, "X": X}
