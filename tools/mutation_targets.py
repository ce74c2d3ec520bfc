"""What ``tools/mutate.py`` mutates: the operators (:data:`EXCLUDE` leaves some out) and the
targets, each a file or some of its functions with the claims and fast tests that judge it.

A function is named bare (any function of that name, nested ones too) or ``Class.method``
where two classes of the file share a method name.  The claims of a target are those that
run its code, cheapest first: the judge stops at the first claim that does not PASS.
"""

#: the operators we mutate with: arithmetic among + − × ÷, comparisons, booleans, numbers,
#: unary operators and loops (cosmic-ray's bit/shift/modulo swaps on float code only crash)
EXCLUDE = [r"core/ReplaceBinaryOperator_.*_(FloorDiv|Mod|RShift|LShift|BitOr|BitAnd|BitXor)$",
           r"core/ReplaceBinaryOperator_(FloorDiv|Mod|RShift|LShift|BitOr|BitAnd|BitXor)_.*",
           r"core/ReplaceBinaryOperator_(Add|Sub|Div)_Pow", r"core/ReplaceBinaryOperator_Pow_.*",
           r"core/ReplaceComparisonOperator_.*_(Is|IsNot|In|NotIn)$",
           r"core/ReplaceComparisonOperator_(Is|IsNot|In|NotIn)_.*",
           r"core/ExceptionReplacer", r"core/RemoveDecorator", r"core/ReplaceUnaryOperator_.*_Invert",
           r"core/ReplaceUnaryOperator_Invert_.*"]

#: target name -> (file, functions or None for the whole file, proofs_check --only ids or
#: None for every claim, fast tests that judge it)
TARGETS = {
    # (loss.py has no whole-file target: loss-core, loss-scaled and loss-checks together
    # name every one of its functions)
    # the loss as the trainers and the checks evaluate it: ℓ, g, log ℓ, the mean, log-sum-exp
    # and γ̃ (eq6: γ̃ and the late flow; min2024: g; thm4.1: ℓ along SGD)
    "loss-core": ("linteach/loss.py",
                  ["ell", "g", "log_g", "log_ell", "_log_ell", "mean_loss", "_logsumexp",
                   "_smoothed_from"], ["eq6", "min2024", "thm4.1"],
                  ["tests/test_loss.py", "tests/test_mutation_kills_numerics.py"]),
    # Eq. 1 and Eq. 3 (the engine audits compare forward with a naive reference; the claims
    # named are the cheapest that audit it, plus thm4.1's SGD)
    "network": ("linteach/network.py", ["forward", "backward", "margins"],
                ["thm4.1", "appD.1", "cor6.1", "odd-part"],
                ["tests/test_mutation_kills_numerics.py", "tests/test_network.py"]),
    # the SGD update loop of Theorem 4.1 (the claims that train by SGD); its nested
    # epoch_row is train-sgd-trace's
    "train-sgd": ("linteach/train.py", ["_sgd_loop"], ["thm4.1", "appK"],
                  ["tests/test_mutation_kills_numerics.py", "tests/test_train.py",
                   "tests/test_batched.py",  # every claim's runs share one data set
                   "tests/test_mutation_kills_population.py"]),
    # the per-epoch trace of SGD (loss, max loss, min margin, ε0-mistakes)
    "train-sgd-trace": ("linteach/train.py", ["epoch_row"], ["thm4.1", "appK"],
                        ["tests/test_mutation_kills_numerics.py", "tests/test_train.py"]),
    # the full-batch and normalized gradient-flow loops (odd-part: gd; min2024: gd and the
    # flow audits; eq6: the late-phase flow and its time)
    "train-flow": ("linteach/train.py", ["_euler_loop", "_normalized_loop", "_log_logmean"],
                   ["min2024", "odd-part", "eq6"],
                   ["tests/test_mutation_kills_numerics.py", "tests/test_train.py",
                    "tests/test_mutation_kills_population.py",
                    "tests/test_batched.py"]),  # every claim's runs share one data set
    # a claim's verdict from its context (judged by tests: a mutant that makes every claim
    # PASS cannot be caught by running the claims)
    "runner-verdict": ("proofs_check/engine/runner.py", ["run_one", "_result"], ["NONE"],
                       ["tests/test_mutation_kills.py", "tests/test_contract.py",
                        "tests/test_runner.py"]),
    # Theorem 4.1's constants (thm4.1 and appK use them; the engine audit recomputes them)
    "bounds": ("linteach/bounds.py", ["sgd_update_bound"], ["thm4.1", "appK"],
               ["tests/test_bounds.py", "tests/test_mutation_kills.py"]),
    # the formulas behind sgd_update_bound, which only thm4.1 and appK call (through
    # kit/sgd_configs.py, their runs and their engine audits): no other claim reaches them
    "bounds-formulas": ("linteach/bounds.py", ["_direct"], ["thm4.1", "appK"],
                        ["tests/test_bounds.py", "tests/test_mutation_kills.py",
                         "tests/test_mutation_kills_formulas.py"]),
    "metrics-radius-regime": ("linteach/metrics.py",
                              ["_mean_rows", "_means", "neuron_means", "_radius",
                               "cluster_radius", "linear_regime"],
                              ["appD.1", "cor6.1", "appK"],  # every net audit has r, the band
                              ["tests/test_mutation_kills_patterns.py", "tests/test_metrics.py",
                  "tests/test_mutation_kills.py"]),
    "verdict": ("proofs_check/engine/context.py",
                ["verdict_of", "control_problem", "engine_problem", "record", "audit",
                 "negative_control"], None, ["tests/test_mutation_kills.py",
                                             "tests/test_contract.py", "tests/test_audit.py"]),
    # the fused kernel every trainer steps with: the SGD update, ∇L and ∇L/L of gd and the
    # flows (odd-part: gd; thm4.1: SGD, one run and batched; min2024: gd and the flows)
    "kernels": ("linteach/_kernels.py",
                ["loss_and_grad", "flow_state", "grad_over_loss", "frobenius", "Fused.forward",
                 "Fused.backward", "Fused.sgd_update"], ["odd-part", "thm4.1", "min2024"],
                ["tests/test_mutation_kills_numerics.py", "tests/test_kernels.py",
                 "tests/test_perf_equivalence.py", "tests/test_mutation_kills_population.py"]),
    # the KKT re-checks of the solvers' answers and of (P) (odd-part: the SVM; thm6.1:
    # the pattern program and kkt_certificate along the flow)
    "kkt": ("linteach/kkt.py", ["qp_kkt_report", "_report", "kkt_certificate"],
            ["odd-part", "thm6.1"], ["tests/test_mutation_kills_numerics.py",
                                     "tests/test_convex.py",
                                     "tests/test_mutation_kills_population.py",
                                     "tests/test_mutation_kills_solvers.py"]),
    "qp-certify": ("linteach/qp.py", ["_certify"], ["odd-part", "thm6.1"],
                   ["tests/test_mutation_kills_numerics.py", "tests/test_convex.py",
                    "tests/test_mutation_kills_population.py"]),
    # the loss past loss-core: the scaled terms of the late flow, log-sum-exp, log(e^x − 1)
    "loss-scaled": ("linteach/loss.py",
                    ["logsumexp", "_logsumexp_inf", "log_sum_loss", "log_expm1_exp",
                     "_log_expm1_exp", "scaled_loss_terms", "log_sum_loss_scaled",
                     "_lsl_scaled", "smoothed_margin_scaled", "smoothed_margin_from"],
                    ["min2024", "eq6"], ["tests/test_loss.py",
                                         "tests/test_mutation_kills_numerics.py",
                                         "tests/test_mutation_kills_formulas.py"]),
    # Condition 4 of Theorem 6.2 by HiGHS LPs (lem6.1: the antipodal and flipped sets;
    # thm6.2: the condition before Eq. 8)
    "assumption4": ("linteach/assumption4.py", ["assumption4_lp", "_a4_slack", "lp_feasible",
                                                "highs"], ["lem6.1", "thm6.2"],
                    ["tests/test_assumption4.py", "tests/test_convex.py",
                     "tests/test_mutation_kills_convex.py",
                     "tests/test_mutation_kills_solvers.py"]),
    # the paper's convex programs (odd-part: the SVM; consistency: Eq. 8's kernel dual on the
    # orthogonal sets; thm6.2: Eq. 8; thm6.1: (P) on the agreement pattern)
    "convex": ("linteach/convex.py", ["svm_no_bias", "_eq8_features", "solve_eq8",
                                      "eq8_kernel_dual", "nar_program"],
               ["odd-part", "consistency", "thm6.2", "thm6.1"],
               ["tests/test_convex.py", "tests/test_assumption4.py",
                "tests/test_mutation_kills_convex.py",
                "tests/test_mutation_kills_solvers.py"]),
    # lp_feasible as it is since the population pass of assumption4 (its rescaling was fixed
    # after that pass judged it: five of the pass's mutants no longer apply), judged whole
    "lp-feasible": ("linteach/assumption4.py", ["lp_feasible"], ["lem6.1", "thm6.2"],
                    ["tests/test_mutation_kills_solvers.py", "tests/test_assumption4.py",
                     "tests/test_convex.py", "tests/test_mutation_kills_convex.py"]),
    # -- the rest of the core numerics: the claims of each are those a profiled run of every
    # claim at the quick budget showed calling its functions (tools/mutation_reach.py), the
    # cheapest few that together reach every function some claim reaches; a function no
    # claim calls is judged by its tests alone (listed per target)
    # the argument checks of the loss terms (every trainer's claims call them)
    "loss-checks": ("linteach/loss.py", ["_nan_free", "_log_norm", "_real"],
                    ["odd-part", "thm4.1", "min2024"],
                    ["tests/test_mutation_kills_checks.py", "tests/test_loss.py",
                     "tests/test_mutation_kills_formulas.py"]),
    # Net's construction, init and loss (grad_output: eq6 only; slope: no claim)
    "network-rest": ("linteach/network.py",
                     ["Net.__post_init__", "Net.a", "Net.init", "Net._inputs", "Net.slope",
                      "Net.loss", "Net.loss_and_grad", "Net.grad_output"],
                     ["appD.1", "odd-part", "thm4.1", "eq6"],
                     ["tests/test_mutation_kills_network.py", "tests/test_network.py",
                      "tests/test_mutation_kills_numerics.py"]),
    # the log-space constants and potentials (teacher_weights: thm4.1 and appK; the rest,
    # _from_logs, potential_F/G and invariant_bounds among them, no claim)
    "bounds-rest": ("linteach/bounds.py",
                    ["_log_one_minus_exp_neg", "_from_logs", "_range_error", "teacher_weights",
                     "_W", "potential_F", "potential_G", "invariant_bounds"], ["thm4.1", "appK"],
                    ["tests/test_mutation_kills_bounds.py", "tests/test_bounds.py",
                     "tests/test_mutation_kills_formulas.py", "tests/test_mutation_kills.py"]),
    # the margins (relative_cluster_radius, max_within_type_angle and
    # fraction_outside_linear_regime: no claim)
    "metrics-margins": ("linteach/metrics.py",
                        ["relative_cluster_radius", "max_within_type_angle",
                         "fraction_outside_linear_regime", "normalized_margin",
                         "smoothed_margin"], ["odd-part", "thm4.1", "min2024"],
                        ["tests/test_mutation_kills_metrics.py", "tests/test_metrics.py",
                         "tests/test_mutation_kills.py"]),
    # the QP checks and polish (QPReport.worst: thm4.1; KKTCertificate.holds: no claim)
    "kkt-rest": ("linteach/kkt.py", ["check_Xy", "_check_qp", "_row_norms", "polish",
                                     "_polish", "_check_W2k", "QPReport.ok", "QPReport.worst",
                                     "KKTCertificate.holds"],
                 ["odd-part", "thm4.1", "lem6.1", "min2024"],
                 ["tests/test_mutation_kills_checks.py", "tests/test_mutation_kills_solvers.py",
                  "tests/test_convex.py", "tests/test_mutation_kills_numerics.py"]),
    # the QP driver (_run, the cvxpy path: consistency, kou2023 and thm4.1)
    "qp-solve": ("linteach/qp.py", ["_installed", "_solvers", "_run", "_direct", "solve_qp",
                                    "unit_scale", "rescaled"],
                 ["odd-part", "thm4.1", "consistency"],
                 ["tests/test_mutation_kills_qp.py", "tests/test_mutation_kills_solvers.py",
                  "tests/test_convex.py", "tests/test_mutation_kills_population.py"]),
    # the teacher, Eq. 8's kernel and the pattern check
    "convex-rest": ("linteach/convex.py", ["max_margin_teacher", "_eq8_args", "eq8_kernel",
                                           "_check_pattern"],
                    ["thm4.1", "appJ", "consistency", "thm6.1"],
                    ["tests/test_mutation_kills_qp.py", "tests/test_mutation_kills_solvers.py",
                     "tests/test_convex.py", "tests/test_mutation_kills_convex.py"]),
    # the failing case's witness, scaled by its exponents (written after the population pass
    # of assumption4; lem6.1's flipped sets fail Assumption 4)
    "a4-witness": ("linteach/assumption4.py", ["_unit_min"], ["lem6.1", "thm6.2"],
                   ["tests/test_assumption4.py", "tests/test_mutation_kills_solvers.py"]),
    # -- defined after the last population passes, not run yet: the trainers' public
    # wrappers, the kernels' sign and underflow helpers and the controls' kernel, the
    # agreement patterns (NAR, PAR, n_diff) and the exact rescaling behind every metric;
    # claims by tools/mutation_reach.py as above
    "train-wrappers": ("linteach/train.py", ["sgd", "_euler", "gd", "gradient_flow"],
                       ["odd-part", "thm4.1"],
                       ["tests/test_mutation_kills_train.py", "tests/test_train.py",
                        "tests/test_mutation_kills_numerics.py"]),
    # (_row_scaled and Kernel.sgd_update: no claim)
    "kernels-rest": ("linteach/_kernels.py",
                     ["_trusted", "underflow_free", "_row_scaled", "active", "Kernel.forward",
                      "Kernel.backward", "Kernel.sgd_update", "kernel_for", "Fused.__init__",
                      "Controlled.__init__", "Controlled._transformed", "Controlled.forward",
                      "Controlled.backward", "Controlled.sgd_update"], ["odd-part", "thm4.1"],
                     ["tests/test_mutation_kills_kernels.py", "tests/test_kernels.py",
                      "tests/test_mutation_kills_numerics.py",
                      "tests/test_perf_equivalence.py"]),
    # (Agreement.in_nar: no claim; Agreement.c: thm6.1 among the cheap ones)
    "patterns": ("linteach/patterns.py",
                 ["Agreement.in_nar", "Agreement.c", "_products", "agreement", "par_margins",
                  "in_par", "par_fractions", "max_n_diff"], ["appD.1", "thm4.1", "thm6.1"],
                 ["tests/test_mutation_kills_patterns.py", "tests/test_metrics.py",
                  "tests/test_mutation_kills.py"]),
    # the checks themselves: Theorem 4.1's clause records (a slack's sign, which (run, ε)
    # pairs settle a clause, a censored count); not core numerics, so outside its total
    "check-thm4": ("proofs_check/kit/thm4_report.py", ["_record_pairs", "record_sgd_result"],
                   ["thm4.1"], ["tests/claims/test_thm4_1.py"]),
    # ... and the other theorems' clause records: Theorem 5.1's evaluation of a band (the
    # sampled sign test beside the exact decision), Theorem 6.1's and 6.2's slacks and their
    # shared recording of a run (kit/nar.py)
    "check-thm5": ("proofs_check/claims/thm5_1.py", ["_evaluate", "_sampled_at", "_record"],
                   ["thm5.1"], ["tests/claims/test_thm5_1.py"]),
    "check-thm6.1": ("proofs_check/claims/thm6_1.py", ["limit_slack", "pattern_slacks",
                                                       "_analyse"],
                     ["thm6.1"], ["tests/claims/test_thm6_1.py"]),
    "check-thm6.2": ("proofs_check/claims/thm6_2.py", ["eq8_slack", "boundary_slack",
                                                       "_analyse"],
                     ["thm6.2"], ["tests/claims/test_thm6_2.py"]),
    "check-nar": ("proofs_check/kit/nar.py", ["radius_slack", "record_run"],
                  ["thm6.1", "thm6.2"], ["tests/claims/test_thm6_1.py",
                                         "tests/claims/test_thm6_2.py"]),
    "check-eq6": ("proofs_check/claims/eq6.py", ["bound_slack", "rate_slack", "shrink_slack",
                                                 "_phase_summary", "_record"],
                  ["eq6"], ["tests/claims/test_eq6.py"]),
    "check-lem6.1": ("proofs_check/claims/lem6_1.py", ["antipodal_slack", "witness_holds",
                                                       "evaluate_cases", "_run", "check"],
                     ["lem6.1"], ["tests/claims/test_lem6_1.py"]),
    # the exact re-check of a Theorem 5.1 certificate (rationals, no solver): a mutant that
    # accepts a bad certificate leaves every claim PASSing on valid ones, so its tests, which
    # tamper with certificates, are its real judges
    "certify-recheck": ("linteach/certify/recheck.py", None, ["thm5.1"],
                        ["tests/test_mutation_kills_certify.py", "tests/test_certify.py",
                         "tests/test_plane.py", "tests/test_cstar.py"]),
    # issue 16: Assumption 4's per-point LPs as block-diagonal programs (lem6.1, thm6.2)
    "assumption4-blocks": ("linteach/assumption4.py", ["_a4_slacks", "_certified"],
                           ["lem6.1", "thm6.2"],
                           ["tests/test_assumption4.py", "tests/test_mutation_kills_solvers.py",
                            "tests/test_mutation_kills_convex.py", "tests/test_convex.py"]),
    # eq6's step refinement of runs whose first halving shrinks the drop too little
    "check-eq6-refine": ("proofs_check/claims/eq6.py", ["shrink_slack", "refined_slack",
                                                        "_phase_summary", "_bad_steps"],
                         ["eq6"], ["tests/claims/test_eq6.py"]),
    "check-margin-flows": ("proofs_check/kit/margin_flows.py", None, ["eq6"],
                           ["tests/test_margin_flows.py", "tests/claims/test_eq6.py",
                            "tests/test_batched_claims.py"]),
    # issue 16: one net, step and ε0 per run (SGD of configurations of one shape)
    "kernels-per-run": ("linteach/_per_run.py", None, ["thm4.1", "appK"],
                        ["tests/test_sgd_per_run.py", "tests/test_batched.py"]),
    "kernels-relu": ("linteach/_kernels.py", ["relu_products"], ["odd-part", "thm4.1"],
                     ["tests/test_sgd_per_run.py", "tests/test_mutation_kills_kernels.py",
                      "tests/test_kernels.py", "tests/test_perf_equivalence.py"]),
    "runs-per-run": ("linteach/runs.py", ["per_run_nets", "per_run_real", "_checked_each",
                                          "setup"], ["thm4.1", "odd-part"],
                     ["tests/test_sgd_per_run.py", "tests/test_batched.py",
                      "tests/test_bad_input.py", "tests/test_train.py"]),
    # the checks' batching: SGD configurations grouped by shape, items of CHUNK cases
    "check-sgd-batches": ("proofs_check/kit/sgd_cases.py",
                          ["train_configuration", "train_configurations"],
                          ["thm4.1", "appK"],
                          ["tests/test_batched_claims.py", "tests/test_perf_equivalence.py",
                           "tests/claims/test_thm4_1.py"]),
    "check-sgd-items": ("proofs_check/kit/sgd_configs.py",
                        ["sgd_items", "map_sgd_cases", "run_sgd_cases", "run_sgd_case",
                         "_build", "_result"], ["thm4.1", "appK"],
                        ["tests/test_batched_claims.py", "tests/claims/test_thm4_1.py",
                         "tests/test_controls.py"]),
    "check-items": ("proofs_check/kit/items.py", None, ["appD.1", "lem6.1"],
                    ["tests/test_batched_items.py", "tests/test_batched_claims.py"]),
    "scale": ("linteach/_scale.py", None, ["appD.1", "odd-part", "lem6.1"],
              ["tests/test_scale.py", "tests/test_metrics.py",
               "tests/test_mutation_kills_metrics.py"]),
    # the follow-up papers' and the cross-paper checks' slack functions, which turn a case's
    # measurements into its clause slacks (≥ 0: the clause held): a mutant that weakens one
    # can let its claim PASS on a false clause, so each is judged by its claim and the tests
    # that call the slack function on constructed measurements
    "check-consistency": ("proofs_check/claims/consistency.py",
                          ["antipodal_slacks", "orthogonal_slacks"], ["consistency"],
                          ["tests/claims/test_consistency.py"]),
    "check-frei2023": ("proofs_check/claims/frei2023.py", ["slacks"], ["frei2023"],
                       ["tests/claims/test_frei2023.py"]),
    "check-kou2023": ("proofs_check/claims/kou2023.py", ["dual_slack", "slacks"], ["kou2023"],
                      ["tests/claims/test_kou2023.py"]),
    "check-lyu2021": ("proofs_check/claims/lyu2021.py", ["gap_slack"], ["lyu2021"],
                      ["tests/claims/test_lyu2021.py"]),
    "check-odd-part": ("proofs_check/claims/odd_part.py", ["identity_slack", "margin_slack"],
                       ["odd-part"], ["tests/claims/test_odd_part.py"]),
    "check-min2024": ("proofs_check/claims/min2024.py", ["increment_slack"], ["min2024"],
                      ["tests/claims/test_min2024.py"]),
    "check-appJ": ("proofs_check/claims/appJ.py", ["witness_slacks"], ["appJ"],
                   ["tests/claims/test_appJ.py"]),
}
