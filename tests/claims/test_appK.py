"""Claim ``appK`` (proofs_check/claims/appK.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

from proofs_check.claims import appK, thm5_1
from proofs_check.kit import linear_regime
from claim_support import passes


# -- appK --------------------------------------------------------------------------------------
def test_appk_passes_and_catches_its_controls():
    assert passes("appK").verdict == "PASS"


def test_appk_points_are_lifted(rng):
    from proofs_check.claims import appK, thm5_1

    _net, W = linear_regime.draw_net(rng, dict(thm5_1.FAMILIES["random"], d=(4, 4)))
    X = appK.lifted_points(rng, W)
    np.testing.assert_array_equal(X[:, -1], 1.0)
    assert len(X) > appK.POINTS[0]  # band points were kept, not only uniform ones
