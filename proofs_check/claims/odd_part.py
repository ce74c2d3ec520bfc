"""The odd part of the network is Theorem 5.1's linear predictor (``odd-part``, docs/math.md §10).

``σ(z) = ((1+α)/2) z + ((1−α)/2)|z|``, so ``σ(z) − σ(−z) = (1+α) z`` and for every W and x

    N_W(x) − N_W(−x) = v (1+α) Σ_j (w_j − u_j)·x = v k (1+α) (w̄ − ū)·x.

Checked three ways: in floating point to rounding over random and trained nets (batched,
``R`` nets per case), exactly in rationals on small integer nets (``fractions.Fraction``:
evidence ``proved`` per case), and through its consequence on antipodal data: the pair
``(x_i, −x_i)`` gives ``q_i + q_i' = v k (1+α) y_i (w̄ − ū)·x_i`` and ``‖W‖ ≥ √(k/2)‖w̄ − ū‖``,
so **every** net has ``γ̄(W) ≤ v (1+α) √(k/2) γ_SVM`` there, with equality for k copies of
``±w_SVM``: the global max margin on antipodal data is the linear SVM's (Lemma 6.1's data,
as a statement about the linear predictor).  Controls: nets with biases (App. K lifting),
whose odd part is not linear, and the constant halved (``v k (1+α)/2``, the odd part proper
rather than the difference).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

import linteach as lt

from ..engine.contract import ENGINE, Case, Claim, Clause, digest
from ..engine.context import Context, verdict_of
from ..kit import followup
from ..kit.audit import audit_cases
from ..kit.flow import span
from ..kit.items import map_cases

__all__ = ["CLAIM", "CLAUSES", "FAMILIES", "ROUNDING_TOL", "MARGIN_TOL", "NETS", "check",
           "evaluate", "exact_case", "identity_slack", "margin_slack", "control_biases"]

#: cases per ``ctx.map`` item (items of a few seconds)
CHUNK = 16

CLAUSES = ("identity_float", "identity_exact", "antipodal_margin_bound")
CLAIM = Claim(
    id="odd-part",
    statement="for every W and x, N_W(x) − N_W(−x) = v k (1+α) (w̄ − ū)·x; hence on antipodal "
              "data every net has γ̄(W) ≤ v (1+α) √(k/2) γ_SVM, attained by k copies of ±w_SVM",
    reference="docs/math.md §10 (our derivation; the bias-free ReLU case of the odd-part "
              "statement is Zhang, Saxe & Latham, TMLR 2025)",
    hypotheses="none beyond the model: no biases, 0 ≤ α < 1, v > 0 (the margin bound needs "
               "exactly antipodal, linearly separable data)",
    cases="random nets (k 1–8, d 1–10, α in [0, 1), v in [0.1, 3], weight scales 1e-3–1e3, 16 "
          "per case), GD-trained nets (symmetric Gaussians and ball sets, inits 1e-2 and 1), "
          "small integer nets checked exactly in rationals, and antipodal sets with random, "
          "GD-trained and late-phase-flow nets plus the lifted SVM",
    control="the same identity for nets with biases (App. K lifting, x' = (x, 1), the "
            "reflection (−x, 1); w-neuron biases above every |w·x|, where the two sides differ "
            "by exactly v(1−α)Σ_j w_j·x), and with the mutant constant v k (1+α)/2, must FAIL "
            "in floating point and exactly, on every case",
    clauses=(Clause("identity_float", "1 − max residual / (ROUNDING_TOL · Σ|terms|)",
                    slack_unit="residual over ROUNDING_TOL·Σ|terms|"),
             Clause("identity_exact", "+1 if both sides are equal as rationals, −1 if not",
                    evidence="proved", slack_unit="±1 (exactly equal / not)"),
             Clause("antipodal_margin_bound",
                    "1 − γ̄(W) / (v(1+α)√(k/2) γ_SVM) + MARGIN_TOL on antipodal data",
                    slack_unit="relative to v(1+α)√(k/2)γ_SVM"),
             ENGINE))

#: floating-point residual allowed, relative to the summed absolute terms (unit roundoff is
#: 1.1e-16; a dot product of d terms and a sum of 2k neurons round at ~(d + 2k)·1e-16)
ROUNDING_TOL = 1e-12
#: the margin bound's slack for rounding (relative)
MARGIN_TOL = 1e-9
#: nets per case (one batched array program)
NETS = 16
#: points per case
POINTS = 20
#: late-phase flow steps (turn 0.01) after the GD phase of the antipodal family
FLOW_STEPS = 600
FAMILIES = {"random": 6, "trained": 4, "exact": 8, "antipodal": 4}


def identity_slack(residual, scale) -> float:
    """``1 − max residual / (ROUNDING_TOL · scale)``; ≥ 0 iff the identity held to rounding."""
    rel = np.max(residual / np.maximum(scale, np.finfo(float).tiny))
    return float(1.0 - rel / ROUNDING_TOL)


def margin_slack(gamma, bound) -> float:
    """``1 − max γ̄ / bound + MARGIN_TOL``."""
    return float(1.0 - np.max(gamma) / bound + MARGIN_TOL)


def _random_net(rng, bias: bool):
    k, d = int(rng.integers(1, 9)), int(rng.integers(1, 11))
    alpha = 0.0 if rng.random() < 0.25 else float(rng.uniform(0.0, 0.99))  # ReLU included
    net = lt.Net(k=k, alpha=alpha, v=float(rng.uniform(0.1, 3.0)))
    scale = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), (NETS, 1, 1)))
    W = net.init(d + bias, scale=1.0, rng=rng, batch=NETS) * scale
    X = rng.standard_normal((POINTS, d)) * np.exp(rng.uniform(-3, 3, (POINTS, 1)))
    if bias:
        W = control_biases(W, X, k)
    return net, W, X


def control_biases(W, X, k: int):
    """The control's lifted nets: w-neuron biases above every ``|w_j·x|``, u biases 0.

    Then ``σ(z + b) − σ(−z + b) = 2z`` on every point, and the difference of the two sides
    is exactly ``v (1−α) Σ_j w_j·x`` — nonzero unless ``Σ_j w_j ⊥ x``.  (Arbitrary biases
    can cancel on a finite point set: a w and a u neuron with equal biases and
    ``|z| > |b|`` contribute ``(1−α)b`` each, with opposite signs.)
    """
    W = W.copy()
    top = np.abs(X @ np.swapaxes(W[..., :k, :-1], -1, -2)).max(axis=(-2, -1))
    W[..., :k, -1] = 2.0 * top[..., None] + 1.0
    W[..., k:, -1] = 0.0
    return W


def _residual(net, W, X, variant):
    """The identity's residual and scale; ``variant`` 'bias' (lifted inputs) or 'half' (the
    mutant constant ``v k (1+α)/2``) are the negative controls."""
    bias = variant == "bias"
    if variant == "half":
        res, scale = followup.odd_residual(net, W, X)
        w_bar, u_bar = lt.neuron_means(W)
        half = 0.5 * net.v * net.k * (1.0 + net.alpha) * (X @ (w_bar - u_bar)[..., :, None])[
            ..., 0]
        return np.abs(net.forward(W, X) - net.forward(W, -X) - half), scale
    if not bias:
        return followup.odd_residual(net, W, X)
    Xp, Xm = lt.augment_bias(X), lt.augment_bias(-X)
    w_bar, u_bar = lt.neuron_means(W[..., :, :-1])
    lin = net.v * net.k * (1.0 + net.alpha) * (X @ (w_bar - u_bar)[..., :, None])[..., 0]
    odd = net.forward(W, Xp) - net.forward(W, Xm)
    scale = net.v * (1.0 + net.alpha) * (np.abs(Xp @ np.swapaxes(W, -1, -2)).sum(-1)
                                         + np.abs(Xm @ np.swapaxes(W, -1, -2)).sum(-1))
    return np.abs(odd - lin), scale


def _trained(rng):
    d = int(rng.integers(2, 8))
    net = lt.Net(k=int(rng.integers(2, 9)), alpha=float(rng.uniform(0.05, 0.5)))
    if rng.random() < 0.5:
        X, y = followup.antipodal(rng, 2 * int(rng.integers(5, 21)), d)
    else:
        X, y = followup.correlated(rng, 30, d)
    W0 = net.init(d, scale=1.0, rng=rng, batch=NETS) * np.repeat([1e-2, 1.0], NETS // 2)[:, None,
                                                                                           None]
    W = lt.gd(net, W0, (X, y), eta=0.5, n_steps=300).W
    return net, W, np.vstack([X, rng.standard_normal((POINTS, d))])


def _exact_sides(Wi, Xi, alpha: Fraction, v: Fraction, k: int, bias: bool, factor=1):
    """Both sides of the identity in rationals, per point: ``(N(x) − N(−x), v k (1+α)(w̄−ū)·x)``."""
    def sig(z):
        return z if z > 0 else alpha * z

    def net_out(x):
        pre = [sum(Fraction(a) * b for a, b in zip(row, x)) for row in Wi]
        return v * (sum(sig(z) for z in pre[:k]) - sum(sig(z) for z in pre[k:]))

    out = []
    for x in Xi:
        xp, xm = (list(x) + [1], [-c for c in x] + [1]) if bias else (list(x), [-c for c in x])
        lin = factor * v * (1 + alpha) * sum((Fraction(int(Wi[j][c])) - int(Wi[k + j][c])) * int(x[c])
                                    for j in range(k) for c in range(len(x)))
        out.append((net_out(xp) - net_out(xm), lin))
    return out


def exact_case(rng, variant=None) -> dict:
    """A small integer net (k 1–3, d 1–3, entries −5…5, α = p/q) checked in rationals."""
    bias = variant == "bias"
    k, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    q = int(rng.integers(2, 11))
    alpha, v = Fraction(int(rng.integers(0, q)), q), Fraction(int(rng.integers(1, 8)),
                                                              int(rng.integers(1, 5)))
    Wi = rng.integers(-5, 6, (2 * k, d + bias))
    Xi = rng.integers(-5, 6, (6, d))
    if variant is not None:  # make the control's violation certain on the first point
        if bias:  # w biases 100 > every |w·x| (≤ 75), u biases 0: off by v(1−α)Σ_j w_j·x
            Wi[:k, -1], Wi[k:, -1] = 100, 0
            s = Wi[:k, :-1].sum(axis=0)
        else:     # the halved constant is off by v k (1+α)(w̄ − ū)·x/2
            s = Wi[:k].sum(axis=0) - Wi[k:].sum(axis=0)
        if not s.any():
            Wi[0, 0] += 1
            s[0] += 1
        Xi[0] = np.sign(s)  # s·x_0 = Σ|s_c| > 0
    factor = Fraction(1, 2) if variant == "half" else 1
    sides = _exact_sides(Wi.tolist(), Xi.tolist(), alpha, v, k, bias, factor)
    exact = all(a == b for a, b in sides)
    net = lt.Net(k=k, alpha=float(alpha), v=float(v))
    res, scale = _residual(net, Wi.astype(float), Xi.astype(float), variant)
    return {"exact": exact, "float_slack": identity_slack(res, scale),
            "alpha": str(alpha), "v": str(v), "k": k, "d": d, "data": digest(Wi)}


def _antipodal(rng) -> dict:
    from linteach import convex

    d = int(rng.integers(2, 8))
    net = lt.Net(k=int(rng.integers(2, 9)), alpha=float(rng.uniform(0.05, 0.5)))
    X, y = followup.antipodal(rng, 2 * int(rng.integers(5, 21)), d)
    w_svm = convex.svm_no_bias(X, y)
    bound = followup.lifted_svm_margin(net, w_svm)
    W0 = net.init(d, scale=1.0, rng=rng, batch=NETS) * np.repeat([1e-2, 1.0], NETS // 2)[:, None,
                                                                                           None]
    W_gd = lt.gd(net, W0, (X, y), eta=0.5, n_steps=300).W
    W_flow = followup.limit_run(net, W_gd, X, y, n_steps=FLOW_STEPS)["direction"]
    lifted = np.concatenate([np.tile(w_svm, (net.k, 1)), np.tile(-w_svm, (net.k, 1))])
    nets = np.concatenate([W0, W_gd, W_flow, lifted[None]])
    gamma = lt.normalized_margin(net, nets, X, y)
    res, scale = followup.odd_residual(net, nets, X)
    return {"gamma_max_ratio": float(gamma.max() / bound), "bound": bound,
            "flow_ratio": [float(g / bound) for g in gamma[2 * NETS:3 * NETS]],
            "lifted_ratio": float(gamma[-1] / bound), "margin_slack": margin_slack(gamma, bound),
            "float_slack": identity_slack(res, scale), "data": digest(X)}


def evaluate(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, variant)`` (variant: None, 'bias', 'half')."""
    cases, family, variant = item
    out = []
    for case in cases:
        rng = case.rng
        if family == "exact":
            out.append(exact_case(rng, variant))
        elif family == "antipodal":
            out.append(_antipodal(rng))
        else:
            net, W, X = (_random_net(rng, variant == "bias") if family == "random"
                         else _trained(rng))
            res, scale = _residual(net, W, X, variant)
            out.append({"float_slack": identity_slack(res, scale), "k": net.k, "d": X.shape[1],
                        "max_rel_residual": float(np.max(res / np.maximum(scale, 1e-300))),
                        "data": digest(W)})
    return out


def _run(ctx: Context, families: dict, variant) -> list:
    out = []
    for family, count in families.items():
        cases = ctx.cases(ctx.n(count), family)
        if not cases:  # a replay of another family
            continue
        for case, r in zip(cases, map_cases(ctx, evaluate, cases, family, variant, chunk=CHUNK)):
            ctx.ledger(case, data=r["data"])
            ctx.record("identity_float", r["float_slack"], case)
            if family == "exact":
                ctx.record("identity_exact", 1.0 if r["exact"] else -1.0, case,
                           alpha=r["alpha"], v=r["v"], k=r["k"], d=r["d"])
            if family == "antipodal":
                ctx.record("antipodal_margin_bound", r["margin_slack"], case,
                           gamma_max_ratio=r["gamma_max_ratio"])
            out.append((family, r))
    return out


def check(ctx: Context) -> None:
    results = _run(ctx, FAMILIES, None)
    audit_cases(ctx, ctx.drawn, audit_subject)
    anti = [r for f, r in results if f == "antipodal"]
    if anti:
        ctx.measure("antipodal", {
            "max_gamma_over_bound": max(r["gamma_max_ratio"] for r in anti),
            "lifted_svm_over_bound": span(r["lifted_ratio"] for r in anti),
            "flow_limit_over_bound": span(x for r in anti for x in r["flow_ratio"])})
    ctx.measure("max_relative_residual", max(
        (r.get("max_rel_residual", 0.0) for _f, r in results), default=None))
    subs = {}
    for variant in ("bias", "half"):
        subs[variant] = ctx.control_context(variant, clauses=("identity_float",
                                                              "identity_exact"))
        _run(subs[variant], {"random": 3, "exact": 3}, variant)
    caught = all(verdict_of(sub) == "FAIL" and all(
        w.violations == w.evaluated for w in sub.worst.values()) for sub in subs.values())
    ctx.negative_control(caught, "nets with biases (x' = (x, 1), reflected to (−x, 1)), and the "
                         "mutant constant v k (1+α)/2, must break the identity in floating point "
                         "and in rationals, every case", controls=list(subs.values()),
                         violations={v: {c: w.violations for c, w in sub.worst.items()}
                                     for v, sub in subs.items()},
                         evaluations={v: {c: w.evaluated for c, w in sub.worst.items()}
                                      for v, sub in subs.items()})



# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """A ``random`` case's nets and points, drawn as :func:`_random_net` draws them."""
    if case.family != "random":
        return None
    net, W, X = _random_net(case.rng, False)
    return {"net": net, "W": W, "X": X}
