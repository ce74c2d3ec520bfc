"""Synthetic claims that exercise the runner; not claims of the paper, never in the registry.

``python -m proofs_check --selftest [--workers N | --dask ADDRESS]`` runs them through the
whole machinery (executor, checkpoints, ledger): a quick way to see that a cluster
reproduces a local run, and the workload behind the throughput in ``docs/scale.md``.

Each case trains a small leaky-ReLU network by full-batch GD on a separable set (batches
of :data:`BATCH` cases train together) and checks two identities of the trained network
that hold up to rounding: 1-homogeneity ``N_{cW} = c N_W`` and Euler's identity
``⟨W, ∇_W N⟩ = N`` (``σ(z) = σ'(z) z``).  Its negative control claims ``N_{cW} = c² N_W``.
The other claims are the same workload slowed down, raising, or with a planted violation.
"""
from __future__ import annotations

import functools
import time
import types

import numpy as np

import linteach as lt

from .contract import Claim, digest

#: cases trained together in one ``ctx.map`` batch (fixed: it must not depend on the executor)
BATCH = 8
#: cases per family at the standard budget
STANDARD_CASES = 64
#: relative error allowed in the two identities (a few ulps of the sums involved)
IDENTITY_TOL = 1e-12
#: the homogeneity factor (not a power of two, so the identity is not exact by luck)
FACTOR = 3.0
N_POINTS, DIM, WIDTH, STEPS = 16, 5, 4, 200


def train_batch(item: dict) -> dict:
    """Train ``item["cases"]`` together; per case, the identities' slack and content hashes."""
    if item["delay"]:
        time.sleep(item["delay"])  # stands in for a long batch (interruption tests)
    if item["raise"]:
        raise ValueError(f"planted failure in the batch starting at {item['cases'][0]}")
    net = lt.Net(k=WIDTH, alpha=0.3, v=1.0)
    sets, inits = [], []
    for case in item["cases"]:
        rng = case.rng
        sets.append(lt.make_separable(N_POINTS, DIM, margin=0.05, rng=rng))
        inits.append(net.init(DIM, scale=0.1, rng=rng))
    data, W0 = lt.stack(sets), np.stack(inits)
    W = lt.gd(net, W0, data, eta=0.5, n_steps=STEPS, record=1).W
    out = net.forward(W, data.X)
    scale = 1.0 + np.abs(out)
    G = net.grad_output(W, data.X)                      # (R, n, 2k, d)
    euler = np.einsum("rjd,rijd->ri", W, G)
    rows = []
    for r in range(len(sets)):
        rows.append({
            "homogeneity": IDENTITY_TOL - np.abs(net.forward(FACTOR * W[r], data.X[r])
                                                 - FACTOR * out[r]) / scale[r],
            "wrong_homogeneity": IDENTITY_TOL - np.abs(net.forward(FACTOR * W[r], data.X[r])
                                                       - FACTOR**2 * out[r]) / scale[r],
            "euler": IDENTITY_TOL - np.abs(euler[r] - out[r]) / scale[r],
            "init_margin": net.margins(W0[r], data.X[r], data.y[r]),
            "data": digest(data.X[r]), "W0": digest(W0[r]), "W": digest(W[r])})
    return {"cases": item["cases"], "rows": rows}


def _check(ctx, *, delay=0.0, raise_batch=None, planted=False):
    cases = ctx.cases(ctx.n(STANDARD_CASES), "small")
    items = [{"cases": cases[i:i + BATCH], "delay": delay, "raise": i // BATCH == raise_batch}
             for i in range(0, len(cases), BATCH)]
    caught, evaluated = False, 0
    for out in ctx.map(train_batch, items):
        for case, row in zip(out["cases"], out["rows"]):
            ctx.record("homogeneity", row["homogeneity"], case)
            ctx.record("euler", row["euler"], case)
            if planted:  # untrained networks misclassify some points: a real violation
                ctx.record("init_margin_positive", row["init_margin"], case)
            ctx.ledger(case, data=row["data"], W0=row["W0"], W=row["W"])
            caught |= bool(np.min(row["wrong_homogeneity"]) < 0)
            evaluated += 1
    ctx.negative_control(caught, f"N_(cW) = c^2 N_W with c = {FACTOR} must be flagged",
                         controls=evaluated)


def _claim(claim_id, statement, clauses=("homogeneity", "euler")):
    return Claim(claim_id, statement, "runner self-test (not in the paper)",
                 hypotheses="leaky ReLU, 0 <= alpha < 1",
                 cases=f"{STANDARD_CASES} separable sets (n={N_POINTS}, d={DIM}), k={WIDTH}, "
                       f"{STEPS} GD steps, batches of {BATCH}",
                 control="N_(cW) = c^2 N_W", clauses=clauses)


_STATEMENT = "N_(cW) = c N_W and <W, grad_W N> = N for trained networks"

#: claim id -> module-like object with ``CLAIM`` and ``check``
CHECKS = {
    "self.sgd": types.SimpleNamespace(CLAIM=_claim("self.sgd", _STATEMENT),
                                      check=_check),
    "self.slow": types.SimpleNamespace(CLAIM=_claim("self.slow", _STATEMENT),
                                       check=functools.partial(_check, delay=0.2)),
    "self.error": types.SimpleNamespace(CLAIM=_claim("self.error", _STATEMENT),
                                        check=functools.partial(_check, raise_batch=1)),
    "self.fail": types.SimpleNamespace(
        CLAIM=_claim("self.fail", "untrained networks classify every point (false)",
                     ("homogeneity", "euler", "init_margin_positive")),
        check=functools.partial(_check, planted=True)),
}
#: what ``--selftest`` runs unless ``--only`` says otherwise (all should PASS)
DEFAULT = ("self.sgd", "self.slow")


def load(claim_id: str):
    """Like :func:`proofs_check.engine.registry.load`, for the self-test claims."""
    if claim_id not in CHECKS:
        raise ValueError(f"unknown self-test claim {claim_id!r}; known: {', '.join(CHECKS)}")
    return CHECKS[claim_id]
