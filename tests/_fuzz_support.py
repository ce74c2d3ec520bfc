"""Shared by the fuzz tests: the calling contract, hostile-value strategies, helpers.

``call`` runs a public function under the contract of ``tests/test_fuzz.py``: it returns a
value, or raises a documented error whose message names the argument in backticks.
"""
import re
import signal
import warnings

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import linteach as lt

#: examples per property: the profile's count for cheap calls, fewer for solver calls
SOLVER_SHARE = 0.4
#: a call that takes longer than this (seconds) is taken to hang
HANG = 20.0
NAMED = re.compile(r"`[A-Za-z_]\w*`")


def solver_examples():
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


