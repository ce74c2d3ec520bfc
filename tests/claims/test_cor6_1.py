"""Claim ``cor6.1`` (proofs_check/claims/cor6_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

import linteach as lt
from proofs_check.claims import cor6_1
from proofs_check.engine.context import verdict_of
from proofs_check.kit import geometry
from proofs_check.kit.signs import sign_agreement
from claim_support import fresh_context, passes


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
