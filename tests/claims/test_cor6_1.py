"""Claim ``cor6.1`` (proofs_check/claims/cor6_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

import linteach as lt
from proofs_check.claims import cor6_1
from proofs_check.engine.context import verdict_of
from proofs_check.kit import geometry
from proofs_check.kit.signs import sign_agreement
from claim_support import fresh_context, passes, record_bands


def test_cor61_passes_and_catches_its_control():
    assert passes("cor6.1").verdict == "PASS"


# -- Corollary 6.1 and App. D.1 ------------------------------------------------------------------
def test_corollary_61_relu_control_fails():
    ctx = fresh_context(cor6_1)
    cor6_1._run(ctx, alpha=0.0, count=3)
    assert verdict_of(ctx) == "FAIL"


def test_exactly_on_the_plane_is_a_tie_that_agrees():
    net = lt.Net(k=3, alpha=0.2, v=1.5)
    W = geometry.clustered_copies(np.array([1.0, 2.0]), np.array([0.0, 2.0]), 3)
    info = sign_agreement(net, W, np.array([[0.0, 5.0], [0.0, -1.0]]), c=0.0)
    assert info["agree"].all() and np.all(info["D"] == 0) and np.all(info["N"] == 0)


# -- the statement's constants ---------------------------------------------------------------
def test_the_check_decides_every_point_and_every_x_at_its_band(monkeypatch):
    """r = 0 makes every point part of the regime: the sampled pass and the exact decision both
    run at the claim's own band constant, and a point as close to the plane as a float allows
    is evaluated, not skipped."""
    from proofs_check.engine.contract import Case

    seen = record_bands(monkeypatch, cor6_1)
    (res,) = cor6_1.evaluate_cases(([Case("random", 3)], "random", None))
    assert cor6_1.BAND == 0.0 and seen == [("sampled", 0.0), ("exact", 0.0)]
    _net, _W, X = cor6_1._net_and_points(Case("random", 3), "random", None)
    assert res["slack"].shape == (len(X),) and np.isfinite(res["slack"]).all()
    net = lt.Net(k=2, alpha=0.3, v=1.0)
    W = geometry.clustered_copies(np.array([1.0, 0.0]), np.array([0.0, 0.0]), 2)
    info = sign_agreement(net, W, np.array([[5e-324, 1.0]]), c=cor6_1.BAND)
    assert info["in_regime"].all() and info["agree"].all()
