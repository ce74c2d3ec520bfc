"""Runs on nearly orthogonal data shared by ``kou2023``, ``frei2023`` and ``consistency``
(docs/math.md §12, §13, §15).

:func:`orth_cases` trains every case of one family as one batch: one GD step from a small
init (the one-step rank), :data:`GD_STEPS` steps of GD, then :data:`FLOW_STEPS` of the
late-phase flow (its continuation in log time: ``gradient_flow(normalized=True)`` is GD
with the step ``dt‖W‖/‖∇L‖``) — with ``spec['companion']`` also its step-halving companion
(the margin spread at the end is the Euler floor, O(dt)) — and measures per run everything the three checks compare:
stable ranks (whole W and per type) and the margin spread ``ρ_q = max q / min q`` at the end
of each phase, ``σ_3/σ_1`` with its Weyl certificate ``√(2k)·r(Ŵ)/σ_1``, the agreement
pattern, the pattern-restricted (P) solution's cosine with the limit, the lifted Eq. 8
solution's stable rank and its kernel duals, and the sign agreement of ``N`` with
``(w̄ − ū)·x`` on fresh points.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from ..engine.contract import Case, digest
from . import followup
from .items import cases_per_batch, map_cases, stack_runs

__all__ = ["GD_STEPS", "GD_ETA", "FLOW_STEPS", "ONE_STEP_ETA", "N_TEST", "orth_data", "build",
           "orth_cases", "audit_subject", "audit_extra"]

#: GD phase (constant step) before the late-phase flow
GD_STEPS = 300
GD_ETA = 0.5
#: late-phase flow steps (turn 0.01)
FLOW_STEPS = 2000
#: the one GD step of the rank-reduction clause
ONE_STEP_ETA = 1.0
#: fresh points for the boundary's sign agreement
N_TEST = 2000


def orth_data(rng, spec: dict):
    """``(X, y)`` of a family: ``kind`` 'orthogonal' (orthogonal rows plus noise), 'gaussian'
    (i.i.d. high-dimensional Gaussians) or 'correlated' (a low-dimensional ball set)."""
    kind = spec["kind"]
    if kind == "orthogonal":
        return followup.near_orthogonal(rng, spec["n"], spec["d"], noise=spec["noise"])
    if kind == "gaussian":
        return followup.gaussian_high_dim(rng, spec["n"], spec["d"])
    if kind == "correlated":
        return followup.correlated(rng, spec["n"], spec["d"])
    raise ValueError(f"unknown data kind {kind!r}")


def build(case: Case, spec: dict, net: lt.Net):
    """``(X, y, W0 (len(scales), 2k, d), fresh test points)`` of ``case``, from its seed alone."""
    data_rng, init_rng, test_rng = case.rng.spawn(3)
    X, y = orth_data(data_rng, spec)
    scales = np.asarray(spec["scales"])
    W0 = net.init(X.shape[1], scale=1.0, rng=init_rng, batch=len(scales)) * scales[:, None, None]
    # fresh points: the data's own directions perturbed, and isotropic ones in their span
    span = np.linalg.qr(X.T)[0]
    T = np.vstack([X[test_rng.integers(len(X), size=N_TEST // 2)]
                   + 0.5 * test_rng.standard_normal((N_TEST // 2, X.shape[1]))
                   / np.sqrt(X.shape[1]),
                   test_rng.standard_normal((N_TEST // 2, span.shape[1])) @ span.T])
    return X, y, W0, T


def _pattern_solution(net, D, X, y):
    """``argmin of (P) in Ŵ's agreement pattern`` (Ŵ in an NAR), ``None`` if infeasible."""
    from linteach import convex

    c_w, c_u = lt.agreement(D, X).c(net.alpha)
    try:
        W_pred = convex.nar_program(X, y, net.alpha, c_w, c_u, k=net.k, v=net.v)
    except (ValueError, lt.SolverError):
        return None
    return W_pred


def _eq8(net, X, y):
    from linteach import convex

    w, u, lam = convex.eq8_kernel_dual(X, y, net.alpha)
    W8 = np.concatenate([np.tile(w, (net.k, 1)), np.tile(u, (net.k, 1))])
    return W8, lam


def _solved(net, X, y, D, needs) -> dict:
    """The convex programs ``needs`` asks for: 'eq8' (kernel dual), 'svm', 'pattern'."""
    from linteach import convex

    out = {}
    if "eq8" in needs:
        W8, lam = _eq8(net, X, y)
        out.update(eq8_w=W8[0], eq8_u=W8[-1], eq8_lam=lam, srank_eq8=float(followup.stable_rank(W8)),
                   eq8_cos=np.array([followup.cosine(Dr, W8) for Dr in D]),
                   eq8_dual_ratio=float(lam.min() / lam.max()))
    if "svm" in needs:
        w_svm = convex.svm_no_bias(X, y)
        w_bar, u_bar = lt.neuron_means(D)
        z = w_bar - u_bar
        out["w_svm"] = w_svm
        out["lin_over_svm"] = ((y * (X @ z.T).T).min(axis=-1) / np.linalg.norm(z, axis=-1)
                               * np.linalg.norm(w_svm))
    if "pattern" in needs:
        cache, cos, sols = {}, [], []
        for r in range(len(D)):  # one QP per distinct agreement pattern
            agree = lt.agreement(D[r], X)
            key = None if agree is None else (agree.side_w.tobytes(), agree.side_u.tobytes())
            if key not in cache:
                cache[key] = None if key is None else _pattern_solution(net, D[r], X, y)
            W_pred = cache[key]
            cos.append(np.nan if W_pred is None else followup.cosine(D[r], W_pred))
            sols.append(np.full(D[r].shape, np.nan) if W_pred is None else W_pred)
        out["pattern_cos"] = np.asarray(cos, dtype=float)
        out["pattern_W"] = np.stack(sols)
    return out


def _case_summary(net, X, y, W0, T, W1, W_gd, D, needs) -> dict:
    w_bar, u_bar = lt.neuron_means(D)
    z = w_bar - u_bar
    s1 = np.linalg.svd(D, compute_uv=False)[:, 0]
    disagree = (np.sign(net.forward(D, T)) != np.sign((T @ np.swapaxes(z[:, None, :], -1, -2)
                                                       )[..., 0])).mean(axis=-1)
    tw, tu = followup.type_stable_ranks(D)
    gw, gu = followup.type_stable_ranks(W_gd)
    return {
        "C_data": followup.orthogonality_constant(X), "n": len(y), "d": X.shape[1],
        "srank_init": followup.stable_rank(W0), "srank_one_step": followup.stable_rank(W1),
        "srank_gd": followup.stable_rank(W_gd), "srank_end": followup.stable_rank(D),
        "type_srank_gd": np.maximum(gw, gu), "type_srank_end": np.maximum(tw, tu),
        "rho_gd": followup.margin_ratio(net, W_gd, X, y),
        "rho_end": followup.margin_ratio(net, D, X, y),
        "rank_ratio": followup.rank_ratio(D),
        "weyl_bound": np.sqrt(2 * net.k) * lt.cluster_radius(D) / s1,
        "band": 2.0 * lt.cluster_radius(D) / np.linalg.norm(z, axis=-1),
        "in_par": lt.in_par(D, X, y), "disagree": disagree, "data": digest(X),
        "D": D, "W_gd": W_gd,  # the arrays behind these numbers, for the engine audit
        **_solved(net, X, y, D, needs)}


def orth_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, spec, net_kwargs, needs)``; one batch for all
    cases; ``needs`` names the convex programs to solve per case (see :func:`_solved`)."""
    cases, spec, net_kw, needs = item
    net = lt.Net(**net_kw)
    built = [build(c, spec, net) for c in cases]
    R = len(spec["scales"])
    X, y, W0 = stack_runs(built)
    W1 = W0 - ONE_STEP_ETA * net.loss_and_grad(W0, X, y)[1]
    W_gd = lt.gd(net, W0, (X, y), eta=GD_ETA, n_steps=spec.get("gd_steps", GD_STEPS),
                 record=2).W
    steps = spec.get("flow_steps", FLOW_STEPS)
    D = followup.limit_run(net, W_gd, X, y, n_steps=steps, record=2)["direction"]
    rho_half, D_half = np.full(len(W0), np.nan), None
    if spec.get("companion"):  # turn 0.005, twice the steps: the spread's dt-dependence
        D_half = followup.limit_run(net, W_gd, X, y, n_steps=2 * steps, dt=0.005,
                                    record=2)["direction"]
        rho_half = followup.margin_ratio(net, D_half, X, y)
    out = []
    for c, (Xc, yc, _W0, T) in enumerate(built):
        rows = slice(c * R, (c + 1) * R)
        out.append({**_case_summary(net, Xc, yc, W0[rows], T, W1[rows], W_gd[rows], D[rows],
                                    needs), "rho_half": rho_half[rows],
                    "D_half": None if D_half is None else D_half[rows]})
    return out


#: the near-orthogonality constant a case must reach to count (the papers' C is unconfirmed;
#: 1 is the weakest reading of "‖x_i‖² ≥ C n max_{k≠i} |⟨x_i, x_k⟩|")
C_MIN = 1.0


def run_orth_families(ctx, families: dict, net_kw: dict, needs, *,
                      c_min: float | None = C_MIN):
    """Every family's cases in one :func:`orth_cases` batch; yields ``(case, family, result)``
    for the cases whose data reach ``c_min`` (the others are ASSUMPTION-NOT-MET)."""
    for family, spec in families.items():
        if spec.get("thorough_only") and ctx.budget != "thorough":
            continue
        cases = ctx.cases(ctx.n(spec["count"]), family)
        if not cases:
            continue
        chunk = cases_per_batch(len(spec["scales"]))  # a constant of the family
        for case, r in zip(cases, map_cases(ctx, orth_cases, cases, spec, net_kw, tuple(needs),
                                            chunk=chunk)):
            ctx.ledger(case, data=r["data"])
            if c_min is not None and r["C_data"] < c_min:
                ctx.assumption_not_met(case, f"near-orthogonality constant {r['C_data']:.3g} "
                                             f"< {c_min}")
                continue
            yield case, family, r



def audit_subject(case: Case, spec: dict, net_kw: dict) -> dict:
    """The engine-audit subject of one case (:mod:`proofs_check.kit.audit`): data, net, the
    inits, one GD step, the GD phase as plain Euler at :data:`GD_ETA`, the late-phase flow."""
    net = lt.Net(**net_kw)
    X, y, W0, T = build(case, spec, net)
    return {"net": net, "W": W0, "X": X, "y": y, "T": T, "one_step_eta": ONE_STEP_ETA,
            "flow": {"dt": 0.01, "euler_dt": GD_ETA}}


def audit_extra(result: dict, alpha: float) -> dict:
    """What the audit adds from the worker's ``result``: every number the check recorded
    (with its arrays), and the solver answers it used for their certificates."""
    extra = {"followup": result}
    if "eq8_w" in result:
        extra["eq8"] = (alpha, result["eq8_w"], result["eq8_u"])
    if result.get("w_svm") is not None:
        extra["teacher"] = result["w_svm"]
    return extra
