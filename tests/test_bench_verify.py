"""Rows 5 of the benchmark: the standard run (``make verify``) and the thorough run."""
from linteach.bench import report, rows_verify as rv, run


def _claims(**cases):
    return [{"id": cid, "verdict": "PASS", "seconds": 1.0, "cases": n}
            for cid, n in cases.items()]


def _fake_run(claims, wall=100.0):
    return {"wall": wall, "claims": claims, "not_checked": [], "exit_status": 0,
            "command": "-m proofs_check", "tail": []}


def test_the_case_ratio_counts_only_the_claims_both_runs_drew_cases_for():
    thorough = _claims(a=50, b=100, c=7, d=0)
    standard = _claims(a=10, b=10, d=3)
    assert rv.case_ratio(thorough, standard) == (150, 20, {"a": 5.0, "b": 10.0})


def test_thorough_rows_judge_wall_time_and_case_ratio_at_the_issues_targets(monkeypatch):
    assert rv.THOROUGH_TARGET_SECONDS == 600 and rv.CASES_FACTOR * rv.FILED_THOROUGH_SCALE == 50
    standard = {"claims": _claims(a=10, b=2)}
    for wall, (ta, tb), met in ((600.0, (500, 100), (True, True)),
                                (600.5, (499, 100), (False, False))):
        monkeypatch.setattr(rv, "run_budget", lambda budget, seed, timeout, wall=wall, ta=ta,
                            tb=tb: _fake_run(_claims(a=ta, b=tb), wall))
        time_row, cases_row = rv.thorough_rows(standard)
        assert (time_row["met"], cases_row["met"]) == met
        assert cases_row["value"] == (ta + tb) / 12
        assert cases_row["detail"]["per claim"] == {"a": ta / 10, "b": tb / 2}


def test_a_thorough_run_stopped_by_its_timeout_is_missed_and_says_so(monkeypatch):
    stopped = {**_fake_run([], None), "exit_status": None, "tail": ["stopped: still running"]}
    monkeypatch.setattr(rv, "run_budget", lambda budget, seed, timeout: stopped)
    time_row, cases_row = rv.thorough_rows({"claims": _claims(a=1)})
    assert time_row["met"] is False and time_row["value"] is None
    assert cases_row["met"] is None and cases_row["value"] is None  # nothing was counted
    assert "stopped: still running" in "\n".join(report._details(time_row))
    assert "—" in report.table([time_row, cases_row])


def test_a_full_bench_runs_the_thorough_run_against_the_standard_runs_counts(monkeypatch):
    seen = []
    monkeypatch.setattr(rv, "make_verify", lambda: {"id": "5 std", "claims": _claims(a=1)})
    monkeypatch.setattr(rv, "thorough_rows", lambda standard: seen.append(standard) or [])
    quick = [fn for _, kind, fn in run._plan(3, quick=True, skip_verify=False)
             if kind == "verify"]
    assert len(quick) == 1 and quick[0]()["id"] == "5 std" and seen == []
    full = [fn for _, kind, fn in run._plan(3, quick=False, skip_verify=False)
            if kind == "verify"]
    assert len(full) == 2
    standard = full[0]()
    full[1]()
    assert seen == [standard]
    assert not [k for _, k, _ in run._plan(3, quick=False, skip_verify=True) if k == "verify"]


def test_the_scale_page_lists_the_whole_run_verdicts_beside_the_campaign_rows():
    from linteach.bench import rows_campaign
    rows = [{"id": "5 (proofs_check --budget thorough, every claim)", "value": 900.0,
             "unit": " s", "target": "<= 600 s", "met": False},
            {"id": "5 (thorough cases over standard)", "value": 5.0, "unit": "×",
             "target": ">= 50×", "met": False},
            {"id": "1 (not a whole run)", "value": 1.0, "unit": "×", "target": "<= 2×",
             "met": True}]
    text = rows_campaign.scale_section({"rows": rows, "machine": {}})
    assert "| 5 (proofs_check --budget thorough, every claim) | 900 s | <= 600 s | missed |" \
        in text
    assert "| 5 (thorough cases over standard) | 5× | >= 50× | missed |" in text
    assert "1 (not a whole run)" not in text
