"""Hostile and odd input for the public API (issue 7).

Every call either returns a sane answer (finite, of the documented shape, no warning) or
raises a documented exception (``TypeError``/``ValueError``, ``NotSeparableError``) whose
message names the offending argument in backticks.  Anything else -- an ``IndexError``,
an ``AttributeError``, a numpy message naming no argument, a leaked ``RuntimeWarning``, a
hang, a silently wrong answer -- is a defect.  ``HYPOTHESIS_PROFILE=thorough`` runs the
same properties 16x harder (``make verify``).

Every defect found here is pinned by its minimal reproducer in ``test_fuzz_defects.py``;
the calling contract and the strategies live in ``_fuzz_support.py``.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import linteach as lt
from linteach import convex
from _fuzz_support import (solver_examples, arrays, call, counts, finite, hostile, junk,
                           numbers, problems, replace_one, scalars)
from tolerances import (HOSTILE_ROUNDING, IDENTITY, ORACLE, ORACLE_FLOOR, SUBNORMAL_FLOOR,
                        ULPS_FLOOR)

#: the valid ``rng`` of the knob dictionaries below: an integer seed, not a generator, so
#: every hypothesis example builds a fresh generator (a shared ``Generator`` would make each
#: example's draws depend on how many examples, and which tests, ran before it)
KNOB_SEED = 0

# -- the network -----------------------------------------------------------------------------
@given(problems(), st.data())
def test_net_methods_on_hostile_arrays(problem, data):
    net, W, X, y = problem
    args = replace_one(data.draw, {"W": W, "X": X, "y": y}, hostile)
    for method in (net.forward, net.grad_output):
        out, exc = call(method, args["W"], args["X"])
        if exc is None:
            finite(out)
    out, exc = call(net.loss_and_grad, args["W"], args["X"], args["y"])
    if exc is None:
        finite(*out)
        assert out[1].shape[-2:] == np.shape(args["W"])[-2:]


@given(problems())
def test_valid_problems_give_finite_outputs_of_the_documented_shapes(problem):
    net, W, X, y = problem
    out, exc = call(net.forward, W, X)
    assert exc is None and out.shape == (X.shape[0],)
    (L, G), exc = call(net.loss_and_grad, W, X, y)
    assert exc is None and L.shape == () and G.shape == W.shape
    finite(out, L, G)
    # integer labels and float32 input are accepted and computed in float64
    if np.abs(X).max() < 1e30:  # float32 holds it
        out32, _ = call(net.forward, W.astype(np.float32), X.astype(np.float32))
        assert out32.dtype == np.float64
    assert call(net.loss, W, X, y.astype(np.int8))[0] == call(net.loss, W, X, 1.0 * y)[0]


@given(st.data())
def test_net_constructor_and_init_knobs(data):
    kw = replace_one(data.draw, {"k": 2, "alpha": 0.3, "v": 1.0}, scalars)
    net, exc = call(lt.Net, **kw)
    if exc is None:
        assert net.k >= 1 and 0 <= net.alpha < 1 and net.v > 0
    kw = replace_one(data.draw, {"d": 2, "scale": 0.5, "rng": KNOB_SEED}, scalars)
    W, exc = call(lt.Net(k=2).init, **kw)
    if exc is None:
        finite(W)
        assert W.shape == (4, kw["d"])


# -- data ------------------------------------------------------------------------------------
GENERATORS = {
    lt.make_separable: {"n": 5, "d": 2, "margin": 0.1, "radius": 1.0},
    lt.make_symmetric_gaussians: {"n": 4, "d": 2, "mean_norm": 1.0, "std": 0.3, "margin": 0.05},
    lt.make_outlier_set: {"n": 4, "d": 2, "outlier_margin": 0.1, "outlier_spread": 2.0},
    lt.make_blobs_2d: {"n": 4, "radius": 0.2, "center": (0.5, 0.0)},
}


@pytest.mark.parametrize("make", list(GENERATORS), ids=lambda f: f.__name__)
@given(data=st.data())
def test_generators_on_hostile_knobs(make, data):
    kw = replace_one(data.draw, {**GENERATORS[make], "rng": KNOB_SEED},
                     scalars)
    ds, exc = call(make, **kw)
    if exc is None:
        finite(ds.X, ds.w_star)
        assert set(np.unique(ds.y)) <= {-1.0, 1.0}
        # the teacher certifies separability: y_i <w*, x_i> >= 1 (up to rounding), checked
        # with X scaled to entries <= 1 so the check itself cannot overflow
        top = np.abs(ds.X).max()
        assert np.all(ds.y * ((ds.X / top) @ ds.w_star) >= (1 - HOSTILE_ROUNDING) / top)


@given(hostile, hostile)
def test_dataset_and_bias_lifting_on_hostile_arrays(X, y):
    ds, exc = call(lt.Dataset, X, y)
    if exc is None:
        finite(ds.X, ds.y)
        lifted, exc = call(lt.augment_bias, ds)
        assert exc is None and lifted.d == ds.d + 1


# -- training --------------------------------------------------------------------------------
TRAINERS = {
    lt.sgd: {"eta": 0.5, "n_epochs": 2, "rng": KNOB_SEED, "eps0": 0.1},
    lt.gd: {"eta": 0.5, "n_steps": 3, "record": "all"},
    lt.gradient_flow: {"dt": 0.1, "n_steps": 3, "normalized": True, "record": 2},
}
steps = st.one_of(st.floats(-1.0, 1e4), st.sampled_from([0.0, 5e-324, 1e300, np.nan, np.inf]),
                  junk)


@pytest.mark.parametrize("train", list(TRAINERS), ids=lambda f: f.__name__)
@given(problem=problems(max_n=4), data=st.data())
def test_trainers_on_hostile_knobs(train, problem, data):
    net, W, X, y = problem
    bad = {"eta": steps, "dt": steps, "n_steps": counts, "n_epochs": counts, "record": counts,
           "rng": scalars, "eps0": steps, "normalized": st.booleans()}
    valid = TRAINERS[train]
    name = data.draw(st.sampled_from(sorted(valid)))
    kw = {**valid, name: data.draw(bad[name])}
    if train is lt.gradient_flow and kw["normalized"] and not np.any(W):
        kw["normalized"] = False  # W0 = 0 is rejected there by design
    run, exc = call(train, net, W, (X, y), **kw)
    if exc is None:
        assert run.W is None or run.W.shape == W.shape
        finite(run.direction)
        if run.W is not None:
            finite(run.W)


@pytest.mark.parametrize("train, kw", [
    (lt.sgd, {"eta": 1e3, "n_epochs": 5}),
    (lt.gd, {"eta": 1e3, "n_steps": 50}),
    (lt.gradient_flow, {"dt": 0.5, "n_steps": 50, "normalized": True}),
], ids=["sgd", "gd", "flow"])
def test_overshooting_steps_stay_finite(train, kw, rng):
    data = lt.make_separable(20, 3, margin=0.1, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    if train is lt.sgd:
        kw = {**kw, "rng": rng}
    run, exc = call(train, net, net.init(3, scale=1.0, rng=rng), data, **kw)
    assert exc is None
    finite(run.W, *(run.trace[key] for key in run.trace.keys() if key != "log_time"))


# -- degenerate but valid --------------------------------------------------------------------
def test_k1_d1_n1_trains_to_a_positive_margin():
    net = lt.Net(k=1, alpha=0.3)
    run, exc = call(lt.gd, net, np.array([[0.1], [0.2]]), (np.array([[1.0]]), [1]),
                    eta=1.0, n_steps=200)
    assert exc is None and run.trace["min_margin"][-1] > run.trace["min_margin"][0] > -1


def _duplicated_with_origin(rng):
    """Separable data, three points repeated, and the origin appended (label +1)."""
    ds = lt.make_separable(8, 2, margin=0.2, rng=rng)
    X = np.vstack([ds.X, ds.X[:3], np.zeros((1, 2))])
    y = np.concatenate([ds.y, ds.y[:3], [1.0]])
    return ds, X, y


def test_loss_and_gradient_at_zero_weights_with_duplicates_and_the_origin(rng):
    _, X, y = _duplicated_with_origin(rng)
    net = lt.Net(k=2, alpha=0.3)
    (L, G), exc = call(net.loss_and_grad, np.zeros((4, 2)), X, y)  # every pre-activation is 0
    assert exc is None and L == pytest.approx(np.log(2))
    # at W = 0 every neuron has slope alpha: G = -(alpha v/2n) sum_i y_i x_i (+w, -u rows)
    np.testing.assert_allclose(G[0], -0.3 * 0.5 * (y @ X) / len(y), atol=ULPS_FLOOR)


def test_sgd_from_zero_weights_on_duplicates_and_the_origin_stays_finite(rng):
    _, X, y = _duplicated_with_origin(rng)
    run, exc = call(lt.sgd, lt.Net(k=2, alpha=0.3), np.zeros((4, 2)), (X, y), eta=0.5,
                    n_epochs=3, rng=rng)
    assert exc is None
    finite(run.W)


def test_duplicated_points_leave_the_max_margin_teacher_unchanged(rng):
    ds, X, y = _duplicated_with_origin(rng)
    w, exc = call(lt.max_margin_teacher, np.vstack([ds.X, ds.X[:3]]), y[:-1])
    assert exc is None
    np.testing.assert_allclose(w, lt.max_margin_teacher(ds.X, ds.y), rtol=ORACLE,
                               atol=ORACLE_FLOOR)


def test_a_point_at_the_origin_is_not_separable(rng):
    _, X, y = _duplicated_with_origin(rng)
    _, exc = call(lt.max_margin_teacher, X, y)  # y_i w.0 = 0 < 1: truly not separable
    assert isinstance(exc, lt.NotSeparableError)


@pytest.mark.parametrize("alpha", [0.0, 1e-12, 1 - 1e-12])
def test_alpha_near_0_and_1(alpha, rng):
    ds = lt.make_separable(10, 3, margin=0.1, rng=rng)
    net = lt.Net(k=2, alpha=alpha)
    run, exc = call(lt.gd, net, net.init(3, scale=0.1, rng=rng), ds,
                    eta=0.5, n_steps=100)
    assert exc is None and run.trace["log_loss"][-1] < run.trace["log_loss"][0]


def test_margins_of_ten_thousand_stay_finite_and_warning_free(rng):
    ds = lt.make_separable(10, 3, margin=0.2, rng=rng)
    net = lt.Net(k=2, alpha=0.3)
    W = 1e4 * np.concatenate([np.tile(ds.w_star, (2, 1)), -np.tile(ds.w_star, (2, 1))])
    q, _ = call(net.margins, W, ds.X, ds.y)
    assert q.min() > 1e4
    for fn in (lt.smoothed_margin, lt.normalized_margin):
        value, exc = call(fn, net, W, ds.X, ds.y)
        assert exc is None and 0 < value < np.inf
    run, exc = call(lt.gd, net, W, ds, eta=1.0, n_steps=5)
    assert exc is None
    finite(run.trace["log_loss"], run.trace["smoothed_margin"])


# -- metrics and convex programs ---------------------------------------------------------------
@given(problems(), st.data())
def test_metrics_on_hostile_arrays(problem, data):
    net, W, X, y = problem
    args = replace_one(data.draw, {"W": W, "X": X, "y": y}, st.one_of(arrays(), junk))
    for fn in (lt.cluster_radius, lt.relative_cluster_radius, lt.max_within_type_angle):
        call(fn, args["W"])
    for fn in (lt.linear_regime, lt.agreement, lt.max_n_diff):
        call(fn, args["W"], args["X"])
    for fn in (lt.in_par, lt.par_fractions):
        call(fn, args["W"], args["X"], args["y"])
    for fn in (lt.normalized_margin, lt.smoothed_margin):
        value, exc = call(fn, net, args["W"], args["X"], args["y"])
        if exc is None:
            assert not np.any(np.isnan(value))  # +-inf is the honest margin of W = 0


@settings(max_examples=solver_examples())
@given(st.integers(0, 2**32 - 1), st.data())
def test_convex_programs_on_hostile_arrays(seed, data):
    ds = lt.make_separable(4, 2, margin=0.2, rng=np.random.default_rng(seed))
    args = replace_one(data.draw, {"X": ds.X, "y": ds.y, "alpha": 0.3},
                       st.one_of(arrays(), junk, numbers))
    w, exc = call(convex.svm_no_bias, args["X"], args["y"])
    if exc is None:
        finite(w)
    wu, exc = call(convex.solve_eq8, args["X"], args["y"], args["alpha"])
    if exc is None:
        finite(*wu)
    K, exc = call(convex.eq8_kernel, args["X"], args["y"], args["alpha"])
    if exc is None:
        finite(K)
        np.testing.assert_allclose(K, K.T, rtol=IDENTITY, atol=SUBNORMAL_FLOOR)
    result, exc = call(convex.assumption4_lp, args["X"], args["y"])
    if exc is None:
        assert result.holds == bool(np.min(result.slack) >= result.margin)


@settings(max_examples=solver_examples())
@given(st.integers(0, 2**32 - 1), st.data())
def test_pattern_program_and_kkt_on_hostile_arrays(seed, data):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((3, 2))
    y = np.array([1.0, -1.0, 1.0])
    sides = np.where(y > 0, 1.0, 0.3)
    valid = {"X": X, "y": y, "alpha": 0.3, "c_w": sides, "c_u": 1.3 - sides}
    args = replace_one(data.draw, valid, st.one_of(arrays(), junk, numbers))
    W, exc = call(convex.nar_program, args["X"], args["y"], args["alpha"], args["c_w"],
                  args["c_u"])
    if exc is None:
        finite(W)
        cert, exc = call(convex.kkt_certificate, W, args["X"], args["y"], alpha=args["alpha"])
        if exc is None:
            finite(cert.stationarity, cert.complementarity, cert.gamma)
    bad_W = data.draw(st.one_of(arrays(), junk))
    call(convex.kkt_certificate, bad_W, X, y, alpha=0.3)


@settings(max_examples=solver_examples())
@given(st.data())
def test_digit_pairs_on_hostile_knobs(data):
    kw = replace_one(data.draw, {"a": 3, "b": 5, "test_fraction": 0.25,
                                 "rng": KNOB_SEED, "bias": False},
                     st.one_of(scalars, st.integers(-2, 12)))
    out, exc = call(lt.load_digit_pair, **kw)
    if exc is None:
        train, test = out
        finite(train.X, train.w_star)
        assert test is None or test.d == train.d


@given(st.lists(st.one_of(hostile, st.builds(lambda s: lt.make_separable(
    3, 2, margin=0.1, rng=np.random.default_rng(s)), st.integers(0, 9))), max_size=3))
def test_stack_and_bias_on_hostile_lists(items):
    stacked, exc = call(lt.stack, items)
    if exc is None:
        assert stacked.X.shape == (len(items),) + items[0].X.shape
    for item in items:
        lifted, exc = call(lt.augment_bias, item)
        if exc is None and isinstance(item, np.ndarray):
            assert lifted.shape[-1] == item.shape[-1] + 1
