"""Reviewer pages and the claims summary are generated from the data (issue 14.4).

The committed pages' generated sections must match ``docs/claims.json`` (the staleness
test), the hand-written part survives regeneration, every number in a section comes from
the report, the summary table defines its columns and flags PASSes on few witnesses, and
claims can state their slack unit.
"""
import json
import struct
import types
from pathlib import Path

import numpy as np
import pytest

from proofs_check import pages, report
from proofs_check.__main__ import main
from proofs_check.engine import io, runner
from proofs_check.engine.contract import Claim, Clause, validate
from proofs_check.engine.distribution import QUANTILES, slack_distribution

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def test_committed_pages_are_fresh_relative_to_docs_claims_json():
    doc = report.load(DOCS / "claims.json")
    stale = pages.stale_pages(doc, DOCS / "claims")
    assert stale == [], (f"generated sections of {stale} are stale: run python -m "
                         "proofs_check --from docs/claims.json --pages docs/claims")


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    path = tmp_path_factory.mktemp("pages") / "c.json"
    mp = pytest.MonkeyPatch()
    mp.setattr(io, "code_fingerprint", lambda: "fixed")
    try:
        main(["--selftest", "--only", "self.sgd", "self.fail", "--budget", "quick",
              "--workers", "0", "--no-checkpoint", "--quiet", "--json", str(path)])
    finally:
        mp.undo()
    return report.load(path)


def test_the_hand_written_part_is_kept_and_the_section_replaced(doc, tmp_path):
    page = tmp_path / "self.sgd.md"
    page.write_text("# self.sgd\n\nHand-written statement.\n\n## Proof sketch\n\nKept.\n")
    pages.update_pages(doc, tmp_path)
    first = page.read_text()
    assert first.startswith("# self.sgd\n\nHand-written statement.\n\n## Proof sketch\n\nKept.")
    assert first.count(pages.BEGIN) == first.count(pages.END) == 1
    # stale numbers inside the markers are replaced, text after the markers is kept
    stale = first.replace("**Verdict: PASS**", "**Verdict: FAIL**") + "\nTrailing note.\n"
    page.write_text(stale)
    assert pages.stale_pages(doc, tmp_path) == ["self.sgd"]
    pages.update_pages(doc, tmp_path)
    assert page.read_text() == first + "\nTrailing note.\n"
    assert pages.stale_pages(doc, tmp_path) == []


def test_every_number_in_a_section_comes_from_the_report(doc):
    claim = next(c for c in doc["claims"] if c["id"] == "self.fail")
    text = pages.generated_section(doc, claim)
    w = claim["clauses"]["init_margin_positive"]
    assert f"{w['worst_slack']:.4g}" in text and str(w["seed"]) in text
    assert f"Cases tried: {claim['cases']}" in text
    assert doc["manifest"]["claims"]["self.fail"]["ledger_sha256"][:16] in text
    # change a number in the data: the section changes with it
    other = json.loads(json.dumps(doc))
    next(c for c in other["claims"] if c["id"] == "self.fail")["clauses"][
        "init_margin_positive"]["worst_slack"] = -123.0
    changed = pages.generated_section(other, next(c for c in other["claims"]
                                                  if c["id"] == "self.fail"))
    assert changed != text and "-123" in changed


def test_the_slack_plot_is_a_png_from_the_distribution(doc, tmp_path):
    pytest.importorskip("matplotlib")
    pages.update_pages(doc, tmp_path)
    png = tmp_path / pages.plot_name("self.sgd")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 300 and height > 200
    assert f"]({pages.plot_name('self.sgd')})" in (tmp_path / "self.sgd.md").read_text()
    pages.update_pages(doc, tmp_path)
    assert png.read_bytes() == data  # regenerating gives the same bytes


def test_the_summary_table_defines_its_columns_and_flags_few_witnesses(doc):
    few = json.loads(json.dumps(doc))
    claim = next(c for c in few["claims"] if c["id"] == "self.sgd")
    claim["clauses"]["euler"]["evaluated"] = 1
    text = report.to_markdown(few)
    header = next(line for line in text.splitlines() if line.startswith("| claim |"))
    for name, _ in report.COLUMNS:
        assert f"| {name} " in header
        assert f"- **{name}**: " in text
    row = next(line for line in text.splitlines() if line.startswith("| `self.sgd` |"))
    assert "| 1 ⚠ |" in row
    plain = report.to_markdown(doc)
    row = next(line for line in plain.splitlines() if line.startswith("| `self.sgd` |"))
    assert "⚠" not in row and "observed" in row


def _run(claim, check):
    module = types.SimpleNamespace(CLAIM=claim, check=check)
    return runner.run_one(claim.id, seed=0, budget="quick", load=lambda _: module)


def _control(ctx):
    ctx.negative_control(True, "planted", controls=1)


def test_counts_in_the_summary_are_distinct_quantities():
    claim = Claim("t", "s", "docs/math.md §1", hypotheses="h", cases="c", control="n",
                  clauses=("a",))

    def check(ctx):
        cases = ctx.cases(5, "f")
        ctx.record("a", 1.0, cases[0])
        ctx.record("a", 2.0, cases[0])      # two evaluations, one case
        ctx.record("a", 0.5, cases[1])
        ctx.inconclusive(cases[2], "r")
        ctx.inconclusive(cases[2], "another run of the same case")
        ctx.assumption_not_met(cases[3], "r")
        ctx.assumption_not_met(cases[1], "one run of an evaluated case")
        _control(ctx)

    result = _run(claim, check)
    assert result.counts["cases"] == 5 and result.counts["evaluated"] == 2
    assert result.counts["inconclusive_cases"] == 1 and result.counts["inconclusive"] == 2
    assert result.counts["assumption_not_met_cases"] == 2
    row = [line for line in report.summary_rows({"claims": [result.to_dict()],
                                                 "not_checked": []}) if "`t`" in line][0]
    assert "| 5 | 2 | 1 | 2 |" in row  # tried, evaluated, inconclusive, not met (cases)
    assert result.clauses["a"]["evaluated"] == 3
    assert result.clauses["a"]["distribution"]["quantiles"][0] == [0.0, 0.5]


def test_slack_unit_is_declared_per_claim_or_clause_and_reported():
    claim = Claim("t", "s", "docs/math.md §1", hypotheses="h", cases="c", control="n",
                  clauses=(Clause("a", slack_unit="radians"), "b"), slack_unit="relative error")
    assert validate(claim).unit("a") == "radians" and claim.unit("b") == "relative error"
    assert Claim("u", "s", "r", clauses=("a",)).unit("a") == ""  # the default
    with pytest.raises(TypeError, match="`slack_unit` must be a str"):
        validate(Claim("t", "s", "docs/math.md §1", hypotheses="h", cases="c", control="n",
                       clauses=(Clause("a", slack_unit=1),)))

    def check(ctx):
        case = ctx.cases(1, "f")[0]
        ctx.record("a", 0.1, case)
        ctx.record("b", 0.2, case)
        _control(ctx)

    result = _run(claim, check)
    assert result.clauses["a"]["slack_unit"] == "radians"
    assert result.clauses["b"]["slack_unit"] == "relative error"
    row = [line for line in report.summary_rows({"claims": [result.to_dict()],
                                                 "not_checked": []}) if "`t`" in line][0]
    assert "radians (`a`)" in row


def test_slack_distribution_records_observed_order_statistics():
    values = np.random.default_rng(3).normal(size=101)
    dist = slack_distribution(values)
    assert [q for q, _ in dist["quantiles"]] == list(QUANTILES)
    assert all(v in values for _, v in dist["quantiles"])
    assert dist["quantiles"][0][1] == values.min() and dist["quantiles"][-1][1] == values.max()
    assert dist["negative"] == int(np.sum(values < 0)) and dist["evaluated"] == 101
    assert slack_distribution([np.inf, 1.0])["quantiles"][-1] == [1.0, np.inf]


def test_cli_pages_flag_regenerates_from_an_existing_report(doc, tmp_path):
    src = tmp_path / "c.json"
    src.write_text(report.dumps(doc))
    assert main(["--from", str(src), "--pages", str(tmp_path / "pages")]) == 0
    assert pages.stale_pages(doc, tmp_path / "pages") == []


def test_measurements_render_as_readable_nested_lists():
    value = {"limit": {"one_minus_cos": [4.162082967e-08, 9.514e-05], "runs": 6},
             "grid": {f"n={n}": float(n) for n in range(8)}, "reasons": ["r"] * 9,
             "pins": [{"k": 2}], "flag": None}
    lines = pages.measured_lines("m", value)
    assert lines[:4] == ["- `m`:", "  - `limit`:", "    - `one_minus_cos`: [4.162e-08, 9.514e-05]",
                         "    - `runs`: 6"]
    assert lines[4] == "  - `grid`: " + "; ".join(f"n={n} = {n}" for n in range(8))
    assert lines[5:] == ["  - `reasons`: 9 entries (listed in claims.json)",
                         '  - `pins`: `[{"k": 2}]`', "  - `flag`: —"]
    assert pages.measured_lines("x", 1.23456e-7) == ["- `x`: 1.235e-07"]


def test_a_unit_with_a_bar_stays_in_its_table_cell(doc):
    other = json.loads(json.dumps(doc))
    claim = next(c for c in other["claims"] if c["id"] == "self.sgd")
    for w in claim["clauses"].values():
        w["slack_unit"] = "fraction of |γ̄|"
    for text in (pages.generated_section(other, claim), report.to_markdown(other)):
        rows = [line for line in text.splitlines() if "fraction of" in line]
        assert rows and all("fraction of \\|γ̄\\|" in line for line in rows)
