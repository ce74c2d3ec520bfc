"""Engine audits: the engine's numbers on a claim's own cases against naive re-derivations.

A claim calls :func:`audit_cases` with a sample of its cases (:meth:`Context.audit_sample`)
and a module-level ``build(case) -> subject`` that rebuilds the case's objects from its
seed exactly as the check does.  A *subject* is a dict; every key present is audited
against :mod:`proofs_check.kit.audit_ref` (docs/math.md section in brackets):

* ``net``, ``W`` (``(2k, d)`` or runs ``(R, 2k, d)``), ``X`` — Eq. 1 per neuron (§1), r, the
  band mask ``|(w̄ − ū)·x| ≥ 2r‖x‖`` and the agreement pattern (§5, §6); with ``y`` also the
  mean loss, ∇L by the per-example loop of Eq. 3 and by central differences along random
  directions away from kinks (§2, §3), γ̄ and γ̃ (Eq. 5, summed loss, §4);
* ``sgd = {"eta", "epochs", "rng"}`` — ``linteach.sgd`` from ``W`` (the runs) with the
  visited indices recorded: each epoch a permutation, the documented draw (one
  ``rng.spawn`` child per run), and the trajectory replayed by a plain batch-1 loop (§3);
* ``flow = {"dt", "steps"}`` — plain Euler and the late-phase (normalized) flow replayed as
  Euler steps ``h_t = dt‖W‖/‖∇L‖`` with the recorded continuous time against the step
  times (arc length over a speed log-linear along each step), at
  the start and again deep in the late phase, where ∇L/L is checked by central differences
  of ``log L_sum`` and the trace's γ̄, γ̃ against Eq. 5 (§4);
* ``teacher`` (SVM), ``eq8 = (alpha, w, u)``, ``pattern = (alpha, side_w, side_u, k, v, W)``
  and ``a4 = (X as given to the LP, its Assumption4Result)`` — each solver answer re-verified in NumPy by its KKT
  residuals (stationarity, primal and dual feasibility, complementarity) or, for the
  Assumption 4 LPs, by the optimum of the dual LP with its certificate re-checked (§3, §6, §7);
* ``bounds`` — Theorem 4.1's constants (ε0, T_exact, M) the check used, recomputed (§3).

Workers return plain findings; :func:`record_findings` turns them into ``ctx.audit`` calls.
"""
from __future__ import annotations

import importlib

import math

import numpy as np

import linteach as lt

from . import audit_ref as ref

__all__ = ["ROUND", "KKT_TOL", "FD_RTOL", "TRAJECTORY_RTOL", "FLOW_STEPS", "LATE_STEPS",
           "audit_subject", "audit_item", "audit_cases", "record_findings", "bound_findings"]

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


def _finding(quantity, engine, reference, *, rtol=0.0, atol=0.0, evidence="proved"):
    return {"quantity": quantity, "engine": np.asarray(engine, dtype=float),
            "reference": np.asarray(reference, dtype=float), "rtol": rtol,
            "atol": np.asarray(atol, dtype=float), "evidence": evidence}


def _net_findings(net, W, X, y) -> list:
    a, v = net.alpha, net.v
    terms = (np.abs(X) @ np.abs(W).T).sum(axis=1) * v  # Σ_j Σ_l v|x_l w_jl|: the sum's terms
    out = [_finding("forward (Eq. 1)", net.forward(W, X), ref.forward(W, X, a, v),
                    atol=ROUND * terms + 1e-300),
           _finding("cluster radius r", lt.cluster_radius(W), ref.cluster_radius(W),
                    rtol=ROUND, atol=ROUND * np.abs(W).max())]
    mask, lhs, rhs = ref.band_mask(W, X)
    # decidable points: farther from the edge than the rounding of both sides (the means
    # round at ~1e-16·max|W|, so r is uncertain by that much however small it is)
    unc = 10 * ROUND * np.abs(X) @ (2 * np.abs(W).max(axis=0)) \
        + 10 * ROUND * 2 * np.abs(W).max() * np.linalg.norm(X, axis=1)
    far = np.abs(lhs - rhs) > unc + 1e-9 * np.maximum(lhs, rhs)
    out.append(_finding("band mask |(w̄−ū)·x| ≥ 2r‖x‖", lt.linear_regime(W, X)[far], mask[far]))
    if np.all(np.linalg.norm(W, axis=1) > 1e-6 * np.linalg.norm(W)):
        side_w, side_u, beta = ref.agreement(W, X)
        cos = (W / np.linalg.norm(W, axis=1, keepdims=True)) @ X.T
        clear = np.all(np.abs(cos) > 1e-12 * np.linalg.norm(X, axis=1), axis=0)
        eng = lt.agreement(W[None], X)  # with a run axis: the pattern even outside an NAR
        out += [_finding("agreement pattern side_w", eng.side_w[0][clear], side_w[clear]),
                _finding("agreement pattern side_u", eng.side_u[0][clear], side_u[clear]),
                _finding("NAR margin β", eng.beta[0], beta, rtol=1e-12, atol=1e-15)]
    if y is None:
        return out
    pw, pu, all_in, n_diff = ref.par(W, X, y)
    out += [_finding("PAR fractions (w, u)", lt.par_fractions(W, X, y), [pw, pu], rtol=1e-15),
            _finding("in PAR", lt.in_par(W, X, y), all_in),
            _finding("max n_diff (w, u)", lt.max_n_diff(W, X), n_diff)]
    q = y * ref.forward(W, X, a, v)
    L, G = net.loss_and_grad(W, X, y)
    gscale = ROUND * v * np.abs(X).max()  # n terms of size ≤ v|x|/n each
    out += [_finding("mean loss L (Eq. 2)", L, ref.mean_loss(q), rtol=1e-12),
            _finding("∇L, per-example loop of Eq. 3", G, ref.grad_mean_loss(W, X, y, a, v),
                     atol=gscale + 1e-300),
            _finding("normalized margin γ̄", lt.normalized_margin(net, W, X, y),
                     ref.normalized_margin(W, X, y, a, v), rtol=1e-12)]
    lsum = math.exp(ref.log_sum_loss(q))
    if 0 < lsum < 700:
        out.append(_finding("smoothed margin γ̃ (Eq. 5, summed loss)",
                            lt.smoothed_margin(net, W, X, y), ref.smoothed_margin(W, X, y, a, v),
                            rtol=1e-10, atol=1e-12))
    out += _fd_findings(net, W, X, y, G)
    return out


def _fd_findings(net, W, X, y, G, n_dir: int = 3) -> list:
    """Central differences of the engine's loss along random unit directions, away from kinks."""
    Z = X @ W.T
    kink = float((np.abs(Z) / np.linalg.norm(X, axis=1, keepdims=True)).min())
    if not kink > 0:
        return []
    rng = np.random.default_rng(len(X) * 7919 + W.size)  # fixed by the case's sizes
    # no pre-activation changes sign on [W − hE, W + hE] (‖E‖ = 1), and the margins move by
    # ≪ 1 (large W: the loss's curvature does not shrink with ‖W‖): truncation ~h²
    h = min(0.1 * kink, 1e-4 / (net.v * np.linalg.norm(X, axis=1).max()))
    out = []
    for _ in range(n_dir):
        E = rng.standard_normal(W.shape)
        E /= np.linalg.norm(E)
        fd = (net.loss(W + h * E, X, y) - net.loss(W - h * E, X, y)) / (2 * h)
        exact = float(np.sum(G * E))
        noise = 4 * np.finfo(float).eps * float(net.loss(W, X, y)) / h
        out.append(_finding("∇L by central differences", exact, fd, rtol=FD_RTOL,
                            atol=noise + FD_RTOL * np.linalg.norm(G), evidence="probed"))
    return out


def _sgd_findings(net, W0, X, y, spec) -> list:
    R, n = W0.shape[0], len(X)
    rng, again = spec["rng"], spec["rng_again"]  # two identical fresh generators
    expected = again.spawn(R) if R > 1 else [again]
    seen = []
    run = lt.sgd(net, W0, (X, y), eta=spec["eta"], n_epochs=spec["epochs"], rng=rng,
                 callback=lambda t, W, info: seen.append(np.atleast_1d(info["index"]).copy()))
    order = np.stack(seen)  # (epochs·n, R)
    out = []
    for r in range(R):  # every run's orders; the (slow) replay for the extreme inits only
        epochs = order[:, r].reshape(spec["epochs"], n)
        drawn = np.stack([expected[r].permutation(n) for _ in range(spec["epochs"])])
        out += [_finding("SGD epoch visits each point once", np.sort(epochs, axis=1),
                         np.tile(np.arange(n), (spec["epochs"], 1))),
                _finding("SGD order = documented draw (rng.spawn child per run)", epochs, drawn)]
        if r not in (0, R - 1):
            continue
        W_ref = ref.sgd_replay(W0[r], X, y, order[:, r], spec["eta"], net.alpha, net.v)
        W_eng = run.W[r] if R > 1 else run.W
        out.append(_finding("SGD trajectory replayed (batch 1, Eq. 3)", W_eng, W_ref,
                            atol=TRAJECTORY_RTOL * (np.abs(W_ref).max() + spec["eta"])))
    return out


def _flow_findings(net, W0, X, y, spec) -> list:
    a, v, dt, steps = net.alpha, net.v, spec["dt"], FLOW_STEPS
    scale = np.abs(W0).max()
    h = spec.get("euler_dt", 1.0)
    eu = lt.gradient_flow(net, W0, (X, y), dt=h, n_steps=steps, record="all")
    out = [_finding("plain Euler replayed", eu.W, ref.euler_replay(W0, X, y, h, steps, a, v),
                    atol=TRAJECTORY_RTOL * scale),
           _finding("plain Euler continuous time", eu.log_time, math.log(h * steps),
                    atol=1e-14)]
    out += _normalized(net, W0, X, y, dt, "early")
    late = lt.gradient_flow(net, W0, (X, y), dt=spec.get("late_dt", 0.05), n_steps=LATE_STEPS,
                            normalized=True, record=2)
    if late.W is not None and np.all(np.isfinite(late.W)):
        out += _normalized(net, late.W, X, y, dt, "late")
        out += [dict(f, quantity=f"{f['quantity']} (late)")  # the NAR / PAR the flow reached
                for f in _net_findings(net, late.W, X, y)]
        agree = lt.agreement(late.direction, X) if spec.get("pattern_from_late") else None
        if agree is not None:  # the claim's (P) program, in the pattern the flow reached
            from linteach import convex
            W_pred = convex.nar_program(X, y, net.alpha, *agree.c(net.alpha), k=net.k, v=net.v)
            out += _kkt("pattern-restricted (P)", W_pred, *ref.pattern_rows(
                X, y, net.alpha, agree.side_w, agree.side_u, net.k, net.v))
        d, ln = late.direction, float(late.log_norm)
        log_lsum, Gn = ref.grad_over_loss(d, ln, X, y, a, v)
        rng = np.random.default_rng(W0.size)
        E = rng.standard_normal(d.shape)
        E /= np.linalg.norm(E)
        kink = float((np.abs(X @ d.T) / np.linalg.norm(X, axis=1, keepdims=True)).min())
        if kink > 0:
            # no kink crossed, and a step small against the scale-free curvature of log L_sum
            # (∇q does not grow with ‖W‖): truncation ~h², rounding ~1e-16·|log L_sum|/h
            h = min(0.1 * kink * math.exp(ln), 1e-4 / (v * np.linalg.norm(X, axis=1).max()))
            W = late.W
            plus = ref.log_sum_loss(y * ref.forward(W + h * E, X, a, v))
            minus = ref.log_sum_loss(y * ref.forward(W - h * E, X, a, v))
            out.append(_finding("late-phase ∇L/L by central differences of log L_sum",
                                float(np.sum(Gn * E)) , (plus - minus) / (2 * h),
                                rtol=FD_RTOL, atol=FD_RTOL * np.linalg.norm(Gn)
                                + 4e-16 * abs(log_lsum) / h, evidence="probed"))
    return out


def _normalized(net, W0, X, y, dt, when) -> list:
    a, v = net.alpha, net.v
    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=FLOW_STEPS, normalized=True,
                           record="all")
    W_ref, log_time = ref.normalized_replay(W0, X, y, dt, FLOW_STEPS, a, v)
    W_eng = run.direction * np.exp(run.log_norm)
    tr = run.trace
    out = [_finding(f"normalized flow = Euler with h = dt‖W‖/‖∇L‖ ({when})", W_eng, W_ref,
                    atol=TRAJECTORY_RTOL * np.abs(W_ref).max()),
           # log h_t holds log L_sum, which moves by |q|·δ when W moves by a relative δ
           _finding(f"recorded continuous time = Σ step times ({when})", run.log_time, log_time,
                    atol=TRAJECTORY_RTOL * (1 + np.abs(tr["log_loss"]).max())),
           _finding(f"trace γ̄ ({when})", tr["normalized_margin"][-1],
                    ref.normalized_margin(W_ref, X, y, a, v), rtol=1e-9, atol=1e-12)]
    lsum = math.exp(ref.log_sum_loss(y * ref.forward(W_ref, X, a, v)))
    if 0 < lsum < 700:
        out.append(_finding(f"trace γ̃, Eq. 5 with the summed loss ({when})",
                            tr["smoothed_margin"][-1], ref.smoothed_margin(W_ref, X, y, a, v),
                            rtol=1e-8, atol=1e-10))
    return out


def _kkt(name, theta, G, h) -> list:
    res = ref.qp_kkt(theta, G, h)
    return [_finding(f"{name}: KKT {key}", value, 0.0, atol=KKT_TOL) for key, value in res.items()]


def _solver_findings(subject) -> list:
    X, y = subject["X"], subject["y"]
    out = []
    if "teacher" in subject:
        out += _kkt("SVM teacher", subject["teacher"], *ref.svm_rows(X, y))
    if "eq8" in subject:
        alpha, w, u = subject["eq8"]
        out += _kkt("Eq. 8", np.concatenate([w, u]), *ref.eq8_rows(X, y, alpha))
    if "pattern" in subject:
        alpha, side_w, side_u, k, v, W = subject["pattern"]
        out += _kkt("pattern-restricted (P)", W, *ref.pattern_rows(X, y, alpha, side_w, side_u,
                                                                   k, v))
    if "a4" in subject:
        X, res = subject["a4"]  # the points as the LP was given them
        U = X / np.linalg.norm(X, axis=1, keepdims=True)
        eng, mine = [], []
        for j in range(len(y))[::max(1, -(-len(y) // MAX_LP_POINTS))]:
            cls = -y[j]
            P = cls * U[y == cls]
            s = ref.a4_slack(P, cls * U[j])
            if np.isfinite(s) and np.isfinite(res.slack[j]) and res.slack[j] > -1:
                eng.append(res.slack[j])
                mine.append(s)
        out.append(_finding("Assumption 4 LP slack (dual LP)", eng, mine, rtol=1e-7, atol=1e-7))
        if res.witness is not None:
            j = res.witness_index
            other = X[y == -y[j]] * -y[j]
            out.append(_finding("Assumption 4 witness z·x ≥ 1 on the other class",
                                min(1.0, float((other @ (-y[j] * res.witness)).min())), 1.0,
                                atol=1e-9))
    return out


#: T_exact and M are rounded *up* by 2^-40 (linteach.bounds.ROUND_UP) so that neither is
#: reported below the exact root; allowed on top of a few ulps of evaluation
BOUND_RTOL = {"eps0": 1e-13, "T_exact": 1e-12 + 2.0**-40, "M": 1e-12 + 2.0**-40}


def _constants(inputs, engine) -> list:
    mine = ref.sgd_constants(**inputs)
    out = [_finding(f"Thm 4.1 {key}", engine[key], mine[key], rtol=BOUND_RTOL[key])
           for key in ("eps0", "T_exact", "M") if key in engine]
    for key in ("T_exact", "M"):  # upper bounds: never reported below their exact value
        if key in engine:
            below = max(0.0, mine[key] * (1 - 1e-14) - float(engine[key]))
            out.append(_finding(f"Thm 4.1 {key} not below its exact value", below, 0.0))
    return out


def bound_findings(res: dict) -> list:
    """Theorem 4.1's constants in one :func:`run_sgd_case` result (the ones its verdict
    used, ε0 from the check's own monitor), recomputed from §3."""
    cfg, out = res["config"], []
    for i, r0 in enumerate(np.asarray(res["R_0"])):
        for e, eps in enumerate(cfg["eps"]):
            inputs = dict(n=cfg["n"], eps=eps, R_x=cfg["R_x"], R_0=float(r0), alpha=cfg["alpha"],
                          k=cfg["k"], eta=cfg["eta"], v=cfg["v"], w_star_norm=cfg["w_star_norm"])
            out += _constants(inputs, {"T_exact": np.asarray(res["T_exact"])[i, e],
                                       "M": np.asarray(res["M"])[i, e],
                                       "eps0": np.asarray(res["eps0"])[e]})
    return out


def audit_subject(subject: dict) -> list:
    """Every finding on one subject (see the module docstring)."""
    out = []
    if "net" in subject:
        net, X = subject["net"], np.asarray(subject["X"], float)
        y = subject.get("y")
        W = np.asarray(subject["W"], float)
        runs = W if W.ndim == 3 else W[None]
        pick = slice(None, None, max(1, -(-len(X) // MAX_POINTS)))  # spread over the set
        Xs, ys = X[pick], None if y is None else np.asarray(y, float)[pick]
        for Wr in runs[:2]:
            out += _net_findings(net, Wr, Xs, ys)
        if "sgd" in subject:
            out += _sgd_findings(net, runs, X, np.asarray(y, float), subject["sgd"])
        if "flow" in subject:
            out += _flow_findings(net, runs[0], Xs, ys, subject["flow"])
    if any(key in subject for key in ("teacher", "eq8", "pattern", "a4")):
        out += _solver_findings(subject)
    for inputs, engine in subject.get("bounds", ()):
        out += _constants(inputs, engine)
    return out


def audit_item(item) -> list:
    """``ctx.map`` worker: ``item = (build name, case, extra)``; returns plain findings.

    ``build`` travels as ``"module:qualname"`` (items are plain data: they are checkpointed
    and cross process boundaries) and is imported here.
    """
    name, case, extra = item
    module, _, qualname = name.partition(":")
    build = importlib.import_module(module)
    for part in qualname.split("."):
        build = getattr(build, part)
    subject = build(case)
    if subject is None:  # a family the audit does not rebuild (e.g. a measurement stream)
        return []
    subject.update(extra or {})
    return audit_subject(subject)


def record_findings(ctx, case, findings) -> None:
    for f in findings:
        ctx.audit(f["quantity"], f["engine"], f["reference"], case, rtol=f["rtol"],
                  atol=f["atol"], evidence=f["evidence"])


def audit_cases(ctx, cases, build, *, extra=None, findings=None) -> None:
    """Audit the engine on ``ctx.audit_sample(cases)``: ``build(case)`` rebuilds a subject
    (module-level, picklable); ``extra[case]`` adds keys to it; ``findings[case]`` are
    findings made by the check itself (e.g. :func:`bound_findings`)."""
    sample = ctx.audit_sample(cases)
    extra, findings = extra or {}, findings or {}
    name = f"{build.__module__}:{build.__qualname__}"
    items = [(name, case, extra.get(case)) for case in sample]
    for case, found in zip(sample, ctx.map(audit_item, items)):
        record_findings(ctx, case, found + findings.get(case, []))
