"""Claim ``eq6`` (proofs_check/claims/eq6.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np
import pytest

import linteach as lt
from proofs_check.claims import eq6
from claim_support import passes


# -- eq6 ---------------------------------------------------------------------------------------
def test_eq6_passes_and_catches_its_controls(monkeypatch):
    monkeypatch.setattr(eq6, "FAMILIES", {"separable": eq6.FAMILIES["separable"]})
    result = passes("eq6")
    assert result.verdict == "PASS"
    assert result.negative_control["mean-loss"]["violations"] > 0
    assert result.negative_control["step-too-large"]["violations"] > 0


def test_eq6_clause_functions_flag_planted_violations():
    assert eq6.bound_slack(1.01, 1.0) < 0 <= eq6.bound_slack(1.0, 1.0)
    assert eq6.rate_slack(-1e-6) < 0 <= eq6.rate_slack(0.0)
    assert eq6.shrink_slack(0.1, 0.09) < 0 <= eq6.shrink_slack(0.1, 0.05)
    assert eq6.shrink_slack(0.0, 0.0) > 0
    assert eq6.shrink_slack(np.inf, np.inf) < 0 <= eq6.shrink_slack(np.inf, 0.2)
    # a main run that left the late phase: −1 if its companion left it too, else 1
    assert eq6.shrink_slack(np.inf, np.inf) == -1.0 and eq6.shrink_slack(np.inf, 0.2) == 1.0


def test_eq6_mean_loss_smoothed_margin_exceeds_the_normalized_margin():
    rng = np.random.default_rng(0)
    ds = lt.make_symmetric_gaussians(20, 3, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    W = lt.gradient_flow(net, net.init(3, scale=0.5, rng=rng), ds, dt=0.01, n_steps=200,
                         normalized=True).W
    q = net.margins(W, ds.X, ds.y)
    log_lsum, log_norm = lt.loss.log_sum_loss(q), np.log(np.linalg.norm(W))
    assert log_lsum < np.log(np.log(2.0))
    gamma_bar = q.min() / np.linalg.norm(W)
    assert eq6.bound_slack(lt.smoothed_margin(net, W, ds.X, ds.y), gamma_bar) >= 0
    assert eq6.bound_slack(eq6.mean_loss_gamma(log_lsum, log_norm, ds.n), gamma_bar) < 0


# -- the statement's constants ---------------------------------------------------------------
def test_the_bound_clause_allows_exactly_bound_round_of_relative_excess():
    """γ̃ above γ̄ by just under BOUND_ROUND·|γ̄| holds (rounding), by just over it fails."""
    for gamma_bar in (0.3, -0.3, 1e-200, 1e200):
        over = lambda rel: gamma_bar + rel * abs(gamma_bar)  # noqa: E731
        assert eq6.bound_slack(over(eq6.BOUND_ROUND * 0.5), gamma_bar) > 0
        assert eq6.bound_slack(over(eq6.BOUND_ROUND * 2.0), gamma_bar) < 0


def test_the_rate_and_shrink_clauses_sit_at_their_named_constants():
    assert eq6.rate_slack(-0.5 * eq6.RATE_ROUND) > 0 > eq6.rate_slack(-2.0 * eq6.RATE_ROUND)
    drop = 1e-3
    allowed = eq6.SHRINK * drop + eq6.DROP_FLOOR
    assert eq6.shrink_slack(drop, allowed * (1 - 1e-9)) > 0
    assert eq6.shrink_slack(drop, allowed * (1 + 1e-9)) < 0


# -- the phase summaries and the records, by value -----------------------------------------------
def _trace(log_loss, smoothed, normalized, log_norm):
    return {"log_loss": np.asarray(log_loss, float), "smoothed_margin": np.asarray(smoothed, float),
            "normalized_margin": np.asarray(normalized, float),
            "log_norm": np.asarray(log_norm, float)}


def test_a_phase_summary_is_its_definitions_over_the_late_records():
    """Two runs, three records, n = 4: a record is late when L_sum = n·L < log 2; run 0 is
    late from record 1 on, run 1 never.  Every entry by its definition over those records:
    the least bound slack (inf where none), the least rate slack of the late samples and
    their count, the largest drops of run and companion (the companion's early record 0, at
    0.5, does not count), whether it entered, log ‖W‖."""
    n = 4
    late, early = np.log(0.1 / n), np.log(1.0 / n)  # L_sum 0.1 < log 2 < 1.0
    log_loss = [[early, early], [late, early], [late, early]]
    smoothed = [[0.1, 0.2], [0.3, 0.2], [0.25, 0.2]]
    normalized = [[0.2, 0.3], [0.31, 0.3], [0.3, 0.3]]
    trace = _trace(log_loss, smoothed, normalized, [[0.0, 0.0], [1.0, 0.5], [2.0, 0.7]])
    half = _trace(log_loss, [[0.5, 0.2], [0.3, 0.2], [0.29, 0.2]], normalized, [[0.0] * 2] * 3)
    samples = [{"s": np.array([0.5, -1.0]), "log_lsum": np.array([np.log(0.1), 0.0])},
               {"s": np.array([0.25, -2.0]), "log_lsum": np.array([np.log(0.2), np.log(0.1)])},
               # L_sum = log 2 exactly is not yet late: its sample does not count
               {"s": np.array([-5.0, -5.0]), "log_lsum": np.full(2, np.log(np.log(2.0)))}]
    out = eq6._phase_summary(trace, samples, n, half)
    valid = np.array([[False, False], [True, False], [True, False]])
    np.testing.assert_array_equal(out["entered"], [True, False])
    assert out["bound"][0] == min(eq6.bound_slack(0.3, 0.31), eq6.bound_slack(0.25, 0.3))
    assert out["bound"][1] == np.inf
    from proofs_check.kit import flow
    np.testing.assert_array_equal(out["drop"], flow.largest_drop(trace["smoothed_margin"], valid))
    np.testing.assert_array_equal(out["drop_half"],
                                  flow.largest_drop(half["smoothed_margin"], valid))
    assert out["drop"][0] == (0.3 - 0.25) / 0.3 and out["drop_half"][0] == (0.3 - 0.29) / 0.3
    np.testing.assert_array_equal(out["rate"], [eq6.rate_slack(0.25), eq6.rate_slack(-2.0)])
    np.testing.assert_array_equal(out["rate_points"], [2, 1])
    np.testing.assert_array_equal(out["log_norm_end"], [2.0, 0.7])
    gamma_mean = eq6.mean_loss_gamma(np.array([late, late]) + np.log(n), np.array([1.0, 2.0]), n)
    assert out["mean_loss_bound"][0] == min(eq6.bound_slack(gamma_mean[0], 0.31),
                                            eq6.bound_slack(gamma_mean[1], 0.3))
    assert "rate" not in eq6._phase_summary(trace, [], n, half)


def test_a_phase_is_recorded_run_by_run_and_counts_what_it_could_not_evaluate():
    """Per run that entered the late phase: its bound (or, asked, the mean-loss bound), its
    rate where finite (with the number of samples) and its shrink slack; a run that never
    entered, or a phase no run reached, is inconclusive."""
    from proofs_check.engine.contract import Case
    from claim_support import fresh_context
    R = len(eq6.INIT_SCALES)
    ph = {"entered": np.array([True] + [False] * (R - 1)), "bound": np.full(R, 0.5),
          "mean_loss_bound": np.full(R, -0.5), "rate": np.array([0.25] + [np.inf] * (R - 1)),
          "rate_points": np.full(R, 3), "drop": np.full(R, 1e-3), "drop_half": np.full(R, 0.0),
          "drop_fine": np.full((R, eq6.REFINE_LEVELS - 1), np.nan)}
    ctx = fresh_context(eq6)
    eq6._record(ctx, Case("symmetric", 1), {"phases": {"late": ph}})
    assert ctx.worst["gamma_tilde_le_gamma_bar"].slack == 0.5
    assert ctx.worst["rate_nonnegative"].slack == 0.25
    assert ctx.worst["rate_nonnegative"].detail["points"] == 3
    assert ctx.worst["breaks_shrink_with_step"].slack == float(eq6.shrink_slack(1e-3, 0.0))
    for clause in ctx.worst.values():
        assert clause.evaluated == 1
    # R − 1 runs never entered; the euler phase is missing altogether
    assert ctx.counts["inconclusive"] == (R - 1) + 1
    ctx = fresh_context(eq6)
    eq6._record(ctx, Case("symmetric", 1), {"phases": {"late": dict(ph, rate=np.full(R, np.inf))}},
                phases=("late",), mean_loss=True)
    assert ctx.worst["gamma_tilde_le_gamma_bar"].slack == -0.5
    assert "rate_nonnegative" not in ctx.worst
    assert ctx.counts["inconclusive"] == R - 1


def test_record_takes_its_options_by_keyword():
    from proofs_check.engine.contract import Case
    from claim_support import fresh_context
    with pytest.raises(TypeError):
        eq6._record(fresh_context(eq6), Case("symmetric", 1), {"phases": {}}, ("late",))


# -- refinement of the step for runs not yet asymptotic at the first halving -----------------
def test_a_refined_level_passes_at_shrink_per_halving_and_unrun_levels_do_not_count():
    drop, S = 1e-3, eq6.SHRINK
    nan = np.nan
    assert eq6.shrink_slack(drop, 0.8e-3) < 0                       # 0.8 > SHRINK at one halving
    assert eq6.refined_slack(drop, 0.8e-3, [nan, nan]) < 0         # nothing else was run
    at2 = S**2 * drop + eq6.DROP_FLOOR
    assert eq6.refined_slack(drop, 0.8e-3, [at2 * (1 - 1e-9), nan]) > 0
    assert eq6.refined_slack(drop, 0.8e-3, [at2 * (1 + 1e-9), nan]) < 0
    at3 = S**3 * drop + eq6.DROP_FLOOR
    assert eq6.refined_slack(drop, 0.8e-3, [0.7e-3, at3 * (1 - 1e-9)]) > 0
    assert eq6.refined_slack(drop, 0.8e-3, [0.7e-3, at3 * (1 + 1e-9)]) < 0
    # breaks that do not vanish with the step fail at every level
    assert eq6.refined_slack(drop, 0.9e-3, [0.85e-3, 0.8e-3]) < 0
    # the best level counts, per run, also batched
    got = eq6.refined_slack([drop, drop], [0.1e-3, 0.8e-3], [[nan, nan], [0.3e-3, nan]])
    np.testing.assert_array_equal(got, [eq6.shrink_slack(drop, 0.1e-3),
                                        eq6.shrink_slack(drop, 0.3e-3, 2)])
    # a main run that left the late phase passes once a finer run stays in it
    assert eq6.refined_slack(np.inf, np.inf, [np.inf, 0.1]) == 1.0
    assert eq6.refined_slack(np.inf, np.inf, [np.inf, np.inf]) == -1.0


def test_refine_reruns_only_the_runs_still_failing_level_by_level():
    from proofs_check.kit.margin_flows import refine
    drop = np.array([1e-3, 1e-3, 1e-3, np.nan])       # run 3 never entered: never refined
    half = np.array([0.1e-3, 0.8e-3, 0.9e-3, np.nan])  # run 0 passes at the first halving
    finer = {2: np.array([0.1, 0.5e-3, 0.85e-3, 0.1]), 3: np.array([0.1, 0.1, 0.2e-3, 0.1])}
    calls = []

    def drops_at(runs, level):
        calls.append((runs.tolist(), level))
        return finer[level][runs]
    fine = refine(drop, half, eq6.refined_slack, 3, drops_at)
    assert calls == [([1, 2], 2), ([2], 3)]            # run 1 passed at level 2
    np.testing.assert_array_equal(fine[0], [np.nan, np.nan])
    np.testing.assert_array_equal(fine[1], [0.5e-3, np.nan])
    np.testing.assert_array_equal(fine[2], [0.85e-3, 0.2e-3])
    assert (eq6.refined_slack(drop[:3], half[:3], fine[:3]) >= 0).all()
    assert refine(drop[:1], half[:1], eq6.refined_slack, 3, drops_at).shape == (1, 2)
    assert len(calls) == 2                             # nothing left to refine: no call


@pytest.mark.slow
def test_the_thorough_case_whose_first_halving_shrank_too_little_passes_refined():
    """Round 9's finding: at ``--budget thorough`` the late phase of symmetric/
    7565461099101634138 has drops 0.00217 (dt) and 0.00174 (dt/2), a ratio 0.80 > SHRINK;
    at dt/4 the drop is 0.00085 ≤ SHRINK²·0.00217 (the dynamics' order is below one at the
    kinks, tools/eq6_refinement.py).  The refined clause holds, at level 2."""
    from proofs_check.engine.contract import Case
    from proofs_check.kit import flow
    case = Case("symmetric", 7565461099101634138)
    res = eq6.run_cases(([case], "symmetric", False, flow.steps(eq6.N_LATE, "thorough")))[0]
    late = res["phases"]["late"]
    r = int(np.argmax(eq6.shrink_slack(late["drop"], late["drop_half"]) < 0))
    assert eq6.shrink_slack(late["drop"][r], late["drop_half"][r]) < 0
    assert not np.isnan(late["drop_fine"][r, 0])
    assert eq6.refined_slack(late["drop"][r], late["drop_half"][r], late["drop_fine"][r]) >= 0


def test_the_shrink_slack_is_the_fraction_of_the_allowed_drop_left():
    for level in (1, 2, 3):
        allowed = eq6.SHRINK**level * 1e-3 + eq6.DROP_FLOOR
        assert eq6.shrink_slack(1e-3, 0.25e-3, level) == (allowed - 0.25e-3) / allowed


def _one_phase(drop_main, drop_half, n=4):
    """Traces of one run whose late records (L_sum < log 2) drop γ̃ by the given fractions."""
    late = np.log(0.1 / n)
    log_loss = np.full((3, 1), late)
    trace = _trace(log_loss, [[1.0], [1.0], [1.0 - drop_main]], [[2.0]] * 3, [[0.0]] * 3)
    half = _trace(log_loss, [[1.0], [1.0], [1.0 - drop_half]], [[2.0]] * 3, [[0.0]] * 3)
    return trace, half


def test_a_phase_summary_refines_exactly_the_runs_its_first_halving_leaves_failing():
    n = 4
    trace, half = _one_phase(1e-3, 0.8e-3, n)  # 0.8 > SHRINK: refined
    calls = []

    def drops_at(runs, level):
        calls.append((runs.tolist(), level))
        return np.full(len(runs), 0.5e-3 if level == 2 else 0.1e-3)
    out = eq6._phase_summary(trace, [], n, half, drops_at)
    assert calls == [([0], 2)]  # 0.5e-3 ≤ SHRINK²·1e-3 at level 2: no level 3
    np.testing.assert_array_equal(out["drop_fine"], [[0.5e-3, np.nan]])
    assert eq6.refined_slack(out["drop"], out["drop_half"], out["drop_fine"])[0] >= 0
    unrefined = eq6._phase_summary(trace, [], n, half)  # no drops_at: nothing refined
    assert unrefined["drop_fine"].shape == (1, eq6.REFINE_LEVELS - 1)
    assert np.isnan(unrefined["drop_fine"]).all()
    trace, half = _one_phase(1e-3, 0.1e-3, n)  # shrinks at the first halving: never refined
    eq6._phase_summary(trace, [], n, half, drops_at)
    assert len(calls) == 1


def test_the_control_s_steps_are_k_and_k_over_two_refined_by_halvings(monkeypatch):
    seen = []

    def fake(net, We, X, y, K, factor, count):
        seen.append((K, factor, len(We)))
        return np.full(len(We), np.inf)  # every run leaves the late phase: never shrinks
    monkeypatch.setattr(eq6, "bad_step_drops", fake)
    We = np.zeros((2, 2, 3))
    phases = eq6._bad_steps(None, We, np.zeros((2, 4, 3)), np.ones((2, 4)))
    assert seen == [(K, f, 2) for K in eq6.BAD_K for f in (1.0, 0.5, 0.25, 0.125)]
    for K in eq6.BAD_K:
        ph = phases[f"bad-{K:g}"]
        assert ph["drop_fine"].shape == (2, eq6.REFINE_LEVELS - 1) and ph["entered"].all()
        assert (eq6.refined_slack(ph["drop"], ph["drop_half"], ph["drop_fine"]) < 0).all()
