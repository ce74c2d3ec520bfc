"""Planted engine bugs that leave the theorems true must still fail ``make verify``.

Each bug below left every claim PASSing before the engine audits existed (the theorems hold,
or are loose enough, for the wrong object too).  The fast tests plant the bug and audit one
case of the claim that uses it; the slow ones run the whole claim (``run_one``, quick
budget) and require the ERROR that names the quantity.
"""
import dataclasses

import numpy as np
import pytest

import linteach as lt
import linteach.bounds
import linteach.convex
import linteach.metrics
import linteach.generators
import linteach.runs
import linteach.train
from linteach._kernels import Fused
from proofs_check.claims import eq6, frei2023, kou2023, lyu2021, min2024, thm5_1, thm6_1, thm6_2
from proofs_check.engine.contract import Case
from proofs_check.engine.runner import run_one
from proofs_check.kit import antipodal, audit, followup, orthogonal, sgd_cases, sgd_configs, signs


class _WithReplacement:
    """A generator whose ``permutation(n)`` draws n indices *with* replacement (the bug)."""

    def __init__(self, gen):
        self.gen = gen

    def permutation(self, n):
        return self.gen.integers(0, n, n)


@pytest.fixture
def sgd_with_replacement(monkeypatch):
    real = linteach.train.generators
    monkeypatch.setattr(linteach.train, "generators",
                        lambda *a: [_WithReplacement(g) for g in real(*a)])


@pytest.fixture
def v_dropped_from_full_batch_gradient(monkeypatch):
    real = Fused.backward  # the kernel every trainer and Net.loss_and_grad use
    monkeypatch.setattr(Fused, "backward",
                        lambda self, pre, X, coef: real(self, pre, X, coef) / abs(self.a[0]))


def _mean_radius(W):
    w, u = lt.metrics.split_types(W)
    dev = [np.linalg.norm(V - V.mean(axis=-2, keepdims=True), axis=-1).mean(axis=-1)
           for V in (w, u)]
    return np.maximum(*dev)


@pytest.fixture
def radius_as_mean(monkeypatch):
    for module in (linteach.metrics, lt, linteach.generators, signs):
        monkeypatch.setattr(module, "cluster_radius", _mean_radius)


@pytest.fixture
def thm41_constants_off_by_n(monkeypatch):
    real = sgd_configs.sgd_update_bound

    def wrong(n, eps, **kw):
        bd = real(n, eps, **kw)
        return dataclasses.replace(bd, T_exact=bd.T_exact * n, M=bd.M * n)
    monkeypatch.setattr(sgd_configs, "sgd_update_bound", wrong)


@pytest.fixture
def monitor_eps0_doubled(monkeypatch):
    real = sgd_cases.Monitor.__init__

    def init(self, *a, **kw):
        real(self, *a, **kw)
        self.eps0 = 2.0 * self.eps0
    monkeypatch.setattr(sgd_cases.Monitor, "__init__", init)


@pytest.fixture
def thm41_R_x_squared_inverted(monkeypatch):
    """Every R_x² in Theorem 4.1's constants read as 1/R_x² (equivalent at R_x = 1)."""
    real = linteach.bounds._direct
    monkeypatch.setattr(linteach.bounds, "_direct",
                        lambda n, eps, R_x, *rest: real(n, eps, 1.0 / R_x, *rest))


@pytest.fixture
def stable_rank_without_squares(monkeypatch):
    """``‖W‖_F/‖W‖_2`` for the stable rank: → 1 exactly when the true one does (kou2023's
    per-type clause cannot see it)."""
    real = followup.stable_rank
    monkeypatch.setattr(followup, "stable_rank", lambda W: np.sqrt(real(W)))


@pytest.fixture
def eq8_duals_at_half_scale(monkeypatch):
    """The ½-form multipliers μ = λ/2 reported as Eq. 8's duals λ (the dual ratio, all that
    kou2023's clause reads, is unchanged)."""
    real = linteach.convex.eq8_kernel_dual

    def half(*a, **kw):
        w, u, lam = real(*a, **kw)
        return w, u, lam / 2
    monkeypatch.setattr(linteach.convex, "eq8_kernel_dual", half)


SGD_CASE = Case("small-n", 20210101)


def _failing(findings):
    """Quantities of the findings that disagree (the slack ``ctx.audit`` would record < 0)."""
    from proofs_check.engine.context import Context
    from tests.test_audit import _claim

    ctx = Context(_claim(), seed=0)
    audit.record_findings(ctx, SGD_CASE, findings)
    return {d["quantity"] for d in ctx.disagreements}


def test_no_finding_fails_on_the_stock_engine():
    assert _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE))) == set()


@pytest.mark.usefixtures("sgd_with_replacement")
def test_sgd_with_replacement_is_caught_by_the_sgd_audit():
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert "SGD epoch visits each point once" in failing


@pytest.mark.usefixtures("v_dropped_from_full_batch_gradient")
def test_v_dropped_from_the_gradient_is_caught_on_a_v_not_1_case():
    subject = sgd_configs.audit_subject(SGD_CASE)
    assert subject["net"].v != 1.0  # the bug is invisible (equivalent) at v = 1
    assert "∇L, per-example loop of Eq. 3" in _failing(audit.audit_subject(subject))


def test_a_lost_second_layer_sign_in_net_backward_is_caught_by_the_audit(monkeypatch):
    """Net.backward (the readable Eq. 3) is used only by the negative controls, where a wrong
    gradient still counts as caught: the audit compares it with the per-example loop.  The
    planted bug forgets the −v of the u neurons (their rows get +v)."""
    real = lt.Net.backward

    def u_sign_lost(self, W, X, coef):
        G = np.array(real(self, W, X, coef))
        G[..., self.k:, :] *= -1.0
        return G
    monkeypatch.setattr(lt.Net, "backward", u_sign_lost)
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert failing == {"Net.backward (Eq. 3) with dL/dN = −y g(q)/n"}


def test_a_wrong_loss_in_the_sgd_trace_is_caught_by_the_audit(monkeypatch):
    """The SGD trace's loss columns are recomputed: ℓ off by a factor (the updates use g, so
    the trajectory itself is unchanged) fails the trace findings at both recomputed rows."""
    import linteach.loss

    real = linteach.loss.ell
    monkeypatch.setattr(linteach.loss, "ell", lambda q: 2.0 * real(q))
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert {f"SGD trace {what} loss, row {row}" for what in ("mean", "largest")
            for row in (0, -1)} <= failing
    assert not any(q.startswith(("SGD trajectory", "SGD trace smallest")) for q in failing)


@pytest.mark.usefixtures("radius_as_mean")
def test_cluster_radius_as_a_mean_is_caught_on_a_thm51_net():
    subject = thm5_1.audit_subject(Case("random", 5))
    assert "cluster radius r" in _failing(audit.audit_subject(subject))


@pytest.mark.usefixtures("thm41_constants_off_by_n")
def test_thm41_constants_off_by_a_power_of_n_are_caught():
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert {"Thm 4.1 T_exact", "Thm 4.1 M"} <= failing


def test_a_wrong_pattern_program_answer_is_caught_by_its_kkt_residuals():
    from linteach import convex

    X, y, _ = thm6_1.build_case(Case("symmetric", 3), thm6_1.FAMILIES["symmetric"])
    side_w, side_u = np.where(y > 0, 1, -1), np.where(y > 0, -1, 1)  # the PAR pattern
    W = convex.nar_program(X, y, 0.3, np.where(y > 0, 1.0, 0.3), np.where(y > 0, 0.3, 1.0), k=2)
    good = audit.audit_subject({"X": X, "y": y, "pattern": (0.3, side_w, side_u, 2, 1.0, W)})
    bad = audit.audit_subject({"X": X, "y": y, "pattern": (0.3, side_w, side_u, 2, 1.0, 1.1 * W)})
    assert _failing(good) == set()
    # 1.1·W is feasible but not optimal: no multipliers fit (its margins are all > 1)
    assert "pattern-restricted (P): KKT stationarity" in _failing(bad)


@pytest.mark.usefixtures("thm41_R_x_squared_inverted")
def test_thm41_constants_with_R_x_inverted_are_caught_on_a_drawn_R_x():
    subject = sgd_configs.audit_subject(SGD_CASE)
    assert abs(np.linalg.norm(subject["X"], axis=1).max() - 1.0) > 0.05  # R_x drawn, not 1
    assert {"Thm 4.1 T_exact", "Thm 4.1 M"} <= _failing(audit.audit_subject(subject))


@pytest.mark.parametrize("module, family", [(eq6, "separable"), (thm6_1, "symmetric"),
                                            (thm6_2, "symmetric-a0.3")])
@pytest.mark.usefixtures("v_dropped_from_full_batch_gradient")
def test_v_dropped_from_the_flow_gradient_is_caught_on_a_v_not_1_family(module, family):
    subject = module.audit_subject(Case(family, 3))
    assert subject["net"].v == module.FAMILIES[family]["v"] != 1.0  # stated by the family
    failing = _failing(audit.audit_subject(subject))
    assert {"∇L, per-example loop of Eq. 3", "plain Euler replayed"} <= failing


def _followup_subject(module, family):
    """One case of a follow-up claim, its worker's result and the audit subject (runs cut)."""
    case = Case(family, 11)
    spec = dict(module.FAMILIES[family], gd_steps=40, flow_steps=300, steps=300)
    if "kind" in spec:  # nearly orthogonal data (kit.orthogonal)
        r = orthogonal.orth_cases(([case], spec, module.NET, module.NEEDS))[0]
        extra = orthogonal.audit_extra(r, module.NET["alpha"])
    else:
        r = antipodal.antipodal_cases(([case], spec, module.NET, module.INIT_SCALES, True))[0]
        extra = antipodal.audit_extra(r, module.NET["alpha"])
    return {**module.audit_subject(case), **extra}


@pytest.mark.parametrize("module", [kou2023, frei2023, lyu2021])
def test_no_followup_finding_fails_on_the_stock_engine(module):
    assert _failing(audit.audit_subject(_followup_subject(module, list(module.FAMILIES)[0]))) \
        == set()


@pytest.mark.usefixtures("stable_rank_without_squares")
def test_stable_rank_without_squares_is_caught_on_a_kou2023_case():
    failing = _failing(audit.audit_subject(_followup_subject(kou2023, "orth-n10-d40")))
    assert {"stable rank of the limit [srank_end]",
            "per-type stable rank of the limit [type_srank_end]"} <= failing


@pytest.mark.usefixtures("eq8_duals_at_half_scale")
def test_eq8_duals_at_half_scale_are_caught_by_their_certificate_on_kou2023():
    failing = _failing(audit.audit_subject(_followup_subject(kou2023, "orth-n10-d40")))
    assert "Eq. 8 kernel duals: KKT stationarity" in failing


@pytest.mark.usefixtures("radius_as_mean")
def test_cluster_radius_as_a_mean_is_caught_on_frei2023s_weyl_certificate():
    failing = _failing(audit.audit_subject(_followup_subject(frei2023, "orth-n10-d40")))
    assert "Weyl certificate √(2k)·r/σ_1 [weyl_bound]" in failing


# -- the whole claim ends ERROR ---------------------------------------------------------------
def _claim_error(claim_id):
    res = run_one(claim_id, seed=0, budget="quick", cases=1)
    assert res.verdict == "ERROR", (res.verdict, res.error)
    assert "the engine disagrees with its definition" in res.error
    return res.error


@pytest.mark.slow
@pytest.mark.usefixtures("sgd_with_replacement")
def test_thm41_errors_under_sgd_with_replacement():
    assert "SGD" in _claim_error("thm4.1")


@pytest.mark.slow
@pytest.mark.usefixtures("v_dropped_from_full_batch_gradient")
def test_thm41_errors_when_v_is_dropped_from_the_gradient():
    assert "∇L" in _claim_error("thm4.1")


@pytest.mark.slow
@pytest.mark.usefixtures("radius_as_mean")
def test_thm51_errors_when_the_radius_is_a_mean():
    error = _claim_error("thm5.1")
    assert "cluster radius r" in error or "band mask" in error


@pytest.mark.slow
@pytest.mark.usefixtures("thm41_constants_off_by_n")
def test_thm41_errors_when_its_constants_are_off_by_n():
    assert "Thm 4.1" in _claim_error("thm4.1")


@pytest.mark.slow
@pytest.mark.usefixtures("monitor_eps0_doubled")
def test_thm41_errors_when_the_checks_own_eps0_is_off_by_a_factor():
    assert "Thm 4.1 eps0" in _claim_error("thm4.1")


@pytest.mark.slow
@pytest.mark.usefixtures("thm41_R_x_squared_inverted")
def test_thm41_errors_when_R_x_squared_is_inverted_in_its_constants():
    assert "Thm 4.1" in _claim_error("thm4.1")


@pytest.mark.slow
@pytest.mark.usefixtures("v_dropped_from_full_batch_gradient")
def test_eq6_errors_when_v_is_dropped_from_the_flow_gradient():
    assert "∇L" in _claim_error("eq6")


@pytest.mark.slow
@pytest.mark.usefixtures("stable_rank_without_squares")
def test_kou2023_errors_when_the_stable_rank_drops_its_squares():
    assert "stable rank" in _claim_error("kou2023")


@pytest.mark.slow
@pytest.mark.usefixtures("eq8_duals_at_half_scale")
def test_consistency_errors_when_eq8_duals_are_at_half_scale():
    assert "Eq. 8 kernel duals" in _claim_error("consistency")


def _flow_subject():
    """A min2024 case with its flow audits (plain Euler at step ETA, the normalized flow)."""
    return min2024.audit_subject(Case("a0.15-n10", 6780416901653706390))


def test_a_wrong_time_in_the_gd_trace_rows_is_caught_by_the_audit(monkeypatch):
    """The trace's log time at each recorded gd/Euler step, not only the final one: the
    planted bug is log(s + h) for log(s·h) in the rows (Run.log_time stays right)."""
    real = linteach.train.flow_row

    def shifted(q_hat, terms, log_norm, s, log_time):
        h = min2024.ETA
        if s and np.all(np.isfinite(log_time)) and np.allclose(log_time, np.log(s * h)):
            log_time = np.log(s + h) * np.ones_like(log_time)
        return real(q_hat, terms, log_norm, s, log_time)
    monkeypatch.setattr(linteach.train, "flow_row", shifted)
    failing = _failing(audit.audit_subject(_flow_subject()))
    assert "plain Euler trace continuous time, every step" in failing
    assert "plain Euler continuous time" not in failing


def test_a_wrong_step_time_on_the_series_branch_is_caught_by_the_tiny_turn_audit(monkeypatch):
    """A step whose ‖∇L‖ barely moves takes the logarithmic mean's series branch, which no
    ordinary turn reaches: the planted bug drops its −gap/2 term to −1 there."""
    real = linteach.train._log_logmean

    def wrong(a, b):
        out = real(a, b)
        return np.where(np.abs(b - a) <= 1e-8, np.maximum(a, b) - 1.0, out)
    monkeypatch.setattr(linteach.train, "_log_logmean", wrong)
    failing = _failing(audit.audit_subject(_flow_subject()))
    assert failing == {"recorded continuous time = Σ step times (tiny turn)"}


def test_sgd_bookkeeping_off_by_one_is_caught_by_the_sgd_audit(monkeypatch):
    """The claims read SGD's trace by position and its epochs' updates by slot; the audit
    also checks the bookkeeping: the epoch numbers and ε0-mistakes of the trace (against the
    replay's margins), the callback's update count t and each filed epoch's t0."""
    real_finish, real_epoch, real_sgd = (linteach.train.finish, linteach.runs.EpochFiler.epoch,
                                         lt.sgd)

    def finish(direction, log_norm, rows, log_time=None):
        for row in rows[1:]:
            row["epoch"] = row["epoch"] + 1
            if "mistakes" in row:
                row["mistakes"] = row["mistakes"] + 1
        return real_finish(direction, log_norm, rows, log_time)

    def sgd(*a, callback=None, **kw):
        shifted = None if callback is None else (lambda t, W, info: callback(t + 1, W, info))
        return real_sgd(*a, callback=shifted, **kw)
    monkeypatch.setattr(linteach.train, "finish", finish)
    monkeypatch.setattr(linteach.runs.EpochFiler, "epoch", lambda self, e, t0, perms: (
        dataclasses.replace(u := real_epoch(self, e, t0 + 1, perms), index=u.index[..., ::-1])))
    monkeypatch.setattr(lt, "sgd", sgd)
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert {"SGD trace epoch numbers", "SGD ε0-mistakes per epoch (ε0 = ℓ(0): margins ≤ 0, "
            "replayed)", "SGD update count t of the callback",
            "SGD epoch filing: epoch and t0 (updates done before it)",
            "SGD epoch filing: visited indices = the callback's"} <= failing
    assert not any(q.startswith("SGD trajectory") for q in failing)


def test_a_wrong_one_run_sgd_update_is_caught_by_the_sgd_audit(monkeypatch):
    """The claims train batches of runs; a 2-D W takes the one-run update path, which the
    audit now runs for run 0 alone: the planted bug doubles its step (batched runs intact)."""
    real = Fused.sgd_update

    def doubled(self, W, x, y, ex, **kw):
        return real(self, W, x, y, (2.0 if W.ndim == 2 else 1.0) * ex, **kw)
    monkeypatch.setattr(Fused, "sgd_update", doubled)
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert failing == {"SGD run 0 alone (2-D W) = run 0 of the batch, bit for bit"}


def test_a_wrong_one_point_gradient_is_caught_by_the_sgd_audit(monkeypatch):
    """∇L of a one-point data set takes the kernel's outer-product branch, which no claim's
    data set (n > 1) takes: the audit steps along it once, against the replay of Eq. 3."""
    real = Fused.backward
    monkeypatch.setattr(Fused, "backward", lambda self, pre, X, coef: (
        2.0 if X.shape[-2] == 1 else 1.0) * real(self, pre, X, coef))
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    assert failing == {"first SGD update = −η ∇L of the one-point set (Eq. 3)"}


def test_a_wrong_p_certificate_is_caught_by_the_flow_audit(monkeypatch):
    """thm6.1's KKT clause bounds only the largest residual, loosely (it PASSed with the
    certificate's gradients formed as v/∇q): the flow audit re-derives the certificate's γ,
    stationarity and complementarity from its λ at the late direction.  Planted: the
    stationarity reported at half its value."""
    real = linteach.convex.kkt_certificate

    def halved(*a, **kw):
        cert = real(*a, **kw)
        return dataclasses.replace(cert, stationarity=cert.stationarity / 2)
    monkeypatch.setattr(linteach.convex, "kkt_certificate", halved)
    subject = thm6_1.audit_subject(Case("symmetric", 2239744932804118141))
    failing = _failing(audit.audit_subject(subject))
    assert "(P) certificate: stationarity from its λ" in failing
    assert not any(q.startswith("(P) certificate: normalised") for q in failing)
