"""Every invalid call at the public boundary: its exception type and a message fragment."""
import numpy as np
import pytest

import linteach as lt

RNG = np.random.default_rng  # entry point: tests build their own generators
NET = lt.Net(k=2, alpha=0.3)
X = np.array([[1.0, 0.0], [-1.0, 0.5], [0.2, 1.0]])
Y = np.array([1.0, -1.0, 1.0])
W = np.ones((4, 2))
DATA = (X, Y)

CASES = [
    # (description, call, exception, message fragment)
    ("k < 1", lambda: lt.Net(k=0), ValueError, "`k` must be >= 1, got 0"),
    ("k not int", lambda: lt.Net(k=2.5), TypeError, "`k` must be an integer"),
    ("alpha = 1", lambda: lt.Net(k=1, alpha=1.0), ValueError, "`alpha` must be < 1.0, got 1.0"),
    ("alpha < 0", lambda: lt.Net(k=1, alpha=-0.1), ValueError, "`alpha` must be >= 0.0"),
    ("alpha NaN", lambda: lt.Net(k=1, alpha=float("nan")), ValueError, "`alpha` must be finite"),
    ("v = 0", lambda: lt.Net(k=1, v=0.0), ValueError, "`v` must be > 0.0, got 0.0"),
    ("v as string", lambda: lt.Net(k=1, v="1"), TypeError, "`v` must be a real number"),
    ("negative scale", lambda: NET.init(2, scale=-1.0, rng=RNG(0)), ValueError,
     "`scale` must be >= 0.0, got -1.0"),
    ("rng is a float", lambda: NET.init(2, scale=1.0, rng=0.5), TypeError,
     "`rng` must be a seed or a numpy.random.Generator"),
    ("rng is a negative seed", lambda: NET.init(2, scale=1.0, rng=-1), ValueError,
     "`rng` must be a seed or a numpy.random.Generator"),
    ("rng is a string", lambda: NET.init(2, scale=1.0, rng="0"), TypeError,
     "`rng` must be a seed or a numpy.random.Generator"),
    ("d = 0", lambda: NET.init(0, scale=1.0, rng=RNG(0)), ValueError, "`d` must be >= 1"),
    ("NaN in X", lambda: NET.forward(W, np.array([[np.nan, 0.0]])), ValueError,
     "`X` must be finite"),
    ("inf in X", lambda: NET.loss(W, np.array([[np.inf, 0.0]]), [1.0]), ValueError,
     "`X` must be finite"),
    ("X 1-D", lambda: NET.forward(W, np.array([1.0, 2.0])), ValueError,
     "`X` must have at least 2 axes"),
    ("n = 0", lambda: NET.forward(W, np.zeros((0, 2))), ValueError, "`X` must not be empty"),
    ("labels 0/1", lambda: NET.loss(W, X, [1.0, 0.0, 1.0]), ValueError,
     "`y` must contain only -1 and +1, got [0.]"),
    ("labels 2", lambda: lt.Dataset(X, [2, -1, 1]), ValueError, "`y` must contain only -1 and +1"),
    ("y length", lambda: NET.loss(W, X, [1.0, -1.0]), ValueError,
     "`y` has 2 labels but `X` has 3 rows"),
    ("W rows", lambda: NET.forward(np.ones((3, 2)), X), ValueError, "`W` must have 2k = 4 rows"),
    ("W columns", lambda: NET.forward(np.ones((4, 3)), X), ValueError,
     "`W` has input dimension 3 but `X` has d = 2"),
    ("W strings", lambda: NET.forward([["a", "b"]] * 4, X), TypeError,
     "`W` must hold real numbers"),
    ("complex X", lambda: NET.forward(W, X + 1j), TypeError, "`X` must be real"),
    ("eta = 0", lambda: lt.sgd(NET, W, DATA, eta=0.0, n_epochs=1, rng=RNG(0)), ValueError,
     "`eta` must be > 0.0, got 0.0"),
    ("eta < 0 in gd", lambda: lt.gd(NET, W, DATA, eta=-0.1, n_steps=1), ValueError,
     "`eta` must be > 0.0, got -0.1"),
    ("negative epochs", lambda: lt.sgd(NET, W, DATA, eta=0.1, n_epochs=-1, rng=RNG(0)),
     ValueError, "`n_epochs` must be >= 0"),
    ("sgd rng a float", lambda: lt.sgd(NET, W, DATA, eta=0.1, n_epochs=1, rng=1.5), TypeError,
     "`rng` must be a seed or a numpy.random.Generator"),
    ("eps0 = 0", lambda: lt.sgd(NET, W, DATA, eta=0.1, n_epochs=1, rng=RNG(0), eps0=0.0),
     ValueError, "`eps0` must be > 0.0"),
    ("dt = 0", lambda: lt.gradient_flow(NET, W, DATA, dt=0.0, n_steps=1), ValueError,
     "`dt` must be > 0.0, got 0.0"),
    ("normalized dt too big", lambda: lt.gradient_flow(NET, W, DATA, dt=0.9, n_steps=1,
                                                       normalized=True),
     ValueError, "`dt` must be <= 0.5, got 0.9"),
    ("normalized flow from 0", lambda: lt.gradient_flow(NET, 0 * W, DATA, dt=0.1, n_steps=1,
                                                        normalized=True),
     ValueError, "`W0` must be nonzero"),
    ("data not a dataset", lambda: lt.gd(NET, W, X, eta=0.1, n_steps=1), TypeError,
     "`data` must be a Dataset or a tuple (X, y)"),
    ("net not a Net", lambda: lt.gd("net", W, DATA, eta=0.1, n_steps=1), TypeError,
     "`net` must be a linteach.Net"),
    ("bad record", lambda: lt.gd(NET, W, DATA, eta=0.1, n_steps=1, record="daily"), ValueError,
     "`record` must be 'log', 'all' or a positive int"),
    ("run axes clash", lambda: lt.gd(NET, np.ones((3, 4, 2)), (np.ones((2, 3, 2)), np.ones((2, 3))),
                                     eta=0.1, n_steps=1),
     ValueError, "run axes of `W0` (3,) and of the data (`X` (2,), `y` (2,)) do not broadcast"),
    ("data a 3-tuple", lambda: lt.gd(NET, W, DATA + (None,), eta=0.1, n_steps=1), TypeError,
     "`data` must be a Dataset or a tuple (X, y), got tuple"),
    ("data a list", lambda: lt.gd(NET, W, list(DATA), eta=0.1, n_steps=1), TypeError,
     "`data` must be a Dataset or a tuple (X, y), got list"),
    ("data a 1-tuple", lambda: lt.gd(NET, W, DATA[:1], eta=0.1, n_steps=1), TypeError,
     "`data` must be a Dataset or a tuple (X, y), got tuple"),
    ("run axes of X clash, y shared", lambda: lt.gd(
        NET, np.ones((3, 4, 2)), (np.ones((2, 3, 2)), np.ones(3)), eta=0.1, n_steps=1),
     ValueError, "run axes of `W0` (3,) and of the data (`X` (2,), `y` ()) do not broadcast"),
    ("run axes of y clash, X shared", lambda: lt.gd(
        NET, np.ones((3, 4, 2)), (np.ones((3, 2)), np.ones((2, 3))), eta=0.1, n_steps=1),
     ValueError, "run axes of `W0` (3,) and of the data (`X` (), `y` (2,)) do not broadcast"),
    ("one eta for two runs as an array", lambda: lt.sgd(
        NET, np.ones((2, 4, 2)), DATA, eta=np.array([0.1]), n_epochs=1, rng=RNG(0)),
     ValueError, "`eta` must be a number or an array of the run axes' shape (2,), got shape (1,)"),
    ("margin > radius", lambda: lt.make_separable(5, 2, margin=2.0, rng=RNG(0)), ValueError,
     "`margin` must be < 1.0, got 2.0"),
    ("odd n, antipodal", lambda: lt.make_symmetric_gaussians(5, 2, rng=RNG(0)), ValueError,
     "`n` must be even (antipodal pairs), got 5"),
    ("outlier set d = 1", lambda: lt.make_outlier_set(4, 1, rng=RNG(0)), ValueError,
     "`d` must be >= 2"),
    ("disc covers origin", lambda: lt.make_blobs_2d(4, rng=RNG(0), center=(0.1, 0.0)),
     ValueError, "farther than `radius`"),
    ("same digit twice", lambda: lt.load_digit_pair(3, 3, rng=RNG(0)), ValueError,
     "two different digits"),
    ("non-separable", lambda: lt.max_margin_teacher(
        np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]), [1, 1, -1, -1]),
     lt.NotSeparableError, "not linearly separable"),
    ("linear regime c < 0", lambda: lt.linear_regime(W, X, c=-1.0), ValueError,
     "`c` must be >= 0.0"),
    ("metrics W odd rows", lambda: lt.cluster_radius(np.ones((3, 2))), ValueError,
     "`W` must have shape (..., 2k, d)"),
]


@pytest.mark.parametrize("call, exc, fragment", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_invalid_call_raises_clear_error(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert fragment in str(info.value)


def test_not_separable_error_is_a_value_error():
    assert issubclass(lt.NotSeparableError, ValueError)


def test_a_net_or_init_too_large_for_memory_is_a_clear_error():
    with pytest.raises(ValueError, match=r"`k` must be <= 16777216, got 1000000000"):
        lt.Net(k=10**9)
    with pytest.raises(ValueError, match=r"`k`, `d` and `batch` ask for 4294967296 weights"):
        lt.Net(k=2**20).init(2**10, scale=1.0, rng=0, batch=2)


def test_run_and_trace_reprs_are_one_line(rng):
    net = lt.Net(k=2)
    data = lt.make_separable(10, 3, margin=0.1, rng=rng)
    run = lt.gd(net, net.init(3, scale=0.1, rng=rng), data, eta=0.1, n_steps=3)
    assert "\n" not in repr(run) and len(repr(run)) < 200
    assert repr(run).startswith("Run(W=array(4, 3)")
    assert "\n" not in repr(run.trace)
