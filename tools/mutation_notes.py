"""What the mutation report says about single mutants: the equivalent ones (with the reason),
the ones killed by a test or check written for them, and why the claims miss what they miss.
Read by ``tools/mutate.py report``; keyed by (target, function, operator, line[, occurrence]).
The mutants killed by a test or check written for them are in :mod:`mutation_killed`.
"""
from mutation_killed import KILLED_BY  # noqa: F401  (re-exported for tools/mutate.py)
from mutation_notes_population import EQUIVALENT_POPULATION
from mutation_notes_seams import KILLED_BY_TARGET  # noqa: F401  (re-exported, as KILLED_BY)

#: mutants judged equivalent by reading them (target, function, operator, line) -> reason;
#: each was checked by hand: no input can tell the mutant from the original
EQUIVALENT: dict = {
    ("metrics-radius-regime", "linear_regime", "core/NumberReplacer", 103):
        "equivalent: `[..., 0]` → `[..., -1]` indexes an axis of length 1 (the matrix-vector "
        "product's column), so both pick the same element",
}
_M_GUARD = ("equivalent: the message's `np.log(M) if M > 0 else np.inf` runs only when M is "
            "not finite; the inputs are checked finite and positive, so M is +inf there "
            "(never NaN or negative) and every variant of the condition yields inf")
EQUIVALENT.update({("bounds", "sgd_update_bound", op, 119): _M_GUARD for op in (
    "core/ReplaceComparisonOperator_Gt_NotEq", "core/ReplaceComparisonOperator_Gt_Lt",
    "core/ReplaceComparisonOperator_Gt_LtE", "core/ReplaceComparisonOperator_Gt_GtE",
    "core/ReplaceComparisonOperator_Gt_Eq",
    "core/NumberReplacer", "core/AddNot")})
EQUIVALENT[("bounds", "sgd_update_bound", "core/ReplaceComparisonOperator_Eq_LtE", 98)] = (
    "equivalent: `alpha == 0.0` → `alpha <= 0.0` right after check_alpha, which rejects "
    "alpha < 0")
EQUIVALENT[("verdict", "audit", "core/NumberReplacer", 192)] = (
    "equivalent: the value put in place of a non-finite reference in the allowance never "
    "matters: there the error is 0 (equal infinities) or inf (anything else), so the ratio "
    "is 0 or inf whatever the allowance")
EQUIVALENT[("verdict", "audit", "core/ReplaceComparisonOperator_Eq_LtE", 194)] = (
    "equivalent: `err == 0` → `err <= 0`; err is an absolute value, 0 or inf, never negative")
EQUIVALENT[("verdict", "audit", "core/NumberReplacer", 205)] = (
    "equivalent: 1e300 ± 1 is 1e300 in float64 (the floor put under an infinite slack)")
EQUIVALENT[("verdict", "record", "core/ReplaceComparisonOperator_Eq_LtE", 156)] = (
    "equivalent: `arr.size == 0` → `arr.size <= 0`; an array size is never negative")
EQUIVALENT[("loss-core", "_log_ell", "core/ReplaceComparisonOperator_Gt_GtE", 105)] = (
    "equivalent: `q > 30` → `q >= 30` changes the branch only at q = 30.0 exactly, where the "
    "series −q − e^{−q}/2 and log(log(1 + e^{−q})) round to the same float64 (both are the "
    "correctly rounded value, checked against 50 digits in test_log_ell_is_correctly_rounded_"
    "on_both_sides_of_the_series_switch, which includes q = 30)")
EQUIVALENT[("loss-core", "_log_ell", "core/NumberReplacer", 106)] = (
    "equivalent: the value put in place of a far margin in the near branch is discarded by the "
    "final `np.where`; any small number (0, ±1) keeps that unused branch finite and warning-"
    "free")
EQUIVALENT[("loss-core", "_logsumexp", "core/NumberReplacer", 133)] = (
    "equivalent: `m[..., 0]` → `m[..., -1]` indexes the keepdims axis of length 1, so both "
    "pick the same element")
_LAST_AXIS = ("equivalent: `losses` and `q` are always (runs, n) here (the runs are flattened "
              "before the loop), so axis 1 and axis −1 are the same axis")
EQUIVALENT.update({("train-sgd-trace", "epoch_row", op, line): _LAST_AXIS
                   for op in ("core/ReplaceUnaryOperator_USub_UAdd",
                              "core/ReplaceUnaryOperator_Delete_USub") for line in (106, 107)})
EQUIVALENT[("train-sgd", "_sgd_loop", "core/ReplaceUnaryOperator_USub_UAdd", 159)] = (
    "equivalent: the mistakes are summed over `.reshape(R, n)`, a 2-D array, whose axis 1 is "
    "its axis −1")
EQUIVALENT.update({("train-sgd", "_sgd_loop", "core/NumberReplacer", line): (
    "equivalent: `[0]` → `[-1]` in the `R == 1` branch, on `Wf`, `scratch`, `Xp`, `yp` or "
    "`ex`, each with a leading run axis of length R = 1: index −1 is index 0")
    for line in (135, 136)})
_PRIVATE_SIGNATURE = ("equivalent: `*` → `/` in the signature of a private function: its "
                      "callers pass every argument after the marker by keyword, which a "
                      "positional-only marker allows as well, so no call can tell them apart")
EQUIVALENT[("train-sgd", "_sgd_loop", "core/ReplaceBinaryOperator_Mul_Div", 101)] = \
    _PRIVATE_SIGNATURE
EQUIVALENT[("train-sgd", "_sgd_loop", "core/ReplaceComparisonOperator_Eq_LtE", 134)] = (
    "equivalent: `R == 1` → `R <= 1`; R ≥ 1 always (`sgd` refuses an empty `W`)")
EQUIVALENT[("kernels", "Fused.sgd_update", "core/AddNot", 248)] = (
    "equivalent: the two branches of the batched update, `W += sa * ex` and the einsum into "
    "the scratch, form the same single products sa_j·ex_l (the contracted axis has length 1: "
    "no sums, so no rounding order), so swapping which one runs changes no bit")
_LENGTH_ONE = ("equivalent: `[..., 0]` → `[..., -1]` on an axis of length 1 (a_col's trailing "
               "column axis): both pick the same element")
EQUIVALENT[("kernels", "Fused.sgd_update", "core/NumberReplacer", 233)] = _LENGTH_ONE
_SCRATCH = ("equivalent: whether an SGD update forms its products in the scratch `out` "
            "(einsum) or not (broadcasting) changes no bit: each entry is one product "
            "sa_j·ex_l, the contracted axis has length 1 (tests/test_perf_equivalence.py "
            "compares both paths bit for bit)")
EQUIVALENT.update({("kernels", "Fused.sgd_update", op, 227): _SCRATCH for op in (
    "core/ReplaceComparisonOperator_Lt_Eq", "core/ReplaceComparisonOperator_Lt_GtE")})
EQUIVALENT[("kernels", "grad_over_loss", "core/ReplaceComparisonOperator_Lt_LtE", 146)] = (
    "equivalent: `top < −300` → `top <= −300` differs only when the largest log weight is "
    "exactly −300.0, and there only by rounding: the weights are then e^{log w + 300} with "
    "the log norm corrected by −300 instead of e^{log w} (ratios equal to ~1 ulp; the step "
    "uses only the direction)")
EQUIVALENT[("kernels", "frobenius", "core/ReplaceComparisonOperator_LtE_Eq", 169)] = (
    "equivalent: marking a safe run unsafe sends it through the power-of-two-scaled sum, "
    "which returns the same float where the plain sum was safe (the scaling is exact, and "
    "sqrt(s·4^-e)·2^e = sqrt(s)); test_frobenius_is_the_plain_sum_of_squares_where_that_is_"
    "safe passes on the mutant")
EQUIVALENT[("kernels", "Fused.sgd_update", "core/NumberReplacer", 241, 129)] = (
    "equivalent: the pre-activations handed to `active` on the batched recheck path are read "
    "only by its own `_trusted(Z)` test (elementwise, then `all`), which fails again there: "
    "their axis order, (R, 2k, 1) or (R, 1, 2k), never matters")
EQUIVALENT[("loss-scaled", "scaled_loss_terms", "core/ReplaceComparisonOperator_Lt_LtE", 219)] = (
    "equivalent: `q_hat < 0` → `q_hat <= 0` adds only q̂ = 0, where t = log|q| = −inf fails "
    "the other condition `t > 40`")
EQUIVALENT[("loss-scaled", "smoothed_margin_scaled", "core/NumberReplacer", 243)] = (
    "equivalent: the direct γ̃ is discarded wherever lead > 0 (the final `np.where`); for "
    "0 < lead ≤ 1 it is formed from `rest` (≤ log n, finite and silent) instead of −30")
EQUIVALENT[("loss-scaled", "_log_expm1_exp", "core/ReplaceComparisonOperator_Lt_LtE", 159)] = (
    "equivalent: `log_x < −20` → `<=` adds only log x = −20.0 exactly, where the series "
    "log x + x/2 (error O(x²) ≈ 4e-18 on a value of −20) and log(−expm1(−x)) + x both round "
    "to the correctly rounded value")
#: why the claims miss what they miss (the report's "What the claims miss" section)
NOTES: list = [
    "train-sgd-trace: thm4.1 and appK read only the trace's `mistakes`; they recompute every "
    "loss they check from their own monitor of the updates, so the trace's `loss`, `max_loss` "
    "and `min_margin` are seen by tests only.",
    "bounds-formulas: every thm4.1 data set is scaled to max ‖x‖ = 1, so R_x² and 1/R_x² "
    "agree on all of them; a test at R_x = 1.3 sees it.",
    "loss-core: `log_g` is called by no claim and no engine path (the trainers and the audits "
    "use `g` and `scaled_loss_terms`), so only its tests can see it.  `far = q == 30` sends "
    "margins past 30 through log(log(1 + e^{−q})), which stays accurate until ℓ underflows "
    "near q ≈ 745; where the engine uses `_log_ell` (a log-sum-exp over a run with some "
    "margin ≤ 30) a term below e^{−745} is a zero of the sum anyway, so only `log_ell` "
    "itself shows the −inf.  The series' sign and factor (10–24 ulps) are "
    "below every claim's tolerance: a test pins them against 50 digits.",
    "train-flow: no claim's flow takes a step over which ‖∇L‖ moves by less than 1e-8 "
    "(relative), so the logarithmic mean's series branch of a step's time ran only in "
    "tests until the flow audit replayed a turn of 1e-12 per step; no claim read the gd "
    "trace's log time per row (the audit read the final one only; now every row).  The "
    "callback's W at exactly log‖W‖ = 700 is seen by a test only.",
    "train-sgd: thm4.1 and appK count ε0-mistakes from the filed epochs (`on_epoch`) and "
    "read no update count t, no t0 and no epoch number, so mutants of that bookkeeping "
    "passed every claim; the SGD audit now checks them (and the per-update mistake count "
    "against the replay's margins).  Every claim's runs share one data set: runs on stacked "
    "data sets, one per run, are seen by tests/test_batched.py only.",
    "kernels: every claim's SGD trains a batch of runs, so the one-run update path of "
    "`Fused.sgd_update` (a 2-D W) ran in tests only until the SGD audit trained run 0 alone "
    "too; the claims' weights never come near the underflow range (1e-160 and below), so "
    "the row-scaled sign rechecks and frobenius's scaled branch are seen by tests only; no "
    "claim evaluates ∇L on a single point (`Fused.backward`'s one-point branch) either: the "
    "SGD audit now steps once along it.",
    "bounds: every mutant of `sgd_update_bound` that only the tests kill is an argument "
    "check (a bound of a range moved, e.g. `eta > -1`): the claims pass valid constants "
    "only, so a looser check is invisible to them by design; tests/test_bounds.py rejects "
    "each out-of-range argument.",
    "metrics-radius-regime: the net audit computes r and the band mask on one W at a time "
    "(2-D), where axis 0 of the neuron norms is axis −1 and a dropped keepdims still "
    "broadcasts, so stacked runs are seen by tests only; and it compares the band mask only "
    "at points decidably off the edge |(w̄ − ū)·x| = 2r‖x‖, so `≥` → `>` on the edge (e.g. r = 0 "
    "and x ⟂ w̄ − ū) is seen by tests only.",
    "kkt (a finding about thm6.1's power): thm6.1 still PASSes (quick budget, seed 0) when "
    "kkt_certificate forms its gradient matrix wrong, with σ'(z > 0) = 1 + 2α (worst slack "
    "0.158) or even entrywise v / ∇q (0.568): its KKT clause only bounds the largest "
    "residual by sqrt(2·COS_TOL), and with as many points as weights nearly any matrix "
    "admits multipliers; no engine audit recomputes kkt_certificate (the pattern program's "
    "KKT residuals were audited, not (P)'s certificate).  Now the flow audit re-derives "
    "the certificate's γ, stationarity and complementarity from its λ at the late direction "
    "(2.5 ms per audited case), and unit tests pin the residuals to their formulas.  The NNLS "
    "iteration cap 50n → 49n (17 times scipy's own default 3n) differs only on a problem "
    "needing between 49n and 50n iterations, which no claim's is: a test watches the call "
    "for the documented cap.",
    "loss-scaled: the claims' flows batch runs of one kind (all far, every margin past 30, "
    "or all near), so the mixed batch's weights and stacked rows with infinite maxima are "
    "seen by tests only; the far runs' e^{−q}/2 correction is ~1e-13 absolute, below the "
    "claims' tolerances (a test pins it to the ulp).",
    "qp-certify: the QPs of the claims that judged it (odd-part, thm6.1) are all polished to "
    "an exact KKT pair, so the fallback that keeps a solver's own answer after the re-check "
    "runs in tests only.  "
    "`np.maximum(mu, 0)` → `np.maximum(mu, -1)` differs only for a solver answer with a "
    "negative multiplier that still passes the re-check on a program polish cannot "
    "improve: SCS gives such answers (−1e-16 on inactive rows), which a test now keeps.",
    "convex: every claim and kit call of nar_program passes k and v by keyword, so the "
    "defaults k=1 and v=1.0 are seen by tests only.",
    "assumption4: lem6.1 and thm6.2 hand lp_feasible an h of all ones and rows of order one, "
    "so its rescaling of extreme or zero right-hand sides is seen by tests only; HiGHS never "
    "returns a bad dual certificate or contradicting answers on the claims' data, so the "
    "NumPy re-checks of `_a4_slack` fire only under a test that corrupts HiGHS's answer; the "
    "claims read `holds` and the witness, not the value −1 of a strict violation's slack.  "
    "Of the mutants only the old tests killed: no claim reads `negative_cone_empty`; the "
    "claims' data never put a point strictly inside the other class's cone, so the "
    "status-2 branch's feasibility LP runs in tests only; `y <= cls` makes the positive "
    "half's cone {z·x ≥ 1 on every point} empty, so only the other half is checked, and "
    "every claim data set that fails the condition fails that other half too; `+G` in "
    "lp_feasible asks G(−θ) ≥ h, the same question, but unary + is a TypeError on a sparse "
    "G, which only an infeasible agreement pattern of nar_program passes (no claim's).",
    "check-thm4 (Theorem 4.1's clause records): every mutant its first campaign let through "
    "thm4.1 and its tests was a weaker clause: clause 3's slack as 1 − L − ε or 2 − L/ε, a pair "
    "that reached ε at iterate 0 counted as unreached, censored slacks with + for /, and "
    "censored pairs settled at s ≠ 0, s < 1 or s ≤ 0 instead of s < 0, i.e. read as passes.  "
    "The claim cannot see them: every case reaches ε well within its bounds, so the clauses "
    "hold by a wide margin whatever their exact form.  Tests now pin each clause's slack and "
    "which pairs settle by value (tests/claims/test_thm4_1.py), the censored clause 4 was "
    "sharpened (t_ε ≥ n·epochs + 1, not n·epochs), and the campaign was run again.",
    "check-thm5, check-thm6.1, check-thm6.2, check-nar (the other theorems' clause code, "
    "campaigns run once): their claims kill only the mutants that break a clause outright; "
    "a weaker clause, a wrong reported number, a cut moved by one step or a case drawn from "
    "the wrong range leaves every case passing, and their tests had checked the verdicts "
    "only.  The survivors (the 'killed by checks/tests added since' column) were killed by "
    "tests written for them that recompute every recorded slack, detail and cut from its "
    "definition on the checks' own cases (tests/claims/test_thm5_1.py, test_thm6_1.py, "
    "test_thm6_2.py).",
    "assumption4-blocks: a block program whose matrix, caps or re-check a mutant breaks "
    "fails its certificate (or HiGHS's status) and every point of it is solved alone, which "
    "gives the claims the right slacks: by design the claims cannot see these mutants, only "
    "the cost.  tests/test_assumption4.py counts the points solved alone (none on ordinary "
    "sets) and pins the slacks; a loosened re-check (its allowances' `+ 1`, `× scale`) "
    "accepts answers within the same 1e-7 the per-point LPs allow, which only the tests' "
    "planted duals tell apart.",
    "check-consistency, check-frei2023, check-kou2023, check-lyu2021, check-odd-part, "
    "check-min2024, check-appJ (the slack functions of the follow-up and cross-paper checks, "
    "campaigns run once): a claim kills only the mutants that make a clause fail on its own "
    "cases; one that loosens a slack, or tightens it by less than the cases' margins, leaves "
    "it passing.  frei2023's, lyu2021's and odd-part's tests killed all of those; "
    "consistency's had checked signs on gross violations only, so a term's constant, an "
    "operator inside one term of a min or max, or a cut moved from ≤ to < left claim and "
    "tests passing (54 of its 159 mutants), and min2024's claim has v = 1, where ETA·v, "
    "ETA/v and ETA**v agree.  The survivors were killed by tests written for them that pin "
    "each term of each slack, each binding in turn, on constructed measurements "
    "(tests/claims/test_consistency.py, test_min2024.py); the other five files got the same "
    "kind of test, which the population pass over kou2023's 18 unrun mutants already used.",
]

EQUIVALENT[("convex", "eq8_kernel_dual", "core/NumberReplacer", 158, 27)] = (
    "equivalent: the floor under evals.max() never binds: X is at unit scale (its largest row "
    "norm is 1) and no row is the origin, so yyᵀ∘K has a diagonal entry (1 + α²)·1 ≥ 1 and "
    "its largest eigenvalue is at least 1; max(λ_max, c) = λ_max for any c below 1, 1e-300 "
    "or −1")
EQUIVALENT[("convex", "nar_program", "core/ReplaceComparisonOperator_Gt_GtE", 228)] = (
    "equivalent: `side > 0` → `side >= 0` on the sides `_check_pattern` returns, which are "
    "exactly +1 or −1 (np.where(is_one, 1.0, -1.0)), never 0")
# the follow-up checks' slack functions (check-consistency, check-frei2023, check-kou2023,
# check-lyu2021, check-odd-part, check-min2024, check-appJ): the survivors no test pinning a
# slack's value (tests/claims/test_<claim>.py) can kill
EQUIVALENT[("check-kou2023", "slacks", "core/ReplaceComparisonOperator_Gt_NotEq", 101, 0)] = (
    "equivalent: `gap > 0` → `gap != 0`; gap is the mean of ρ_end − 1 over the runs, and "
    "ρ = max q/min q (kit.followup.margin_ratio) is a correctly rounded quotient of a max over "
    "a min > 0, so at least 1, or inf where the smallest margin is not > 0 (never NaN): the "
    "gap is never negative nor NaN")
EQUIVALENT.update({("check-min2024", "increment_slack", op, 74, 0):
                   "equivalent: `axis=-1` → `axis=1` or `axis=+1` on X, the (n, d) array of a "
                   "data set's points (every caller's, and _data's)"
                   for op in ("core/ReplaceUnaryOperator_USub_UAdd",
                              "core/ReplaceUnaryOperator_Delete_USub")})
EQUIVALENT[("check-appJ", "witness_slacks", "core/ReplaceComparisonOperator_Eq_LtE", 62, 0)] = (
    "equivalent: `max_n_diff == 0` → `max_n_diff <= 0`; the run's max_n_diff is "
    "int(max(lt.max_n_diff(D, X))), a largest count of points two same-type neurons disagree "
    "on (rounded sums of products of 0/1 signs), never negative")
EQUIVALENT.update(EQUIVALENT_POPULATION)
