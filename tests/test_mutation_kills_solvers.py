"""Tests written for the survivors of the population pass over the mutation targets
assumption4, convex and kkt (Assumption 4's LPs, the paper's convex programs, the KKT re-checks): each names, in ``tools/mutation_notes_solvers.py``, the mutant it kills and why
no claim check does."""
import numpy as np
import pytest
import scipy.sparse as sp

from linteach import assumption4, kkt
from linteach.errors import SolverError


# -- linteach.assumption4.lp_feasible: argument checks ------------------------------------------
def test_lp_feasible_refuses_a_three_dimensional_G():
    """A dense ``G`` is a (p, m) matrix: one of shape (2, 2, 1) is refused by name, rule and
    shape (check_array only asks for at least two axes)."""
    with pytest.raises(ValueError, match=r"`G` must be 2-D \(p, m\), got shape \(2, 2, 1\)"):
        assumption4.lp_feasible(np.ones((2, 2, 1)), np.ones(2))


@pytest.mark.parametrize("p_h", [2, 4])
def test_lp_feasible_names_the_row_count_in_the_h_shape_message(p_h):
    """``h`` must have one entry per row of ``G``: with G (3, 2) and h of length 2 or 4 the
    message gives the shape wanted, (3,) = (p,), not G's column count 2."""
    with pytest.raises(ValueError, match=rf"`h` must have shape \(p,\) = \(3,\), got \({p_h},\)"):
        assumption4.lp_feasible(np.ones((3, 2)), np.ones(p_h))


# -- linteach.assumption4.lp_feasible: the rows that hold at θ = 0 --------------------------------
@pytest.mark.parametrize("sparse", [False, True])
def test_lp_feasible_with_a_zero_row_and_a_zero_bound_is_feasible(sparse):
    """``0·θ ≥ 0`` holds for every θ (only ``0·θ ≥ h_i > 0`` is infeasible outright): with it,
    ``θ1 ≥ 1`` is feasible (θ = (1, 0))."""
    G = np.array([[0.0, 0.0], [1.0, 0.0]])
    assert assumption4.lp_feasible(sp.csr_matrix(G) if sparse else G, np.array([0.0, 1.0]))


def test_lp_feasible_with_only_negative_bounds_is_feasible():
    """Every ``h_i < 0``: θ = 0 gives ``Gθ = 0 ≥ h``, feasible whatever G, also for
    ``1e-300·θ ≥ −1e300`` (whose row brought to order one, with h unscaled, would put the
    bound past float64)."""
    G = np.array([[1.0, -2.0], [-3.0, 0.5]])
    assert assumption4.lp_feasible(G, np.array([-1.0, -4.0])) is True
    assert assumption4.lp_feasible(np.array([[1e-300]]), np.array([-1e300])) is True



def test_highs_runs_the_interior_point_method_only_after_status_4(monkeypatch):
    """``highs`` is linprog with HiGHS's default method, and its interior-point method only
    when the first ends with status 4 (as documented): an LP the simplex solves (status 0)
    is solved once; a first answer of status 4 is followed by one ``highs-ipm`` call."""
    calls, real = [], assumption4.linprog

    def watched(*args, method, **kw):
        calls.append(method)
        res = real(*args, method=method, **kw)
        if fake_4 and method == "highs":
            res.status = 4
        return res
    monkeypatch.setattr(assumption4, "linprog", watched)
    c, A, b = np.array([1.0]), np.array([[-1.0]]), np.array([-1.0])  # min θ s.t. θ ≥ 1
    fake_4 = False
    assert assumption4.highs(c, A, b).status == 0 and calls == ["highs"]
    calls.clear()
    fake_4 = True
    assert assumption4.highs(c, A, b).status == 0 and calls == ["highs", "highs-ipm"]


# -- linteach.assumption4._a4_slack: the NumPy re-check's allowances ------------------------------
@pytest.fixture(autouse=True)
def per_point_programs(monkeypatch):
    """These tests edit HiGHS's answer to one point's own program: every point is solved
    alone (blocks of one; tests/test_assumption4.py covers the block programs)."""
    monkeypatch.setattr(assumption4, "BLOCKS", 1)


#: positives e1, e2 and one negative −e1 (its slack LP: max −z1 s.t. z1 ≥ 1, z2 ≥ 1, −z1 ≤ 1,
#: optimum −1 at z1 = 1, unique dual a = (1, 0, 0))
X_L = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
Y_L = np.array([1.0, 1.0, -1.0])


def _faked_negative_lp(monkeypatch, fake):
    """Let ``fake(res, A_ub)`` edit HiGHS's answer to the negative point's slack LP (the one
    with an objective and three rows) of a set shaped like X_L."""
    real = assumption4.highs

    def patched(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if np.any(c) and len(b_ub) == 3:
            fake(res, A_ub)
        return res
    monkeypatch.setattr(assumption4, "highs", patched)


@pytest.mark.parametrize("factor, accepted", [(0.95, True), (1.1, False)])
def test_assumption4_stationarity_allowance_scales_with_the_multipliers_and_rows(
        monkeypatch, factor, accepted):
    """X_L turned by 45° (positives p1 = (1, 1)/√2, p2 = (−1, 1)/√2, negative −p1, so that
    max|A| = 1/√2 < 1).  The negative point's dual is a = (1, 0, 0); giving the inactive
    row p2 a multiplier η leaves a ≥ 0 and breaks stationarity by ‖η p2‖ = η, and the
    duality gap by η too (under its allowance 1e-7 (1 + |−1|) = 2e-7).  The stationarity
    allowance is 1e-7 (Σ|a| + 1) max|A| = 1e-7 (2 + η)/√2: η at 0.95 of 2e-7/√2 passes,
    η at 1.1 of it is a SolverError."""
    R = np.array([[1.0, 1.0], [-1.0, 1.0]]) / np.sqrt(2.0)
    X = X_L @ R.T

    def perturb(res, A_ub):
        eta = factor * 1e-7 * 2.0 * np.abs(A_ub).max()
        res.ineqlin.marginals[1] = -eta  # a = −marginals
    _faked_negative_lp(monkeypatch, perturb)
    if accepted:
        res = assumption4.assumption4_lp(X, Y_L)
        assert res.slack[2] == pytest.approx(1.0, abs=1e-6)
    else:
        with pytest.raises(SolverError, match="dual certificate failed"):
            assumption4.assumption4_lp(X, Y_L)


def test_assumption4_duality_gap_allowance_is_inclusive(monkeypatch):
    """The duality gap |(a_b − Σa_i) − z·x_j| may be as large as 1e-7 (1 + |z·x_j|), that
    bound included.  X_L's negative point, with HiGHS's answer replaced by z1 = x1 =
    1 + 259008·2⁻⁵² and a = (x1 − t, 0, 0), t = 1e-7 (1 + x1): the gap is x1 − a_1, which
    rounds to exactly t (asserted here by the same float arithmetic); stationarity is off by
    |1 − a_1| < 1e-7 (Σa + 1), so only the gap is at its bound, and the answer is kept."""
    x1 = 1.0 + 259008 * 2.0**-52
    t = 1e-7 * (1.0 + x1)
    a1 = x1 - t
    assert abs((0.0 - a1) - (-x1)) == t  # the premise: exactly at the bound
    assert abs(1.0 - a1) < 1e-7 * (a1 + 1.0)

    def at_the_bound(res, A_ub):
        res.x[0] = x1
        res.ineqlin.marginals[:] = [-a1, 0.0, 0.0]
    _faked_negative_lp(monkeypatch, at_the_bound)
    res = assumption4.assumption4_lp(X_L, Y_L)
    assert res.slack[2] == -(-x1)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("loose", [-1e8, -1e300])
@pytest.mark.parametrize("zero_row", [True, False])
def test_lp_feasible_is_not_rescaled_by_rows_that_hold_at_zero(sparse, loose, zero_row):
    """A row that holds at θ = 0 (``h_i ≤ 0``) must not set the scale of the others: beside
    ``0·θ ≥ L`` or ``θ ≥ L`` with L = −1e8 or −1e300, ``θ ≥ 2, −θ ≥ −1`` is still empty and
    ``θ ≥ 1, −θ ≥ −2`` still θ ∈ [1, 2] (scaled by L, the first two rows' bounds fell inside
    HiGHS's tolerance of 0 and the empty interval came back feasible).  Also with every row
    scaled to 1e-300, where L's row scaled to order one would overflow: no warning."""
    for s in (1.0, 1e-300):
        G = np.array([[s], [-s], [0.0 if zero_row else s]])
        wrap = sp.csr_matrix if sparse else np.asarray
        assert assumption4.lp_feasible(wrap(G), np.array([2.0 * s, -s, loose])) is False
        assert assumption4.lp_feasible(wrap(G), np.array([s, -2.0 * s, loose])) is True


def test_assumption4_stationarity_allowance_is_inclusive(monkeypatch):
    """The stationarity residual ‖x_j (a_b − 1) − Σ a_i x_i‖ may be as large as
    1e-7 (Σ|a| + 1) max|A|, that bound included.  X_L's negative point (max|A| = 1), with
    HiGHS's dual replaced by a = (1, η, 0): the residual is ‖(0, −η)‖ = η, and η is taken as
    the fixed point of η = 1e-7 (1 + η + 1) in float64 (asserted here), so it sits exactly on
    the bound; z1 is set to 1 + η so that the duality gap is 0."""
    eta = 2e-7
    for _ in range(5):
        eta = 1e-7 * ((1.0 + eta + 0.0) + 1.0)
    a = np.array([1.0, eta, 0.0])
    assert np.linalg.norm(np.array([-1.0, 0.0]) * (a[-1] - 1.0) - a[:-1] @ np.eye(2)) \
        == 1e-7 * (np.abs(a).sum() + 1.0)  # the premise: exactly at the bound

    def at_the_bound(res, A_ub):
        res.ineqlin.marginals[:] = -a
        res.x[0] = a[:-1].sum()  # z·x_j = −(a_1 + a_2): no duality gap
    _faked_negative_lp(monkeypatch, at_the_bound)
    res = assumption4.assumption4_lp(X_L, Y_L)
    assert res.slack[2] == a[:-1].sum()


def test_assumption4_status_2_needs_a_z_strictly_positive_on_the_point(monkeypatch):
    """Status 2 on a slack LP claims every z positive on the other class has z·x_j > 1; the
    point is then a strict violation only if the feasibility LP's z confirms z·x_j > 0.
    Positives e1, e2, negative x_j = (1, −1)/√2; HiGHS made to answer status 2 and the
    feasibility LP z = (1, 1), with z1, z2 ≥ 1 but z·x_j = 0 exactly: the two answers
    contradict each other, a SolverError (not slack −1)."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]])
    real = assumption4.highs

    def patched(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if np.any(c) and len(b_ub) == 3:
            res.status = 2
        elif not np.any(c) and len(b_ub) == 2 and np.all(A_ub == -np.eye(2)):
            res.x = np.array([1.0, 1.0])
        return res
    monkeypatch.setattr(assumption4, "highs", patched)
    unit = X[2] / np.linalg.norm(X[2])
    assert unit @ np.array([1.0, 1.0]) == 0.0  # the premise
    with pytest.raises(SolverError, match="HiGHS status 2"):
        assumption4.assumption4_lp(X, Y_L)


@pytest.mark.parametrize("factor, accepted", [(0.75, True), (1.25, False)])
def test_assumption4_dual_feasibility_allowance_is_relative_to_the_largest_multiplier(
        monkeypatch, factor, accepted):
    """A multiplier may be negative by rounding, down to −1e-9 (1 + max a): X_L's negative
    point (dual a = (1, 0, 0), so max a = 1) with the inactive row's multiplier set to
    −factor·1e-9·(1 + max a), which moves stationarity and the gap by ~1e-9 only (inside
    their allowances ~2e-7): 0.75 of it passes, 1.25 of it is a SolverError."""
    def negative(res, A_ub):
        a = -res.ineqlin.marginals
        res.ineqlin.marginals[1] = factor * 1e-9 * (1.0 + a.max())  # a_2 = −factor·…
    _faked_negative_lp(monkeypatch, negative)
    if accepted:
        assert assumption4.assumption4_lp(X_L, Y_L).slack[2] == pytest.approx(1.0, abs=1e-8)
    else:
        with pytest.raises(SolverError, match="dual certificate failed"):
            assumption4.assumption4_lp(X_L, Y_L)


def test_assumption4_refuses_a_duality_gap_past_its_allowance(monkeypatch):
    """X_L's negative point with HiGHS's z1 = 1 moved to 1 + δ, δ = 2.5e-7: the dual
    a = (1, 0, 0) still re-checks (stationarity does not involve z), but the duality gap
    |(a_b − Σa_i) − z·x_j| = |−1 + 1 + δ| = δ exceeds its allowance 1e-7 (1 + |z·x_j|)
    ≈ 2e-7 by a quarter: a SolverError, not a slack of 1 + δ."""
    def moved(res, A_ub):
        res.x[0] = 1.0 + 2.5e-7
    _faked_negative_lp(monkeypatch, moved)
    with pytest.raises(SolverError, match="dual certificate failed"):
        assumption4.assumption4_lp(X_L, Y_L)


def test_lp_feasible_a_zero_row_with_a_positive_bound_is_infeasible_at_any_scale():
    """``0·θ ≥ h_i`` with h_i > 0 is infeasible, whatever the other rows: here h_i = 1 beside
    θ ≥ 1e10, whose bound sets the scale (rescaled with it, the zero row's bound would be
    ~1e-10, inside HiGHS's tolerance of 0)."""
    G = np.array([[0.0], [1.0]])
    assert assumption4.lp_feasible(G, np.array([1.0, 1e10])) is False
    assert assumption4.lp_feasible(G, np.array([0.5, 1e10])) is False


@pytest.mark.parametrize("sparse", [False, True])
def test_lp_feasible_a_zero_bound_on_a_tiny_row_does_not_set_the_scale(sparse):
    """``1e-300·θ ≥ 0`` (θ ≥ 0) beside ``θ ≥ 2, −θ ≥ −1`` (empty) and beside ``θ ≥ 1,
    −θ ≥ −2`` (θ ∈ [1, 2]): the row is brought to order one, but its zero bound sets no
    scale for the others' (had it, their bounds would fall to ~1e-300, inside any solver
    tolerance of 0, and the empty interval would come back feasible)."""
    G = np.array([[1.0], [-1.0], [1e-300]])
    wrap = sp.csr_matrix if sparse else np.asarray
    assert assumption4.lp_feasible(wrap(G), np.array([2.0, -1.0, 0.0])) is False
    assert assumption4.lp_feasible(wrap(G), np.array([1.0, -2.0, 0.0])) is True


def test_lp_feasible_brings_tiny_positive_bounds_to_order_one():
    """``θ ≥ s`` and ``−θ ≥ s`` (θ ≤ −s) is empty for every s > 0, also at s = 1e-300, where
    the bounds (all positive) must be brought to order one (left as they are, they are
    inside any solver tolerance of 0, and θ = 0 would pass)."""
    for s in (1.0, 1e-300):
        assert assumption4.lp_feasible(np.array([[1.0], [-1.0]]), np.array([s, s])) is False


def test_assumption4_of_rows_whose_norms_overflow_is_that_of_their_directions():
    """Assumption 4 is about cones, so the slacks are invariant to rescaling X (documented).
    Five points in the plane whose norms all pass float64 (entries ~1e308, norms ~1.8e308 to
    ~2.1e308): positives p1, p2, negatives −p1, −p2 and one more inside −cone{p1, p2} (so it
    holds, with a slack of its own), against the same points scaled by 2^-1000 (an exact
    power of two, norms of order 1e7): the slacks and the verdict agree."""
    P = np.array([[1.5e308, 1.5e308], [1.5e308, -1.0e308]])
    X = np.vstack([P, -P, [[-1.5e308, -1.3e308]]])
    y = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    with np.errstate(over="ignore"):  # the premise: every norm passes float64
        assert not np.any(np.isfinite(np.hypot(X[:, 0] / 2.0, X[:, 1] / 2.0) * 2.0))
    big, small = assumption4.assumption4_lp(X, y), assumption4.assumption4_lp(X * 2.0**-1000, y)
    np.testing.assert_allclose(big.slack, small.slack, rtol=1e-9, atol=1e-9)
    assert big.holds == small.holds


def _slack_lp_ends_in(monkeypatch, status):
    """HiGHS made to end X_L's slack LP of its positive e2 (max z·(−e2)) in ``status`` and
    its feasibility LP to return z = (1, −1/2), positive on e2."""
    real = assumption4.highs

    def patched(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if np.any(c) and len(b_ub) == 2 and np.array_equal(c, [0.0, 1.0]):  # max z·(−e2)
            res.status = status
        elif not np.any(c) and len(b_ub) == 1 and np.array_equal(A_ub, [[-1.0, 0.0]]):
            res.x = np.array([1.0, -0.5])
        return res
    monkeypatch.setattr(assumption4, "highs", patched)


def test_assumption4_status_2_with_a_z_positive_on_the_point_is_a_strict_violation(monkeypatch):
    """A z with z·x_i ≥ 1 on the other class and z·x_j > 0 witnesses a violation at j by
    itself, whatever HiGHS said of the slack LP.  X_L's positive e2 (other class −e1,
    flipped: z1 ≥ 1): HiGHS made to call its slack LP infeasible (status 2) and the
    feasibility LP to return z = (1, −1/2), so z·(−e2) = 1/2 ∈ (0, 1]: slack −1 (the
    documented value of a strict violation), failing at j = 1 with the witness −z = (−1, 1/2)
    in the points' own signs: 1 on the negative −e1, 1/2 > 0 on e2."""
    _slack_lp_ends_in(monkeypatch, 2)
    res = assumption4.assumption4_lp(X_L, Y_L)
    assert res.slack[1] == -1.0 and not res.holds and res.witness_index == 1
    np.testing.assert_allclose(res.witness, [-1.0, 0.5], rtol=1e-15)


def test_assumption4_of_rows_whose_squared_norms_underflow_is_that_of_their_directions():
    """Scale invariance at the other end: the five points of the overflow test scaled by
    2^-2070 (entries ~1e-315, subnormal, whose squares underflow to 0), against the same
    points at 2^-1000: the slacks and the verdict agree (each row must be brought to order
    one by its largest entry before its norm is taken)."""
    P = np.array([[1.5e308, 1.5e308], [1.5e308, -1.0e308]])
    X = np.vstack([P, -P, [[-1.5e308, -1.3e308]]]) * 2.0**-1000
    y = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    tiny = X * 2.0**-1070
    assert np.all(np.abs(tiny) < np.finfo(float).tiny) and np.all(tiny * tiny == 0.0)
    a, b = assumption4.assumption4_lp(tiny, y), assumption4.assumption4_lp(X, y)
    np.testing.assert_allclose(a.slack, b.slack, rtol=1e-9, atol=1e-9)
    assert a.holds == b.holds


def test_assumption4_status_2_needs_a_feasibility_lp_that_succeeded(monkeypatch):
    """The witness of a status-2 slack LP comes from the feasibility LP only when that LP
    succeeded (status 0).  As in the test above (X_L's positive e2, z = (1, −1/2) with
    z·(−e2) = 1/2 > 0) but with the feasibility LP's status made 2 as well: its z is no
    answer, the two LPs leave the point undecided, and that is a SolverError."""
    real = assumption4.highs

    def patched(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if np.any(c) and len(b_ub) == 2 and np.array_equal(c, [0.0, 1.0]):  # max z·(−e2)
            res.status = 2
        elif not np.any(c) and len(b_ub) == 1 and np.array_equal(A_ub, [[-1.0, 0.0]]):
            res.x, res.status = np.array([1.0, -0.5]), 2
        return res
    monkeypatch.setattr(assumption4, "highs", patched)
    with pytest.raises(SolverError, match="HiGHS status 2"):
        assumption4.assumption4_lp(X_L, Y_L)


def test_assumption4_solves_one_lp_per_point(monkeypatch):
    """As documented: one HiGHS LP per point (plus lp_feasible's one per class, deciding
    whether that class's cone is empty), when no LP ends in status 2 or 4.  X_L: 2 + 3."""
    calls, real = [], assumption4.highs

    def watched(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        calls.append(res.status)
        return res
    monkeypatch.setattr(assumption4, "highs", watched)
    assumption4.assumption4_lp(X_L, Y_L)
    assert calls == [0] * 5


def test_assumption4_takes_the_classes_in_either_order():
    """The labels may start with −1: [−1, +1] on the antipodal pair −e1, e1 holds (each
    point's negation is the other class), exactly as [+1, −1] on e1, −e1."""
    assert assumption4.assumption4_lp([[-1.0, 0.0], [1.0, 0.0]], [-1, 1]).holds
    assert assumption4.assumption4_lp([[1.0, 0.0], [-1.0, 0.0]], [1, -1]).holds


# -- linteach.kkt.kkt_certificate ---------------------------------------------------------------
def test_kkt_certificate_counts_the_pre_activations_on_the_kink_by_its_definition():
    """``n_kinks`` counts the (neuron, point) pairs with |w_j·x_i| ≤ KINK_TOL ‖w_j‖‖x_i‖
    (documented, scale-free), against that definition evaluated by a loop over the W given.
    X = ±e1, k = 3: w2 = (0, 1) and u3 = (0, 2) are exactly on it at both points, u2 =
    (1e-7, 1) within the tolerance, w3 = (1e-5, 1) ten times past it; six pairs."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    W = np.array([[3.0, 0.0], [0.0, 1.0], [1e-5, 1.0],
                  [-3.0, 0.0], [1e-7, 1.0], [0.0, 2.0]])
    ref = sum(abs(w @ x) <= kkt.KINK_TOL * np.linalg.norm(w) * np.linalg.norm(x)
              for w in W for x in X)
    assert ref == 6
    assert kkt.kkt_certificate(W, X, y, alpha=0.5).n_kinks == ref


def test_kkt_certificate_refuses_a_margin_of_exactly_zero():
    """(P)'s KKT conditions need every point strictly correctly classified: w = u gives
    N_W ≡ 0, a min margin of exactly 0, which is refused by name, rule and value (there is
    no direction to normalise by min_i q_i = 0)."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match=r"`W`: KKT .* \(min_i y_i N_W\(x_i\) > 0\), got min "
                                         r"margin -?0 at unit"):
        kkt.kkt_certificate(np.array([[1.0, 0.0], [1.0, 0.0]]), X, y, alpha=0.5)


# -- linteach.kkt.qp_kkt_report ----------------------------------------------------------------
def test_qp_kkt_report_distance_is_the_duality_gap_at_the_clipped_multipliers():
    """``distance = sqrt(2·gap)/‖θ‖`` with gap = f(θ) − g(μ⁺) the duality gap at μ⁺ =
    max(μ, 0) (documented), f(θ) = ½‖θ‖², g(μ) = μᵀh − ½‖Gᵀμ‖², evaluated here from that
    definition, with a negative multiplier on an inactive row: G = I, h = (1, 1),
    θ = (2, 1), μ = (−1/2, 1): μ⁺ = (0, 1), f = 5/2, g = 1/2, gap = 2, distance = 2/√5."""
    G, h = np.eye(2), np.ones(2)
    theta, mu = np.array([2.0, 1.0]), np.array([-0.5, 1.0])
    mu_plus = np.maximum(mu, 0.0)
    gap = 0.5 * theta @ theta - (mu_plus @ h - 0.5 * (G.T @ mu_plus) @ (G.T @ mu_plus))
    assert gap == 2.0
    report = kkt.qp_kkt_report(theta, G, h, mu)
    assert report.distance == pytest.approx(np.sqrt(2.0 * gap) / np.linalg.norm(theta),
                                            rel=1e-15)


@pytest.mark.parametrize("W, X", [
    (np.array([[1.0, 0.9], [-0.5, 0.1]]), np.array([[1.0, 0.0], [0.6, 0.8]])),
    (np.array([[1.0, 0.9], [0.0, 0.1]]), np.array([[1.0, 0.0], [0.6, 0.8]])),  # u·x1 = 0
])
def test_kkt_certificate_multipliers_minimise_the_documented_objective(W, X):
    """The multipliers minimise, over λ ≥ 0, ‖W − Σ_i λ_i ∇q_i(W)‖² + Σ_i (λ_i (q_i − 1)/‖W‖)²
    at the normalised W (min_i q_i = 1), as documented.  Reference: that objective built from
    its definition (∇_w q_i = v y_i σ'(w·x_i) x_i, ∇_u q_i = −v y_i σ'(u·x_i) x_i) and
    minimised by trying every support of λ (least squares on it, kept if λ ≥ 0; exact for
    two points).  W that are not KKT directions (stationarity ~0.3), ‖W‖ > 1 after
    normalising, so the weight of the complementarity rows matters; in the second, u·x1 = 0
    exactly, where σ'(0) = α (documented convention) enters ∇_u q_1."""
    y, alpha = np.array([1.0, 1.0]), 0.3
    Wn = W / np.linalg.norm(W)
    Z = Wn @ X.T
    S = np.where(Z > 0, 1.0, alpha)
    q = y * (S[0] * Z[0] - S[1] * Z[1])
    Wn, q = Wn / q.min(), q / q.min()
    A = np.stack([np.concatenate([y[i] * S[0, i] * X[i], -y[i] * S[1, i] * X[i]])
                  for i in range(2)], axis=1)
    A_aug = np.vstack([A, np.diag((q - 1.0) / np.linalg.norm(Wn))])
    b = np.concatenate([Wn.ravel(), np.zeros(2)])
    best = (np.inf, None)
    for support in [(), (0,), (1,), (0, 1)]:
        lam = np.zeros(2)
        if support:
            lam[list(support)] = np.linalg.lstsq(A_aug[:, list(support)], b, rcond=None)[0]
        if np.all(lam >= 0) and np.sum((A_aug @ lam - b) ** 2) < best[0]:
            best = (np.sum((A_aug @ lam - b) ** 2), lam)
    assert np.all(best[1] > 0)  # both points carry weight: the trade-off is exercised
    cert = kkt.kkt_certificate(W, X, y, alpha=alpha)
    np.testing.assert_allclose(cert.lam, best[1], rtol=1e-9)


def test_assumption4_a_slack_lp_of_status_4_is_undecided(monkeypatch):
    """Only a slack LP HiGHS calls infeasible (status 2) is checked against the feasibility
    LP; one that ends in status 4 ("numerical difficulties", after the interior-point
    retry) leaves the point undecided, a SolverError, even where the feasibility LP would
    return a z positive on x_j (X_L's positive e2, z = (1, −1/2))."""
    _slack_lp_ends_in(monkeypatch, 4)
    with pytest.raises(SolverError, match="HiGHS status 4"):
        assumption4.assumption4_lp(X_L, Y_L)


def test_qp_kkt_report_of_an_exact_kkt_pair_with_every_multiplier_positive_is_zero():
    """At an exact KKT pair every residual is 0 (documented: "0 is exact"), dual feasibility
    max_i (−μ_i)⁺ ‖G_i‖/‖θ‖ included, also when no multiplier is 0 (so no term of that max
    is 0 by a zero multiplier).  G = I, h = (1, 2), θ = (1, 2), μ = θ: θ = Gᵀμ, μ > 0,
    Gθ = h."""
    rep = kkt.qp_kkt_report(np.array([1.0, 2.0]), np.eye(2), np.array([1.0, 2.0]),
                            np.array([1.0, 2.0]))
    assert (rep.feasibility, rep.dual_feasibility, rep.stationarity, rep.complementarity,
            rep.distance) == (0.0, 0.0, 0.0, 0.0, 0.0)


def test_assumption4_dual_feasibility_allowance_is_inclusive(monkeypatch):
    """A multiplier exactly −1e-9 (1 + max a) is allowed, that bound included: X_L's negative
    point with HiGHS's dual replaced by a = (1, −2e-9, 0) (max a = 1, so the bound is
    −1e-9·2, the same float64 as −2e-9·1 here: asserted); stationarity and the gap move by
    2e-9, far inside their allowances ~2e-7."""
    a = np.array([1.0, -(1e-9 * (1.0 + 1.0)), 0.0])
    assert a.min() == -1e-9 * (1.0 + a.max())  # the premise: exactly on the bound

    def on_the_bound(res, A_ub):
        res.ineqlin.marginals[:] = -a
    _faked_negative_lp(monkeypatch, on_the_bound)
    assert assumption4.assumption4_lp(X_L, Y_L).slack[2] == pytest.approx(1.0, abs=1e-8)


def test_assumption4_margin_is_keyword_only():
    """``margin`` follows ``*`` in the signature: passing it by position is a TypeError."""
    with pytest.raises(TypeError):
        assumption4.assumption4_lp(X_L, Y_L, 1e-7)


def test_solve_eq8_solver_is_keyword_only():
    """``solver`` follows ``*`` in solve_eq8's signature: by position it is a TypeError."""
    from linteach import convex

    with pytest.raises(TypeError):
        convex.solve_eq8([[1.0, 0.0], [-1.0, 0.0]], [1, -1], 0.5, "CLARABEL")


def test_kkt_certificate_counts_a_pre_activation_exactly_on_the_kink_tolerance():
    """The kink band is closed, |w_j·x_i| ≤ KINK_TOL ‖w_j‖‖x_i‖ at the unit-norm W
    (documented: W is first scaled to unit norm, here in the certificate's two steps).
    X = ±e1, w = e1, u = (u1, 1/2) with u1 = 5.0000000000025e-07 chosen so that, at the
    unit-norm W, |u·x| equals KINK_TOL ‖u‖ exactly in float64 (asserted here): both of u's
    pairs are kinks."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    W = np.array([[1.0, 0.0], [5.0000000000025e-07, 0.5]])
    Wn = W / np.abs(W).max()
    Wn = Wn / np.linalg.norm(Wn)
    assert np.all(np.abs(Wn[1] @ X.T) == kkt.KINK_TOL * np.linalg.norm(Wn[1]))  # premise
    assert kkt.kkt_certificate(W, X, y, alpha=0.5).n_kinks == 2


def test_kkt_certificate_alpha_is_keyword_only():
    """``alpha`` follows ``*`` in kkt_certificate's signature: by position it is a TypeError."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    with pytest.raises(TypeError):
        kkt.kkt_certificate(np.array([[3.0, 0.0], [-3.0, 0.0]]), X, y, 0.5)


def test_svm_no_bias_solver_is_keyword_only():
    """``solver`` follows ``*`` in svm_no_bias's signature: by position it is a TypeError."""
    from linteach import convex

    with pytest.raises(TypeError):
        convex.svm_no_bias([[1.0, 0.0], [-1.0, 0.0]], [1, -1], "CLARABEL")


def test_nar_program_k_is_keyword_only():
    """``k``, ``v`` and ``solver`` follow ``*`` in nar_program's signature: k by position is
    a TypeError."""
    from linteach import convex

    with pytest.raises(TypeError):
        convex.nar_program([[1.0], [-1.0]], [1, -1], 0.5, [1, 0.5], [0.5, 1], 2)


def test_qp_kkt_report_feasibility_of_a_strictly_feasible_theta_is_zero():
    """feasibility = max_i (h_i − G_iθ)⁺ / max(1, ‖G_i‖‖θ‖) (documented) is 0, not negative,
    when every row holds strictly: G = I, h = (1, 2), θ = (2, 3), slacks (1, 1)."""
    rep = kkt.qp_kkt_report(np.array([2.0, 3.0]), np.eye(2), np.array([1.0, 2.0]), np.zeros(2))
    assert rep.feasibility == 0.0


def test_assumption4_holds_at_a_slack_equal_to_the_margin():
    """``holds`` means every slack ≥ margin, the bound included: the antipodal pair ±e1 has
    slacks exactly 1 (asserted), so it holds at margin = 1."""
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    assert np.all(assumption4.assumption4_lp(X, y).slack == 1.0)  # the premise
    assert assumption4.assumption4_lp(X, y, margin=1.0).holds


def test_assumption4_witness_is_one_on_the_other_class_of_the_points_as_given():
    """The witness z has min z·x_i = 1 over the other class of the points as given (not their
    unit rows): X_L with its rows scaled by 1, 3 and 2 fails at the positive 3e2 (as X_L at
    e2), and min over the negative class {−2e1} of z·x is 1."""
    X = X_L * np.array([[1.0], [3.0], [2.0]])
    res = assumption4.assumption4_lp(X, Y_L)
    assert not res.holds and res.witness_index == 1
    assert np.min(X[Y_L == -1.0] @ res.witness) == pytest.approx(1.0, rel=1e-12)


def test_nar_program_defaults_to_one_neuron_per_type():
    """``k`` defaults to 1 (documented): W has 2k = 2 rows.  The docstring's example at
    k = 1: X = ±1, pattern (1, α) and (α, 1), α = 1/2: W = (w, u) with w = −u, and
    N(x1) = w − αu = 1 at the optimum of ½(w² + u²) gives w = 2/3."""
    from linteach import convex

    W = convex.nar_program([[1.0], [-1.0]], [1, -1], 0.5, [1, 0.5], [0.5, 1])
    assert W.shape == (2, 1)
    np.testing.assert_allclose(W.ravel(), [2.0 / 3.0, -2.0 / 3.0], atol=1e-9)


def test_lp_feasible_refuses_a_one_dimensional_G_by_its_axis_count():
    """A dense G of one axis is refused by check_array's rule, naming G, the rule (at least
    2 axes) and the shape."""
    with pytest.raises(ValueError, match=r"`G` must have at least 2 axes, got shape \(3,\)"):
        assumption4.lp_feasible(np.ones(3), np.ones(3))


def test_qp_kkt_report_feasibility_floor_of_one_for_short_rows():
    """feasibility = max_i (h_i − G_iθ)⁺ / max(1, ‖G_i‖‖θ‖) (documented), evaluated from that
    formula at a θ short enough that ‖G_i‖‖θ‖ < 1: G = I, h = (1, 1), θ = (0.1, 0.1), each
    row short by 0.9 and divided by max(1, 0.1414…) = 1, so 0.9."""
    G, h, theta = np.eye(2), np.ones(2), np.array([0.1, 0.1])
    ref = max((h[i] - G[i] @ theta) / max(1.0, np.linalg.norm(G[i]) * np.linalg.norm(theta))
              for i in range(2))
    rep = kkt.qp_kkt_report(theta, G, h, np.zeros(2))
    assert rep.feasibility == pytest.approx(ref, rel=1e-15) and ref == pytest.approx(0.9)


@pytest.mark.parametrize("gap", [1.5e-7, 2e-7])
def test_lp_feasible_scales_a_sparse_G_exactly_as_a_dense_one(gap):
    """The sparse path (the programs of linteach.convex) brings every row to a largest entry
    in [1/2, 1) by the same powers of two as the dense path, so HiGHS's absolute tolerance
    means the same for both: θ ≥ 1 and θ ≤ 1 − gap, empty by a gap of a few tolerances, is
    infeasible either way (a sparse row scaled by one more factor 2 than h is ties the gap
    to a tolerance twice as loose and calls it feasible)."""
    G, h = np.array([[1.0], [-1.0]]), np.array([1.0, -(1.0 - gap)])
    assert assumption4.lp_feasible(G, h) is False
    assert assumption4.lp_feasible(sp.csr_matrix(G), h) is False
