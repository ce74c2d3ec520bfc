"""The survivors of the population pass over the targets assumption4, convex and kkt: kill reasons (the test written
for each, in ``tests/test_mutation_kills_solvers.py``) and equivalence reasons, keyed like
:mod:`mutation_notes`: (target, function, operator, line[, occurrence]); merged into
:data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

from mutation_killed_solvers import KILLED_BY  # noqa: F401  (merged by the population notes)

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

#: today's lp_feasible (target lp-feasible, judged after the fix of its rescaling)
_LPF = ("lp-feasible", "lp_feasible")
KILLED_BY.update({
    _LPF + ("core/NumberReplacer", 53, 24):
        "a sparse G's rows are scaled by the same powers of two as a dense G's "
        "(test_lp_feasible_scales_a_sparse_G_exactly_as_a_dense_one: θ ≥ 1 and θ ≤ 1 − 1.5e-7 "
        "is infeasible either way): the mutant scales every sparse row by one more factor 2 "
        "than h, which loosens HiGHS's tolerance twice over; the claims' sparse programs are "
        "never within a few tolerances of infeasible",
})
EQUIVALENT.update({
    _LPF + ("core/ReplaceComparisonOperator_NotEq_Gt", 35, 0):
        "equivalent: `G.ndim != 2` → `G.ndim > 2` right after check_array(..., min_ndim=2), "
        "which raises for fewer than two axes (as for the assumption4 pass's line 35)",
    _LPF + ("core/NumberReplacer", 50, 20):
        "equivalent: the stand-in exponent of a zero row (2.0 for 1.0) is read only for that "
        "row, which reaches the rescaling only with h_i ≤ 0 (h_i > 0 returned False before): "
        "its row of G stays zero, and its bound ĥ_i = ldexp(h_i, ·) stays ≤ 0 and is not "
        "among the positive entries that set c, so 0·θ ≥ ĥ_i holds for every θ either way",
    _LPF + ("core/NumberReplacer", 62, 30):
        "equivalent: the cap on a scaled bound, 2^100 or 2^101 below the row's exponent: it "
        "binds only for ĥ_i < −2^99 (h_i < 0; the positive ĥ are ≤ 1 after the scale c), and "
        "either capped value is below −1e20, HiGHS's infinite bound, so the row is free "
        "either way (and holds at every θ, as it did before the cap)",
    _LPF + ("core/NumberReplacer", 62, 31):
        "equivalent: the cap 2^99 for 2^100, as for the cap 2^101: either capped value is "
        "below −1e20 (−2^98 at least in magnitude), HiGHS's infinite bound, so the row is free",
    _LPF + ("core/NumberReplacer", 50, 21):
        "equivalent: the stand-in 0.0 for 1.0 gives a zero row exponent 0 for −1, read only "
        "for that row, whose G stays zero and whose bound stays ≤ 0 (as for the stand-in 2.0)",
    _LPF + ("core/ReplaceComparisonOperator_Eq_LtE", 45, 1):
        "equivalent: `top == 0` → `top <= 0` for top, the largest |G_ij| of a row: never "
        "negative, and never NaN (a dense G is checked finite; the sparse programs of "
        "linteach.convex are built from checked data)",
    _LPF + ("core/ReplaceComparisonOperator_Eq_LtE", 66, 2):
        "equivalent: `res.status == 0` → `res.status <= 0`; scipy's linprog reports statuses "
        "0–4 only, never a negative one",
    _LPF + ("core/ReplaceUnaryOperator_Delete_USub", 63, 1):
        "equivalent: `highs(0, −G, −h)` asks −Gθ ≤ −h, i.e. Gθ ≥ h; the mutant asks Gθ ≤ −h, "
        "i.e. G(−θ) ≥ h: θ is free and the cost zero, so θ ↦ −θ maps one feasible set onto "
        "the other, only the status is read, and negation is exact",
})
