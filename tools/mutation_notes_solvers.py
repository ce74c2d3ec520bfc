"""The survivors of the population pass over the targets assumption4, convex and kkt: kill reasons (the test written
for each, in ``tests/test_mutation_kills_solvers.py``) and equivalence reasons, keyed like
:mod:`mutation_notes`: (target, function, operator, line[, occurrence]); merged into
:data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

#: survivors killed by a test written for them -> the test, and why the claims miss it
KILLED_BY: dict = {
    # -- assumption4: lp_feasible's argument checks and rows that hold at θ = 0; the claims
    # hand it a 2-D G of the right shape and an h of all ones
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Lt", 35, 0):
        "a dense G of three axes is refused by name, rule and shape (test_lp_feasible_refuses_"
        "a_three_dimensional_G): `G.ndim < 2` lets it through, and check_array already "
        "refuses fewer than two axes; the claims' G is always a matrix",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 39, 8):
        "the h-shape message gives the wanted (p,) from G's row count (test_lp_feasible_names_"
        "the_row_count_in_the_h_shape_message, G (3, 2)): the mutant prints G's column count; "
        "no claim passes a mis-shaped h",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Gt_GtE", 46, 0):
        "a zero row with a zero bound, 0·θ ≥ 0, holds for every θ (test_lp_feasible_with_a_"
        "zero_row_and_a_zero_bound_is_feasible): the mutant calls it infeasible outright; the "
        "claims' rows are never zero",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Gt", 56, 2):
        "an h with every entry negative is feasible at θ = 0 (test_lp_feasible_with_only_"
        "negative_bounds_is_feasible): the mutant takes the max of the positive entries' "
        "exponents, none; the claims' h is all ones",
}

#: survivors no test can kill -> why they are equivalent
EQUIVALENT: dict = {
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Gt", 35, 0):
        "equivalent: `G.ndim != 2` → `G.ndim > 2` right after check_array(..., min_ndim=2), "
        "which raises for fewer than two axes, so ndim ≥ 2 there and both are ndim > 2 "
        "(the sparse path skips the check in both)",
}
