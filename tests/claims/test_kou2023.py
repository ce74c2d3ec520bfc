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


def test_dual_slack_is_the_decades_above_dual_tol_and_at_least_minus_one():
    decades = abs(np.log10(kou2023.DUAL_TOL))
    assert kou2023.dual_slack(kou2023.DUAL_TOL) == pytest.approx(0.0, abs=1e-12)
    assert kou2023.dual_slack(1.0) == pytest.approx(1.0)
    assert kou2023.dual_slack(kou2023.DUAL_TOL * 100) == pytest.approx(2 / decades)
    assert kou2023.dual_slack(kou2023.DUAL_TOL / 100) == pytest.approx(-2 / decades)
    assert kou2023.dual_slack(kou2023.DUAL_TOL ** 3) == -1.0  # floored
    # a zero dual, or one a solver returned a hair below zero, is −1 (no log of it is taken:
    # warnings are errors here)
    assert kou2023.dual_slack(0.0) == -1.0
    assert kou2023.dual_slack(-1e-12) == -1.0


def test_slacks_are_each_measurement_over_its_tolerance():
    sr, rho, half, match = kou2023.SR_TOL, kou2023.RHO_TOL, kou2023.HALVING, kou2023.SR_MATCH
    out = kou2023.slacks(_result(type_srank_end=np.array([1.0, 1 + 0.25 * sr])))
    np.testing.assert_allclose(out["type_stable_rank_to_1"], [1.0, 0.75], atol=1e-9)
    # margins_equalize: the smaller of 1 − (ρ − 1)/RHO_TOL and the drop below GD's ρ, per run
    out = kou2023.slacks(_result(rho_end=np.array([1 + 0.5 * rho, 1.0]),
                                 rho_gd=np.array([2.0, 2.0])))
    assert out["margins_equalize"] == pytest.approx(0.5)
    out = kou2023.slacks(_result(rho_end=np.array([1.0, 1.0]), rho_gd=np.array([1.5, 1.25])))
    assert out["margins_equalize"] == pytest.approx(0.25)
    assert kou2023.slacks(_result(rho_gd=np.array([1.03])))["margins_equalize"] == 0.0
    # the mean remaining spread after halving over the mean before, over HALVING
    out = kou2023.slacks(_result(rho_end=np.array([1.02, 1.04]), rho_half=np.array([1.01, 1.0])))
    assert out["spread_is_discretisation"] == pytest.approx(1 - (0.005 / 0.03) / half)
    # no spread left to shrink: the clause holds (no division by the zero gap)
    out = kou2023.slacks(_result(rho_end=np.array([1.0]), rho_half=np.array([1.0])))
    assert out["spread_is_discretisation"] == 1.0
    for srank_end in (1.27 * (1 + 0.5 * match), 1.27 * (1 - 0.5 * match)):
        out = kou2023.slacks(_result(srank_end=np.array([srank_end]), srank_eq8=1.27))
        np.testing.assert_allclose(out["whole_stable_rank_is_eq8s"], [0.5], atol=1e-9)
    # Eq. 8's stable rank is compared only if every run is in PAR; the halving clause only if
    # every run was halved
    assert "whole_stable_rank_is_eq8s" not in kou2023.slacks(
        _result(in_par=np.array([True, False])))
    assert "spread_is_discretisation" not in kou2023.slacks(
        _result(rho_half=np.array([1.01, np.nan])))
