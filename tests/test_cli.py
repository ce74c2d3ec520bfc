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


def test_bench_missing_script_says_so(monkeypatch, capsys):
    monkeypatch.setattr(cli, "bench_script", lambda: None)
    assert cli.main(["bench"]) == 1
    assert "benchmarks/run.py is not present" in capsys.readouterr().err


def test_bench_delegates_arguments_and_exit_status(monkeypatch, tmp_path, capfd):
    script = tmp_path / "run.py"
    script.write_text("import sys\nprint('ARGS', sys.argv[1:])\nsys.exit(3)\n")
    monkeypatch.setattr(cli, "bench_script", lambda: script)
    assert cli.main(["bench", "--md", "x.md"]) == 3
    assert "ARGS ['--md', 'x.md']" in capfd.readouterr().out


def test_module_entry_point(tmp_path):
    done = subprocess.run([sys.executable, "-m", "linteach.cli", "figure", "fig5", "--size",
                           "small", "--quiet", "--out", str(tmp_path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "fig5.json").is_file()
