"""Engine audits of the follow-up checks' quantities (``lyu2021``, ``kou2023``, ``frei2023``,
``consistency``; docs/math.md §10–§15).

A subject's ``followup`` key carries one case's result as the check recorded it (the dict a
:mod:`proofs_check.kit.orthogonal` or :mod:`proofs_check.kit.antipodal` worker returned,
with the arrays its numbers were computed from: the limit directions ``D``, the GD iterate
``W_gd``, the companion's ``D_half``, the recorded ``directions``, the solver answers).  Every
number of that result the audit knows is recomputed from its definition by
:mod:`proofs_check.kit.audit_ref` — stable ranks and ``σ_3/σ_1`` by one-sided Jacobi, margins
and the network's sign by the per-neuron Eq. 1, cosines, radii and means by plain loops, the
one-step iterate from the per-example gradient — and each solver answer (SVM, Eq. 8 with the
kernel duals, the pattern-restricted (P)) re-verified by its KKT certificate.
"""
from __future__ import annotations

import math

import numpy as np

from . import audit_ref as ref
from .audit_base import KKT_TOL, ROUND, finding

__all__ = ["SPECTRAL_RTOL", "SPECTRAL_ATOL", "NAMES", "followup_findings", "forward_points"]

#: singular values by Jacobi and by LAPACK agree to ~ε·σ_1 each: ratios and sums of their
#: squares to a few ε relative; 1e-11 leaves three decades
SPECTRAL_RTOL = 1e-11
#: σ_3/σ_1 and the Weyl ratio, absolute (σ_3 ≪ σ_1 carries σ_1's absolute error)
SPECTRAL_ATOL = 1e-12


def forward_points(W, X, alpha, v) -> np.ndarray:
    """Eq. 1 neuron by neuron, each over all points at once (for many fresh points), and
    the sums of |terms| that bound its rounding: ``(N, terms)``."""
    X = np.asarray(X, float)
    k = len(W) // 2
    out = np.zeros(len(X))
    for j in range(2 * k):
        z = X @ np.asarray(W[j], float)
        out += (v if j < k else -v) * np.where(z > 0, z, alpha * z)
    return out, np.abs(X) @ np.abs(np.asarray(W, float)).sum(axis=0) * v


def _means(D):
    k = len(D) // 2
    return sum(D[:k]) / k, sum(D[k:]) / k


def _q_atol(W, X, v):
    """Rounding allowance of ``min_i q_i/‖W‖``: ROUND × the largest sum of |terms|."""
    return ROUND * v * float((np.abs(X) @ np.abs(W).T).sum(axis=1).max()) / np.linalg.norm(W)


def _rho(W, X, y, alpha, v):
    """``(ρ_q, 0, its rounding allowance)``: each q_i carries ROUND × its sum of |terms|."""
    rho = ref.margin_ratio(W, X, y, alpha, v)
    q = np.asarray(y) * ref.forward(W, X, alpha, v)
    terms = v * (np.abs(X) @ np.abs(W).T).sum(axis=1)
    return rho, 0.0, (rho * 2 * ROUND * float((terms / np.abs(q)).max()) if np.isfinite(rho) else 0.0)


def _per_run(net, X, y, W0, r, eta_one_step) -> dict:
    """Reference rows ``(value, rtol, atol)`` per run, for each per-run key the result records."""
    a, v, k = net.alpha, net.v, net.k
    refs = {}
    D = r.get("D")
    runs = range(len(D)) if D is not None else range(0)
    z = None
    if r.get("w_svm") is not None:
        z = np.asarray(r["w_svm"], float) / math.sqrt(float(np.dot(r["w_svm"], r["w_svm"])))
    for i in runs:
        Dr = D[i]
        s = ref.singular_values(Dr)
        radius = ref.cluster_radius(Dr)
        w_bar, u_bar = _means(Dr)
        scale = ROUND * math.sqrt(float(np.sum(Dr * Dr)))  # the deviations round at ~ε‖Ŵ‖
        zn = math.sqrt(float(np.sum((w_bar - u_bar) ** 2)))
        rows = {  # evaluated only for the keys the result records
            "srank_end": lambda: (ref.stable_rank(Dr, s[0]), SPECTRAL_RTOL, 0.0),
            "type_srank_end": lambda: (max(ref.type_stable_ranks(Dr)), SPECTRAL_RTOL, 0.0),
            "rank_ratio": lambda: (float(s[2] / s[0]) if len(s) > 2 else 0.0, SPECTRAL_RTOL,
                                   SPECTRAL_ATOL),
            "weyl_bound": lambda: (math.sqrt(2 * k) * radius / s[0], SPECTRAL_RTOL,
                                   math.sqrt(2 * k) * scale / s[0]),
            "band": lambda: (2 * radius / zn, SPECTRAL_RTOL, 2 * scale / zn),
            "rho_end": lambda: _rho(Dr, X, y, a, v),
            "in_par": lambda: (float(ref.par(Dr, X, y)[2]), 0.0, 0.0),
            "gamma": lambda: (ref.normalized_margin(Dr, X, y, a, v), 1e-12, _q_atol(Dr, X, v)),
            "one_minus_cos": lambda: (1.0 - ref.cosine(Dr, np.array([z] * k + [-z] * k)), 0.0,
                                      ROUND)}
        for key, row in rows.items():
            if key in r and (key != "one_minus_cos" or z is not None):
                refs.setdefault(key, []).append(row())
    if "W_gd" in r:
        refs["srank_gd"] = [(ref.stable_rank(Wr), SPECTRAL_RTOL, 0.0) for Wr in r["W_gd"]]
        refs["type_srank_gd"] = [(max(ref.type_stable_ranks(Wr)), SPECTRAL_RTOL, 0.0)
                                 for Wr in r["W_gd"]]
        refs["rho_gd"] = [_rho(Wr, X, y, a, v) for Wr in r["W_gd"]]
    if "srank_init" in r:
        refs["srank_init"] = [(ref.stable_rank(Wr), SPECTRAL_RTOL, 0.0) for Wr in W0]
    if "srank_one_step" in r:  # W_1 = W_0 − η∇L(W_0) with the per-example gradient
        refs["srank_one_step"] = [
            (ref.stable_rank(Wr - eta_one_step * ref.grad_mean_loss(Wr, X, y, a, v)),
             1e2 * SPECTRAL_RTOL, 0.0) for Wr in W0]  # W_1 itself rounds at ~n·ε relative
    if r.get("D_half") is not None:
        if "rho_half" in r and not np.isnan(r["rho_half"]).any():
            refs["rho_half"] = [_rho(Wr, X, y, a, v) for Wr in r["D_half"]]
        if "gamma_half" in r and not np.isnan(r["gamma_half"]).any():
            refs["gamma_half"] = [(ref.normalized_margin(Wr, X, y, a, v), 1e-12,
                                   _q_atol(Wr, X, v)) for Wr in r["D_half"]]
    if "directions" in r and "gamma_max" in r:  # the largest γ̄ over the recorded states
        dirs = np.asarray(r["directions"])
        refs["gamma_max"] = [(max(ref.normalized_margin(Wt, X, y, a, v) for Wt in dirs[:, i]),
                              1e-12, max(_q_atol(Wt, X, v) for Wt in dirs[:, i]))
                             for i in range(dirs.shape[1])]
    return refs


#: what each recorded key of a follow-up result is (the quantity an ERROR names)
NAMES = {"srank_end": "stable rank of the limit", "type_srank_end": "per-type stable rank of the "
         "limit", "rank_ratio": "σ_3/σ_1 of the limit", "weyl_bound": "Weyl certificate "
         "√(2k)·r/σ_1", "band": "Theorem 5.1 band 2r/‖w̄ − ū‖", "rho_end": "margin spread ρ_q "
         "of the limit", "in_par": "limit in PAR", "gamma": "γ̄ of the limit", "one_minus_cos":
         "1 − cos(Ŵ, W_lin)", "srank_gd": "stable rank after GD", "type_srank_gd": "per-type "
         "stable rank after GD", "rho_gd": "margin spread ρ_q after GD", "srank_init": "stable "
         "rank of the init", "srank_one_step": "stable rank after one GD step", "rho_half":
         "margin spread ρ_q of the half-turn companion", "gamma_half": "γ̄ of the half-turn "
         "companion", "gamma_max": "largest recorded γ̄"}


def _compare(key, engine, rows) -> dict:
    ref_vals = [row[0] for row in rows]
    return finding(f"{NAMES.get(key, key)} [{key}]", engine, ref_vals, rtol=max(row[1] for row in rows),
                   atol=[row[2] for row in rows])


def _solvers(net, X, y, D, r) -> list:
    """The solver answers the result used, by their certificates, and what follows from them."""
    a, v, k = net.alpha, net.v, net.k
    out = []
    W8 = None
    if "eq8_w" in r:
        w8, u8 = np.asarray(r["eq8_w"], float), np.asarray(r["eq8_u"], float)
        lam = np.asarray(r.get("eq8_lam", ()), float)
        W8 = np.array([w8] * k + [u8] * k)
        G, h = ref.eq8_rows(X, y, a)
        theta = np.concatenate([w8, u8])
        if lam.size:  # the kernel duals as the certificate: Eq. 8's objective is ‖θ‖², so
            # 2θ = Σ λ_i y_i ψ_i and the multipliers of the ½‖θ‖² form are λ/2
            out += [finding(f"Eq. 8 kernel duals: KKT {key}", value, 0.0, atol=KKT_TOL)
                    for key, value in ref.kkt_residuals(theta, lam / 2, G, h).items()]
            if "eq8_dual_ratio" in r:
                out.append(finding("Eq. 8 dual ratio min λ / max λ", r["eq8_dual_ratio"],
                                   min(lam) / max(lam), rtol=1e-14))
        if "srank_eq8" in r:
            out.append(finding("stable rank of the lifted Eq. 8 solution", r["srank_eq8"],
                               ref.stable_rank(W8), rtol=SPECTRAL_RTOL))
        w_svm = r.get("w_svm")
        if w_svm is not None and "eq8_cos_svm" in r:
            out += [finding("cos(w8, w_SVM)", r["eq8_cos_svm"], ref.cosine(w8, w_svm), atol=ROUND),
                    finding("cos(u8, −w_SVM)", r["eq8_cos_u"], ref.cosine(u8, -w_svm),
                            atol=ROUND),
                    finding("γ̄ of the lifted Eq. 8 solution", r["eq8_gamma"],
                            ref.normalized_margin(W8, X, y, a, v), rtol=1e-12,
                            atol=_q_atol(W8, X, v))]
        for key in ("eq8_cos", "limit_cos_eq8"):
            if key in r and D is not None:
                out.append(finding(f"cos(Ŵ, lifted Eq. 8) [{key}]", r[key],
                                   [ref.cosine(Dr, W8) for Dr in D], atol=ROUND))
    if r.get("w_svm") is not None:
        w_svm = np.asarray(r["w_svm"], float)
        if "gamma_star" in r:
            out.append(finding("global max margin γ̄* = v(1+α)√(k/2)/‖w_SVM‖", r["gamma_star"],
                               ref.lifted_svm_margin(w_svm, k, a, v), rtol=1e-14))
        if "lin_over_svm" in r and D is not None:
            mine = []
            for Dr in D:
                w_bar, u_bar = _means(Dr)
                z = w_bar - u_bar
                low = min(float(yi) * float(np.dot(z, x)) for x, yi in zip(X, y))
                mine.append(low / math.sqrt(float(z @ z)) * math.sqrt(float(w_svm @ w_svm)))
            out.append(finding("linear predictor's margin / SVM's", r["lin_over_svm"], mine,
                               rtol=1e-12, atol=ROUND * float(np.abs(X).sum(axis=1).max())))
    if r.get("pattern_W") is not None and D is not None:
        for i, (Dr, Wp) in enumerate(zip(D, np.asarray(r["pattern_W"], float))):
            if np.isnan(Wp).any():
                continue
            side_w, side_u, _beta = ref.agreement(Dr, X)
            out += [finding(f"pattern-restricted (P) of run {i}: KKT {key}", value, 0.0,
                            atol=KKT_TOL) for key, value in ref.qp_kkt(
                Wp, *ref.pattern_rows(X, y, a, side_w, side_u, k, v)).items()]
            out.append(finding(f"cos(Ŵ, pattern (P) solution) of run {i}", r["pattern_cos"][i],
                               ref.cosine(Dr, Wp), atol=ROUND))
    return out


def followup_findings(net, X, y, W0, r, *, T=None, eta_one_step=1.0) -> list:
    """Every number of one follow-up result ``r`` recomputed (see the module docstring)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    out = [_compare(key, r[key], rows)
           for key, rows in _per_run(net, X, y, W0, r, eta_one_step).items()]
    if "C_data" in r:
        out.append(finding("near-orthogonality constant C_data", r["C_data"],
                           ref.orthogonality_constant(X), rtol=1e-13))
    D = r.get("D")
    out += _solvers(net, X, y, D, r)
    if T is not None and "disagree" in r and D is not None:
        frac, loose = [], []
        for Dr in D:
            N, terms = forward_points(Dr, T, net.alpha, net.v)
            w_bar, u_bar = _means(Dr)
            lin = T @ (w_bar - u_bar)
            unsure = (np.abs(N) <= 10 * ROUND * terms) | (
                np.abs(lin) <= 10 * ROUND * np.abs(T) @ np.abs(Dr).max(axis=0))
            frac.append(float(np.mean(np.sign(N) != np.sign(lin))))
            loose.append(float(np.mean(unsure)))
        out.append(finding("fraction of fresh points with sign N ≠ sign (w̄ − ū)·x",
                           r["disagree"], frac, atol=loose))
    return out
