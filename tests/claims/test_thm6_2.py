"""Claim ``thm6.2`` (proofs_check/claims/thm6_2.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

import linteach as lt
from linteach import convex
from proofs_check.claims import thm6_2
from proofs_check.kit import flow as _flow
from claim_support import passes
from tolerances import CANCELLATION


# -- thm6.2 ------------------------------------------------------------------------------------
def test_thm62_passes_and_catches_its_control(monkeypatch):
    monkeypatch.setattr(thm6_2, "FAMILIES", {"rescaled": thm6_2.FAMILIES["rescaled"]})
    result = passes("thm6.2")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(thm6_2.CLAIM.clause_names)  # with the engine clause


def test_thm62_wrong_alpha_and_non_par_are_flagged():
    ds = _flow.make_data("rescaled", np.random.default_rng(2), n=16, d=3)
    net = lt.Net(k=3, alpha=0.3)
    rng = np.random.default_rng(4)
    D = lt.gradient_flow(net, net.init(3, scale=1e-2, rng=rng), ds, dt=0.01, n_steps=1200,
                         normalized=True).direction
    assert thm6_2.eq8_slack(D, *convex.solve_eq8(ds.X, ds.y, 0.3))[0] >= 0
    assert thm6_2.eq8_slack(D, *convex.solve_eq8(ds.X, ds.y, thm6_2.WRONG_ALPHA))[0] < 0
    assert thm6_2.par_beta(D, ds.X, ds.y) > 0
    flipped = D.copy()
    flipped[0] = -flipped[0]  # one w neuron now classifies like −w*: not PAR
    assert thm6_2.par_beta(flipped, ds.X, ds.y) < 0


def test_thm62_boundary_slack_explains_only_near_boundary_disagreements():
    net = lt.Net(k=1, alpha=0.3)
    w, u = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    W = _flow.lifted(w, u, 1)
    X = np.array([[1.0, 0.5], [-1.0, 2.0], [-0.05, 1.0]])
    slack, info = thm6_2.boundary_slack(net, W, w, u, X)
    assert info["disagree_fraction"] == 0 and slack.min() > 0
    tilted = np.array([1.0, 0.1])  # predicted normal off by ~0.1 rad
    slack, info = thm6_2.boundary_slack(net, W, tilted, -tilted, X)
    assert info["disagree_fraction"] > 0 and slack.min() >= 0  # explained by the angle
    slack, info = thm6_2.boundary_slack(net, W, -w, -u, X)  # a flipped prediction
    assert info["disagree_fraction"] == 1 and slack.max() < 0



# -- the statement's constants ---------------------------------------------------------------
def _rotated_pair(w, u, one_minus_cos):
    """``(w', u')`` whose stacked vector makes 1 − cos = ``one_minus_cos`` with ``(w, u)``."""
    a = np.concatenate([w, u])
    a /= np.linalg.norm(a)
    b = np.array([0.0, 0.0, 1.0, -1.0]) - (np.array([0.0, 0.0, 1.0, -1.0]) @ a) * a
    b /= np.linalg.norm(b)
    t = np.arccos(1.0 - one_minus_cos)
    return (np.cos(t) * a + np.sin(t) * b).reshape(2, 2)


def test_the_eq8_clause_holds_exactly_up_to_cos_tol():
    """A direction whose 1 − cos to the lifted Eq. 8 solution is just under COS_TOL holds, just
    over fails (k = 1, so the lifted solution is (w, u) itself)."""
    w, u = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert thm6_2.COS_TOL == 1e-3
    for rel, holds in ((1 - 1e-6, True), (1 + 1e-6, False)):
        target = thm6_2.COS_TOL * rel
        slack, gap = thm6_2.eq8_slack(_rotated_pair(w, u, target), w, u)
        np.testing.assert_allclose(gap, target, rtol=CANCELLATION)  # 1 − cos of a rotation
        assert (slack > 0) == holds
