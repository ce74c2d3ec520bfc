"""Every defect the fuzz tests found, pinned by its minimal reproducer.

A strict xfail while open, a regression test once the library is fixed.
"""
import numpy as np
import pytest

import linteach as lt
from linteach import bounds, convex, kkt, loss, testing
from linteach.assumption4 import lp_feasible
from _fuzz_support import NAMED, call, finite
from tolerances import HOSTILE_ROUNDING, IDENTITY, POLISHED, SCALED_SOLVE

# -- defects found by this file, each pinned by its minimal reproducer --------------------------
#: the literal seeds below (RNG(0), ...) are part of each defect's recorded reproducer: kept
#: as found, not drawn from the suite's per-test ``rng`` fixture
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
    return lambda out: np.testing.assert_allclose(out[0], [1 / scale, 0.0], rtol=SCALED_SOLVE)


def eq8_covariant(scale):
    X, y = RNG(0).standard_normal((5, 3)), np.array([1.0, -1, 1, -1, 1])
    w = convex.solve_eq8(X, y, 0.3)[0]
    return lambda out: np.testing.assert_allclose(out[0][0], w / scale, rtol=SCALED_SOLVE)


def names_an_argument(out):
    assert out[1] is not None and NAMED.search(str(out[1])), out[1]


def teacher_holds(out):  # a clear refusal or a teacher that certifies every point
    ds, exc = out
    assert exc is not None or np.all(ds.y * (ds.X @ ds.w_star) >= 1 - HOSTILE_ROUNDING)


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


# -- issue 15 (items 1, 4, 5, 6, 7, 17) and issue 14 (item 7): each reproducer first ----------
SYM = lt.make_symmetric_gaussians(30, 3, rng=RNG(0))
NET3 = lt.Net(k=3)
#: a PAR direction: every w neuron along the teacher, every u neuron against it, spread out
_D = np.vstack([SYM.w_star + 0.1 * RNG(1).standard_normal((3, 3)),
                -SYM.w_star + 0.1 * RNG(2).standard_normal((3, 3))])
DIRECTION = _D / np.linalg.norm(_D)
SCALES = (2.0**-1000, 2.0**-600, 2.0**600, 2.0**1000)  # exact: W and c·W have one direction


def _metric_values(W):
    a = lt.agreement(W, SYM.X)
    return [lt.in_par(W, SYM.X, SYM.y), *lt.par_fractions(W, SYM.X, SYM.y),
            None if a is None else a.beta, lt.max_within_type_angle(W),
            lt.normalized_margin(NET3, W, SYM.X, SYM.y), lt.relative_cluster_radius(W),
            lt.linear_regime(W, SYM.X), *lt.max_n_diff(W, SYM.X),
            testing.kink_distance(W, SYM.X)]


def same_metrics_as_direction(out):
    values, exc = out
    assert exc is None, exc
    for got, want in zip(values, _metric_values(DIRECTION)):
        np.testing.assert_array_equal(got, want)


def one_subnormal_neuron(scale):
    W = DIRECTION.copy()
    W[0] = np.ldexp(np.sign(W[0]), -1074 + 10)  # entries of 2^-1064: subnormal
    return W * scale


def same_as_unscaled_subnormal(out):
    values, exc = out
    assert exc is None, exc
    for got, want in zip(values, _metric_values(one_subnormal_neuron(1.0))):
        np.testing.assert_array_equal(got, want)


def returns_teacher(m):
    def expect(out):
        w, exc = out
        assert exc is None, exc
        np.testing.assert_allclose(w, [0.0, 1.0 / m], rtol=POLISHED, atol=POLISHED / m)
    return expect


def finite_or_named(out):
    value, exc = out
    if exc is None:
        finite(*(value if isinstance(value, tuple) else (value,)))
    else:
        names_an_argument(out)


def bound_never_below_root(out):
    bd, exc = out
    assert exc is None and bd.M >= bd.T_exact > 0, (bd, exc)


def _aliased_dataset():
    X, y = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
    ds = lt.Dataset(X, y)
    X[0, 0], y[0] = np.nan, 0.0  # the caller's arrays change after construction
    with pytest.raises(ValueError, match="read-only"):
        ds.X[0, 0] = 0.0
    return ds


def kept_its_own_copy(out):
    ds, exc = out
    assert exc is None
    np.testing.assert_array_equal(ds.X, [[1.0], [-1.0]])
    np.testing.assert_array_equal(ds.y, [1.0, -1.0])


def same_draw_as_generator(out):
    (a, b), exc = out
    assert exc is None
    np.testing.assert_array_equal(a, b)


TIE = (np.array([[1.0, 0.0]]), [1])  # ŵ·x = 1 = β exactly
DEFECTS += [
    *[("I15.1", "metrics on W of norm 2^±600..2^±1000 flipped (PAR, agreement, angles, margins, "
       "linear regime, n_diff overflowed or underflowed)",
       lambda c=c: call(_metric_values, DIRECTION * c), same_metrics_as_direction)
      for c in SCALES],
    *[("I15.1", "one subnormal neuron: its direction was lost (norm of a subnormal row is 0)",
       lambda c=c: call(_metric_values, one_subnormal_neuron(c)), same_as_unscaled_subnormal)
      for c in (2.0**500, 2.0**1000)],
    ("I15.1", "a late-phase normalized flow reaches log‖W‖ ≈ 439: in_par(run.W) said False "
     "while in_par(run.direction) said True", lambda: call(
         lambda: [lt.in_par(r.W, SYM.X, SYM.y) == lt.in_par(r.direction, SYM.X, SYM.y)
                  for r in [lt.gradient_flow(NET3, NET3.init(3, scale=1e-2, rng=RNG(0)), SYM,
                                             dt=0.5, n_steps=1500, normalized=True)]]),
     lambda out: np.testing.assert_equal(out, ([True], None))),
    ("I15.1", "r/‖w̄−ū‖ of W at scale 1e200 was 0 (the radius overflowed)",
     lambda: call(lt.relative_cluster_radius, DIRECTION * 1e200),
     lambda out: np.testing.assert_allclose(out[0], lt.relative_cluster_radius(DIRECTION),
                                            rtol=IDENTITY)),
    ("I15.1", "smoothed margin of W = 1e300·direction: margins overflowed",
     lambda: call(lt.smoothed_margin, NET3, DIRECTION * 1e300, SYM.X, SYM.y),
     lambda out: np.testing.assert_allclose(
         out[0], lt.normalized_margin(NET3, DIRECTION, SYM.X, SYM.y), rtol=IDENTITY)),
    *[("I15.4", "make_blobs_2d with a far centre returned a zero teacher",
       lambda c=c: call(lt.make_blobs_2d, 4, rng=RNG(0), center=(c, 0.0)), teacher_holds)
      for c in (1e160, 1e200, 1e300)],
    *[("I15.4", "Eq. 8 on tiny but valid X returned inf", lambda f=f, s=s: call(f, X5 * s, Y5, 0.3),
       finite_or_named) for f in (convex.solve_eq8, convex.eq8_kernel_dual)
      for s in (1e-160, 1e-310)],
    ("I15.5", "in_par(beta=β) was strict: a margin of exactly β was not in PAR(β)",
     lambda: call(lt.in_par, np.array([[1.0, 0.0], [-1.0, 0.0]]), *TIE, beta=1.0),
     lambda out: np.testing.assert_equal(out, (True, None))),
    *[("I15.5", "M < T_exact in floating point (M − T_exact is 1e-21 of T when ε0 is tiny)",
       lambda kw=kw: call(bounds.sgd_update_bound, **kw), bound_never_below_root) for kw in (
           dict(n=717, eps=0.06892470515793511, R_x=332.7739421612033, R_0=3.634003036314115e-07,
                alpha=0.8184173642882243, k=596, eta=914.0691455524019, v=678.397890009431,
                w_star_norm=493.3514959151535),
           dict(n=385, eps=8.740893509740447e-05, R_x=375.7123804686319, R_0=0.0,
                alpha=0.20865689261151027, k=752, eta=0.005476355043752719,
                v=335.2057960312415, w_star_norm=0.10661970120518095))],
    *[("I15.6", "max_margin_teacher at margin 1e-5 raised SolverError, at 1e-12 a false "
       "NotSeparableError", lambda m=m: call(lt.max_margin_teacher, [[1.0, m], [-1.0, m],
                                                                     [0.5, m]], [1, 1, 1]),
       returns_teacher(m)) for m in (1e-5, 1e-8, 1e-12, 1e-15, 1e-100)],
    ("I15.7", "Dataset kept the caller's writeable arrays: a label set to 0 afterwards trained",
     lambda: call(_aliased_dataset), kept_its_own_copy),
    *[("I15.17", what, reproduce, finite_or_named) for what, reproduce in (
        ("sgd_update_bound: eta = 1e300 overflowed (OverflowError / inf)",
         lambda: call(bounds.sgd_update_bound, 10, 0.1, R_x=1.0, R_0=1.0, alpha=0.3, k=2,
                      eta=1e300, v=1.0, w_star_norm=1.0)),
        ("sgd_update_bound: v = 1e-300 divided by zero",
         lambda: call(bounds.sgd_update_bound, 10, 0.1, R_x=1.0, R_0=1.0, alpha=0.3, k=2,
                      eta=0.1, v=1e-300, w_star_norm=1.0)),
        ("sgd_update_bound: eps = 5e-324", lambda: call(
            bounds.sgd_update_bound, 10, 5e-324, R_x=1.0, R_0=1.0, alpha=0.3, k=2, eta=0.1,
            v=1.0, w_star_norm=1.0)),
        ("sgd_update_bound: n = 10**400 (OverflowError)", lambda: call(
            bounds.sgd_update_bound, 10**400, 0.1, R_x=1.0, R_0=1.0, alpha=0.3, k=2, eta=0.1,
            v=1.0, w_star_norm=1.0)),
        ("potential_F of huge W overflowed", lambda: call(bounds.potential_F,
                                                         np.full((2, 1), 1e308), [1e308])),
        ("potential_G of W = 1e200 overflowed (squares)",
         lambda: call(bounds.potential_G, np.full((2, 1), 1e200))),
        ("teacher_weights('abc')", lambda: call(bounds.teacher_weights, "abc", 1)),
        ("Net(alpha=10**400): OverflowError", lambda: call(lt.Net, k=1, alpha=10**400)),
        ("normalized_margin(net=None): AttributeError",
         lambda: call(lt.normalized_margin, None, np.ones((2, 1)), *ONE_POINT)),
        ("smoothed_margin(net=None)",
         lambda: call(lt.smoothed_margin, None, np.ones((2, 1)), *ONE_POINT)),
        ("load_digit_pair(bias='no') was taken as True",
         lambda: call(lt.load_digit_pair, 0, 1, rng=RNG(0), bias="no")),
        ("kink_distance of strings", lambda: call(testing.kink_distance, "ab", [[1.0]])),
        ("kink_distance of W = 1e-200 (norms underflowed)",
         lambda: call(testing.kink_distance, np.full((2, 1), 1e-200), [[1.0]])),
        ("gradient_check(net=None)", lambda: call(testing.gradient_check, None, np.ones((2, 1)),
                                                  *ONE_POINT, rng=RNG(0))),
        ("qp_kkt_report with mismatched shapes: numpy's broadcast message", lambda: call(
            kkt.qp_kkt_report, [1.0, 2.0], np.ones((3, 2)), np.ones(2), np.ones(3))),
        ("polish of NaN theta", lambda: call(kkt.polish, [np.nan], np.ones((1, 1)), [1.0])),
        ("lp_feasible of a 1-D G", lambda: call(lp_feasible, np.ones(3), np.ones(3))),
        ("loss.ell('abc')", lambda: call(loss.ell, "abc")),
        ("loss.g(10**400): OverflowError", lambda: call(loss.g, 10**400)),
        ("loss.logsumexp of NaN", lambda: call(loss.logsumexp, [np.nan, 1.0])),
        ("loss.scaled_loss_terms of NaN log_norm",
         lambda: call(loss.scaled_loss_terms, [1.0], np.nan)),
    )],
    ("I15.17", "invariant_bounds accepted g outside [0, 1]", lambda: call(
        bounds.invariant_bounds, [2.0], k=1, eta=0.1, v=1.0, alpha=0.3, R_x=1.0),
     names_an_argument),
    ("I15.17", "gradient_check(n_directions=0) returned 0.0, a check of nothing", lambda: call(
        testing.gradient_check, lt.Net(k=1), np.ones((2, 1)), *ONE_POINT, rng=RNG(0),
        n_directions=0), names_an_argument),
    ("I14.7", "a column-vector y gave '`y` has 1 labels'", lambda: call(
        lt.Dataset, np.ones((3, 2)), np.ones((3, 1))),
     lambda out: np.testing.assert_(out[1] is not None and "column" in str(out[1]))),
    *[("I14.7", "rng rejected a seed; now a seed gives default_rng(seed)'s draw",
       lambda f=f: call(lambda: (f(7), f(RNG(7)))), same_draw_as_generator) for f in (
           lambda r: lt.Net(k=2).init(3, scale=1.0, rng=r),
           lambda r: lt.make_separable(5, 2, margin=0.1, rng=r).X,
           lambda r: lt.make_outlier_set(4, 2, rng=r).X,
           lambda r: lt.sgd(lt.Net(k=1), np.ones((2, 1)), TWO_POINTS, eta=0.1, n_epochs=3,
                            rng=r).W)],
]


@pytest.mark.parametrize("defect, what, reproduce, expect", [
    pytest.param(*d, id=f"{d[0]}-{i}", marks=[pytest.mark.xfail(strict=True, reason=d[1])]
                 if d[0] in OPEN else []) for i, d in enumerate(DEFECTS)])
def test_defect_reproducer(defect, what, reproduce, expect):
    """Open defects fail here (strict xfail); fixed ones must stay fixed."""
    out = reproduce()
    if expect is not None:
        expect(out)
