"""Tests written for the survivors of the population pass over the mutation targets
assumption4, convex and kkt (Assumption 4's LPs, the paper's convex programs, the KKT re-checks): each names, in ``tools/mutation_notes_solvers.py``, the mutant it kills and why
no claim check does."""
import numpy as np
import pytest
import scipy.sparse as sp

from linteach import assumption4
from linteach.errors import SolverError


# -- linteach.assumption4.lp_feasible: argument checks ------------------------------------------
def test_lp_feasible_refuses_a_three_dimensional_G():
    """A dense ``G`` is a (p, m) matrix: one of shape (2, 2, 1) is refused by name, rule and
    shape (check_array only asks for at least two axes)."""
    with pytest.raises(ValueError, match=r"`G` must be 2-D \(p, m\), got shape \(2, 2, 1\)"):
        assumption4.lp_feasible(np.ones((2, 2, 1)), np.ones(2))


def test_lp_feasible_names_the_row_count_in_the_h_shape_message():
    """``h`` must have one entry per row of ``G``: with G (3, 2) and h of length 2 the message
    gives the shape wanted, (3,) = (p,), not G's column count 2."""
    with pytest.raises(ValueError, match=r"`h` must have shape \(p,\) = \(3,\), got \(2,\)"):
        assumption4.lp_feasible(np.ones((3, 2)), np.ones(2))


# -- linteach.assumption4.lp_feasible: the rows that hold at θ = 0 --------------------------------
@pytest.mark.parametrize("sparse", [False, True])
def test_lp_feasible_with_a_zero_row_and_a_zero_bound_is_feasible(sparse):
    """``0·θ ≥ 0`` holds for every θ (only ``0·θ ≥ h_i > 0`` is infeasible outright): with it,
    ``θ1 ≥ 1`` is feasible (θ = (1, 0))."""
    G = np.array([[0.0, 0.0], [1.0, 0.0]])
    assert assumption4.lp_feasible(sp.csr_matrix(G) if sparse else G, np.array([0.0, 1.0]))


def test_lp_feasible_with_only_negative_bounds_is_feasible():
    """Every ``h_i < 0``: θ = 0 gives ``Gθ = 0 ≥ h``, feasible whatever G."""
    G = np.array([[1.0, -2.0], [-3.0, 0.5]])
    assert assumption4.lp_feasible(G, np.array([-1.0, -4.0])) is True
