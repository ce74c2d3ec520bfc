"""Smoke tests of the figure package at its ``small`` size, plus the few claims a figure makes.

Every figure renders into ``tmp_path``: the PNG is a non-empty PNG, the JSON has the
common keys and the figure's own data keys, and the JSON alone redraws the PNG.
"""
import json
import subprocess
import sys

import numpy as np
import pytest
from tolerances import SEARCH_SLACK

figures = pytest.importorskip("linteach.figures")

#: the data each figure's JSON must carry to be redrawn (the contract of each module)
DATA_KEYS = {
    "fig1": {"X", "y", "n_points", "runs"},
    "fig2": {"runs"},
    "fig3": {"X", "y", "W", "theta_deg", "output_on_circle", "linear_on_circle"},
    "fig4": {"X", "y", "W_direction", "w_eq8", "u_eq8", "w_svm"},
    "fig5": {"note"},
    "fig6": {"runs"},
    "fig7": {"runs"},
    "fig8": {"updates", "n_points", "par_w", "par_u", "loss"},
    "fig9": {"X", "y", "updates", "W_end_of_sgd", "scan_counts", "accuracy", "n_diff_w",
             "n_diff_u", "par_w", "par_u"},
    "thm4.1": {"measured", "T_exact", "M", "median"},
    "thm5.1": {"alphas", "sharp", "random_best", "climbed"},
}
DIGIT_RUN_KEYS = {"pair", "n_train", "n_test", "epoch", "relative_r", "max_angle_deg"}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every figure rendered once at the small size (seed 0)."""
    out = tmp_path_factory.mktemp("figures")
    return out, {fid: figures.render(fid, out, seed=0, size="small", quiet=True)
                 for fid in figures.figure_ids()}


def test_registry_lists_every_figure_of_the_issue():
    assert set(figures.figure_ids()) == set(DATA_KEYS)


@pytest.mark.parametrize("fid", sorted(DATA_KEYS))
def test_png_and_json_written(rendered, fid):
    png, js = rendered[1][fid]
    assert png.name == f"{fid}.png" and js.name == f"{fid}.json"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 5_000  # an actual picture, not an empty canvas
    payload = json.loads(js.read_text())
    assert set(figures.TOP_KEYS) <= set(payload)
    assert payload["id"] == fid and payload["seed"] == 0 and payload["size"] == "small"
    assert DATA_KEYS[fid] <= set(payload["data"])
    assert payload["settings"] == figures.module(fid).SIZES["small"]


@pytest.mark.parametrize("fid", ["fig2", "fig6", "fig7"])
def test_digit_runs_carry_their_curves(rendered, fid):
    payload = json.loads(rendered[1][fid][1].read_text())
    for run in payload["data"]["runs"]:
        assert DIGIT_RUN_KEYS <= set(run)
        n_scales = len(payload["settings"]["scales"])
        assert np.asarray(run["relative_r"]).shape == (len(run["epoch"]), n_scales)


@pytest.mark.parametrize("fid", ["fig4", "fig9", "thm4.1"])
def test_json_alone_redraws_the_png(rendered, fid, tmp_path):
    png = figures.redraw(rendered[1][fid][1], tmp_path / "again.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fid", ["fig1", "fig5"])
def test_same_seed_same_json(rendered, fid, tmp_path):
    _, js = figures.render(fid, tmp_path, seed=0, size="small", quiet=True)
    assert js.read_bytes() == rendered[1][fid][1].read_bytes()


def test_other_seed_other_numbers(rendered, tmp_path):
    _, js = figures.render("fig1", tmp_path, seed=1, size="small", quiet=True)
    assert json.loads(js.read_text())["data"]["X"] != \
        json.loads(rendered[1]["fig1"][1].read_text())["data"]["X"]


def test_fig5_leaky_boundary_linear_relu_not(rendered):
    """Corollary 6.1 vs App. D.1, on the plotting grid."""
    sm = json.loads(rendered[1]["fig5"][1].read_text())["summary"]
    assert sm["alpha_0.3"]["grid_fraction_sign_differs_from_linear"] == 0.0
    assert sm["alpha_0"]["grid_fraction_zero_output"] > 0.05


def test_thm51_search_never_beats_the_sharp_constant(rendered):
    d = json.loads(rendered[1]["thm5.1"][1].read_text())["data"]
    found = np.max(d["climbed"], axis=1)
    assert np.all(found <= np.asarray(d["sharp"]) * (1 + SEARCH_SLACK))
    assert np.all(found > 0)  # the search did find violations to measure


def test_thm41_measured_within_bound(rendered):
    d = json.loads(rendered[1]["thm4.1"][1].read_text())["data"]
    measured = np.array(d["measured"], dtype=float)
    ok = np.isfinite(measured)
    assert ok.any()
    assert np.all(measured[ok] <= np.asarray(d["T_exact"])[ok])


@pytest.mark.parametrize("fig_id, expected", [("1", "fig1"), ("FIG4", "fig4"),
                                              ("thm41", "thm4.1"), (" thm5.1 ", "thm5.1")])
def test_normalize_id_aliases(fig_id, expected):
    assert figures.normalize_id(fig_id) == expected


@pytest.mark.parametrize("call, exc, match", [
    (lambda p: figures.render("fig10", p), ValueError, "`fig_id` must be one of"),
    (lambda p: figures.render(4, p), TypeError, "`fig_id` must be a str"),
    (lambda p: figures.render("fig5", p, size="huge"), ValueError, "`size` must be one of"),
    (lambda p: figures.render("fig5", p, seed=-1), ValueError, "`seed` must be >= 0"),
    (lambda p: figures.render("fig5", p, seed=1.5), TypeError, "`seed` must be an integer"),
])
def test_bad_arguments(tmp_path, call, exc, match):
    with pytest.raises(exc, match=match):
        call(tmp_path)


def test_import_linteach_does_not_import_matplotlib():
    code = ("import sys, linteach; assert 'matplotlib' not in sys.modules; "
            "import linteach.figures; assert 'matplotlib' in sys.modules; "
            "assert 'matplotlib.pyplot' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
