"""Claim ``appJ`` (proofs_check/claims/appJ.py).

Its verdict, its negative control, and its machinery.
"""


import pytest

import linteach as lt
from proofs_check.claims import appJ
from proofs_check.engine.contract import Case
from proofs_check.engine.runner import run_one
from claim_support import passes


# -- appJ --------------------------------------------------------------------------------------
def test_appj_catches_its_control():
    result = passes("appJ")
    assert result.negative_control["evaluated"] > 0


@pytest.mark.slow
@pytest.mark.claim_rerun
def test_appj_passes_on_a_witness_case_of_the_standard_run():
    """An existence claim: a case of the standard run that had witnesses, replayed alone,
    must PASS with its witnesses.  The case is read off this machine's run (the worst case
    of a witness clause), not recorded: witnesses converge to a kink of the outlier, so which
    cases have them depends on the BLAS's rounding (the case recorded on an Intel machine
    had none on an AMD one)."""
    full = run_one("appJ", seed=0, budget="standard")
    assert full.verdict == "PASS" and full.measurements["outcomes"]["witnesses"] > 0
    worst = full.to_dict()["clauses"]["not_par"]
    result = run_one("appJ", seed=0, budget="standard",
                     replay=Case(worst["family"], worst["seed"]))
    assert result.error is None, result.error
    assert result.verdict == "PASS"
    assert result.measurements["outcomes"]["witnesses"] > 0
    assert result.negative_control_caught is True


def test_appj_witness_clauses_flag_planted_violations():
    witness = {"gamma_bar": 0.3, "beta_end": 0.02, "max_n_diff": 0, "par_w": 1.0, "par_u": 0.0,
               "a4_slack": -1.0, "a3": 1.0, "a3_bound": 2.0}
    assert all(s >= 0 for s in appJ.witness_slacks(witness, 4).values())
    bad = {"not_par": dict(witness, par_u=1.0), "neurons_agree": dict(witness, max_n_diff=1),
           "train_accuracy_100": dict(witness, gamma_bar=-0.1),
           "thm6_2_not_applicable": dict(witness, a4_slack=0.5, a3=3.0)}
    for clause, run in bad.items():
        assert appJ.witness_slacks(run, 4)[clause] < 0, clause


def test_appj_witness_slacks_are_their_measurements():
    k = 4
    run = {"gamma_bar": 0.3, "beta_end": 0.02, "max_n_diff": 0, "par_w": 0.75, "par_u": 0.5,
           "a4_slack": -0.25, "a3": 1.0, "a3_bound": 4.0}
    out = appJ.witness_slacks(run, k)
    assert out["train_accuracy_100"] == 0.3
    assert out["neurons_agree"] == 0.02
    assert out["not_par"] == pytest.approx(0.5 - 0.5 / k)  # the farther type from PAR
    assert out["thm6_2_not_applicable"] == pytest.approx(0.75)  # Assumption 3 fails by most
    out = appJ.witness_slacks(dict(run, par_w=0.25, a4_slack=-0.9), k)
    assert out["not_par"] == pytest.approx(0.75 - 0.5 / k)
    assert out["thm6_2_not_applicable"] == pytest.approx(0.9)  # Assumption 4 fails by most
    # one neuron out of PAR in one type: half a step of 1/k to spare
    assert appJ.witness_slacks(dict(run, par_w=1.0, par_u=1 - 1 / k), k)["not_par"] == \
        pytest.approx(0.5 / k)
    assert appJ.witness_slacks(dict(run, max_n_diff=2), k)["neurons_agree"] == -1.0
