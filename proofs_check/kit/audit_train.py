"""Engine audits of the trainers: SGD replayed, plain Euler and the late-phase flow (§3, §4)."""
from __future__ import annotations

import copy
import math

import numpy as np

import linteach as lt
from linteach.runs import MAX_LOG_NORM

from . import audit_ref as ref
from .audit_base import FD_RTOL, FLOW_STEPS, LATE_STEPS, ROUND, TRAJECTORY_RTOL, finding
from .audit_net import net_findings
from .audit_solvers import certificate_findings, kkt_findings

__all__ = ["sgd_findings", "per_run_findings", "trained_findings", "trace_findings",
           "flow_findings", "normalized_findings"]


def sgd_findings(net, W0, X, y, spec) -> list:
    R, n, E = W0.shape[0], len(X), spec["epochs"]
    rng, again = spec["rng"], spec["rng_again"]  # two identical fresh generators
    expected = again.spawn(R) if R > 1 else [again]
    alone_rng = copy.deepcopy(expected[0])  # run 0's stream, for run 0 trained alone
    batch_rngs = copy.deepcopy(expected)  # the runs' streams, for a batch with another net
    seen, filed = [], []
    # ε0 = ℓ(0): an ε0-mistake is a margin ≤ 0 before the update, decidable from the replay
    run = lt.sgd(net, W0, (X, y), eta=spec["eta"], n_epochs=E, rng=rng, eps0=math.log(2.0),
                 callback=lambda t, W, info: seen.append(
                     (t, np.atleast_1d(info["index"]).copy())),
                 on_epoch=lambda u: filed.append((u.epoch, u.t0, np.array(u.index))))
    order = np.stack([index for _, index in seen])  # (epochs·n, R)
    out = [finding("SGD update count t of the callback", [t for t, _ in seen],
                   np.arange(1, E * n + 1)),
           finding("SGD trace epoch numbers", run.trace["epoch"], np.arange(E + 1)),
           finding("SGD epoch filing: epoch and t0 (updates done before it)",
                   [(e, t0) for e, t0, _ in filed], [(e + 1, e * n) for e in range(E)]),
           finding("SGD epoch filing: visited indices = the callback's",
                   np.stack([np.reshape(i, (R, n)).T for _, _, i in filed]).reshape(E * n, R),
                   order)]
    # Eq. 3: an update steps along −∇ of the visited point's own loss, i.e. ∇L of the
    # one-point data set (the gradient's one-point branch, which no n > 1 case takes)
    i0 = int(order[0, 0])
    G1 = net.loss_and_grad(W0[0], X[i0:i0 + 1], y[i0:i0 + 1])[1]
    W1 = ref.sgd_replay(W0[0], X, y, [i0], spec["eta"], net.alpha, net.v)
    out.append(finding("first SGD update = −η ∇L of the one-point set (Eq. 3)",
                       W0[0] - spec["eta"] * G1, W1,
                       atol=TRAJECTORY_RTOL * (np.abs(W1).max() + spec["eta"])))
    if R > 1:  # a 2-D W takes the one-run update path, which no batched run exercises
        alone = lt.sgd(net, W0[0], (X, y), eta=spec["eta"], n_epochs=E, rng=alone_rng)
        out.append(finding("SGD run 0 alone (2-D W) = run 0 of the batch, bit for bit",
                           alone.W, run.W[0]))
        out += per_run_findings(net, W0, X, y, spec, batch_rngs, run)
    mistakes = np.reshape(run.trace["mistakes"][1:], (E, R))
    for r in range(R):  # every run's orders; the (slow) replay for the extreme inits only
        epochs = order[:, r].reshape(E, n)
        drawn = np.stack([expected[r].permutation(n) for _ in range(E)])
        out += [finding("SGD epoch visits each point once", np.sort(epochs, axis=1),
                        np.tile(np.arange(n), (E, 1))),
                finding("SGD order = documented draw (rng.spawn child per run)", epochs, drawn)]
        if r not in (0, R - 1):
            continue
        q = []  # the replay's margin of each visited point before its update
        W_ref = ref.sgd_replay(W0[r], X, y, order[:, r], spec["eta"], net.alpha, net.v,
                               margins=q)
        W_eng = run.W[r] if R > 1 else run.W
        out.append(finding("SGD trajectory replayed (batch 1, Eq. 3)", W_eng, W_ref,
                           atol=TRAJECTORY_RTOL * (np.abs(W_ref).max() + spec["eta"])))
        q = np.reshape(q, (E, n))
        if np.all(np.abs(q) > 1e-6 * np.abs(q).max()):  # no margin within the replay's error of 0
            out.append(finding("SGD ε0-mistakes per epoch (ε0 = ℓ(0): margins ≤ 0, replayed)",
                               mistakes[:, r], (q <= 0).sum(axis=1)))
        out += trace_findings(run.trace, r if R > 1 else None, {0: W0[r], -1: W_eng}, X, y,
                              net)
    return out


def trained_findings(subject, trained) -> list:
    """What the check trained and reported (``trained``: its ledger digests of the data and
    the inits, R_0, γ, n and d) against this audit's rebuild of the case from its seed."""
    from ..engine.contract import digest

    W, X = np.asarray(subject["W"], float), np.asarray(subject["X"], float)
    out = [finding("SGD check trained the audit's rebuild: data digest",
                   float(trained["data"] == digest(X)), 1.0),
           finding("SGD check trained the audit's rebuild: init digest",
                   float(trained["W0"] == digest(W)), 1.0),
           finding("SGD check's R_0 = its inits' largest neuron norm per run", trained["R_0"],
                   np.linalg.norm(W, axis=-1).max(axis=-1)),
           finding("SGD check's n and d = its data's", [trained["n"], trained["d"]],
                   list(X.shape))]
    if "teacher" in subject:
        out.append(finding("SGD check's γ = 1/‖w*‖ of the rebuilt teacher", trained["gamma"],
                           1.0 / np.linalg.norm(subject["teacher"]), rtol=1e-15))
    return out


def per_run_findings(net, W0, X, y, spec, rngs, run) -> list:
    """The case's runs batched with another configuration of its shape (one net, step and
    ε0 per run, as the checks group configurations) equal its own batch bit for bit."""
    R, E = W0.shape[0], spec["epochs"]
    other = lt.Net(k=net.k, alpha=0.5 * net.alpha + 0.25, v=2.0 * net.v)  # α stays in [0, 1)
    XX = np.broadcast_to(X, (2 * R,) + X.shape)
    mixed = lt.sgd([net] * R + [other] * R, np.concatenate([W0, W0[::-1]]),
                   (XX, np.broadcast_to(y, (2 * R,) + y.shape)),
                   eta=np.repeat([spec["eta"], 0.5 * spec["eta"]], R), n_epochs=E,
                   rng=rngs + [np.random.default_rng(i) for i in range(R)],
                   eps0=np.repeat([math.log(2.0), 0.1], R))
    return [finding("SGD with one net per run, batched with another configuration = the "
                    "case's own batch, bit for bit", mixed.W[:R], run.W),
            finding("SGD ε0-mistakes with one ε0 per run = the case's own",
                    mixed.trace["mistakes"][:, :R], run.trace["mistakes"])] + [
            finding(f"SGD trace {key} with one net per run = the case's own, bit for bit",
                    mixed.trace[key][:, :R], run.trace[key])
            for key in ("loss", "max_loss", "min_margin")]


def trace_findings(trace, r, at: dict, X, y, net) -> list:
    """The trace's per-epoch loss, largest loss and smallest margin at the rows ``at`` (row ->
    the W of that row), recomputed from Eq. 1 and ℓ (claims read some of these columns)."""
    out = []
    for row, W in at.items():
        q = y * ref.forward(W, X, net.alpha, net.v)
        terms = (np.abs(X) @ np.abs(W).T).sum(axis=1) * net.v
        col = (lambda key: trace[key][row] if r is None else trace[key][row, r])  # noqa: E731
        out += [finding(f"SGD trace mean loss, row {row}", col("loss"), ref.mean_loss(q),
                        rtol=1e-12),
                finding(f"SGD trace largest loss, row {row}", col("max_loss"),
                        math.exp(max(ref.log_loss_terms(q))), rtol=1e-12),
                finding(f"SGD trace smallest margin, row {row}", col("min_margin"), q.min(),
                        atol=ROUND * terms.max() + 1e-300)]
    return out


def late_flow(net, W0, X, y, spec):
    """The engine's late-phase flow of :func:`flow_findings` from ``W0``: runs ``(R, 2k, d)``
    on their own ``X (R, n, d)``, ``y`` advance together, each as it would alone."""
    return lt.gradient_flow(net, W0, (X, y), dt=spec.get("late_dt", 0.05), n_steps=LATE_STEPS,
                            normalized=True, record=2)


def late_flows(subjects) -> list:
    """:func:`late_flow` of every flow subject (``(net, W0, X, y, spec)``, or None for a
    subject without a flow) in as few batches as their shapes allow; per subject a
    ``(W, direction, log_norm)`` equal bit for bit to its own flow alone (W None past
    float64), or None."""
    groups, out = {}, [None] * len(subjects)
    for i, s in enumerate(subjects):
        if s is not None:
            net, W0, X, _, spec = s
            key = (net.alpha, net.a.tobytes(), W0.shape, X.shape, spec.get("late_dt", 0.05))
            groups.setdefault(key, []).append(i)
    for members in groups.values():
        net, spec = subjects[members[0]][0], subjects[members[0]][4]
        stack = [np.stack([subjects[i][j] for i in members]) for j in (1, 2, 3)]
        run = late_flow(net, *stack, spec)
        for r, i in enumerate(members):
            d, ln = run.direction[r], run.log_norm[r]
            W = d * np.exp(ln) if ln < MAX_LOG_NORM else None  # as a run alone finishes
            out[i] = (W, d, ln)
    return out


def flow_findings(net, W0, X, y, spec, late=None) -> list:
    """Plain Euler, the normalized flow early, at a tiny turn and deep in the late phase,
    against their naive replays; ``late``: the late flow's ``(W, direction, log_norm)``
    from :func:`late_flows` (None: run here)."""
    a, v, dt, steps = net.alpha, net.v, spec["dt"], FLOW_STEPS
    scale = np.abs(W0).max()
    h = spec.get("euler_dt", 1.0)
    eu = lt.gradient_flow(net, W0, (X, y), dt=h, n_steps=steps, record="all")
    out = [finding("plain Euler replayed", eu.W, ref.euler_replay(W0, X, y, h, steps, a, v),
                   atol=TRAJECTORY_RTOL * scale),
           finding("plain Euler continuous time", eu.log_time, math.log(h * steps),
                   atol=1e-14)]
    with np.errstate(divide="ignore"):  # step 0 is at time 0: log 0 = −inf on both sides
        out.append(finding("plain Euler trace continuous time, every step",
                           eu.trace["log_time"], np.log(h * np.arange(steps + 1)), atol=1e-14))
    out += normalized_findings(net, W0, X, y, dt, "early")
    # a turn of 1e-12 per step: ‖∇L‖ moves by far less than 1e-8 (relative) over a step,
    # where the time of a step takes its series branch (the logarithmic mean → its ends)
    out += normalized_findings(net, W0, X, y, 1e-12, "tiny turn", n_steps=2)
    if late is None:
        run = late_flow(net, W0, X, y, spec)
        late = (run.W, run.direction, run.log_norm)
    W_late, d_late, ln_late = late
    if W_late is not None and np.all(np.isfinite(W_late)):
        out += normalized_findings(net, W_late, X, y, dt, "late")
        out += [dict(f, quantity=f"{f['quantity']} (late)")  # the NAR / PAR the flow reached
                for f in net_findings(net, W_late, X, y)]
        out += certificate_findings(net, d_late, X, y)
        agree = lt.agreement(d_late, X) if spec.get("pattern_from_late") else None
        if agree is not None:  # the claim's (P) program, in the pattern the flow reached
            from linteach import convex
            W_pred = convex.nar_program(X, y, net.alpha, *agree.c(net.alpha), k=net.k, v=net.v)
            out += kkt_findings("pattern-restricted (P)", W_pred, *ref.pattern_rows(
                X, y, net.alpha, agree.side_w, agree.side_u, net.k, net.v))
        d, ln = d_late, float(ln_late)
        log_lsum, Gn = ref.grad_over_loss(d, ln, X, y, a, v)
        rng = np.random.default_rng(W0.size)
        E = rng.standard_normal(d.shape)
        E /= np.linalg.norm(E)
        kink = float((np.abs(X @ d.T) / np.linalg.norm(X, axis=1, keepdims=True)).min())
        if kink > 0:
            # no kink crossed, and a step small against the scale-free curvature of log L_sum
            # (∇q does not grow with ‖W‖): truncation ~h², rounding ~1e-16·|log L_sum|/h
            h = min(0.1 * kink * math.exp(ln), 1e-4 / (v * np.linalg.norm(X, axis=1).max()))
            W = W_late
            plus = ref.log_sum_loss(y * ref.forward(W + h * E, X, a, v))
            minus = ref.log_sum_loss(y * ref.forward(W - h * E, X, a, v))
            out.append(finding("late-phase ∇L/L by central differences of log L_sum",
                               float(np.sum(Gn * E)) , (plus - minus) / (2 * h),
                                rtol=FD_RTOL, atol=FD_RTOL * np.linalg.norm(Gn)
                                + 4e-16 * abs(log_lsum) / h, evidence="probed"))
    return out


def normalized_findings(net, W0, X, y, dt, when, n_steps=FLOW_STEPS) -> list:
    a, v = net.alpha, net.v
    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=n_steps, normalized=True,
                           record="all")
    W_ref, log_time = ref.normalized_replay(W0, X, y, dt, n_steps, a, v)
    W_eng = run.direction * np.exp(run.log_norm)
    tr = run.trace
    out = [finding(f"normalized flow = Euler with h = dt‖W‖/‖∇L‖ ({when})", W_eng, W_ref,
                   atol=TRAJECTORY_RTOL * np.abs(W_ref).max()),
           # log h_t holds log L_sum, which moves by |q|·δ when W moves by a relative δ
           finding(f"recorded continuous time = Σ step times ({when})", run.log_time, log_time,
                   atol=TRAJECTORY_RTOL * (1 + np.abs(tr["log_loss"]).max())),
           finding(f"trace γ̄ ({when})", tr["normalized_margin"][-1],
                   ref.normalized_margin(W_ref, X, y, a, v), rtol=1e-9, atol=1e-12)]
    lsum = math.exp(ref.log_sum_loss(y * ref.forward(W_ref, X, a, v)))
    if 0 < lsum < 700:
        out.append(finding(f"trace γ̃, Eq. 5 with the summed loss ({when})",
                           tr["smoothed_margin"][-1], ref.smoothed_margin(W_ref, X, y, a, v),
                            rtol=1e-8, atol=1e-10))
    return out
