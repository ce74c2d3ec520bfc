"""Hostile and odd input for the public API (issue 7).

Every call either returns a sane answer (finite, of the documented shape, no warning) or
raises a documented exception (``TypeError``/``ValueError``, ``NotSeparableError``) whose
message names the offending argument in backticks.  Anything else -- an ``IndexError``,
an ``AttributeError``, a numpy message naming no argument, a leaked ``RuntimeWarning``, a
hang, a silently wrong answer -- is a defect.  ``HYPOTHESIS_PROFILE=thorough`` runs the
same properties 16x harder (``make verify``).

Every defect found here is pinned at the end of the file by its minimal reproducer
(``DEFECTS``): a strict xfail while it is open, a regression test once the library is fixed.
"""
import re
import signal
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import linteach as lt
from linteach import convex

#: examples per property: the profile's count for cheap calls, fewer for solver calls
SOLVER_SHARE = 0.4
#: a call that takes longer than this (seconds) is taken to hang
HANG = 20.0
NAMED = re.compile(r"`[A-Za-z_]\w*`")


def _solver_examples():
    return max(5, int(settings.default.max_examples * SOLVER_SHARE))


def _alarm(signum, frame):
    raise TimeoutError("the call did not return: a hang")


def call(fn, *args, hang=HANG, **kwargs):
    """``fn(*args, **kwargs)`` under the contract: a value, or a documented clear error.

    Returns ``(value, None)`` or ``(None, exc)``; anything undocumented propagates and
    fails the test (warnings are errors here; a call running past ``hang`` s is a hang).
    """
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hang)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return fn(*args, **kwargs), None
    except (TypeError, ValueError) as exc:
        assert isinstance(exc, lt.NotSeparableError) or NAMED.search(str(exc)), \
            f"unclear message from {getattr(fn, '__name__', fn)}: {type(exc).__name__}: {exc}"
        return None, exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def finite(*values):
    for v in values:
        assert np.all(np.isfinite(np.asarray(v, dtype=np.float64))), v


# -- strategies ------------------------------------------------------------------------------
numbers = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(
    [0.0, -0.0, 5e-324, -1e-300, 1e-12, 1.0, -1.0, np.nan, np.inf, -np.inf]))
dtypes = st.sampled_from([np.float64, np.float32, np.int64, np.int8, np.bool_, np.complex128])


@st.composite
def arrays(draw, shape=None):
    dtype = np.dtype(draw(dtypes))
    if shape is None:
        shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4))
    if dtype.kind == "f":
        elements = numbers.filter(lambda x: not np.isfinite(x) or abs(x) < 1e30
                                  or dtype == np.float64)
        return draw(hnp.arrays(dtype, shape, elements=elements))
    return draw(hnp.arrays(dtype, shape))


junk = st.one_of(st.none(), st.text(max_size=3), st.booleans(), st.complex_numbers(),
                 st.just([[1.0, 2.0], [3.0]]), st.just({"a": 1}), st.just(object()))
scalars = st.one_of(numbers, st.integers(-3, 60), junk, st.just(np.float32(0.5)),
                    st.just(np.int64(2)), st.just(np.array(0.5)))
counts = st.one_of(st.integers(-2, 6), junk, st.just(2.0))
hostile = st.one_of(arrays(), junk)


@st.composite
def problems(draw, max_n=6, max_d=3):
    """A valid small problem (net, W, X, y) drawn from a seed, as the library would see it."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k, n, d = draw(st.integers(1, 3)), draw(st.integers(1, max_n)), draw(st.integers(1, max_d))
    net = lt.Net(k=k, alpha=draw(st.sampled_from([0.0, 1e-12, 0.3, 1 - 1e-12])))
    scale = draw(st.sampled_from([0.0, 1e-150, 1e-3, 1.0, 1e4]))
    X = rng.standard_normal((n, d)) * draw(st.sampled_from([1e-150, 1e-6, 1.0, 1e50, 1e200]))
    y = np.where(rng.random(n) < 0.5, -1, 1)
    return net, net.init(d, scale=scale, rng=rng), X, y


def replace_one(draw, valid: dict, bad):
    """``valid`` with one argument swapped for a hostile value."""
    name = draw(st.sampled_from(sorted(valid)))
    return {**valid, name: draw(bad)}


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
    kw = replace_one(data.draw, {"d": 2, "scale": 0.5, "rng": np.random.default_rng(0)}, scalars)
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
    kw = replace_one(data.draw, {**GENERATORS[make], "rng": np.random.default_rng(0)},
                     scalars)
    ds, exc = call(make, **kw)
    if exc is None:
        finite(ds.X, ds.w_star)
        assert set(np.unique(ds.y)) <= {-1.0, 1.0}
        # the teacher certifies separability: y_i <w*, x_i> >= 1 (up to rounding), checked
        # with X scaled to entries <= 1 so the check itself cannot overflow
        top = np.abs(ds.X).max()
        assert np.all(ds.y * ((ds.X / top) @ ds.w_star) >= (1 - 1e-9) / top)


@given(hostile, hostile)
def test_dataset_and_bias_lifting_on_hostile_arrays(X, y):
    ds, exc = call(lt.Dataset, X, y)
    if exc is None:
        finite(ds.X, ds.y)
        lifted, exc = call(lt.augment_bias, ds)
        assert exc is None and lifted.d == ds.d + 1


# -- training --------------------------------------------------------------------------------
TRAINERS = {
    lt.sgd: {"eta": 0.5, "n_epochs": 2, "rng": np.random.default_rng(0), "eps0": 0.1},
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
    (lt.sgd, {"eta": 1e3, "n_epochs": 5, "rng": np.random.default_rng(1)}),
    (lt.gd, {"eta": 1e3, "n_steps": 50}),
    (lt.gradient_flow, {"dt": 0.5, "n_steps": 50, "normalized": True}),
], ids=["sgd", "gd", "flow"])
def test_overshooting_steps_stay_finite(train, kw):
    data = lt.make_separable(20, 3, margin=0.1, rng=np.random.default_rng(2))
    net = lt.Net(k=3, alpha=0.3)
    run, exc = call(train, net, net.init(3, scale=1.0, rng=np.random.default_rng(3)), data, **kw)
    assert exc is None
    finite(run.W, *(run.trace[key] for key in run.trace.keys() if key != "log_time"))


# -- degenerate but valid --------------------------------------------------------------------
def test_k1_d1_n1_trains_to_a_positive_margin():
    net = lt.Net(k=1, alpha=0.3)
    run, exc = call(lt.gd, net, np.array([[0.1], [0.2]]), (np.array([[1.0]]), [1]),
                    eta=1.0, n_steps=200)
    assert exc is None and run.trace["min_margin"][-1] > run.trace["min_margin"][0] > -1


def test_duplicates_and_points_at_the_origin():
    rng = np.random.default_rng(4)
    ds = lt.make_separable(8, 2, margin=0.2, rng=rng)
    X = np.vstack([ds.X, ds.X[:3], np.zeros((1, 2))])
    y = np.concatenate([ds.y, ds.y[:3], [1.0]])
    net = lt.Net(k=2, alpha=0.3)
    W0 = np.zeros((4, 2))                      # every pre-activation is exactly 0
    (L, G), exc = call(net.loss_and_grad, W0, X, y)
    assert exc is None and L == pytest.approx(np.log(2))
    # at W = 0 every neuron has slope alpha: G = -(alpha v/2n) sum_i y_i x_i (+w, -u rows)
    np.testing.assert_allclose(G[0], -0.3 * 0.5 * (y @ X) / len(y), atol=1e-15)
    run, exc = call(lt.sgd, net, W0, (X, y), eta=0.5, n_epochs=3, rng=rng)
    assert exc is None
    finite(run.W)
    w, exc = call(lt.max_margin_teacher, np.vstack([ds.X, ds.X[:3]]), y[:-1])
    assert exc is None
    np.testing.assert_allclose(w, lt.max_margin_teacher(ds.X, ds.y), rtol=1e-6, atol=1e-9)
    _, exc = call(lt.max_margin_teacher, X, y)  # y_i w.0 = 0 < 1: truly not separable
    assert isinstance(exc, lt.NotSeparableError)


@pytest.mark.parametrize("alpha", [0.0, 1e-12, 1 - 1e-12])
def test_alpha_near_0_and_1(alpha):
    ds = lt.make_separable(10, 3, margin=0.1, rng=np.random.default_rng(5))
    net = lt.Net(k=2, alpha=alpha)
    run, exc = call(lt.gd, net, net.init(3, scale=0.1, rng=np.random.default_rng(6)), ds,
                    eta=0.5, n_steps=100)
    assert exc is None and run.trace["log_loss"][-1] < run.trace["log_loss"][0]


def test_margins_of_ten_thousand_stay_finite_and_warning_free():
    ds = lt.make_separable(10, 3, margin=0.2, rng=np.random.default_rng(7))
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


@settings(max_examples=_solver_examples())
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
        np.testing.assert_allclose(K, K.T, rtol=1e-12, atol=1e-300)
    result, exc = call(convex.assumption4_lp, args["X"], args["y"])
    if exc is None:
        assert result.holds == bool(np.min(result.slack) >= result.margin)


@settings(max_examples=_solver_examples())
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


@settings(max_examples=_solver_examples())
@given(st.data())
def test_digit_pairs_on_hostile_knobs(data):
    kw = replace_one(data.draw, {"a": 3, "b": 5, "test_fraction": 0.25,
                                 "rng": np.random.default_rng(0), "bias": False},
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


# -- defects found by this file, each pinned by its minimal reproducer --------------------------
RNG = np.random.default_rng
TWO_POINTS = (np.array([[1.0], [-1.0]]), [1, -1])
ONE_POINT = (np.array([[1.0]]), [1])
#: defects still open in the library: strict xfails until fixed, then regression tests
OPEN: set = set()  # all of D1-D27 are fixed (the last, D25-D27, in 00eaaea)


def refused(out):
    assert out[1] is not None, "expected a clear error"


def finite_run(out):  # a finite run, or a clear error
    assert out[1] is not None or np.all(np.isfinite(out[0].W))


def svm_covariant(scale):
    return lambda out: np.testing.assert_allclose(out[0], [1 / scale, 0.0], rtol=1e-6)


def eq8_covariant(scale):
    X, y = RNG(0).standard_normal((5, 3)), np.array([1.0, -1, 1, -1, 1])
    w = convex.solve_eq8(X, y, 0.3)[0]
    return lambda out: np.testing.assert_allclose(out[0][0], w / scale, rtol=1e-5)


def names_an_argument(out):
    assert out[1] is not None and NAMED.search(str(out[1])), out[1]


def teacher_holds(out):  # a clear refusal or a teacher that certifies every point
    ds, exc = out
    assert exc is not None or np.all(ds.y * (ds.X @ ds.w_star) >= 1 - 1e-9)


X5, Y5 = RNG(0).standard_normal((5, 3)), np.array([1.0, -1, 1, -1, 1])
#: (id, what was wrong, the reproducer, what a fix must give beyond the call contract)
DEFECTS = [
    ("D1", "rejection sampling never ended for std = 0, margin = mean_norm (d = 3: rounded "
     "mu.mu < 1)", lambda: call(lt.make_symmetric_gaussians, 4, 3, std=0.0, margin=1.0,
                               rng=RNG(0), hang=1.0), None),
    ("D2", "teacher / margin overflowed for a subnormal margin",
     lambda: call(lt.make_separable, 2, 1, margin=5e-324, rng=RNG(0)), None),
    ("D3", "finite W, X whose products overflow leaked a RuntimeWarning and returned inf",
     lambda: call(lt.Net(k=1).forward, np.full((2, 1), 1e155), np.full((1, 1), 1e155)), None),
    ("D4", "run axes that do not broadcast gave numpy's message, naming no argument",
     lambda: call(lt.Net(k=1).forward, np.ones((3, 2, 1)), np.ones((2, 1, 1))), None),
    ("D5", "normalized margin of W = 0 (init scale=0) warned 0/0",
     lambda: call(lt.normalized_margin, lt.Net(k=1), np.zeros((2, 1)), *ONE_POINT), None),
    ("D5", "smoothed margin of W = 0 warned log 0",
     lambda: call(lt.smoothed_margin, lt.Net(k=1), np.zeros((2, 1)), *ONE_POINT), None),
    ("D5b", "gd from W0 = 0 with n = 1: 0*inf in the trace's smoothed margin",
     lambda: call(lt.gd, lt.Net(k=1), np.zeros((2, 1)), ONE_POINT, eta=0.1, n_steps=1), None),
    *[("D6", "metrics converted W with np.asarray: messages named no argument",
       lambda W=W: call(lt.cluster_radius, W), None)
      for W in ({"a": 1}, [[1.0, 2.0], [3.0]], np.ones((2, 1), complex))],
    ("D7", "sgd with a step of 1e300 overflowed W to inf with a RuntimeWarning",
     lambda: call(lt.sgd, lt.Net(k=1), np.ones((2, 1)), TWO_POINTS, eta=1e300, n_epochs=2,
                  rng=RNG(0)), finite_run),
    ("D7", "gd with a step of 1e300 overflowed W to inf with a RuntimeWarning",
     lambda: call(lt.gd, lt.Net(k=1), np.ones((2, 1)), TWO_POINTS, eta=1e300, n_steps=5),
     finite_run),
    ("D8", "stack() of non-Datasets raised AttributeError",
     lambda: call(lt.stack, [np.zeros((2, 2))]), None),
    *[("D9", "the SVM was not scale-covariant: separable data called not separable / "
       "SolverError", lambda s=s: call(lt.max_margin_teacher, [[s, 0.0], [-s, 0.0]], [1, -1]),
       svm_covariant(s)) for s in (1e-9, 1e-5)],
    *[("D10", "Eq. 8 at small scale: SolverError or 'infeasible' for feasible data",
       lambda s=s: call(convex.solve_eq8, X5 * s, Y5, 0.3), eq8_covariant(s))
      for s in (1e-9, 1e-4)],
    *[("D11", "Assumption 4 (documented scale-invariant) flipped to holds=True",
       lambda s=s: call(convex.assumption4_lp, X5 * s, Y5),
       lambda out: np.testing.assert_equal(out[0].holds, convex.assumption4_lp(X5, Y5).holds))
      for s in (1e-9, 1e150)],
    ("D12", "the normalized flow rejected a nonzero W0 whose norm underflows",
     lambda: call(lt.gradient_flow, lt.Net(k=1), np.full((2, 1), 1e-300), TWO_POINTS, dt=0.1,
                  n_steps=2, normalized=True), lambda out: finite(out[0].direction)),
    ("D13", "flags were taken by truthiness: normalized='no' ran the normalized flow",
     lambda: call(lt.gradient_flow, lt.Net(k=1), np.ones((2, 1)), ONE_POINT, dt=0.1,
                  n_steps=1, normalized="no"), refused),
    ("D14", "a non-callable callback failed inside the loop with Python's message",
     lambda: call(lt.sgd, lt.Net(k=1), np.ones((2, 1)), ONE_POINT, eta=0.1, n_epochs=1,
                  rng=RNG(0), callback=3), None),
    *[("D15", "Net.init did not validate batch: numpy's messages, or an empty W",
       lambda b=b: call(lt.Net(k=1).init, 1, scale=1.0, rng=RNG(0), batch=b), refused)
      for b in (-1, "ab", (2, 0))],
    ("D16", "Dataset accepted a teacher whose run axes do not match X's",
     lambda: call(lt.Dataset, np.ones((5, 3)), np.ones(5), np.ones((2, 3))), refused),
    *[("D18", "y=None was taken as 'no labels' inside Net: 'not enough values to unpack'",
       lambda m=m: call(getattr(lt.Net(k=1), m), np.zeros((2, 1)), [[1.0]], None), None)
      for m in ("loss", "loss_and_grad", "margins")],
    *[("D19", "spread/margin past ~1e15 put the outlier on the teacher's wrong side",
       lambda kw=kw, seed=seed: call(lt.make_outlier_set, 4, 3, rng=RNG(seed), **kw),
       teacher_holds) for kw in ({"outlier_spread": 1e16}, {"outlier_margin": 1e-263})
      for seed in range(3)],
    ("D20", "linear_regime squared ||x||: points beyond ~1e154 overflowed, even for W = 0",
     lambda: call(lt.linear_regime, np.ones((2, 1)), [[1e200]]), None),
    *[("D21", "make_separable squared radius-sized vectors (radius**2, then the norm of perp): "
       "a radius past ~1.3e154 overflowed",
       lambda r=r: call(lt.make_separable, 5, 2, margin=0.1, radius=r, rng=RNG(0)), None)
      for r in (1.4e154, 1e200)],
    ("D22", "Net.init(scale=1.7e308) overflowed with a RuntimeWarning (scale times a draw)",
     lambda: call(lt.Net(k=2).init, 2, scale=1.7e308, rng=RNG(0)), None),
    ("D23", "the normalized flow squared gradient entries (_frobenius): points beyond ~1e154 "
     "overflowed with a RuntimeWarning", lambda: call(
         lt.gradient_flow, lt.Net(k=1), np.ones((2, 1)), (np.array([[1e300]]), [1]), dt=0.1,
         n_steps=3, normalized=True), None),
    ("D24", "make_outlier_set's wrong-side check x_out @ teacher overflowed for an "
     "outlier_margin near float max",
     lambda: call(lt.make_outlier_set, 4, 2, outlier_margin=9e306, rng=RNG(0)), None),
    *[("D25", "Eq. 8's infeasibility error named neither `X` nor the offending row (a point "
       "at the origin is detectable before solving)",
       lambda f=f: call(f, [[0.0], [1.0]], [1, -1], 0.3), names_an_argument)
      for f in (convex.solve_eq8, convex.eq8_kernel_dual)],
    ("D26", "make_symmetric_gaussians(std=1.4e308): std times a normal draw overflowed with a "
     "RuntimeWarning", lambda: call(lt.make_symmetric_gaussians, 4, 2,
                                    std=1.378598982090456e308, rng=RNG(0)), None),
    ("D27", "kkt_certificate's 'every point correctly classified' error named no argument "
     "(`W`)", lambda: call(convex.kkt_certificate, [[-1.0], [1.0]], *TWO_POINTS, alpha=0.3),
     names_an_argument),
]


@pytest.mark.parametrize("defect, what, reproduce, expect", [
    pytest.param(*d, id=f"{d[0]}-{i}", marks=[pytest.mark.xfail(strict=True, reason=d[1])]
                 if d[0] in OPEN else []) for i, d in enumerate(DEFECTS)])
def test_defect_reproducer(defect, what, reproduce, expect):
    """Open defects fail here (strict xfail); fixed ones must stay fixed."""
    out = reproduce()
    if expect is not None:
        expect(out)
