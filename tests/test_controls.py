"""Negative controls reach the trainers through the documented ``grad=`` seam, and change
the outcome: the same Theorem 4.1 case passes its per-step invariants with the true update
and fails them with the u update flipped (``proofs_check.kit.sgd_cases.flip_u_update``)."""
import numpy as np

from proofs_check.claims import thm4_1
from proofs_check.engine.context import Context
from proofs_check.kit import sgd_configs
from proofs_check.kit.sgd_cases import flip_u_update


def _case_result(corrupt):
    ctx = Context(thm4_1.CLAIM, seed=3, budget="quick")
    case = ctx.cases(1, "corrupted-sgd")[0]
    spec = sgd_configs.CONTROL_FAMILIES["corrupted-sgd"]
    return sgd_configs.run_sgd_case({"case": case, "spec": spec, "epoch_scale": 0.3,
                                     "corrupt": corrupt})


def test_flipped_u_update_breaks_the_invariants_that_the_true_update_keeps():
    true, flipped = _case_result(False), _case_result(True)
    assert true["config"] == flipped["config"] and true["digests"]["W0"] == flipped["digests"]["W0"]
    assert np.all(true["F_slack"] >= 0) and np.all(true["G_slack"] >= 0)
    assert np.any(flipped["F_slack"] < 0) or np.any(flipped["G_slack"] < 0)
    assert true["digests"]["W"] != flipped["digests"]["W"]


def test_flip_u_update_negates_exactly_the_u_rows():
    G = np.arange(2 * 3 * 2 * 4, dtype=float).reshape(2, 6, 4)
    H = flip_u_update(G)
    np.testing.assert_array_equal(H[:, :3], G[:, :3])
    np.testing.assert_array_equal(H[:, 3:], -G[:, 3:])
    assert H is not G and np.array_equal(G, np.arange(48.0).reshape(2, 6, 4))  # G untouched
