"""Claim ``lem6.1`` (proofs_check/claims/lem6_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np
import pytest
from hypothesis import strategies as st

from linteach import convex
from proofs_check.claims import lem6_1
from proofs_check.kit import geometry
from claim_support import passes


# -- lem6.1 ------------------------------------------------------------------------------------
def test_lem61_passes_and_catches_its_control():
    assert passes("lem6.1").verdict == "PASS"


def test_lem61_asymmetric_set_fails_with_a_verified_witness():
    X, y = lem6_1._asymmetric(np.random.default_rng(0), "rotated")
    res = convex.assumption4_lp(geometry.unit_rows(X), y)
    assert lem6_1.antipodal_slack(res) < 0
    assert lem6_1.witness_holds(res, geometry.unit_rows(X), y)


@pytest.mark.parametrize("family", list(lem6_1.FAMILIES))
def test_lem61_antipodal_families_are_antipodal(family):
    X, y = lem6_1.antipodal_set(np.random.default_rng(1), family)
    m = len(y) // 2
    np.testing.assert_array_equal(X[m:], -X[:m])
    np.testing.assert_array_equal(y[m:], -y[:m])
    assert set(np.unique(y)) == {-1.0, 1.0}


# -- the statement's constants ---------------------------------------------------------------
def test_the_clause_holds_down_to_slack_one_minus_the_lp_tolerance():
    """Lemma 6.1's conclusion is 'slack ≥ 1' up to HiGHS's accuracy, LP_TOL: just above
    1 − LP_TOL holds, just below fails, and a vacuous condition (infinite slack) holds."""
    from types import SimpleNamespace

    def clause(low):
        return lem6_1.antipodal_slack(SimpleNamespace(slack=np.array([np.inf, low])))

    assert lem6_1.LP_TOL == 1e-6
    assert clause(1.0 - lem6_1.LP_TOL * (1 - 1e-6)) > 0
    assert clause(1.0 - lem6_1.LP_TOL * (1 + 1e-6)) < 0
    assert clause(np.inf) == lem6_1.VACUOUS > 0
