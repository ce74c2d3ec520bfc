"""Claim ``appJ`` (proofs_check/claims/appJ.py): its verdict, its negative control, its machinery."""


import linteach as lt
from proofs_check.claims import appJ
from claim_support import passes


# -- appJ --------------------------------------------------------------------------------------
def test_appj_runs_and_catches_its_control():
    result = passes("appJ")
    # an existence claim: PASS with witnesses, INCONCLUSIVE if none appeared at this budget
    assert result.verdict in ("PASS", "INCONCLUSIVE")
    if result.verdict == "PASS":
        assert result.measurements["outcomes"]["witnesses"] > 0


def test_appj_witness_clauses_flag_planted_violations():
    witness = {"gamma_bar": 0.3, "beta_end": 0.02, "max_n_diff": 0, "par_w": 1.0, "par_u": 0.0,
               "a4_slack": -1.0, "a3": 1.0, "a3_bound": 2.0}
    assert all(s >= 0 for s in appJ.witness_slacks(witness, 4).values())
    bad = {"not_par": dict(witness, par_u=1.0), "neurons_agree": dict(witness, max_n_diff=1),
           "train_accuracy_100": dict(witness, gamma_bar=-0.1),
           "thm6_2_not_applicable": dict(witness, a4_slack=0.5, a3=3.0)}
    for clause, run in bad.items():
        assert appJ.witness_slacks(run, 4)[clause] < 0, clause
