"""proofs_check.kit.flow: T_NAR detection, drops, the Eq. 6 rate formula, interior β."""
import numpy as np
import pytest

import linteach as lt
from proofs_check.kit import flow as _flow
from tolerances import FINITE_DIFFERENCE, IDENTITY


def _run_with(sides_w, sides_u, beta):
    return {"side_w": np.asarray(sides_w)[:, None, :], "side_u": np.asarray(sides_u)[:, None, :],
            "beta": np.asarray(beta, dtype=float)[:, None]}


def test_nar_entry_is_the_first_record_of_the_final_pattern():
    a, b = [1, -1, 1], [1, 1, 1]
    run = _run_with([b, a, b, a, a], [a, a, a, a, a], [0.1, 0.2, 0.1, 0.3, 0.3])
    assert _flow.nar_entry(run)[0] == 3


def test_nar_entry_needs_beta_positive_to_the_end():
    a = [1, -1, 1]
    assert _flow.nar_entry(_run_with([a, a, a], [a, a, a], [0.2, 0.2, 0.0]))[0] == -1
    assert _flow.nar_entry(_run_with([a, a, a], [a, a, a], [0.0, 0.2, 0.2]))[0] == 1


def test_largest_drop_is_relative_to_the_running_peak():
    g = np.array([[1.0], [2.0], [1.5], [1.8], [3.0]])
    valid = np.ones_like(g, dtype=bool)
    np.testing.assert_allclose(_flow.largest_drop(g, valid), [0.25])
    assert _flow.largest_drop(np.sort(g, axis=0), valid)[0] == 0.0


def test_largest_drop_is_infinite_when_the_late_phase_is_left():
    g = np.array([[1.0], [2.0], [-5.0], [3.0]])
    valid = np.array([[False], [True], [False], [True]])
    assert np.isinf(_flow.largest_drop(g, valid)[0])
    assert _flow.largest_drop(g, np.array([[False], [False], [True], [True]]))[0] == 0.0


@pytest.mark.parametrize("steps", [150, 200])
def test_gamma_rate_matches_finite_differences_of_the_smoothed_margin(steps, rng):
    ds = lt.make_symmetric_gaussians(20, 3, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    W = lt.gradient_flow(net, net.init(3, scale=1.0, rng=rng), ds, dt=0.01, n_steps=steps,
                         normalized=True).W
    rho = np.linalg.norm(W)
    rate = _flow.gamma_rate(net, W / rho, np.log(rho), ds.X, ds.y)
    assert rate["log_lsum"] < np.log(np.log(2.0))  # the late phase
    G = net.loss_and_grad(W, ds.X, ds.y)[1]
    eps = 1e-4 * rho / np.linalg.norm(G)
    fd = (lt.smoothed_margin(net, W - eps * G, ds.X, ds.y)
          - lt.smoothed_margin(net, W + eps * G, ds.X, ds.y)) / (2 * eps)
    predicted = np.exp(rate["log_lsum"]) / (ds.n * rho) * rate["grad_norm2"] * rate["s"]
    np.testing.assert_allclose(predicted, fd, rtol=FINITE_DIFFERENCE)
    assert rate["s"] > 0
    np.testing.assert_allclose(rate["gamma_tilde"], lt.smoothed_margin(net, W, ds.X, ds.y),
                               rtol=IDENTITY)


def test_interior_beta_is_zero_for_a_vanishing_neuron():
    X = np.array([[1.0, 0.2], [-1.0, 0.1]])
    W = np.array([[1.0, 0.0], [1.0, 0.0], [-1.0, 0.0], [1e-17, 0.0]])
    assert _flow.interior_beta(W, X) == 0.0
    W[3] = [-1.0, 0.0]
    assert _flow.interior_beta(W, X) > 0.9


def test_flow_pair_companion_takes_twice_the_steps_at_half_the_turn(rng):
    ds = lt.make_symmetric_gaussians(8, 2, rng=rng)
    net = lt.Net(k=2, alpha=0.3)
    W0 = net.init(2, scale=0.1, rng=rng, batch=2)
    X, y = np.stack([ds.X] * 2), np.stack([ds.y] * 2)
    pair = _flow.flow_pair(net, W0, X, y, dt=0.02, n_steps=50, record=10)
    assert pair["half"]["dt"] == 0.01 and pair["half"]["n_steps"] == 100
    assert pair["main"]["directions"].shape[1:] == (2, 4, 2)
    summary = _flow.limit_summary(pair, 1)
    assert summary["companion_gap"] < 0.05  # same total turn, same trajectory to O(dt)
    np.testing.assert_allclose(np.linalg.norm(summary["direction"]), 1.0)
