"""What the report says about the survivors of the population pass
(``tools/mutation_population.py``) and the last survivors of the verify-first campaigns:
kill reasons (the test written for each; merged into :data:`mutation_killed.KILLED_BY`) and
equivalence reasons (merged into :data:`mutation_notes.EQUIVALENT`); keyed like
:mod:`mutation_notes`: (target, function, operator, line[, occurrence]).
"""

#: survivors killed by a test written for them -> the test, and why the claims miss it
KILLED_BY_POPULATION: dict = {
    ("kkt", "kkt_certificate", "core/NumberReplacer", 265, 111):
        "the NNLS cap is the documented 50n iterations for n points, and reaching it is a "
        "SolverError (test_kkt_certificate_allows_nnls_50_iterations_per_point, which watches "
        "the call): 49n differs from 50n only on a problem needing between the two, which no "
        "claim's has (scipy's own default is 3n)",
    ("qp-certify", "_certify", "core/NumberReplacer", 73, 15):
        "the multipliers kept from a solver's answer are its own clipped at 0 (test_solve_qp_"
        "clips_the_kept_solver_multipliers_at_zero): SCS returns multipliers of −1e-16 on "
        "inactive rows, inside the re-check's dual-feasibility tolerance; the claims' QPs are "
        "all polished, so the kept answer is seen by tests only",
    ("train-flow", "_log_logmean", "core/ReplaceUnaryOperator_Delete_USub", 275):
        "a step's time on the logarithmic mean's series branch to 1e-12 against the reference "
        "integrator (test_normalized_flow_time_of_steps_on_the_logarithmic_mean_s_series_"
        "branch): the series term −g/2 → +g/2 moves a step's log time by g < 1e-8, below the "
        "flow audit's tolerance",
}

#: survivors judged equivalent by reading them -> the reason no input tells them apart
EQUIVALENT_POPULATION: dict = {
    ("train-flow", "_euler_loop", "core/ReplaceBinaryOperator_Mul_Div", 196):
        "equivalent: `x * np.ones(batch)` → `x / np.ones(batch)`: multiplying and dividing by "
        "1.0 are both exact in IEEE arithmetic (±inf and NaN included), so every entry is x",
}
