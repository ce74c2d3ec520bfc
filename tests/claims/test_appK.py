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


def test_appk_points_are_lifted():
    from proofs_check.claims import appK, thm5_1

    rng = np.random.default_rng(0)
    _net, W = linear_regime.draw_net(rng, dict(thm5_1.FAMILIES["random"], d=(4, 4)))
    X = appK.lifted_points(rng, W)
    np.testing.assert_array_equal(X[:, -1], 1.0)
    assert len(X) > appK.POINTS[0]  # band points were kept, not only uniform ones


def test_the_lifted_check_evaluates_at_theorem_51s_band(monkeypatch):
    """A lifted point at (2 + 1e-9)·r‖x‖ is in the evaluated regime, one at (2 − 1e-9) is not,
    and the claim's lifted nets are judged at that band."""
    from linteach.generators import band_points
    from proofs_check.engine.contract import Case

    rng = np.random.default_rng(0)
    net, W = linear_regime.draw_net(rng, dict(thm5_1.FAMILIES["random"], d=(4, 4), k=(3, 3)))
    P = np.concatenate([band_points(W, 1, c=appK.BAND * (1 + 1e-9), rng=rng),
                        band_points(W, 1, c=appK.BAND * (1 - 1e-9), rng=rng)])
    _slack, info = linear_regime.theorem51_slacks(net, W, P, c=appK.BAND)
    assert appK.BAND == 2.0 and info["in_regime"].tolist() == [True, False]
    seen, real = [], linear_regime.theorem51_slacks
    monkeypatch.setattr(linear_regime, "theorem51_slacks",
                        lambda *a, c, **kw: seen.append(c) or real(*a, c=c, **kw))
    appK._thm51_case(Case("thm5.1-lifted", 5), None)
    assert seen == [appK.BAND]
