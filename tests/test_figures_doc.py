"""``docs/figures.md``: every number under "Ours" is generated from the figures' JSON.

The committed page must equal what :mod:`linteach.figures.doc` renders from the committed
``docs/figures/*.json``; a stale block (a figure regenerated without its page, or a number
edited by hand) fails here.  The machinery itself is checked on a copy.
"""
import json
import shutil
from pathlib import Path

import pytest

doc = pytest.importorskip("linteach.figures.doc")

ROOT = Path(__file__).resolve().parents[1]
PAGE, FIGS = ROOT / "docs" / "figures.md", ROOT / "docs" / "figures"


def test_every_generated_block_of_docs_figures_md_is_up_to_date():
    assert doc.stale(PAGE, FIGS) == [], (
        "docs/figures.md is stale: run `.venv/bin/python -m linteach.figures.doc "
        "docs/figures docs/figures.md` (make figures does)")


def test_every_figure_has_a_block():
    text = PAGE.read_text()
    for fig_id in doc.BLOCKS:
        assert f"<!-- generated: {fig_id} " in text and f"<!-- end generated: {fig_id} -->" in text


def test_a_hand_edited_number_is_caught(tmp_path):
    page = tmp_path / "figures.md"
    text = PAGE.read_text()
    start = text.index("<!-- generated: fig8 ")
    end = text.index("<!-- end generated: fig8 -->")
    block = text[start:end]
    edited = block.replace("| never |", "| 12345 |") if "| never |" in block else block + "x"
    page.write_text(text[:start] + edited + text[end:])
    assert doc.stale(page, FIGS) == ["fig8"]
    assert doc.update(page, FIGS) == []
    assert page.read_text() == text


def test_a_changed_json_makes_its_block_stale(tmp_path):
    figs = tmp_path / "figures"
    shutil.copytree(FIGS, figs, ignore=shutil.ignore_patterns("*.png"))
    payload = json.loads((figs / "fig5.json").read_text())
    payload["summary"]["alpha_0"]["grid_fraction_zero_output"] = 0.5
    (figs / "fig5.json").write_text(json.dumps(payload))
    assert doc.stale(PAGE, figs) == ["fig5"]
    assert "50%" in doc.block("fig5", figs)


def test_check_mode_exit_status(tmp_path, capsys):
    assert doc.main([str(FIGS), str(PAGE), "--check"]) == 0
    page = tmp_path / "figures.md"
    page.write_text("no blocks at all\n")
    assert doc.main([str(FIGS), str(page), "--check"]) == 1
    assert "stale or missing blocks: fig1" in capsys.readouterr().out
