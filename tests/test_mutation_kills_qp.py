"""Tests written ahead of the population passes over the mutation targets qp-solve (the
solver driver of every convex program, docs/math.md §6–§7) and convex-rest (the teacher,
Eq. 8's kernel and arguments, the agreement pattern's check): programs whose answers are
known in closed form, solved by every route the driver has (CLARABEL's own API, CLARABEL
through cvxpy, OSQP, SCS; the primal, the lifted primal and the dual), and the argument
rules by name."""
import re

import numpy as np
import pytest

from linteach import convex, kkt, qp
from linteach.errors import SolverError
from tolerances import POLISHED, ULPS

#: min ½‖θ‖² s.t. θ₁ + θ₂ ≥ 2, θ₁ ≥ 3/2: both active at θ* = (3/2, 1/2), μ* = (1/2, 1)
G = np.array([[1.0, 1.0], [1.0, 0.0]])
H = np.array([2.0, 1.5])
THETA, MU = np.array([1.5, 0.5]), np.array([0.5, 1.0])
LIFT = (np.array([[1.0]]), np.array([[1.0, 1.0]]))        # the first row of G is M·B


@pytest.mark.parametrize("route", ["direct", "cvxpy", "lift", "lift-cvxpy", "dual"])
@pytest.mark.parametrize("solver", ["CLARABEL", "OSQP", "SCS"])
def test_solve_qp_gives_the_known_optimum_by_every_route(monkeypatch, solver, route):
    """θ* and μ* (θ* = Gᵀμ*), to the polish's exactness, whichever solver and route."""
    if route.endswith("cvxpy"):
        monkeypatch.setattr(qp, "DIRECT_CLARABEL", False)
    kwargs = dict(lift=LIFT) if route.startswith("lift") else \
        dict(dual_factor=np.linalg.cholesky(G @ G.T)) if route == "dual" else {}
    theta, mu = qp.solve_qp(G, H, solver=solver, **kwargs)
    np.testing.assert_allclose(theta, THETA, rtol=POLISHED)
    np.testing.assert_allclose(mu, MU, rtol=POLISHED)


@pytest.mark.parametrize("direct", [True, False])
def test_an_infeasible_program_is_infeasible_by_every_route(monkeypatch, direct):
    """θ ≥ 1 and −θ ≥ 0 (θ ≤ 0): the solver says infeasible, HiGHS confirms, Infeasible."""
    monkeypatch.setattr(qp, "DIRECT_CLARABEL", direct)
    with pytest.raises(qp.Infeasible):
        qp.solve_qp(np.array([[1.0], [-1.0]]), np.array([1.0, 0.0]))


def test_a_solver_that_returns_a_wrong_answer_is_a_solver_error_naming_the_program(
        monkeypatch):
    """An "optimal" answer that fails the KKT re-check (and cannot be polished) is never
    returned: with every solver made to return θ = 0, the error names the program and each
    solver's failure."""
    monkeypatch.setattr(qp, "_direct", lambda G, h, lift: ("optimal", np.zeros(2),
                                                           np.zeros(2)))
    monkeypatch.setattr(qp, "_certify", lambda theta, G, h, mu, name: f"{name}: bad")
    with pytest.raises(SolverError, match=re.escape("the test's program: no solver returned "
                                                    "an answer passing the KKT re-check: "
                                                    "CLARABEL: bad")):
        qp.solve_qp(G, H, what="the test's program")


def test_the_solver_list_is_the_installed_ones_in_order_or_the_one_named():
    """None: the installed solvers of SOLVER_ORDER in that order; a name in any case: that
    one, upper-cased; not a str: TypeError; not an installed QP solver: ValueError listing
    the usable ones."""
    installed = qp._installed()
    assert qp._solvers(None) == [s for s in qp.SOLVER_ORDER if s in installed]
    assert qp._solvers("clarabel") == ["CLARABEL"] and qp._solvers("OSQP") == ["OSQP"]
    with pytest.raises(TypeError, match=re.escape("`solver` must be a str or None, got int")):
        qp._solvers(3)
    usable = sorted(set(installed) & set(qp.SOLVER_OPTIONS))
    for name in ("HIGHS", "NOT-A-SOLVER"):  # HIGHS is installed but not a QP solver here
        with pytest.raises(ValueError, match=re.escape(f"`solver` must be one of {usable} "
                                                       f"(installed QP solvers), got {name!r}")):
            qp._solvers(name)


def test_unit_scale_divides_by_the_largest_row_norm_without_overflow():
    """Rows (3, 4) and (0, 1): s = 5; rows of 1e200 (squares past float64): s exact to
    rounding; all zeros: unchanged with s = 1; a row norm past float64: a ValueError."""
    X = np.array([[3.0, 4.0], [0.0, 1.0]])
    Xs, s = qp.unit_scale(X)
    assert s == 5.0
    np.testing.assert_array_equal(Xs, X / 5.0)
    Xs, s = qp.unit_scale(X * 1e200)
    np.testing.assert_allclose(s, 5e200, rtol=ULPS)
    Z = np.zeros((2, 2))
    Zs, s = qp.unit_scale(Z)
    assert Zs is Z and s == 1.0
    with pytest.raises(ValueError, match=re.escape("`X` has a row norm beyond float64 "
                                                   "(largest entry 1.5e+308): rescale it")):
        qp.unit_scale(np.array([[1.5e308, 1.5e308]]))


def test_rescaled_divides_by_s_and_names_an_answer_that_overflows():
    """θ/s; when 1/s is too large for float64 the error names the program."""
    np.testing.assert_array_equal(qp.rescaled(np.array([1.0, -2.0]), 4.0, "P"), [0.25, -0.5])
    with pytest.raises(ValueError, match=re.escape("`X` is too small (largest row norm "
                                                   "1e-310): the solution of the test's "
                                                   "program grows")):
        qp.rescaled(np.array([1.0]), 1e-310, "the test's program")


# -- convex-rest ----------------------------------------------------------------------------
def test_max_margin_teacher_is_the_svm_through_the_origin():
    """Points (2, 0) (+1) and (0, −1) (−1): w* = argmin ‖w‖² s.t. 2w₁ ≥ 1, w₂ ≥ 1 is
    (1/2, 1), the same as svm_no_bias."""
    X, y = np.array([[2.0, 0.0], [0.0, -1.0]]), np.array([1.0, -1.0])
    np.testing.assert_allclose(convex.max_margin_teacher(X, y), [0.5, 1.0], rtol=POLISHED)


def test_eq8_kernel_is_one_plus_alpha_squared_within_a_class_and_two_alpha_across():
    """K_ij = (1 + α²)⟨x_i, x_j⟩ for y_i = y_j and 2α⟨x_i, x_j⟩ otherwise (α = 1/4)."""
    X, y = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]), np.array([1.0, -1.0, 1.0])
    gram = X @ X.T
    same = np.equal.outer(y, y)
    want = np.where(same, 1.0 + 0.0625, 0.5) * gram
    np.testing.assert_array_equal(convex.eq8_kernel(X, y, 0.25), want)


@pytest.mark.parametrize("alpha, message", [(-0.1, "`alpha` must be >= 0"),
                                            (1.5, "`alpha` must be <= 1")])
def test_eq8_s_alpha_lies_in_zero_one_both_ends_included(alpha, message):
    """Eq. 8 takes 0 ≤ α ≤ 1 (α = 1 the linear-SVM limit, α = 0 allowed)."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.5]]), np.array([1.0, -1.0])
    for ok in (0.0, 1.0):
        convex.eq8_kernel(X, y, ok)
    with pytest.raises(ValueError, match=re.escape(message)):
        convex.eq8_kernel(X, y, alpha)


def test_eq8_refuses_a_point_at_the_origin_naming_its_row():
    """A row x_i = 0 makes its constraint 0 ≥ 1: refused before any solver, naming the row."""
    X, y = np.array([[1.0, 0.0], [0.0, 0.0], [-1.0, 0.5]]), np.array([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match=re.escape("`X` row 1 is the origin")):
        convex.eq8_kernel(X, y, 0.5)


@pytest.mark.parametrize("c_w, message", [
    ([1.0, 0.5, 1.0], "`c_w` must have shape (n,) = (2,), got shape (3,)"),
    ([1.0, 0.25], "`c_w` entries must be alpha=0.5 or 1, got [0.25]")])
def test_an_agreement_pattern_is_n_entries_each_alpha_or_one(c_w, message):
    """c_w and c_u: one entry per point, each α or 1 (docs/math.md §6)."""
    with pytest.raises(ValueError, match=re.escape(message)):
        convex.nar_program([[1.0], [-1.0]], [1, -1], 0.5, c_w, [0.5, 1.0])


def test_nar_program_reads_each_pattern_entry_as_a_side():
    """k = 1, α = 1/2, one point x = 1 (+1) with c_w = 1 (w·x ≥ 0) and c_u = α (u·x ≤ 0):
    N = w − αu ≥ 1 with w ≥ 0 ≥ u, so W* = argmin ½(w² + u²) is w = 1/(1 + α²) = 4/5,
    u = −α/(1 + α²) = −2/5."""
    W = convex.nar_program([[1.0]], [1], 0.5, [1.0], [0.5])
    np.testing.assert_allclose(W.ravel(), [0.8, -0.4], rtol=POLISHED)


@pytest.mark.parametrize("lift", [None, LIFT])
def test_clarabel_s_own_api_solves_the_program_itself(lift):
    """The direct route must answer by itself: solve_qp falls back to cvxpy when it fails,
    so only a test of the route sees it broken.  "optimal" with θ* and μ* to the solver's
    accuracy, with and without the lift; "infeasible" for θ ≥ 1, θ ≤ 0."""
    status, theta, mu = qp._direct(G, H, lift)
    assert status == "optimal"
    np.testing.assert_allclose(theta, THETA, rtol=1e-7)
    np.testing.assert_allclose(mu, MU, rtol=1e-7)
    assert qp._direct(np.array([[1.0], [-1.0]]), np.array([1.0, 0.0]), None)[0] == "infeasible"


def test_solve_qp_takes_its_options_by_keyword_only():
    """solver, what, dual_factor and lift are keyword-only."""
    with pytest.raises(TypeError):
        qp.solve_qp(G, H, "CLARABEL")


@pytest.mark.parametrize("solver, direct_calls", [("CLARABEL", 1), ("OSQP", 0), ("SCS", 0)])
def test_only_clarabel_goes_through_its_own_api(monkeypatch, solver, direct_calls):
    """The direct route is CLARABEL's alone (and only for the primal): OSQP and SCS go
    through cvxpy; with a dual factor nothing does."""
    real, calls = qp._direct, []
    monkeypatch.setattr(qp, "_direct", lambda *a: calls.append(1) or real(*a))
    qp.solve_qp(G, H, solver=solver)
    assert len(calls) == direct_calls
    qp.solve_qp(G, H, solver=solver, dual_factor=np.linalg.cholesky(G @ G.T))
    assert len(calls) == direct_calls


def test_the_solvers_print_nothing(capfd):
    """Clarabel's own API runs silent (verbose off), as cvxpy's calls do."""
    qp.solve_qp(G, H, solver="CLARABEL")
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_eq8_names_the_first_point_at_the_origin():
    X, y = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]), np.array([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match=re.escape("`X` row 1 is the origin")):
        convex.eq8_kernel(X, y, 0.5)


@pytest.mark.parametrize("c_w, message", [
    ([1.0, 2.0], "`c_w` entries must be alpha=0.5 or 1, got [2.]"),
    ([1.0, 0.5, 0.5], "`c_w` must have shape (n,) = (2,), got shape (3,)")])
def test_a_pattern_entry_above_one_or_a_longer_pattern_is_refused(c_w, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        convex.nar_program([[1.0], [-1.0]], [1, -1], 0.5, c_w, [0.5, 1.0])


def test_a_pattern_error_shows_the_first_five_bad_values():
    X, y = np.arange(1.0, 7.0)[:, None] * [[1.0]], np.array([1, -1, 1, -1, 1, -1])
    with pytest.raises(ValueError, match=re.escape("got [0.1 0.2 0.3 0.4 0.6]")):
        convex.nar_program(X, y, 0.5, [0.1, 0.2, 0.3, 0.4, 0.6, 0.7], [1.0] * 6)



def test_a_shorter_pattern_is_refused():
    with pytest.raises(ValueError, match=re.escape("`c_w` must have shape (n,) = (2,), got "
                                                   "shape (1,)")):
        convex.nar_program([[1.0], [-1.0]], [1, -1], 0.5, [1.0], [0.5, 1.0])


@pytest.mark.parametrize("route", ["direct", "cvxpy", "lift", "lift-cvxpy", "dual"])
def test_an_answer_polish_cannot_improve_passes_the_re_check_with_the_solver_s_own_duals(
        monkeypatch, route):
    """With polish failing, the answer returned is CLARABEL's own θ with its own duals μ
    (one per row of G, whatever the route: the lift's equality rows are not among them),
    and it passes the KKT re-check: CLARABEL's tolerances are tight enough for that."""
    monkeypatch.setattr(qp, "polish", lambda theta, G, h: None)
    if route.endswith("cvxpy"):
        monkeypatch.setattr(qp, "DIRECT_CLARABEL", False)
    kwargs = dict(lift=LIFT) if route.startswith("lift") else \
        dict(dual_factor=np.linalg.cholesky(G @ G.T)) if route == "dual" else {}
    theta, mu = qp.solve_qp(G, H, solver="CLARABEL", **kwargs)
    assert mu.shape == (len(G),)
    assert kkt.qp_kkt_report(theta, G, H, mu).ok()
    np.testing.assert_allclose(theta, THETA, rtol=kkt.DIST_TOL)
