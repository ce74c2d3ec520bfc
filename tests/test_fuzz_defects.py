"""Every defect the fuzz tests found, pinned by its minimal reproducer.

A strict xfail while open, a regression test once the library is fixed.
"""
import numpy as np
import pytest

import linteach as lt
from linteach import convex
from _fuzz_support import NAMED, call, finite

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
