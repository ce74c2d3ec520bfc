"""The ``linteach`` command: figure, train and bench, called through ``main``."""
import json
import subprocess
import sys

import pytest

from linteach import cli

SMALL_TRAIN = ["train", "--n", "20", "--d", "3", "--k", "3", "--epochs", "3"]


def test_figure_writes_png_and_json(tmp_path, capsys):
    assert cli.main(["figure", "5", "--out", str(tmp_path), "--size", "small", "--quiet"]) == 0
    assert (tmp_path / "fig5.png").stat().st_size > 0
    assert json.loads((tmp_path / "fig5.json").read_text())["id"] == "fig5"
    assert capsys.readouterr().err == ""  # --quiet


def test_figure_progress_goes_to_stderr(tmp_path, capsys):
    assert cli.main(["figure", "fig5", "--out", str(tmp_path), "--size", "small"]) == 0
    err = capsys.readouterr().err
    assert "[fig5]" in err and "1 figure(s) written" in err


def test_figure_unknown_id_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["figure", "fig42", "--out", str(tmp_path)]) == 2
    assert "`fig_id` must be one of" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_figure_bad_size_rejected_by_argparse(tmp_path):
    with pytest.raises(SystemExit) as exc:
        cli.main(["figure", "fig5", "--size", "medium", "--out", str(tmp_path)])
    assert exc.value.code == 2


def test_train_prints_r_regime_and_loss(capsys):
    assert cli.main(SMALL_TRAIN) == 0
    out = capsys.readouterr().out
    for label in ("loss (mean)", "r (cluster radius)", "r / |w_bar - u_bar|",
                  "outside linear regime (train)", "train accuracy"):
        assert label in out


def test_train_is_deterministic_for_its_seed(capsys):
    def numbers(seed):
        assert cli.main(SMALL_TRAIN + ["--seed", str(seed)]) == 0
        return [line for line in capsys.readouterr().out.splitlines()
                if not line.startswith("(")]  # drop the timing line
    assert numbers(3) == numbers(3)
    assert numbers(3) != numbers(4)


def test_train_on_digits_reports_test_split(capsys):
    assert cli.main(["train", "--data", "digits", "--pair", "0", "1", "--k", "3",
                     "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    assert "digits 0 vs 1" in out and "outside linear regime (test)" in out
    assert "test accuracy" in out


@pytest.mark.parametrize("extra, message", [
    (["--alpha", "1.5"], "`alpha` must be < 1.0"),
    (["--eta", "-0.1"], "`eta` must be > 0"),
    (["--seed", "-1"], "`seed` must be >= 0"),
    (["--data", "digits", "--pair", "3", "3"], "`a` and `b` must be two different digits"),
])
def test_train_bad_input_is_a_usage_error(extra, message, capsys):
    assert cli.main(SMALL_TRAIN + extra) == 2
    assert message in capsys.readouterr().err


def test_bench_runs_the_installed_module_not_a_script_of_the_cwd(monkeypatch, tmp_path, capsys):
    """A ``benchmarks/run.py`` planted in the working directory is never executed."""
    planted = tmp_path / "benchmarks"
    planted.mkdir()
    marker = tmp_path / "planted-ran"
    (planted / "run.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    monkeypatch.chdir(tmp_path)
    seen = {}
    from linteach.bench import run

    monkeypatch.setattr(run, "main", lambda argv: seen.setdefault("argv", argv) and 3)
    assert cli.main(["bench", "--md", "x.md", "--quick"]) == 3
    assert seen["argv"] == ["--md", "x.md", "--quick"]
    assert not marker.exists()


def test_bench_help_lists_its_own_options(capsys):
    assert cli.main(["bench", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--skip-verify" in out and "--blas-threads" in out and "(default: 1)" in out


def test_bench_rejects_an_output_under_a_file_before_measuring(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("")
    assert cli.main(["bench", "--quick", "--md", str(afile / "bench.md")]) == 2
    err = capsys.readouterr().err
    assert "`--md`" in err and "is a file" in err


def test_version(capsys):
    import linteach

    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"linteach {linteach.__version__}"


@pytest.mark.parametrize("command, shown", [
    ("figure", ["(default: docs/figures)", "(default: 0)", "(default: full)"]),
    ("train", ["(default: separable)", "(default: 50)", "(default: 0.3)", "(default: 0.001)"]),
])
def test_help_shows_the_defaults(command, shown, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    for text in shown:
        assert text in out


@pytest.mark.parametrize("under", ["file", "file/deeper"])
def test_figure_out_under_a_file_is_a_clear_error_before_computing(tmp_path, capsys, under):
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "figs" if under == "file" else tmp_path / under / "figs"
    assert cli.main(["figure", "fig4", "--size", "small", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert "`out` must be a folder" in err and "which is a file" in err
    assert "[fig4] computing" not in err  # refused before any work


def test_figure_out_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert cli.main(["figure", "5", "--out", str(tmp_path / "file")]) == 2
    assert "it is a file" in capsys.readouterr().err


@pytest.mark.parametrize("extra, message", [
    (["--k", str(10**9)], "`--k` 1000000000 with n = 20, d = 4 needs about"),
    (["--k", "0"], "`--k` must be >= 1, got 0"),
    (["--n", "0"], "`--n` must be >= 1, got 0"),
    (["--epochs", "-1"], "`--epochs` must be >= 0, got -1"),
])
def test_train_sizes_are_checked_before_any_work(extra, message, capsys):
    assert cli.main(SMALL_TRAIN + extra) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""  # nothing was drawn or trained


def test_module_entry_point_and_its_plain_progress_lines(tmp_path):
    """``python -m linteach.cli``; without a terminal, progress is one plain line per step."""
    done = subprocess.run([sys.executable, "-m", "linteach.cli", "figure", "fig5", "--size",
                           "small", "--out", str(tmp_path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "fig5.json").is_file()
    first = done.stderr.splitlines()[0]
    assert first.startswith("[figures 1/1] fig5 (small size) (")
    assert "s elapsed, 1 step(s) left" in first
    assert "\r" not in done.stderr  # no bar redrawn in place in a log file
