"""The table of the robustness census (``tests/_fuzz_census.py``): per public function, how
to draw valid keyword arguments from a seeded generator, the reference its answer must meet
(``tests/_fuzz_refs.py``) and the scale laws it obeys.
"""
from __future__ import annotations

import mpmath as mp
import numpy as np

import linteach as lt
from linteach import assumption4, bounds, convex, kkt, loss, separable, strategies, testing
from _fuzz_refs import (  # this file's folder is on sys.path (pytest, or a script)
    Wrong, close, dataset_owns_copies, in_band, law, mp_ell, mp_norm, radius_is, ref_angle,
    ref_bound, ref_elementwise, ref_kink, ref_log_expm1_exp, ref_log_sum_loss, ref_logsumexp,
    ref_mean_loss, ref_normalized_margin, ref_relative_radius, ref_scaled_terms,
    ref_smoothed_margin, rel_compare, same, scale_exp, separable_verdict, svm_optimal,
    teacher_certifies)


# -- valid inputs --------------------------------------------------------------------------------
def problem(rng, k=None, n=None, d=None):
    k = k or int(rng.integers(1, 4))
    n, d = n or int(rng.integers(2, 7)), d or int(rng.integers(1, 4))
    W = rng.standard_normal((2 * k, d)) * np.exp(rng.uniform(-3, 3, (2 * k, 1)))
    X = rng.standard_normal((n, d)) * np.exp(rng.uniform(-2, 2, (n, 1)))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    return lt.Net(k=k, alpha=float(rng.choice([0.0, 0.1, 0.3, 0.9]))), W, X, y


def sep_data(rng):
    ds = lt.make_separable(int(rng.integers(2, 8)), int(rng.integers(1, 4)),
                           margin=float(rng.uniform(0.05, 0.5)), rng=rng)
    return ds.X, ds.y


# -- the census: (name, function, valid kwargs from rng, reference, scale laws) -----------------
def _p(rng):
    net, W, X, y = problem(rng)
    return {"net": net, "W": W, "X": X, "y": y}


def _WX(rng):
    _, W, X, _ = problem(rng)
    return {"W": W, "X": X}


def _WXy(rng):
    _, W, X, y = problem(rng)
    return {"W": W, "X": X, "y": y}


def _W(rng):
    return {"W": problem(rng)[1]}


def _q(rng):
    n = int(rng.integers(1, 5))
    return {"q": rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-300, 300, n)}


def _bound(rng):
    big = rng.random() < 0.3
    e = (lambda: 10.0 ** rng.uniform(-150, 150)) if big else (lambda: 10.0 ** rng.uniform(-4, 4))
    return {"n": int(rng.integers(1, 10**5)), "eps": e(), "R_x": e(),
            "R_0": e() if rng.random() < 0.8 else 0.0, "alpha": float(rng.uniform(1e-3, 0.99)),
            "k": int(rng.integers(1, 1000)), "eta": e(), "v": e(), "w_star_norm": e()}


def _sep(rng):
    X, y = sep_data(rng)
    return {"X": X, "y": y}


def _alias(rng):
    X, y = sep_data(rng)
    return {"X": X.copy(), "y": y.copy()}


def _qp(rng):
    X, y = sep_data(rng)
    G = y[:, None] * X
    return {"theta": lt.max_margin_teacher(X, y), "G": G, "h": np.ones(len(y))}


def _flow_kw(rng):
    net, W, X, y = problem(rng, n=3)
    W = np.ldexp(W, scale_exp(rng, W))  # any scale: "the normalized flow moves, or raises"
    return {"net": net, "W0": W, "data": (X, y), "dt": 0.1, "n_steps": 3, "normalized": True}


def flow_moves(kw, run):
    """From every valid state the normalized flow advances its continuous time.

    Leaky nets only: with ReLU (α = 0) a state whose active points all have margins of
    ‖W‖·q̂ ~ e^300 has ∇L/L below e^{-1e150}, an honest zero (the flow does stand still).
    """
    if kw.get("__valid") and kw["net"].alpha > 0 and not np.all(np.isfinite(run.log_time)):
        raise Wrong(f"log_time = {run.log_time} after {kw['n_steps']} steps from ‖W0‖ = "
                    f"e^{float(run.log_norm):.4g}: the flow froze")


def _clustered(rng):
    k, d = int(rng.integers(2, 5)), int(rng.integers(2, 4))
    return {"k": k, "d": d, "r": float(rng.uniform(0, 0.3)), "gap": float(rng.uniform(0.7, 2)),
            "rng": rng}


def _band(rng):
    W = strategies.clustered_weights(3, 3, r=0.2, gap=1.0, rng=rng)
    return {"W": W, "n": 5, "c": float(rng.uniform(0.0, 2.0)), "rng": rng}


NETS = lt.Net(k=2, alpha=0.3)
SPECS = [
    # metrics: scale-invariant (W by 2^k, rows by their own 2^k) and high-precision references
    ("metrics.in_par", lt.in_par, _WXy, None, [law("W", 0), law("W", 0, per_row=True),
                                                law("X", 0)]),
    ("metrics.par_fractions", lt.par_fractions, _WXy, None,
     [law("W", 0), law("W", 0, per_row=True)]),
    ("metrics.agreement", lambda W, X: (lambda a: None if a is None else (a.side_w, a.side_u))(
        lt.agreement(W, X)), _WX, None, [law("W", 0)]),
    ("metrics.max_within_type_angle", lt.max_within_type_angle, _W, ref_angle,
     [law("W", 0), law("W", 0, per_row=True)]),
    ("metrics.normalized_margin", lt.normalized_margin, _p, ref_normalized_margin, [law("W", 0)]),
    ("metrics.smoothed_margin", lt.smoothed_margin, _p, ref_smoothed_margin, []),
    ("metrics.relative_cluster_radius", lt.relative_cluster_radius, _W, ref_relative_radius,
     [law("W", 0)]),
    ("metrics.cluster_radius", lt.cluster_radius, _W, None, [law("W", 1)]),
    ("metrics.neuron_means", lt.neuron_means, _W, None, [law("W", 1)]),
    ("metrics.split_types", lt.metrics.split_types, _W, None, [law("W", 1)]),
    ("metrics.linear_regime", lt.linear_regime, _WX, None,
     [law("W", 0), law("X", 0), law("X", 0, per_row=True)]),
    ("metrics.fraction_outside_linear_regime", lt.fraction_outside_linear_regime, _WX, None,
     [law("W", 0), law("X", 0, per_row=True)]),
    ("metrics.max_n_diff", lt.max_n_diff, _WX, None,
     [law("W", 0), law("W", 0, per_row=True), law("X", 0, per_row=True)]),
    # loss: every function against mpmath over margins of 1e±300
    ("loss.ell", loss.ell, _q, ref_elementwise(mp_ell), []),
    ("loss.g", loss.g, _q, ref_elementwise(lambda q: 1 / (1 + mp.exp(q))), []),
    ("loss.log_g", loss.log_g, _q, ref_elementwise(lambda q: -mp.log1p(mp.exp(q))), []),
    ("loss.log_ell", loss.log_ell, _q, ref_elementwise(lambda q: mp.log(mp_ell(q))), []),
    ("loss.logsumexp", loss.logsumexp,
     lambda rng: {"a": rng.standard_normal((2, 3)) * 10.0 ** rng.uniform(-300, 300)},
     ref_logsumexp, []),
    ("loss.mean_loss", loss.mean_loss, _q, ref_mean_loss, []),
    ("loss.log_sum_loss", loss.log_sum_loss, _q, ref_log_sum_loss, []),
    ("loss.log_expm1_exp", loss.log_expm1_exp,
     lambda rng: {"log_x": rng.uniform(-700, 700, 3)}, ref_log_expm1_exp, []),
    ("loss.scaled_loss_terms", loss.scaled_loss_terms,
     lambda rng: {"q_hat": rng.uniform(-1, 1, 4), "log_norm": float(rng.uniform(-50, 700))},
     ref_scaled_terms, []),
    ("loss.log_sum_loss_scaled", loss.log_sum_loss_scaled,
     lambda rng: (lambda kw: dict(zip(("lead", "rest"), loss.scaled_loss_terms(**kw)[:2]),
                                  log_norm=kw["log_norm"]))(
        {"q_hat": rng.uniform(-1, 1, 4), "log_norm": float(rng.uniform(-50, 700))}),
     None, []),
    ("loss.smoothed_margin_scaled", loss.smoothed_margin_scaled,
     lambda rng: (lambda kw: dict(zip(("lead", "rest"), loss.scaled_loss_terms(**kw)[:2]),
                                  log_norm=kw["log_norm"]))(
        {"q_hat": rng.uniform(0.1, 1, 4), "log_norm": float(rng.uniform(-50, 700))}),
     None, []),
    ("loss.smoothed_margin_from", loss.smoothed_margin_from,
     lambda rng: {"log_loss_sum": float(rng.uniform(-700, -1)),
                  "log_norm": float(rng.uniform(-700, 700))}, None, []),
    # bounds
    ("bounds.sgd_update_bound", bounds.sgd_update_bound, _bound, ref_bound, []),
    ("bounds.teacher_weights", bounds.teacher_weights,
     lambda rng: {"w_star": rng.standard_normal(3), "k": int(rng.integers(1, 4))}, None,
     [law("w_star", 1)]),
    ("bounds.potential_F", bounds.potential_F,
     lambda rng: {"W": problem(rng, d=2)[1], "w_star": rng.standard_normal(2)}, None,
     [law("W", 1), law("w_star", 1)]),
    ("bounds.potential_G", bounds.potential_G, _W, lambda kw, out: close(
        out, float(mp_norm(kw["W"])), rtol=1e-14), [law("W", 1)]),
    ("bounds.invariant_bounds", bounds.invariant_bounds,
     lambda rng: {"g": rng.random(3), "k": 2, "eta": 0.1, "v": 1.0, "alpha": 0.3,
                  "R_x": 1.0}, None, []),
    # data
    ("data.Dataset", lt.Dataset, _alias, dataset_owns_copies, []),
    ("data.make_separable", lt.make_separable,
     lambda rng: {"n": 5, "d": 2, "margin": 0.1, "radius": float(10.0 ** rng.uniform(-300, 300)),
                  "rng": rng}, lambda kw, ds: teacher_certifies(kw, ds), []),
    ("data.make_symmetric_gaussians", lt.make_symmetric_gaussians,
     lambda rng: {"n": 4, "d": 2, "mean_norm": 1.0, "std": 0.3, "margin": 0.05, "rng": rng},
     teacher_certifies, []),
    ("data.make_outlier_set", lt.make_outlier_set,
     lambda rng: {"n": 4, "d": 2, "outlier_margin": float(10.0 ** rng.uniform(-5, 5)),
                  "outlier_spread": 2.0, "rng": rng}, teacher_certifies, []),
    ("data.make_blobs_2d", lt.make_blobs_2d,
     lambda rng: {"n": 4, "radius": 0.2, "center": (float(10.0 ** rng.uniform(-0.3, 300)), 0.0),
                  "rng": rng}, teacher_certifies, []),
    ("data.augment_bias", lt.augment_bias, lambda rng: {"data": sep_data(rng)[0]}, None, []),
    ("data.stack", lambda datasets: lt.stack(datasets),
     lambda rng: {"datasets": [lt.Dataset(*sep_data(np.random.default_rng(1)))] * 2}, None, []),
    ("data.max_margin_teacher", lt.max_margin_teacher, _sep, svm_optimal,
     [law("X", -1, compare=rel_compare(1e-7))]),
    ("data.load_digit_pair", lt.load_digit_pair,
     lambda rng: {"a": 0, "b": 1, "test_fraction": 0.25, "rng": rng, "bias": False}, None, []),
    # convex, kkt, assumption4, separable
    ("convex.svm_no_bias", convex.svm_no_bias, _sep, svm_optimal,
     [law("X", -1, compare=rel_compare(1e-7))]),
    ("convex.solve_eq8", convex.solve_eq8, lambda rng: {**_sep(rng), "alpha": 0.3}, None,
     [law("X", -1, compare=rel_compare(1e-6))]),
    ("convex.eq8_kernel", convex.eq8_kernel, lambda rng: {**_sep(rng), "alpha": 0.3}, None,
     [law("X", 2, compare=rel_compare(1e-13))]),
    ("convex.eq8_kernel_dual", convex.eq8_kernel_dual, lambda rng: {**_sep(rng), "alpha": 0.3},
     None, []),
    ("convex.nar_program", convex.nar_program,
     lambda rng: {"X": [[1.0], [-1.0]], "y": [1, -1], "alpha": 0.5, "c_w": [1, 0.5],
                  "c_u": [0.5, 1], "k": int(rng.integers(1, 3))}, None, []),
    ("assumption4.assumption4_lp", lambda X, y: assumption4.assumption4_lp(X, y).holds,
     _sep, None, [law("X", 0), law("X", 0, per_row=True)]),
    ("assumption4.lp_feasible", assumption4.lp_feasible,
     lambda rng: (lambda X, y: {"G": y[:, None] * X, "h": np.ones(len(y))})(*sep_data(rng)),
     lambda kw, out: same(out, True) if kw.get("__valid") else None, [law("G", 0)]),
    ("kkt.kkt_certificate", lambda W, X, y: kkt.kkt_certificate(W, X, y, alpha=0.3).gamma,
     lambda rng: {"W": np.array([[3.0, 0.1], [-3.0, 0.2]]), "X": [[1.0, 0.0], [-1.0, 0.0]],
                  "y": [1.0, -1.0]}, None, [law("W", 0, compare=rel_compare(1e-13))]),
    ("kkt.qp_kkt_report", kkt.qp_kkt_report,
     lambda rng: (lambda kw: {**kw, "mu": np.zeros(len(kw["h"]))})(_qp(rng)), None, []),
    ("kkt.polish", kkt.polish, _qp, None, []),
    ("separable.separability", separable.separability,
     lambda rng: {**_sep(rng), "__separable": True}, separable_verdict, []),
    # testing and strategies
    ("testing.kink_distance", testing.kink_distance, _WX, ref_kink, []),
    ("testing.gradient_check", testing.gradient_check,
     lambda rng: {**_p(rng), "rng": rng}, None, []),
    ("strategies.clustered_weights", strategies.clustered_weights, _clustered, radius_is, []),
    ("strategies.band_points", strategies.band_points, _band, in_band, []),
    ("strategies.nar_weights", strategies.nar_weights,
     lambda rng: {"X": [[1.0, 0.0], [0.0, 1.0]], "side_w": [1.0, 1.0], "side_u": [-1.0, 1.0],
                  "k": 2, "rng": rng}, None, []),
    ("strategies.par_weights", strategies.par_weights,
     lambda rng: {"data": lt.Dataset(*sep_data(rng)), "k": 2, "rng": rng},
     lambda kw, W: same(lt.in_par(W, kw["data"].X, kw["data"].y), True), []),
    # read-only calls of the network and the trainers (owned elsewhere)
    ("network.Net", lt.Net, lambda rng: {"k": 2, "alpha": 0.3, "v": 1.0}, None, []),
    ("network.Net.forward", NETS.forward,
     lambda rng: (lambda p: {"W": p[1], "X": p[2]})(problem(rng, k=2)), None, [law("W", 1)]),
    ("network.Net.margins", NETS.margins,
     lambda rng: (lambda p: {"W": p[1], "X": p[2], "y": p[3]})(problem(rng, k=2)), None,
     [law("W", 1)]),
    ("network.Net.loss_and_grad", NETS.loss_and_grad,
     lambda rng: (lambda p: {"W": p[1], "X": p[2], "y": p[3]})(problem(rng, k=2)), None, []),
    ("network.Net.grad_output", NETS.grad_output,
     lambda rng: (lambda p: {"W": p[1], "X": p[2]})(problem(rng, k=2)), None, [law("W", 0)]),
    ("train.sgd", lt.sgd, lambda rng: (lambda p: {"net": p[0], "W0": p[1], "data": (p[2], p[3]),
                                                  "eta": 0.1, "n_epochs": 2, "rng": rng})(
        problem(rng, n=3)), None, []),
    ("train.gd", lt.gd, lambda rng: (lambda p: {"net": p[0], "W0": p[1], "data": (p[2], p[3]),
                                                "eta": 0.1, "n_steps": 3})(problem(rng, n=3)),
     None, []),
    ("network.Net.init", NETS.init, lambda rng: {"d": 2, "scale": 1.0, "rng": rng}, None, []),
    ("train.gradient_flow", lt.gradient_flow, _flow_kw, flow_moves, []),
]
