"""Checks thm4.1, thm5.1, cor6.1, appD.1: verdicts, negative controls, and their machinery."""
import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, target
from hypothesis import strategies as st

import linteach as lt
from linteach.strategies import (band_edge_points, band_points, clustered_nets,
                                 clustered_weights, seeds)
from proofs_check.claims import appD_1, cor6_1, thm4_1, thm5_1
from proofs_check.engine.context import Context, verdict_of
from proofs_check.engine.contract import Case
from proofs_check.engine.runner import run_one
from proofs_check.kit import geometry, linear_regime, sgd_configs, thm4_report
from proofs_check.kit.sgd_cases import Monitor, theorem_teacher
from proofs_check.kit.signs import sign_agreement


@pytest.mark.parametrize("claim_id", ["thm4.1", "thm5.1", "cor6.1", "appD.1"])
def test_check_passes_and_catches_its_control(claim_id):
    result = run_one(claim_id, seed=0, budget="quick", cases=1)
    assert result.error is None
    assert result.verdict == "PASS"
    assert result.negative_control_caught is True


def _fresh(module, name="test"):
    return Context(dataclasses.replace(module.CLAIM, id=f"{module.CLAIM.id}:{name}"), seed=1,
                   budget="quick")


# -- Theorem 4.1 -------------------------------------------------------------------------------
def _sgd_case(ctx, family, **item):
    spec = sgd_configs.CONTROL_FAMILIES.get(family) or sgd_configs.FAMILIES[family]
    case = ctx.cases(1, family)[0]
    return case, sgd_configs.run_sgd_case({"case": case, "spec": spec, "epoch_scale": 0.5, **item})


def test_corrupted_sgd_fails_the_invariants():
    ctx = _fresh(thm4_1)
    case, res = _sgd_case(ctx, "corrupted-sgd", corrupt=True)
    thm4_report.record_sgd_result(ctx, case, res)
    assert verdict_of(ctx) == "FAIL"
    assert ctx.worst["F_gain_per_step"].slack < 0 or ctx.worst["G2_gain_per_step"].slack < 0


def test_nonseparable_data_is_assumption_not_met():
    ctx = _fresh(thm4_1)
    case, res = _sgd_case(ctx, "nonseparable")
    thm4_report.record_sgd_result(ctx, case, res)
    assert verdict_of(ctx) == "ASSUMPTION-NOT-MET"


@pytest.mark.parametrize("clause, change", [
    ("max_loss_le_eps_in_first_mistake_free_epoch",
     lambda r: {"free_max_loss": np.where(r["free_found"], 2 * np.max(r["config"]["eps"]), 0.0)}),
    ("updates_to_eps_le_M", lambda r: {"M": np.where(r["t_eps"] > 1, 1.0, r["M"])}),
    ("mistake_epochs_le_T_exact_over_n",
     lambda r: {"T_exact": np.full_like(r["T_exact"], 0.5)}),
])
def test_counting_clauses_flag_planted_violations(clause, change):
    ctx = _fresh(thm4_1)
    case, res = _sgd_case(ctx, "small-n")
    thm4_report.record_sgd_result(ctx, case, {**res, **change(res)})
    assert ctx.worst[clause].slack < 0 and verdict_of(ctx) == "FAIL"


def test_monitor_matches_a_naive_replay(rng):
    ds = lt.make_separable(6, 2, margin=0.4, rng=rng)
    w_star = theorem_teacher(ds.X, ds.y)
    net = lt.Net(k=2, alpha=0.3, v=0.8)
    W0 = net.init(2, scale=0.1, rng=rng, batch=2)
    eps, eta = [0.3, 0.05], 0.5
    mon = Monitor(net, ds.X, ds.y, w_star, eps, eta=eta, W0=W0)
    Ws, gs, before = [W0.copy()], [], []

    def both(t, W, info):
        Ws.append(W.copy())
        gs.append(info["g"].copy())
        before.append(info["loss_before"].copy())
        mon(t, W, info)

    lt.sgd(net, W0, ds, eta=eta, n_epochs=30, rng=rng, callback=both)
    Ws, gs, before = np.array(Ws), np.array(gs), np.array(before)  # (T+1, R, ...), (T, R)
    Wstar = np.concatenate([np.tile(w_star, (2, 1)), -np.tile(w_star, (2, 1))])
    gain_F = np.einsum("trij,ij->tr", np.diff(Ws, axis=0), Wstar)
    np.testing.assert_allclose(mon.F_slack, ((gain_F - 2 * 2 * eta * 0.8 * 0.3 * gs)
                                             / (2 * 2 * eta * 0.8 * 0.3 * gs)).min(0),
                               rtol=1e-6, atol=1e-9)
    mean_loss = np.array([net.loss(W, ds.X, ds.y) for W in Ws])          # (T+1, R)
    for e, target_eps in enumerate(eps):
        for r in range(2):
            hits = np.flatnonzero(mean_loss[:, r] <= target_eps)
            assert mon.t_eps[r, e] == (hits[0] if hits.size else -1)
            mistakes = (before[:, r] >= mon.eps0[e]).reshape(30, 6).sum(1)
            lead = np.argmax(mistakes == 0) if (mistakes == 0).any() else 30
            assert mon.lead_epochs[r, e] == lead
            assert mon.free_found[r, e] == (mistakes == 0).any()


# -- exact signs --------------------------------------------------------------------------------
def _oracle(net, W, x, c):
    """Theorem 5.1's two signs and regime test in Fractions, straight from the definitions."""
    F = [[Fraction(float(a)) for a in row] for row in W]
    xf = [Fraction(float(a)) for a in x]
    a, k = Fraction(net.alpha), net.k
    pre = [sum(p * q for p, q in zip(row, xf)) for row in F]
    sig = [z if z > 0 else a * z for z in pre]
    N = Fraction(net.v) * (sum(sig[:k]) - sum(sig[k:]))
    w_bar = [sum(col) / k for col in zip(*F[:k])]
    u_bar = [sum(col) / k for col in zip(*F[k:])]
    D = sum((p - q) * s for p, q, s in zip(w_bar, u_bar, xf))
    r2 = max(sum((p - q) ** 2 for p, q in zip(row, bar))
             for rows, bar in ((F[:k], w_bar), (F[k:], u_bar)) for row in rows)
    inside = D * D >= Fraction(c) ** 2 * r2 * sum(s * s for s in xf)
    return (N > 0) - (N < 0), (D > 0) - (D < 0), inside


@given(clustered_nets(k=(1, 4), d=(2, 4), r=(0.0, 0.4), gap=(1.0, 2.0), center_norm=(0.0, 1e3)),
       st.data())
def test_exact_signs_match_a_fraction_oracle(net_W, data):
    net, W = net_W
    X = data.draw(band_edge_points(W, n=(1, 5), c=2.0)) if net.k > 1 else \
        np.random.default_rng(data.draw(st.integers(0, 99))).standard_normal((4, W.shape[1]))
    info = sign_agreement(net, W, X, c=2.0)
    for i, x in enumerate(X):
        sN, sD, inside = _oracle(net, W, x, 2.0)
        assert info["agree"][i] == (sN == sD)
        if info["exact"][i] or sN != sD:
            assert info["in_regime"][i] == inside


def test_relu_tie_is_a_violation():
    net = lt.Net(k=1, alpha=0.0, v=1.0)
    W = np.array([[1.0, 0.0], [0.0, 1.0]])
    info = sign_agreement(net, W, np.array([[-1.0, -2.0]]), c=0.0)  # N = 0, D = 1
    assert not info["agree"][0] and info["slack"][0] < 0


# -- Theorem 5.1: hunting for violations ---------------------------------------------------------
@given(clustered_nets(k=(1, 6), d=(2, 5), r=(0.0, 0.45), gap=(1.0, 2.0), center_norm=(0.0, 5.0)),
       st.integers(1, 10), seeds(), st.sampled_from([0.0, 1e-9]))
@example(net_W=(lt.Net(k=2, alpha=0.5, v=1.0),
                clustered_weights(2, 2, r=0.25, gap=1.0, rng=np.random.default_rng(0))),
         n=2, seed=0, offset=0.0)  # shrunk regression: a band-point draw parallel to w̄ − ū
def test_no_violation_of_theorem_51_on_the_band_edge(net_W, n, seed, offset):
    net, W = net_W
    X = band_points(W, n, c=2.0 * (1 + offset), rng=np.random.default_rng(seed))
    slack, _ = linear_regime.theorem51_slacks(net, W, X)
    if slack.size:
        target(-float(slack.min()), label="smallest Theorem 5.1 slack")
        # sign agreement, and even s·N ≥ α·v·k·|D| up to rounding (the sharp analysis)
        assert slack.min() >= 0
        assert slack.min() >= net.alpha * (1 - 1e-6)


@given(st.floats(0.01, 0.99), st.floats(0.01, 0.999), st.integers(2, 5), st.integers(0, 99))
def test_sharp_constant_is_tight_on_the_extremal_net(alpha, frac, d, seed):
    rng = np.random.default_rng(seed)
    below = thm5_1.extremal_net(alpha, 1.0, frac * linear_regime.sharp(alpha), d=d, rng=rng)
    above = thm5_1.extremal_net(alpha, 1.0, linear_regime.sharp(alpha) / frac, d=d, rng=rng)
    target(frac, label="closeness to the sharp constant")
    assert not sign_agreement(*below, c=0.0)["agree"][0]
    assert sign_agreement(*above, c=0.0)["agree"][0]


@pytest.mark.parametrize("kwargs, families", [({"alpha": 0.0}, ("random", "k1")),
                                              ({"c_factor": thm5_1.SHRINK}, ("extremal",))])
def test_theorem_51_controls_fail(kwargs, families):
    ctx = _fresh(thm5_1)
    thm5_1._run(ctx, families, count=3, **kwargs)
    assert verdict_of(ctx) == "FAIL"


# -- Corollary 6.1 and App. D.1 ------------------------------------------------------------------
def test_corollary_61_relu_control_fails():
    ctx = _fresh(cor6_1)
    cor6_1._run(ctx, alpha=0.0, count=3)
    assert verdict_of(ctx) == "FAIL"


def test_exactly_on_the_plane_is_a_tie_that_agrees():
    net = lt.Net(k=3, alpha=0.2, v=1.5)
    W = geometry.clustered_copies(np.array([1.0, 2.0]), np.array([0.0, 2.0]), 3)
    info = sign_agreement(net, W, np.array([[0.0, 5.0], [0.0, -1.0]]), c=0.0)
    assert info["agree"].all() and np.all(info["D"] == 0) and np.all(info["N"] == 0)


def test_appD1_certificates_fail_on_leaky_nets():
    ctx = _fresh(appD_1)
    appD_1._run(ctx, alpha=(0.05, 0.95), count=3)
    assert verdict_of(ctx) == "FAIL"
    assert all(ctx.worst[c].slack < 0 for c in appD_1.CLAUSES)


def test_appD1_witness_signs_for_relu():
    w, u = np.array([1.0, 0.5]), np.array([-0.3, 1.0])
    net = lt.Net(k=1, alpha=0.0, v=1.0)
    N = net.forward(geometry.clustered_copies(w, u, 1), appD_1.witness_points(w, u))
    assert N[0] < 0 and N[1] == 0 and N[2] > 0


def test_a_case_replays_from_family_and_seed():
    case = _fresh(thm4_1).cases(1, "small-n")[0]
    item = {"case": case, "spec": sgd_configs.FAMILIES["small-n"], "epoch_scale": 0.1}
    assert sgd_configs.run_sgd_case(item)["digests"] == sgd_configs.run_sgd_case(dict(item))["digests"]
