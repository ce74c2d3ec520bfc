"""The survivors of the last population passes (kernels-rest: the seam between the trainers
and the network; patterns: the agreement patterns) and the qp-solve mutants killed last:
kill reasons (the tests in ``tests/test_mutation_kills_kernels.py``,
``tests/test_mutation_kills_patterns.py`` and ``tests/test_mutation_kills_qp.py``) and
equivalence reasons, keyed like :mod:`mutation_notes`: (target, function, operator,
line[, occurrence]); merged into :data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

KILLED_BY: dict = {
    ("qp-solve", "solve_qp", "core/NumberReplacer", 171):
        "with polish made to fail, the lifted program's answer through cvxpy must carry one "
        "dual per row of G and pass the KKT re-check (test_an_answer_polish_cannot_improve_"
        "passes_the_re_check_with_the_solver_s_own_duals); the test could only be written "
        "once CLARABEL ran at tolerances tight enough for an unpolished answer to pass",
}

EQUIVALENT: dict = {}
