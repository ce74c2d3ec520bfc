"""Claim ``kou2023`` (proofs_check/claims/kou2023.py): per-type vs whole stable rank, margin
spread and the Eq. 8 duals."""
import numpy as np
import pytest

from proofs_check.claims import kou2023
from proofs_check.kit import followup
from claim_support import passes


@pytest.mark.slow
@pytest.mark.claim_rerun
def test_kou2023_passes_and_catches_its_control():
    result = passes("kou2023")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(kou2023.CLAIM.clause_names)  # with any engine clause


def _result(**changes):
    r = {"type_srank_end": np.array([1.0 + 1e-9]), "rho_end": np.array([1.03]),
         "rho_gd": np.array([1.2]), "eq8_dual_ratio": 0.25, "in_par": np.array([True]),
         "srank_end": np.array([1.27]), "srank_eq8": 1.27, "rho_half": np.array([1.015])}
    return {**r, **changes}


def test_slacks_hold_on_a_pass_and_flag_each_planted_violation():
    assert all(np.min(s) >= 0 for s in kou2023.slacks(_result()).values())
    bad = {"type_stable_rank_to_1": _result(type_srank_end=np.array([1.01])),
           "margins_equalize": _result(rho_end=np.array([1.25])),
           "eq8_duals_positive": _result(eq8_dual_ratio=0.0),
           "whole_stable_rank_is_eq8s": _result(srank_end=np.array([1.0])),
           "spread_is_discretisation": _result(rho_half=np.array([1.029]))}
    for clause, r in bad.items():
        assert np.min(kou2023.slacks(r)[clause]) < 0, clause
    assert "whole_stable_rank_is_eq8s" not in kou2023.slacks(_result(in_par=np.array([False])))
    assert "spread_is_discretisation" not in kou2023.slacks(_result(rho_half=np.array([np.nan])))


def test_slacks_are_evaluated_at_the_module_constants(monkeypatch):
    monkeypatch.setattr(kou2023, "RHO_TOL", 0.01)
    assert kou2023.slacks(_result())["margins_equalize"] < 0
    monkeypatch.setattr(kou2023, "DUAL_TOL", 0.5)
    assert kou2023.slacks(_result())["eq8_duals_positive"] < 0


def test_whole_stable_rank_of_a_clustered_par_net_is_not_1():
    """``srank`` of k copies of w = p − αq and of u = q − αp with p ⊥ q, ‖p‖ = ‖q‖:
    ``2(1+α²)/(1+α)²`` (docs/math.md §12), while each type has stable rank 1."""
    alpha, k = 0.3, 4
    p, q = np.eye(5)[0], np.eye(5)[1]
    W = np.concatenate([np.tile(p - alpha * q, (k, 1)), np.tile(q - alpha * p, (k, 1))])
    np.testing.assert_allclose(followup.stable_rank(W), 2 * (1 + alpha**2) / (1 + alpha)**2)
    np.testing.assert_allclose(followup.type_stable_ranks(W), (1.0, 1.0))
