"""Late-phase runs on antipodal data shared by ``lyu2021`` and ``consistency``
(docs/math.md §11, §15).

:func:`antipodal_cases` trains every case of one family in one batch — the late-phase flow
(turn :data:`DT`) and, unless ``spec['companion']`` is false, its step-halving companion
(turn ``DT/2``, twice the steps) — and
returns per case the global max margin ``γ̄* = v(1+α)√(k/2)/‖w_SVM‖`` (docs/math.md §10),
each run's final γ̄ (main and companion) and its largest recorded γ̄, and the cosine of the
limit with ``W_lin = (z…z, −z…−z)``; with ``eq8=True`` also the lifted Eq. 8 solution's
agreement with the SVM and with the limit.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from ..engine.contract import Case, digest
from . import followup
from .items import stack_runs

__all__ = ["DT", "N_STEPS", "antipodal_cases", "build", "audit_subject", "audit_extra"]

DT = 0.01
N_STEPS = 2000


def build(case: Case, spec: dict, net: lt.Net, scales):
    """``(X, y, W0 (len(scales), 2k, d), w_SVM)`` of ``case`` (a ball set if ``spec['ball']``)."""
    from linteach import convex

    data_rng, init_rng = case.rng.spawn(2)
    if spec.get("ball"):
        X, y = followup.correlated(data_rng, spec["n"], spec["d"])
    else:
        X, y = followup.antipodal(data_rng, spec["n"], spec["d"])
    W0 = net.init(spec["d"], scale=1.0, rng=init_rng, batch=len(scales))
    return X, y, W0 * np.asarray(scales)[:, None, None], convex.svm_no_bias(X, y)


def _eq8_summary(net, X, y, w_svm, D) -> dict:
    from linteach import convex

    w8, u8 = convex.solve_eq8(X, y, net.alpha)
    W8 = np.concatenate([np.tile(w8, (net.k, 1)), np.tile(u8, (net.k, 1))])
    return {"eq8_w": w8, "eq8_u": u8, "eq8_cos_svm": followup.cosine(w8, w_svm), "eq8_cos_u": followup.cosine(u8, -w_svm),
            "eq8_gamma": float(lt.normalized_margin(net, W8, X, y)),
            "limit_cos_eq8": np.array([followup.cosine(Dr, W8) for Dr in D])}


def antipodal_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, spec, net_kwargs, scales, eq8)``."""
    cases, spec, net_kw, scales, eq8 = item
    net = lt.Net(**net_kw)
    built = [build(c, spec, net, scales) for c in cases]
    R = len(scales)
    X, y, W0 = stack_runs(built)
    steps = spec.get("steps", N_STEPS)
    run = followup.limit_run(net, W0, X, y, n_steps=steps, dt=DT)
    gam = lt.normalized_margin(net, run["directions"], X, y)  # (records, runs)
    gam_half, D_half = np.full(len(W0), np.nan), None
    if spec.get("companion", True):
        half = followup.limit_run(net, W0, X, y, n_steps=2 * steps, dt=DT / 2, record=2)
        D_half = half["direction"]
        gam_half = lt.normalized_margin(net, D_half, X, y)
    out = []
    for c, (Xc, yc, _W0, w_svm) in enumerate(built):
        rows = slice(c * R, (c + 1) * R)
        z = w_svm / np.linalg.norm(w_svm)
        lin = np.concatenate([np.tile(z, (net.k, 1)), np.tile(-z, (net.k, 1))])
        D = run["direction"][rows]
        r = {"gamma_star": followup.lifted_svm_margin(net, w_svm), "gamma": gam[-1, rows],
             "gamma_half": gam_half[rows], "gamma_max": gam[:, rows].max(axis=0),
             "one_minus_cos": np.array([1.0 - followup.cosine(Dr, lin) for Dr in D]),
             "log_norm": run["log_norm"][rows], "data": digest(Xc), "n": len(yc),
             # the arrays behind these numbers, for the engine audit
             "D": D, "directions": run["directions"][:, rows], "w_svm": w_svm,
             "D_half": None if D_half is None else D_half[rows]}
        if eq8:
            r.update(_eq8_summary(net, Xc, yc, w_svm, D))
        out.append(r)
    return out


def audit_subject(case: Case, spec: dict, net_kw: dict, scales) -> dict:
    """The engine-audit subject of one case (:mod:`proofs_check.kit.audit`): data, net, the
    inits and the late-phase flow at turn :data:`DT`."""
    net = lt.Net(**net_kw)
    X, y, W0, _w_svm = build(case, spec, net, scales)
    return {"net": net, "W": W0, "X": X, "y": y, "flow": {"dt": DT}}


def audit_extra(result: dict, alpha: float) -> dict:
    """What the audit adds from the worker's ``result``: every number the check recorded
    (with its arrays), and the SVM and Eq. 8 answers it used for their certificates."""
    extra = {"followup": result, "teacher": result["w_svm"]}
    if "eq8_w" in result:
        extra["eq8"] = (alpha, result["eq8_w"], result["eq8_u"])
    return extra
