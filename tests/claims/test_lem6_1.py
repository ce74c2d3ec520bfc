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


def test_lem61_asymmetric_set_fails_with_a_verified_witness(rng):
    X, y = lem6_1._asymmetric(rng, "rotated")
    res = convex.assumption4_lp(geometry.unit_rows(X), y)
    assert lem6_1.antipodal_slack(res) < 0
    assert lem6_1.witness_holds(res, geometry.unit_rows(X), y)


@pytest.mark.parametrize("family", list(lem6_1.FAMILIES))
def test_lem61_antipodal_families_are_antipodal(family, rng):
    X, y = lem6_1.antipodal_set(rng, family)
    m = len(y) // 2
    np.testing.assert_array_equal(X[m:], -X[:m])
    np.testing.assert_array_equal(y[m:], -y[:m])
    assert set(np.unique(y)) == {-1.0, 1.0}
