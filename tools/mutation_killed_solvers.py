"""Kill reasons for the survivors of the population pass over assumption4, convex and kkt
(:mod:`mutation_notes_solvers` merges them): the test written for each, in
``tests/test_mutation_kills_solvers.py``, and why the claims miss it."""

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
