"""Claim ``thm4.1`` (proofs_check/claims/thm4_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np
import pytest

import linteach as lt
from proofs_check.claims import thm4_1
from proofs_check.engine.context import verdict_of
from proofs_check.engine.contract import Case
from proofs_check.engine.runner import run_one
from proofs_check.kit import sgd_configs, thm4_report
from proofs_check.kit.sgd_cases import Monitor, theorem_teacher
from claim_support import fresh_context, passes


def test_thm41_passes_and_catches_its_control():
    assert passes("thm4.1").verdict == "PASS"


# -- Theorem 4.1 -------------------------------------------------------------------------------
def _sgd_case(ctx, family, **item):
    spec = sgd_configs.CONTROL_FAMILIES.get(family) or sgd_configs.FAMILIES[family]
    case = ctx.cases(1, family)[0]
    return case, sgd_configs.run_sgd_case({"case": case, "spec": spec, "epoch_scale": 0.5, **item})


def test_corrupted_sgd_fails_the_invariants():
    ctx = fresh_context(thm4_1)
    case, res = _sgd_case(ctx, "corrupted-sgd", corrupt=True)
    thm4_report.record_sgd_result(ctx, case, res)
    assert verdict_of(ctx) == "FAIL"
    assert ctx.worst["F_gain_per_step"].slack < 0 or ctx.worst["G2_gain_per_step"].slack < 0


def test_nonseparable_data_is_assumption_not_met():
    ctx = fresh_context(thm4_1)
    case, res = _sgd_case(ctx, "nonseparable")
    thm4_report.record_sgd_result(ctx, case, res)
    assert verdict_of(ctx) == "ASSUMPTION-NOT-MET"


@pytest.mark.parametrize("clause, change", [
    ("max_loss_le_eps_in_first_mistake_free_epoch",
     lambda r: {"free_max_loss": np.where(r["free_found"], 2 * np.max(r["config"]["eps"]), 0.0)}),
    ("updates_to_eps_le_M", lambda r: {"M": np.where(r["t_eps"] > 1, 1.0, r["M"])}),
    ("updates_to_eps_le_T_exact",
     lambda r: {"T_exact": np.where(r["t_eps"] > 1, 1.0, r["T_exact"])}),
    ("mistake_epochs_le_T_exact_over_n",
     lambda r: {"T_exact": np.full_like(r["T_exact"], 0.5)}),
])
def test_counting_clauses_flag_planted_violations(clause, change):
    ctx = fresh_context(thm4_1)
    case, res = _sgd_case(ctx, "small-n")
    thm4_report.record_sgd_result(ctx, case, {**res, **change(res)})
    assert ctx.worst[clause].slack < 0 and verdict_of(ctx) == "FAIL"


@pytest.fixture(scope="module")
def small_case():
    """One trained small-n case (its context's stream) and its result, shared read-only."""
    return _sgd_case(fresh_context(thm4_1), "small-n")


def _recorded(case, res):
    ctx = fresh_context(thm4_1)
    thm4_report.record_sgd_result(ctx, case, res)
    return ctx


def _inconclusive_about(ctx, clause):
    return [r for r in ctx.reasons["inconclusive"] if f": {clause}: " in r]


@pytest.mark.parametrize("clause", ["updates_to_eps_le_T_exact", "updates_to_eps_le_M"])
def test_a_pair_that_never_reached_eps_fails_once_it_ran_past_the_bound(small_case, clause):
    """Censored pairs: not reaching ε is inconclusive while the run is within its bound (the
    clause evaluated on no pair), and a FAIL with slack 1 − (n·epochs + 1)/bound once the
    first iterate that could still reach ε lies past the bound."""
    case, res = small_case
    never = {"t_eps": np.full_like(np.asarray(res["t_eps"]), -1)}
    # iterates 0..n·epochs were checked: the first with L ≤ ε is at least n·epochs + 1
    done = res["config"]["n"] * res["config"]["epochs"] + 1
    # within the bound: half of it (the slack would be 0.5), next to none (1.0), or all of it
    # (0: the first iterate with L ≤ ε may be the very next one, at the bound)
    for within in (2.0 * done, 1e300, float(done)):
        ctx = _recorded(case, {**res, **never, **{key: np.full_like(np.asarray(res[key]), within)
                                                  for key in ("T_exact", "M")}})
        assert clause not in ctx.worst
        assert len(_inconclusive_about(ctx, clause)) == 1
    bound = "T_exact" if clause.endswith("T_exact") else "M"
    ctx = _recorded(case, {**res, **never, bound: np.full_like(np.asarray(res[bound]), 0.5)})
    assert ctx.worst[clause].slack == 1.0 - done / 0.5 and verdict_of(ctx) == "FAIL"
    assert not _inconclusive_about(ctx, clause)


@pytest.mark.parametrize("clause", ["updates_to_eps_le_T_exact", "updates_to_eps_le_M"])
def test_a_censored_pair_just_past_its_bound_is_a_fail_of_its_own_slack(small_case, clause):
    """Updates made without reaching ε at 1.5× the bound: slack −0.5, settled (a FAIL), for
    any slack below 0, not only far below."""
    case, res = small_case
    done = res["config"]["n"] * res["config"]["epochs"] + 1
    bound = "T_exact" if clause.endswith("T_exact") else "M"
    ctx = _recorded(case, {**res, "t_eps": np.full_like(np.asarray(res["t_eps"]), -1),
                           bound: np.full_like(np.asarray(res[bound]), done / 1.5)})
    assert ctx.worst[clause].slack == pytest.approx(-0.5, rel=1e-15)
    assert not _inconclusive_about(ctx, clause)


def test_mistake_epochs_without_a_mistake_free_epoch_settle_only_past_the_bound(small_case):
    """No mistake-free epoch yet: the count of leading mistake epochs is a lower bound, so
    it settles clause 2 only when n·count already exceeds T_exact (slack 1 − n·count/T <
    0, here −0.5); up to T_exact itself the pair is inconclusive, never a pass."""
    case, res = small_case
    n, clause = res["config"]["n"], "mistake_epochs_le_T_exact_over_n"
    shape = np.asarray(res["T_exact"]).shape
    unfound = {"free_found": np.zeros(shape, dtype=bool), "lead_epochs": np.full(shape, 3)}
    # the slack would be 0.5, 1.0, or 0 (n·count = T_exact: the true count may exceed it)
    for within in (6.0 * n, 1e300, 3.0 * n):
        ctx = _recorded(case, {**res, **unfound, "T_exact": np.full(shape, within)})
        assert clause not in ctx.worst and len(_inconclusive_about(ctx, clause)) == 1
    ctx = _recorded(case, {**res, **unfound, "T_exact": np.full(shape, 2.0 * n)})
    assert ctx.worst[clause].slack == -0.5 and not _inconclusive_about(ctx, clause)
    assert verdict_of(ctx) == "FAIL"


def test_a_pair_that_reached_eps_before_its_first_update_is_settled(small_case):
    """t_eps = 0 (L ≤ ε at the start) is a pair that reached ε: slack 1 − 0/bound = 1, none
    inconclusive, whatever the run made afterwards."""
    case, res = small_case
    ctx = _recorded(case, {**res, "t_eps": np.zeros_like(np.asarray(res["t_eps"]))})
    for clause in ("updates_to_eps_le_T_exact", "updates_to_eps_le_M"):
        assert ctx.worst[clause].slack == 1.0 and not _inconclusive_about(ctx, clause)


@pytest.mark.parametrize("ratio", [0.5, 1.25])
def test_the_epoch_loss_clause_s_slack_is_one_minus_the_loss_over_eps(small_case, ratio):
    """Clause 3's slack is 1 − max loss/ε on every settled pair: a loss of ratio·ε gives
    1 − ratio (a violation just past ε is caught, and by how much)."""
    case, res = small_case
    found = np.asarray(res["free_found"], dtype=bool)
    assert found.any()
    eps = np.broadcast_to(np.asarray(res["config"]["eps"], dtype=float), found.shape)
    ctx = _recorded(case, {**res, "free_max_loss": np.where(found, ratio * eps, 0.0)})
    clause = "max_loss_le_eps_in_first_mistake_free_epoch"
    assert ctx.worst[clause].slack == pytest.approx(1.0 - ratio, rel=1e-15)
    assert (verdict_of(ctx) == "FAIL") == (ratio > 1)


def test_monitor_matches_a_naive_replay(rng):
    ds = lt.make_separable(6, 2, margin=0.4, rng=rng)
    w_star = theorem_teacher(ds.X, ds.y)
    net = lt.Net(k=2, alpha=0.3, v=0.8)
    W0 = net.init(2, scale=0.1, rng=rng, batch=2)
    eps, eta = [0.3, 0.05], 0.5
    mon = Monitor(net, ds.X, ds.y, w_star, eps, eta=eta, W0=W0)
    Ws, gs, before = [W0.copy()], [], []

    def both(t, W, info):
        Ws.append(W.copy())
        gs.append(info["g"].copy())
        before.append(info["loss_before"].copy())
        mon(t, W, info)

    lt.sgd(net, W0, ds, eta=eta, n_epochs=30, rng=rng, callback=both)
    Ws, gs, before = np.array(Ws), np.array(gs), np.array(before)  # (T+1, R, ...), (T, R)
    Wstar = np.concatenate([np.tile(w_star, (2, 1)), -np.tile(w_star, (2, 1))])
    gain_F = np.einsum("trij,ij->tr", np.diff(Ws, axis=0), Wstar)
    np.testing.assert_allclose(mon.F_slack, ((gain_F - 2 * 2 * eta * 0.8 * 0.3 * gs)
                                             / (2 * 2 * eta * 0.8 * 0.3 * gs)).min(0),
                               rtol=1e-6, atol=1e-9)
    mean_loss = np.array([net.loss(W, ds.X, ds.y) for W in Ws])          # (T+1, R)
    for e, target_eps in enumerate(eps):
        for r in range(2):
            hits = np.flatnonzero(mean_loss[:, r] <= target_eps)
            assert mon.t_eps[r, e] == (hits[0] if hits.size else -1)
            mistakes = (before[:, r] >= mon.eps0[e]).reshape(30, 6).sum(1)
            lead = np.argmax(mistakes == 0) if (mistakes == 0).any() else 30
            assert mon.lead_epochs[r, e] == lead
            assert mon.free_found[r, e] == (mistakes == 0).any()


def test_a_case_replays_from_family_and_seed():
    """The runner's replay of one recorded case reproduces its ledger entry exactly."""
    full = run_one("thm4.1", seed=0, budget="quick", cases=1)
    key = next(iter(full.ledger))
    family, seed = key.rsplit("/", 1)
    replay = run_one("thm4.1", seed=0, budget="quick", replay=Case(family, int(seed)))
    assert list(replay.ledger) == [key]
    assert replay.ledger[key] == full.ledger[key]


@pytest.mark.parametrize("family", ["small-n", "large-n", "large-init", "scaling-n16"])
def test_families_draw_R_x_in_their_stated_range_and_the_audit_uses_it(family):
    spec = sgd_configs.FAMILIES[family]
    for seed in (1, 2, 3):
        subject = sgd_configs.audit_subject(Case(family, seed))
        R_x = float(np.linalg.norm(subject["X"], axis=1).max())
        if "R_x" in spec:  # drawn log-uniform; every constant the audit checks sees it
            assert spec["R_x"][0] <= R_x <= spec["R_x"][1] and abs(R_x - 1.0) > 1e-6
            assert all(inputs["R_x"] == R_x for inputs, _ in subject["bounds"])
        else:  # the scaling families keep make_separable's unit radius
            assert R_x == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("augment", [False, True])
def test_a_case_trains_and_reports_the_objects_its_seed_rebuilds(augment):
    """What ``run_sgd_cases`` trains and reports is what the engine audit rebuilds from the
    case's seed (``audit_subject``): the data and the inits (their ledger digests), each
    run's R_0, the teacher's γ = 1/‖w*‖, n, d, and the epoch cap; and an item's defaults
    are the documented ones (lifted at offset 0.5, not augmented, 64 cases of 4 runs)."""
    from proofs_check.engine.contract import digest

    spec = sgd_configs.FAMILIES["small-n"]
    case = Case("small-n", 31)
    item = {"case": case, "spec": spec, "epoch_scale": 0.05}
    if augment:
        item["augment"] = True
    res = sgd_configs.run_sgd_case(item)
    sub = sgd_configs.audit_subject(case, augment=augment)
    assert res["digests"]["data"] == digest(sub["X"])
    assert res["digests"]["W0"] == digest(sub["W"])
    np.testing.assert_array_equal(res["R_0"], np.linalg.norm(sub["W"], axis=-1).max(axis=-1))
    cfg = res["config"]
    assert cfg["gamma"] == 1.0 / np.linalg.norm(sub["teacher"])
    assert (cfg["n"], cfg["d"]) == sub["X"].shape
    assert cfg["max_epochs"] == max(1, round(spec["epochs"] * 0.05)) == 15
    assert cfg["epochs"] <= cfg["max_epochs"]
    tiny = sgd_configs.run_sgd_case({**item, "epoch_scale": 1e-3})  # a cap rounding to 0
    assert tiny["config"]["max_epochs"] == tiny["config"]["epochs"] == 1
    (part, made), = sgd_configs.sgd_items([case], spec)
    assert (made["augment"], made["offset"], made["corrupt"]) == (False, 0.5, False)
    assert len(sgd_configs.sgd_items([Case("small-n", s) for s in range(2)], spec,
                                     chunk=1)) == 2


@pytest.mark.parametrize("n, d, k", [(30, 5, 3), (17, 3, 10)])
def test_the_iterate_losses_of_runs_together_are_each_run_s_alone(monkeypatch, n, d, k):
    """The monitor's loss at every iterate of an epoch, for all runs at once or one run at
    a time (ITERATE_BLOCK bounding the pre-activations): the same bits, and by definition."""
    from proofs_check.kit import sgd_cases
    rng = np.random.default_rng(3)
    ds = lt.make_separable(n, d, margin=0.5, rng=rng)
    net = lt.Net(k=k, alpha=0.3)
    mon = Monitor(net, ds.X, ds.y, theorem_teacher(ds.X, ds.y), [0.2], eta=0.1,
                  W0=net.init(d, scale=0.1, rng=rng, batch=4))
    mon.buf[...] = rng.standard_normal(mon.buf.shape)
    together = mon._iterate_losses()
    monkeypatch.setattr(sgd_cases, "ITERATE_BLOCK", 1)
    np.testing.assert_array_equal(mon._iterate_losses(), together)
    ell = lt.loss.ell(ds.y * net.forward(mon.buf[2, 5], ds.X))
    assert together[0, 2, 5] == ell.max() and together[1, 2, 5] == ell.mean()
