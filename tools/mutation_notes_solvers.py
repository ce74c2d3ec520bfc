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
    ("assumption4", "lp_feasible", "core/NumberReplacer", 34, 3):
        "a dense G of one axis is refused by check_array's rule, at least 2 axes (test_lp_"
        "feasible_refuses_a_one_dimensional_G_by_its_axis_count): with min_ndim=1 it is "
        "refused by the next check's message instead; the claims' G is always a matrix",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Lt", 35, 0):
        "a dense G of three axes is refused by name, rule and shape (test_lp_feasible_refuses_"
        "a_three_dimensional_G): `G.ndim < 2` lets it through, and check_array already "
        "refuses fewer than two axes; the claims' G is always a matrix",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 39, 9):
        "the h-shape message gives the wanted (p,) from G's row count (test_lp_feasible_names_"
        "the_row_count_in_the_h_shape_message, G (3, 2)): `G.shape[-1]` prints its column "
        "count",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 39, 8):
        "the h-shape message gives the wanted (p,) from G's row count (test_lp_feasible_names_"
        "the_row_count_in_the_h_shape_message, G (3, 2)): the mutant prints G's column count; "
        "no claim passes a mis-shaped h",
    **{("assumption4", "lp_feasible", op, 38, 1):
       "an h shorter or longer than G's rows is refused with the h-shape message (test_lp_"
       "feasible_names_the_row_count_in_the_h_shape_message, h (2,) and (4,) for G (3, 2)): "
       "the mutant's tuple comparison lets one of them through to a broadcasting error; no "
       "claim passes a mis-shaped h"
       for op in ("core/ReplaceComparisonOperator_NotEq_Gt",
                  "core/ReplaceComparisonOperator_NotEq_Lt")},
    ("assumption4", "lp_feasible", "core/NumberReplacer", 46, 17):
        "a zero row with a zero bound, 0·θ ≥ 0, holds for every θ (test_lp_feasible_with_a_"
        "zero_row_and_a_zero_bound_is_feasible): `h > -1` calls it infeasible outright",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Gt_LtE", 46, 0):
        "a zero row with a zero bound, 0·θ ≥ 0, holds for every θ (test_lp_feasible_with_a_"
        "zero_row_and_a_zero_bound_is_feasible): `h <= 0` calls it infeasible outright",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Gt_Eq", 46, 0):
        "a zero row with a zero bound, 0·θ ≥ 0, holds for every θ (test_lp_feasible_with_a_"
        "zero_row_and_a_zero_bound_is_feasible): `h == 0` calls it infeasible outright",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Gt_GtE", 46, 0):
        "a zero row with a zero bound, 0·θ ≥ 0, holds for every θ (test_lp_feasible_with_a_"
        "zero_row_and_a_zero_bound_is_feasible): the mutant calls it infeasible outright; the "
        "claims' rows are never zero",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Eq_Lt", 45, 1):
        "a zero row with a positive bound is infeasible at any scale (test_lp_feasible_a_"
        "zero_row_with_a_positive_bound_is_infeasible_at_any_scale): `top < 0` finds no "
        "zero row (top ≥ 0), so the row goes to HiGHS with its bound rescaled to ~1e-10",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 45, 15):
        "a zero row with a positive bound is infeasible at any scale (test_lp_feasible_a_"
        "zero_row_with_a_positive_bound_is_infeasible_at_any_scale): `top == -1` finds no "
        "zero row (top ≥ 0), so the row goes to HiGHS with its bound rescaled to ~1e-10, "
        "inside its tolerance of 0",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 46, 16):
        "a zero row with a positive bound is infeasible at any scale (test_lp_feasible_a_"
        "zero_row_with_a_positive_bound_is_infeasible_at_any_scale, 0·θ ≥ 1 or 0.5 beside "
        "θ ≥ 1e10): `h > 1` leaves such a row to HiGHS, which sees its bound rescaled to "
        "~1e-10, inside its tolerance of 0; the claims' rows are never zero",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 56, 27):
        "a zero bound sets no scale, even on a row brought up from 1e-300 (test_lp_feasible_"
        "a_zero_bound_on_a_tiny_row_does_not_set_the_scale; proved on the campaign's code, "
        "where `h != -1` counts the zero bound's exponent, and the fixed code takes c from "
        "h_i > 0 only): the other rows' bounds fall to ~1e-300; the claims' rows are of "
        "order one",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Gt_NotEq", 46, 0):
        "a zero row with a negative bound, 0·θ ≥ −1e8, holds for every θ (test_lp_feasible_"
        "is_not_rescaled_by_rows_that_hold_at_zero, whose θ ∈ [1, 2] beside it is "
        "feasible): `h != 0` calls it infeasible outright; the claims' rows are never zero",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Gt_Lt", 46, 0):
        "a zero row with a negative bound holds for every θ, one with a positive bound never "
        "(test_lp_feasible_is_not_rescaled_by_rows_that_hold_at_zero, 0·θ ≥ −1e8 beside a "
        "feasible interval): `h < 0` swaps the two; the claims' rows are never zero",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Lt", 56, 3):
        "bounds that are all positive are brought to order one too (test_lp_feasible_brings_"
        "tiny_positive_bounds_to_order_one, θ ≥ s, θ ≤ −s at s = 1e-300; proved on the "
        "campaign's code): `np.any(h < 0)` leaves them unscaled, inside HiGHS's tolerance "
        "of 0; the claims' h is all ones, already of order one",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_GtE", 56, 2):
        "neither a zero bound nor an h of negative entries only sets the scale (test_lp_"
        "feasible_with_only_negative_bounds_is_feasible, test_lp_feasible_a_zero_bound_on_"
        "a_tiny_row_does_not_set_the_scale; proved on the campaign's code): `h >= 0` "
        "counts the zero bound's exponent, and takes the max of no exponents when every "
        "h_i < 0",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Gt", 56, 3):
        "an h of negative entries only is feasible, also 1e-300·θ ≥ −1e300 (test_lp_"
        "feasible_with_only_negative_bounds_is_feasible; proved on the campaign's code): "
        "`np.any(h > 0)` leaves such an h unscaled, and the row brought to order one puts "
        "its bound past float64 (an overflow); the claims' h is all ones",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Gt", 56, 2):
        "an h with every entry negative is feasible at θ = 0 (test_lp_feasible_with_only_"
        "negative_bounds_is_feasible): the mutant takes the max of the positive entries' "
        "exponents, none (campaign code; lp_feasible now returns True before the rescaling "
        "when no h_i > 0, and takes c from the positive entries, as this mutant did); the "
        "claims' h is all ones",
    # -- assumption4: _a4_slack's NumPy re-check of HiGHS's dual, which HiGHS's answers on the
    # claims' data pass by orders of magnitude, and highs' fallback, which they never need
    **{("assumption4", "_a4_slack", op, 109, occ):
       "the stationarity allowance is 1e-7 (Σ|a| + 1) max|A| (test_assumption4_stationarity_"
       "allowance_scales_with_the_multipliers_and_rows: a certificate faked to 0.95 of it on "
       "rows with max|A| = 1/√2 passes, one at 1.1 of it is refused): the mutant drops the "
       "+1 or divides by max|A|; HiGHS's certificates on the claims' data re-check to ~1e-16"
       for op, occ in (("core/NumberReplacer", 55), ("core/ReplaceBinaryOperator_Mul_Div", 0),
                       ("core/ReplaceBinaryOperator_Add_Mul", 1))},
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 148, 78):
        "a row is brought to order one by its largest entry before its norm is taken, also "
        "when that entry is below 1 (test_assumption4_of_rows_whose_squared_norms_underflow_"
        "is_that_of_their_directions, entries ~1e-315): `top > 1` leaves such rows as they "
        "are, their norms underflow to 0 and they are not normalised; the claims' rows are "
        "unit rows",
    ("assumption4", "assumption4_lp", "core/ReplaceBinaryOperator_Div_Add", 155, 3):
        "rows whose norms pass float64 are taken by their direction (test_assumption4_of_"
        "rows_whose_norms_overflow_is_that_of_their_directions): `Y + ‖Y‖` is no direction",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Gt_Eq", 112, 3):
        "a duality gap past its allowance is refused (test_assumption4_refuses_a_duality_gap_"
        "past_its_allowance): `==` refuses only a gap exactly on it",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Add_Mul", 112, 2):
        "a multiplier may be negative down to −1e-9 (1 + max a) (test_assumption4_dual_"
        "feasibility_allowance_is_relative_to_the_largest_multiplier, one at 0.75 of it with "
        "max a = 1): the mutant's −1e-9·(1·max a) refuses it",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Add_Div", 109, 1): (
        "the stationarity allowance is 1e-7 (Σ|a| + 1) max|A| (test_assumption4_stationarity_"
        "allowance_scales_with_the_multipliers_and_rows: a certificate faked to 0.95 of it "
        "passes): the mutant's Σ|a| / 1 drops the +1 and refuses it; HiGHS's certificates "
        "on the claims' data re-check to ~1e-16"),
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Gt_GtE", 112, 3):
        "the duality-gap allowance 1e-7 (1 + |z·x_j|) includes its bound (test_assumption4_"
        "duality_gap_allowance_is_inclusive, an answer faked to a gap of exactly the bound): "
        "the mutant refuses it; HiGHS's gaps on the claims' data are ~1e-16",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Gt_GtE", 111, 2):
        "the stationarity allowance includes its bound (test_assumption4_stationarity_"
        "allowance_is_inclusive, a dual faked to a residual of exactly the bound): the "
        "mutant refuses it; HiGHS's residuals on the claims' data are ~1e-16",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Gt_GtE", 104, 1):
        "a status-2 slack LP is a strict violation only if the feasibility LP's z has "
        "z·x_j > 0 (test_assumption4_status_2_needs_a_z_strictly_positive_on_the_point, "
        "HiGHS made to answer status 2 and z with z·x_j = 0 exactly): the mutant returns "
        "slack −1 on an answer that contradicts itself; HiGHS's z on the claims' data are "
        "never exactly orthogonal to the point",
    **{("assumption4", "_a4_slack", op, 112, occ):
       "a multiplier may be negative by rounding down to −1e-9 (1 + max a) (test_assumption4_"
       "dual_feasibility_allowance_is_relative_to_the_largest_multiplier: one faked to 0.75 "
       "of it passes, 1.25 of it is refused): the mutant's −1e-9/(1 + max a) or −1e-9·max a "
       "refuses the first; HiGHS's multipliers on the claims' data are ≥ 0 or −1e-16"
       for op, occ in (("core/ReplaceBinaryOperator_Mul_Div", 3), ("core/NumberReplacer", 71))},
    **{("assumption4", "_a4_slack", op, 112, occ):
       "a duality gap past 1e-7 (1 + |z·x_j|) is refused (test_assumption4_refuses_a_"
       "duality_gap_past_its_allowance, HiGHS's z moved to a gap of 1.25 times it): the "
       "mutant's allowance 1e-7 + 2 or 1e-7 (2 + |z·x_j|) lets it through; HiGHS's gaps on "
       "the claims' data are ~1e-16"
       for op, occ in (("core/ReplaceBinaryOperator_Mul_Add", 4), ("core/NumberReplacer", 74))},
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Mul_Div", 112, 4):
        "the duality-gap allowance grows with the optimum, 1e-7 (1 + |z·x_j|) (test_"
        "assumption4_duality_gap_allowance_is_inclusive: a gap of ≈ 2e-7 at |z·x_j| ≈ 1 "
        "passes): the mutant's 1e-7 / (1 + |z·x_j|) ≈ 5e-8 refuses it; HiGHS's gaps on the "
        "claims' data are ~1e-16",
    ("assumption4", "assumption4_lp", "core/AddNot", 153, 14):
        "rows whose norms pass float64 are taken by their direction (test_assumption4_of_"
        "rows_whose_norms_overflow_is_that_of_their_directions): `not np.any(past)` skips "
        "them, leaving rows divided by an infinite norm, i.e. zero",
    **{("assumption4", "assumption4_lp", op, 155, 3):
       "rows whose norms pass float64 are taken by their direction (test_assumption4_of_"
       "rows_whose_norms_overflow_is_that_of_their_directions): `Y · ‖Y‖` or `Y − ‖Y‖` is "
       "no direction"
       for op in ("core/ReplaceBinaryOperator_Div_Mul", "core/ReplaceBinaryOperator_Div_Sub")},
    **{("assumption4", "assumption4_lp", op, 155, occ):
       "rows whose norms pass float64 are taken by their direction, each row by its own "
       "norm (test_assumption4_of_rows_whose_norms_overflow_is_that_of_their_directions: "
       "five such rows against the same rows scaled by 2^-1000): `keepdims=False` divides "
       "by the wrong axis or fails to broadcast, `axis=0` by column norms; the claims' rows "
       "are unit rows" for op, occ in (("core/ReplaceTrueWithFalse", 3),
                                       ("core/NumberReplacer", 91))},
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Lt_Eq", 112, 0):
        "a multiplier below −1e-9 (1 + max a) is refused (test_assumption4_dual_feasibility_"
        "allowance_is_relative_to_the_largest_multiplier, one at 1.25 of it): `==` refuses "
        "only one exactly on the bound",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 112, 72):
        "a duality gap past 1e-7 (1 + |z·x_j|) is refused (test_assumption4_refuses_a_"
        "duality_gap_past_its_allowance): the mutant's allowance 1.0000001 (1 + |z·x_j|) "
        "lets any gap below 2 through",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 104, 48):
        "a z with z·x ≥ 1 on the other class and z·x_j > 0 is a violation at j by itself, "
        "whatever the slack LP's status (test_assumption4_status_2_with_a_z_positive_on_the_"
        "point_is_a_strict_violation, z·x_j = 1/2 after a status 2): `> 1` makes it a "
        "SolverError; HiGHS's answers on the claims' data never contradict each other",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Mul_Pow", 109, 0):
        "the stationarity allowance is 1e-7 (Σ|a| + 1) max|A| (test_assumption4_stationarity_"
        "allowance_scales_with_the_multipliers_and_rows, max|A| = 1/√2: a residual at 1.1 "
        "of it is refused): the mutant's (Σ|a| + 1)^max|A| ≈ 1.63 instead of 1.41 lets it "
        "through; with unit axis rows (max|A| = 1) the two agree",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Mul_Div", 111, 2):
        "the stationarity allowance is 1e-7 times (Σ|a| + 1) max|A| (test_assumption4_"
        "stationarity_allowance_scales_with_the_multipliers_and_rows: a residual at 0.95 of "
        "it passes): the mutant's 1e-7 / ((Σ|a| + 1) max|A|) refuses it",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Eq_GtE", 104, 4):
        "a status-2 slack LP's witness comes from the feasibility LP only when that LP "
        "succeeded (test_assumption4_status_2_needs_a_feasibility_lp_that_succeeded, both "
        "made status 2): `inside.status >= 0` takes the z of a failed LP as a witness",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Eq_LtE", 102, 3):
        "one HiGHS LP per point, as documented (test_assumption4_solves_one_lp_per_point, "
        "which watches the calls): `res.status <= 2` also solves the feasibility LP after "
        "every successful slack LP; its z·x_j > 0 only where the slack LP's optimum is "
        "already 1 (slack −1), so the claims' verdicts do not change",
    ("assumption4", "assumption4_lp", "core/ReplaceComparisonOperator_Eq_GtE", 157, 5):
        "labels may start with −1 (test_assumption4_takes_the_classes_in_either_order): "
        "`y >= y[0]` holds for every label when y[0] = −1, so the mutant calls a two-class "
        "set one-class; the claims' sets start with a +1",
    ("assumption4", "_a4_slack", "core/ReplaceOrWithAnd", 112, 1):
        "a multiplier below −1e-9 (1 + max a) alone is enough to refuse (test_assumption4_"
        "dual_feasibility_allowance_is_relative_to_the_largest_multiplier, one at 1.25 of "
        "it with the gap inside its allowance): the mutant refuses only when the gap fails "
        "too",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Mul_Add", 109, 0):
        "the stationarity allowance is 1e-7 (Σ|a| + 1) max|A| (test_assumption4_stationarity_"
        "allowance_scales_with_the_multipliers_and_rows, max|A| = 1/√2: a residual at 1.1 of "
        "it is refused): the mutant's (Σ|a| + 1) + max|A| lets it through",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 112, 68):
        "a multiplier below −1e-9 (1 + max a) is refused (test_assumption4_dual_feasibility_"
        "allowance_is_relative_to_the_largest_multiplier, one at 1.25 of it): the mutant's "
        "−1.000000001 (1 + max a) allows multipliers down to about −2",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Eq_GtE", 102, 3):
        "only a status-2 slack LP is checked against the feasibility LP; status 4 leaves "
        "the point undecided (test_assumption4_a_slack_lp_of_status_4_is_undecided): "
        "`res.status >= 2` takes a status-4 answer for a violation; HiGHS's slack LPs on "
        "the claims' data end in 0 (or 2, on deep points)",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 112, 75):
        "the duality-gap allowance is 1e-7 (1 + |z·x_j|) (test_assumption4_duality_gap_"
        "allowance_is_inclusive: a gap of ≈ 2e-7 at |z·x_j| ≈ 1 passes): the mutant's "
        "1e-7 (0 + |z·x_j|) ≈ 1e-7 refuses it",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Lt_LtE", 112, 0):
        "a multiplier exactly on −1e-9 (1 + max a) is allowed (test_assumption4_dual_"
        "feasibility_allowance_is_inclusive, a dual faked to it): `<=` refuses it",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Mul_Sub", 112, 3):
        "a multiplier below −1e-9 (1 + max a) is refused (test_assumption4_dual_feasibility_"
        "allowance_is_relative_to_the_largest_multiplier, one at 1.25 of it): the mutant's "
        "−1e-9 − (1 + max a) allows multipliers down to about −2",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Mul_Sub", 109, 0):
        "the stationarity allowance is 1e-7 (Σ|a| + 1) max|A| (test_assumption4_stationarity_"
        "allowance_scales_with_the_multipliers_and_rows, max|A| = 1/√2: a residual at 0.95 "
        "of it passes): the mutant's (Σ|a| + 1) − max|A| ≈ 1.29 instead of 1.41 refuses it",
    ("assumption4", "assumption4_lp", "core/ReplaceBinaryOperator_Mul_Div", 117, 5):
        "margin is keyword-only (test_assumption4_margin_is_keyword_only): `/` makes it "
        "positional too (and X, y positional-only); every caller passes margin by keyword "
        "or not at all",
    ("convex", "solve_eq8", "core/ReplaceBinaryOperator_Mul_Div", 93, 4):
        "solve_eq8's solver is keyword-only (test_solve_eq8_solver_is_keyword_only): every "
        "caller passes it by keyword or not at all",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 112, 70):
        "a multiplier below −1e-9 (1 + max a) is refused (test_assumption4_dual_feasibility_"
        "allowance_is_relative_to_the_largest_multiplier, one at 1.25 of it): the mutant's "
        "−1e-9 (2 + max a) allows it",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 104, 49):
        "a status-2 slack LP is a violation only with a z strictly positive on x_j (test_"
        "assumption4_status_2_needs_a_z_strictly_positive_on_the_point, z·x_j = 0): "
        "`> -1` takes z·x_j = 0 for a violation",
    ("assumption4", "_a4_slack", "core/NumberReplacer", 109, 54):
        "the stationarity allowance is 1e-7 (Σ|a| + 1) max|A| (test_assumption4_stationarity_"
        "allowance_scales_with_the_multipliers_and_rows: a residual at 1.1 of it is "
        "refused): the mutant's (Σ|a| + 2) max|A| lets it through",
    ("assumption4", "assumption4_lp", "core/ReplaceComparisonOperator_GtE_Gt", 171, 0):
        "holds means every slack ≥ margin, the bound included (test_assumption4_holds_at_a_"
        "slack_equal_to_the_margin: ±e1, slacks exactly 1, margin 1): `>` fails it; the "
        "claims use the default margin 1e-7, never met exactly",
    ("assumption4", "assumption4_lp", "core/ReplaceBinaryOperator_Mul_Div", 176, 11):
        "the witness is 1 on the other class of the points as given (test_assumption4_"
        "witness_is_one_on_the_other_class_of_the_points_as_given, rows scaled by 1, 3, 2): "
        "`X / norms` normalises it against rows divided by their norm twice; the claims' "
        "rows are unit rows, where the two agree",
    ("assumption4", "_a4_slack", "core/ReplaceBinaryOperator_Add_Mul", 112, 3):
        "the duality-gap allowance is 1e-7 (1 + |z·x_j|) (test_assumption4_duality_gap_"
        "allowance_is_inclusive: a gap of ≈ 2e-7 at |z·x_j| ≈ 1 passes): the mutant's "
        "1e-7 (1·|z·x_j|) ≈ 1e-7 refuses it",
    ("assumption4", "highs", "core/ReplaceComparisonOperator_Eq_LtE", 26, 0):
        "the interior-point method runs only after the simplex ends with status 4, as "
        "documented (test_highs_runs_the_interior_point_method_only_after_status_4, which "
        "watches linprog): the mutant re-solves every LP with it, whose answers re-check "
        "and decide the same on the claims' data",
    # -- kkt: kkt_certificate's kink count, which thm6.1 does not read
    **{("kkt", "kkt_certificate", op, 256, occ):
       "n_kinks counts |w_j·x_i| ≤ KINK_TOL ‖w_j‖‖x_i‖, as documented (test_kkt_certificate_"
       "counts_the_pre_activations_on_the_kink_by_its_definition, against a loop: pairs "
       "exactly on the kink, within the tolerance and ten times past it): `==` and "
       "KINK_TOL − ‖w‖‖x‖ < 0 count none, KINK_TOL ** (‖w‖‖x‖) and KINK_TOL / (‖w‖‖x‖) "
       "wider bands (the unit-norm W's rows are shorter than 1); no claim reads n_kinks"
       for op, occ in (("core/ReplaceComparisonOperator_LtE_Eq", 6),
                       ("core/ReplaceBinaryOperator_Mul_Pow", 13),
                       ("core/ReplaceBinaryOperator_Mul_Sub", 13),
                       ("core/ReplaceBinaryOperator_Mul_Div", 13))},
    **{("kkt", "_report", "core/NumberReplacer", line, occ):
       "distance is the duality gap at μ⁺ = max(μ, 0), as documented (test_qp_kkt_report_"
       "distance_is_the_duality_gap_at_the_clipped_multipliers, f(θ) − g(μ⁺) evaluated "
       "from the definition, with μ = −1/2 on an inactive row): `max(μ, −1)` keeps the "
       "negative multiplier in the gap (its first term, or its ½‖Gᵀμ⁺ − θ‖²); the claims' "
       "multipliers are ≥ 0 (solve_qp clips them)" for line, occ in ((131, 49), (130, 47))},
    ("kkt", "kkt_certificate", "core/ReplaceComparisonOperator_LtE_Lt", 256, 6):
        "the kink band is closed (test_kkt_certificate_counts_a_pre_activation_exactly_on_"
        "the_kink_tolerance, a pair exactly on KINK_TOL ‖w‖‖x‖ at the unit-norm W): `<` "
        "leaves it out; no claim reads n_kinks",
    ("kkt", "kkt_certificate", "core/ReplaceBinaryOperator_Mul_Div", 204, 8):
        "alpha is keyword-only (test_kkt_certificate_alpha_is_keyword_only): `/` makes it "
        "positional too; every caller passes it by keyword",
    ("convex", "svm_no_bias", "core/ReplaceBinaryOperator_Mul_Div", 36, 0):
        "svm_no_bias's solver is keyword-only (test_svm_no_bias_solver_is_keyword_only): "
        "every caller passes it by keyword or not at all",
    ("convex", "nar_program", "core/ReplaceBinaryOperator_Mul_Div", 189, 12):
        "nar_program's k, v and solver are keyword-only (test_nar_program_k_is_keyword_"
        "only): every claim and kit call passes them by keyword",
    ("convex", "nar_program", "core/NumberReplacer", 189, 42):
        "k defaults to 1 (test_nar_program_defaults_to_one_neuron_per_type: W (2, 1) and the "
        "optimum w = −u = 2/3 derived by hand): every claim and kit call passes k",
    ("kkt", "kkt_certificate", "core/ReplaceBinaryOperator_Div_Mul", 264, 10):
        "the multipliers minimise the documented objective, complementarity rows weighted "
        "(q_i − 1)/‖W‖ (test_kkt_certificate_multipliers_minimise_the_documented_objective: "
        "the objective from its definition, minimised over every support of λ, at a W with "
        "‖W‖ ≈ 1.25 that is not a KKT direction): `· ‖W‖` weighs them ‖W‖² ≈ 1.6 times "
        "more; thm6.1 reads only the largest residual, loosely",
    ("kkt", "_report", "core/NumberReplacer", 134, 57):
        "dual feasibility is 0 at an exact KKT pair whose multipliers are all positive "
        "(test_qp_kkt_report_of_an_exact_kkt_pair_with_every_multiplier_positive_is_zero): "
        "`max(−μ, −1)` makes it negative there (−min μ_i ‖G_i‖/‖θ‖); the claims' multipliers "
        "include zeros, where the max is 0 either way, and a negative value still passes ok()",
    ("kkt", "_report", "core/NumberReplacer", 133, 53):
        "feasibility is 0 at a strictly feasible θ (test_qp_kkt_report_feasibility_of_a_"
        "strictly_feasible_theta_is_zero): `max(−slack, −1)` makes it negative there; the "
        "claims' answers have active rows (slack 0, where the max is 0 either way), and a "
        "negative value still passes ok()",
    ("kkt", "kkt_certificate", "core/ReplaceComparisonOperator_Gt_GtE", 250, 0):
        "σ'(0) = α, as documented (test_kkt_certificate_multipliers_minimise_the_documented_"
        "objective, its case with u·x1 = 0 exactly: the multipliers against the objective "
        "built with that convention): `Z >= 0` takes σ'(0) = 1; the claims' W have no "
        "pre-activation exactly 0",
    ("kkt", "kkt_certificate", "core/NumberReplacer", 253, 99):
        "a min margin of exactly 0 is refused by name, rule and value (test_kkt_certificate_"
        "refuses_a_margin_of_exactly_zero): `q.min() > -1` lets it through to a division by 0",
    ("kkt", "_report", "core/NumberReplacer", 133, 55):
        "feasibility divides by max(1, ‖G_i‖‖θ‖), as documented (test_qp_kkt_report_"
        "feasibility_floor_of_one_for_short_rows, θ with ‖G_i‖‖θ‖ ≈ 0.14, against the "
        "formula): `max(0, …)` drops the floor; the claims' answers are feasible (or "
        "‖G_i‖‖θ‖ ≥ 1), where the floor is invisible",
    ("kkt", "kkt_certificate", "core/ReplaceComparisonOperator_Gt_GtE", 253, 1):
        "a min margin of exactly 0 (w = u, N_W ≡ 0) is refused by name, rule and value "
        "(test_kkt_certificate_refuses_a_margin_of_exactly_zero): `q.min() >= 0` lets it "
        "through to a division by 0; the claims' W classify every point with margin > 0",
}

_EIG_FLOOR = (
    "equivalent: the floor under which eigenvalues of yyᵀ∘K leave its factor L, "
    "`evals > 1e-12·λmax` → `> 1e-12^λmax`, `> 1e-12/λmax` or `>= 1e-12·λmax`.  λmax ≥ 1 "
    "(X at unit scale, no row the origin: a diagonal entry (1 + α²)‖x‖² = 1 + α² ≥ 1), so "
    "the mutant's floor is ≤ 1e-12 λmax, and it keeps in addition only eigenvalues "
    "≤ 1e-12 λmax: "
    "the dual's quadratic ½‖Lᵀμ‖² changes by at most 1e-12 λmax ‖μ‖², 1e-12 relative, "
    "four decades below the solvers' tolerances; and what eq8_kernel_dual returns is "
    "re-derived from G and h, not from L (polish's exact KKT pair, or the solver's pair "
    "re-checked against G and h), so no reference sharper than a solver's tolerance "
    "could tell the two apart")

_ZERO_ROW_R = (
    "equivalent since lp_feasible's rescaling was fixed (test_lp_feasible_is_not_rescaled_"
    "by_rows_that_hold_at_zero): a zero row reaches the rescaling only with h_i ≤ 0, which "
    "no longer sets c, so its r (−1 from the stand-in 1.0; 0 or −2 from the mutants' 0.0 "
    "or 2.0) only scales its own bound ĥ_i ≤ 0, and 0·θ ≥ ĥ_i holds for every θ either way "
    "(its row of G stays zero).  On the campaign's code such a row's h_i set c, and this "
    "survivor showed that a zero row with h_i = −1e8 squeezed the other rows into HiGHS's "
    "tolerance")

#: survivors no test can kill -> why they are equivalent
EQUIVALENT: dict = {
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_NotEq_Gt", 35, 0):
        "equivalent: `G.ndim != 2` → `G.ndim > 2` right after check_array(..., min_ndim=2), "
        "which raises for fewer than two axes, so ndim ≥ 2 there and both are ndim > 2 "
        "(the sparse path skips the check in both)",
    **{("assumption4", "lp_feasible", "core/NumberReplacer", 48, occ): _ZERO_ROW_R
       for occ in (18, 19)},
    ("assumption4", "highs", "core/ReplaceComparisonOperator_Eq_GtE", 26, 0):
        "equivalent: `res.status == 4` → `res.status >= 4`; scipy's linprog statuses are "
        "0–4 (an unrecognised HiGHS status is mapped to 4), so ≥ 4 is == 4",
    **{("assumption4", "lp_feasible", "core/NumberReplacer", 56, occ):
       "equivalent: the `else` value is c only when every h_i = 0, and then ĥ = ldexp(0, "
       "r − c) = 0 whatever c (0, or the mutants' −1 or 1), and c is read nowhere else (the "
       "fixed code returns True before the rescaling there: θ = 0 is feasible)"
       for occ in (30, 31)},
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 152, 89):
        "equivalent: `norms[:, 0]` → `norms[:, -1]`; norms is (n, 1) (keepdims=True), so "
        "both index its only column",
    ("assumption4", "assumption4_lp", "core/ReplaceBinaryOperator_Div_Mul", 169, 4):
        "equivalent: `z / m` → `z · m` with m = min_i z·x_i over the other class's unit rows: "
        "zs[j] is read only by the witness, which divides it again by its own minimum over "
        "the points as given, so any positive factor cancels exactly in real arithmetic; "
        "m > 0 (z meets z·x_i ≥ 1 up to HiGHS's 1e-7) and is 1 up to HiGHS's rounding "
        "(its simplex, and its interior-point method with crossover, return a vertex, at "
        "which a row of the other class is active unless d = 1), so nothing overflows or "
        "underflows either way.  The two witnesses are then the same vector up to the "
        "rounding of that renormalisation (seen: ≤ 80 ulps of the largest entry on random "
        "failing sets with ‖z‖ ~ 1e3, where min_i z·x_i = 1 is itself computed with that "
        "error), below anything the documented witness (min_i z·x_i = 1, to rounding) "
        "promises",
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 157, 95):
        "equivalent: `np.all(y == y[0])` → `np.all(y == y[-1])`: every label equals one of "
        "them iff every label equals any other (y is non-empty, checked), and the message "
        "that follows reads y[0] in both",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Eq_LtE", 104, 4):
        "equivalent: `inside.status == 0` → `inside.status <= 0`; scipy's linprog statuses "
        "are 0–4, never negative",
    ("assumption4", "assumption4_lp", "core/ReplaceComparisonOperator_Gt_NotEq", 151, 5):
        "equivalent: `norms > 0` → `norms != 0`; a norm is ≥ 0 or +inf (X is checked "
        "finite, so never NaN), so both pick the rows with a non-zero norm",
    ("assumption4", "lp_feasible", "core/NumberReplacer", 51, 22):
        "equivalent: `diags(ldexp(1, r))` → `diags(ldexp(2, r))` doubles every row of the "
        "sparse G exactly (a power of two) and leaves ĥ alone: 2Gθ ≥ ĥ is Gθ' ≥ ĥ with "
        "θ' = 2θ, θ free and the cost zero, so the feasible sets map onto each other with "
        "the same row activities and bounds (what HiGHS's tolerances measure); only the "
        "status is read",
    **{("convex", "nar_program", "core/ReplaceBinaryOperator_Mul_Div", 236, occ):
       "equivalent: `v * y * c` → `v / y * c` with y checked to be exactly ±1 "
       "(check_Xy): v/1 = v·1 and v/(−1) = v·(−1) = −v exactly in floating point"
       for occ in (13, 16)},
    **{("convex", "_eq8_features", op, 80, occ):
       "equivalent: `y > 0` → `y > -1` or `y >= 0`; its three calls (solve_eq8's two, "
       "eq8_kernel_dual's) pass y after _eq8_args, whose check_Xy makes it exactly ±1, and "
       "for y ∈ {−1, +1} all three are y = +1"
       for op, occ in (("core/NumberReplacer", 3), ("core/ReplaceComparisonOperator_Gt_GtE", 0))},
    ("convex", "eq8_kernel_dual", "core/NumberReplacer", 165, 26):
        "equivalent: the floor under evals.max() never binds: X is at unit scale (its "
        "largest row norm is 1) and no row is the origin, so yyᵀ∘K has a diagonal entry "
        "(1 + α²)·1 ≥ 1 and its largest eigenvalue is at least 1; max(λ_max, c) = λ_max for "
        "c = 1e-300 or 1.0",
    **{("convex", "eq8_kernel_dual", op, 165, occ): _EIG_FLOOR
       for op, occ in (("core/ReplaceBinaryOperator_Mul_Pow", 9),
                       ("core/ReplaceBinaryOperator_Mul_Div", 9),
                       ("core/ReplaceComparisonOperator_Gt_GtE", 1))},
    **{("convex", "nar_program", op, 235, occ):
       "equivalent: `side > 0` → `side >= 0` or `side > -1` on the sides _check_pattern "
       "returns, exactly +1 or −1 (np.where(is_one, 1.0, -1.0)): all three are side = +1"
       for op, occ in (("core/ReplaceComparisonOperator_Gt_GtE", 2), ("core/NumberReplacer", 55),
                       ("core/NumberReplacer", 51))},
    ("assumption4", "assumption4_lp", "core/ReplaceComparisonOperator_Gt_NotEq", 148, 4):
        "equivalent: `top > 0` → `top != 0`; top is a largest absolute value, ≥ 0, so both "
        "pick the non-zero rows",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Eq_LtE", 61, 2):
        "equivalent: `res.status == 0` → `res.status <= 0` right after the statuses other "
        "than 0 and 2 raise, and linprog's statuses are never negative",
    ("assumption4", "lp_feasible", "core/ReplaceComparisonOperator_Eq_LtE", 45, 1):
        "equivalent: `top == 0` → `top <= 0`; top is a largest absolute value, ≥ 0",
    ("kkt", "kkt_certificate", "core/NumberReplacer", 260, 104):
        "equivalent: `reshape(-1, n)` → `reshape(-2, n)`; NumPy (2.4.6 here) takes any "
        "negative dimension of reshape as the one to infer, without a warning, so both give "
        "(2k·d, n)",
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 148, 80):
        "equivalent: the stand-in largest entry of a zero row, 1.0 → 2.0: the row is 0, so "
        "X_in/top is 0 and its norm top·0 = 0 either way, and a zero norm is replaced by 1 "
        "before dividing, leaving the row 0",
    **{("kkt", "kkt_certificate", "core/NumberReplacer", 274, occ):
       "equivalent: `max(0, 1 − min q)` → `max(−1, 1 − min q)` or `max(0, 0 − min q)`: q "
       "has just been divided by γ = q.min(), so its argmin is γ/γ = 1.0 exactly (IEEE "
       "division) and every other q_i/γ ≥ 1 (q_i ≥ γ and correctly rounded division is "
       "monotone); min q is exactly 1, so both the original and the mutants give 0"
       for occ in (119, 121)},
    ("kkt", "kkt_certificate", "core/ReplaceBinaryOperator_Mul_Div", 252, 11):
        "equivalent: `v * sgn` → `v / sgn` with sgn = np.repeat([1.0, -1.0], k), exactly "
        "±1: v/1 = v·1 and v/(−1) = −v exactly",
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 159, 97):
        "equivalent: the one-class message's `y[0]` → `y[-1]`; it is reached only when "
        "every label equals y[0], so y[-1] is the same label",
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 151, 86):
        "equivalent: the stand-in for a zero norm, 1.0 → 2.0, divides only rows whose norm "
        "is 0, i.e. zero rows, and 0/1 = 0/2 = 0",
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_NotEq_Gt", 106, 4):
        "equivalent: `res.status != 0` → `res.status > 0`; scipy's linprog maps every HiGHS "
        "outcome to a status in 0–4 (an unrecognised one to 4), never a negative one",
    ("assumption4", "lp_feasible", "core/ReplaceUnaryOperator_Delete_USub", 58, 1):
        "equivalent: `highs(0, G, −h)` asks Gθ ≤ −h, i.e. G(−θ) ≥ h, instead of Gθ ≥ h: θ is "
        "free and the cost zero, so θ ↦ −θ maps one feasible set onto the other, and only "
        "the status (feasible or not) is read; negation is exact, so HiGHS is handed the "
        "same numbers up to the sign of every column (the sparse G as well)",
}
