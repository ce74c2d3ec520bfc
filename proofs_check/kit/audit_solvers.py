"""Engine audits of solver answers (KKT / dual-LP certificates) and Thm 4.1's constants."""
from __future__ import annotations

import numpy as np

from . import audit_ref as ref
from .audit_base import KKT_TOL, MAX_LP_POINTS, finding

__all__ = ["kkt_findings", "solver_findings", "BOUND_RTOL", "constant_findings",
           "bound_findings"]


def kkt_findings(name, theta, G, h) -> list:
    res = ref.qp_kkt(theta, G, h)
    return [finding(f"{name}: KKT {key}", value, 0.0, atol=KKT_TOL) for key, value in res.items()]


def solver_findings(subject) -> list:
    X, y = subject["X"], subject["y"]
    out = []
    if "teacher" in subject:
        out += kkt_findings("SVM teacher", subject["teacher"], *ref.svm_rows(X, y))
    if "eq8" in subject:
        alpha, w, u = subject["eq8"]
        out += kkt_findings("Eq. 8", np.concatenate([w, u]), *ref.eq8_rows(X, y, alpha))
    if "pattern" in subject:
        alpha, side_w, side_u, k, v, W = subject["pattern"]
        out += kkt_findings("pattern-restricted (P)", W, *ref.pattern_rows(X, y, alpha, side_w, side_u,
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
        out.append(finding("Assumption 4 LP slack (dual LP)", eng, mine, rtol=1e-7, atol=1e-7))
        if res.witness is not None:
            j = res.witness_index
            other = X[y == -y[j]] * -y[j]
            out.append(finding("Assumption 4 witness z·x ≥ 1 on the other class",
                               min(1.0, float((other @ (-y[j] * res.witness)).min())), 1.0,
                                atol=1e-9))
    return out


#: T_exact and M are rounded *up* by 2^-40 (linteach.bounds.ROUND_UP) so that neither is
#: reported below the exact root; allowed on top of a few ulps of evaluation
BOUND_RTOL = {"eps0": 1e-13, "T_exact": 1e-12 + 2.0**-40, "M": 1e-12 + 2.0**-40}


def constant_findings(inputs, engine) -> list:
    mine = ref.sgd_constants(**inputs)
    out = [finding(f"Thm 4.1 {key}", engine[key], mine[key], rtol=BOUND_RTOL[key])
           for key in ("eps0", "T_exact", "M") if key in engine]
    for key in ("T_exact", "M"):  # upper bounds: never reported below their exact value
        if key in engine:
            below = max(0.0, mine[key] * (1 - 1e-14) - float(engine[key]))
            out.append(finding(f"Thm 4.1 {key} not below its exact value", below, 0.0))
    return out


def bound_findings(res: dict) -> list:
    """Theorem 4.1's constants in one :func:`run_sgd_case` result (the ones its verdict
    used, ε0 from the check's own monitor), recomputed from §3."""
    cfg, out = res["config"], []
    for i, r0 in enumerate(np.asarray(res["R_0"])):
        for e, eps in enumerate(cfg["eps"]):
            inputs = dict(n=cfg["n"], eps=eps, R_x=cfg["R_x"], R_0=float(r0), alpha=cfg["alpha"],
                          k=cfg["k"], eta=cfg["eta"], v=cfg["v"], w_star_norm=cfg["w_star_norm"])
            out += constant_findings(inputs, {"T_exact": np.asarray(res["T_exact"])[i, e],
                                       "M": np.asarray(res["M"])[i, e],
                                       "eps0": np.asarray(res["eps0"])[e]})
    return out


def certificate_findings(net, direction, X, y) -> list:
    """``kkt_certificate`` of (P) at ``direction`` re-derived from the multipliers it returns:
    γ, stationarity and complementarity with the gradients ∇q_i formed neuron by neuron
    (docs/math.md §6).  Only where every point is classified and no pre-activation sits on
    a kink (there σ' is a convention and the certificate's slope choice is its own)."""
    from linteach import convex

    a, v, k = net.alpha, net.v, net.k
    U = np.asarray(direction, float) / np.linalg.norm(direction)
    Z = U @ X.T
    sgn = np.repeat([1.0, -1.0], k)
    q = np.array([y[i] * v * sum(sgn[j] * max(Z[j, i], a * Z[j, i]) for j in range(2 * k))
                  for i in range(len(X))])
    if not q.min() > 0 or np.any(np.abs(Z) <= 1e-9 * np.linalg.norm(X, axis=1)):
        return []
    cert = convex.kkt_certificate(direction, X, y, alpha=a, v=v)
    gamma = q.min()
    Wn, qn = U / gamma, q / gamma
    resid = Wn.copy()
    for i, lam in enumerate(cert.lam):
        for j in range(2 * k):
            resid[j] -= lam * v * y[i] * sgn[j] * ref.sigma_prime(float(Z[j, i]), a) * X[i]
    wnorm = float(np.linalg.norm(Wn))
    return [finding("(P) certificate: normalised margin γ", cert.gamma, gamma, rtol=1e-12),
            finding("(P) certificate: stationarity from its λ", cert.stationarity,
                    float(np.linalg.norm(resid)) / wnorm, rtol=1e-6, atol=1e-12),
            finding("(P) certificate: complementarity from its λ", cert.complementarity,
                    float(np.max(cert.lam * (qn - 1.0))) / wnorm ** 2, rtol=1e-9,
                    atol=1e-15)]
