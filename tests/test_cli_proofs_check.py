"""``proofs_check`` on the command line: help, version, list, progress, and clean failures.

Every abuse of the CLI (issue 15 items 15 and 16) ends in a one-line message and exit 2,
checked before any claim runs; never a traceback.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import linteach
from proofs_check import __main__ as cli
from proofs_check import report, usage
from proofs_check.__main__ import main
from proofs_check.engine import executor as _executor
from proofs_check.engine import io, registry

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--selftest", "--budget", "quick", "--workers", "0", "--cases", "8"]


@pytest.fixture(autouse=True)
def fixed_code(monkeypatch):
    monkeypatch.setattr(io, "code_fingerprint", lambda: "fixed")


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"proofs_check (linteach {linteach.__version__})"


def test_help_lists_every_claim_and_shows_defaults(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for claim_id in registry.CHECKS:
        assert f"  {claim_id} " in out
    assert "(default: standard)" in out and "(default: .proofs_check_state)" in out
    assert "--compare A B" in out and "--list" in out


def test_list_shows_each_claim_with_its_evidence(capsys):
    assert main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["claim", "evidence", "slack"]
    rows = {line.split()[0]: line.split()[1] for line in lines[1:]}
    assert list(rows) == list(registry.CHECKS)
    assert set(rows.values()) <= {"observed", "probed", "proved", "—"}


def test_the_module_runs_as_a_program():
    done = subprocess.run([sys.executable, "-m", "proofs_check", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("proofs_check (linteach ")


def test_progress_lines_go_to_stderr_with_elapsed_time_and_what_is_left(tmp_path, capsys):
    assert main([*QUICK, "--only", "self.sgd", "self.slow", "--no-checkpoint"]) == 0
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert err[0] == ("proofs_check: 2 claim(s), budget quick, seed 0: loading the numeric "
                      "libraries")  # said before the slow imports
    assert err[1].startswith("proofs_check: self.sgd started (")
    assert "not started yet: self.slow" in err[1]
    assert any(line.startswith("proofs_check: [2/2] self.slow PASS in ") and
               "elapsed; 0 claim(s) left" in line for line in err)
    assert any(line.startswith("proofs_check: [1/2] self.sgd PASS in ") for line in err)
    assert "self.sgd" in captured.out and "[1/2]" not in captured.out
    assert main([*QUICK, "--only", "self.sgd", "--no-checkpoint", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_heartbeat_while_a_claim_runs(capsys):
    from proofs_check.progress import Progress
    import io as _io
    import time

    stream = _io.StringIO()
    prog = Progress(["a", "b"], stream=stream, heartbeat=0.05)
    prog.start("a")
    prog.batch("a", 3, 8)
    time.sleep(0.3)
    prog.done("a", "PASS")
    prog.close()
    text = stream.getvalue()
    assert "still running: a (for " in text and "batch 3/8)" in text
    assert "2 claim(s) left" in text


def test_repeated_only_ids_run_once(capsys, tmp_path):
    path = tmp_path / "c.json"
    assert main([*QUICK, "--only", "self.sgd", "self.sgd", "--no-checkpoint",
                 "--json", str(path)]) == 0
    assert "self.sgd given more than once; each runs once" in capsys.readouterr().err
    assert [c["id"] for c in json.loads(path.read_text())["claims"]] == ["self.sgd"]


def _usage(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return code, captured


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "--seed must be an integer in [0, 2**64 - 1], got -1"),
    (["--seed", str(2**64)], "--seed must be an integer in [0, 2**64 - 1]"),
    (["--cases", str(10**12)], f"--cases must be in [1, {usage.MAX_CASES}]"),
    (["--workers", "100000"], "--workers must be in [0, 1024]"),
    (["--only", "nope"], "--only: unknown claim id(s) nope; known: thm4.1"),
    (["--replay", "nope"], "--replay: unknown claim id 'nope'"),
    (["--family", "small"], "--family only applies to --replay"),
    (["--dask", ""], "--dask needs a scheduler address"),
    (["--dask", "bogus://127.0.0.1:1"], "unknown address scheme 'bogus'"),
    (["--dask", "tcp://"], "no host"),
    (["--seed", "x"], "invalid int value: 'x'"),
])
def test_bad_options_are_one_line_messages(argv, message, capsys):
    code, captured = _usage(argv, capsys)
    assert code == 2 and message in captured.err


def test_a_closed_dask_port_is_a_message_not_a_local_run(capsys, monkeypatch, tmp_path):
    import socket

    pytest.importorskip("distributed")  # without the dask extra the message is another one

    monkeypatch.setattr(_executor, "DASK_TIMEOUT", 2)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, captured = _usage([*QUICK, "--only", "self.sgd", "--dask", f"tcp://127.0.0.1:{port}",
                             "--no-checkpoint", "--json", str(tmp_path / "c.json")], capsys)
    assert code == 2 and "--dask: cannot reach a Dask scheduler at" in captured.err
    assert not (tmp_path / "c.json").exists() and "self.sgd   PASS" not in captured.out


@pytest.mark.parametrize("setup, flags, message", [
    (lambda t: None, lambda t: ["--json", str(t / "r"), "--out", str(t / "r")],
     "--out and --json must be different files"),
    (lambda t: (t / "file").write_text("x"), lambda t: ["--json", str(t / "file" / "c.json")],
     "--json: cannot write in"),
    (lambda t: (t / "dir").mkdir(), lambda t: ["--out", str(t / "dir")], "is a directory"),
    (lambda t: (t / "file").write_text("x"), lambda t: ["--state", str(t / "file")],
     "--state must be a directory"),
    (lambda t: (t / "file").write_text("x"), lambda t: ["--state", str(t / "file" / "s")],
     "--state: cannot write checkpoints in"),
    (lambda t: None, lambda t: ["--state", str(t / "s"), "--json", str(t / "s" / "x" / "c.json")],
     "--json must not be inside a folder of the checkpoint directory"),
    (lambda t: (t / "file").write_text("x"), lambda t: ["--pages", str(t / "file")],
     "--pages must be a directory"),
    (lambda t: None, lambda t: ["--json", ""], "--json must be a file path"),
])
def test_output_paths_are_checked_before_anything_runs(tmp_path, capsys, setup, flags, message):
    setup(tmp_path)
    code, captured = _usage([*QUICK, "--only", "self.sgd", *flags(tmp_path)], capsys)
    assert code == 2 and message in captured.err
    assert "self.sgd" not in captured.out  # nothing ran


def test_a_report_that_cannot_be_written_is_exit_2_without_traceback(tmp_path, capsys,
                                                                     monkeypatch):
    def refuse(path, text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "atomic_write", refuse)
    code, captured = _usage([*QUICK, "--only", "self.sgd", "--no-checkpoint",
                             "--json", str(tmp_path / "c.json")], capsys)
    assert code == 2 and "cannot write the report" in captured.err


@pytest.fixture
def recorded(tmp_path, capsys):
    path = tmp_path / "c.json"
    main([*QUICK, "--only", "self.fail", "--no-checkpoint", "--json", str(path)])
    capsys.readouterr()
    return path


def test_replay_of_an_unknown_family_says_so(recorded, capsys):
    code, captured = _usage(["--selftest", "--replay", "self.fail", "--family", "nosuch",
                             "--seed", "3", "--json", str(recorded)], capsys)
    assert code == 2
    assert "claim self.fail draws no case of family 'nosuch'" in captured.err
    assert "its families in" in captured.err and "small" in captured.err


def test_replay_of_an_unknown_family_without_a_record_says_so(tmp_path, capsys):
    code, captured = _usage(["--selftest", "--replay", "self.sgd", "--family", "nosuch",
                             "--seed", "3", "--json", str(tmp_path / "none.json")], capsys)
    assert code == 2
    assert "claim self.sgd draws no case of family 'nosuch'" in captured.err


def test_replay_with_a_negative_seed_is_a_usage_error(recorded, capsys):
    code, captured = _usage(["--selftest", "--replay", "self.fail", "--family", "small",
                             "--seed", "-5"], capsys)
    assert code == 2 and "--seed must be an integer" in captured.err


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ('{"claims": [{"verdict": "PASS"}], "not_checked": [], "seed": 0, "budget": "quick", '
     '"manifest": {"claims": {}}}', "string `id`"),
    ("[" * 50000 + "]" * 50000, "nested too deeply"),
    ("", "empty file"),
    ('"a string"', "a claims report is a JSON object"),
])
def test_replay_with_a_bad_record_is_a_usage_error(tmp_path, capsys, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, captured = _usage(["--selftest", "--replay", "self.fail", "--seed", "3",
                             "--json", str(path)], capsys)
    assert code == 2 and message in captured.err


def test_from_renders_markdown_without_running(recorded, tmp_path, capsys):
    out = tmp_path / "c.md"
    assert main(["--from", str(recorded), "--out", str(out)]) == 0
    assert out.read_text() == report.to_markdown(json.loads(recorded.read_text()))
    code, captured = _usage(["--from", str(recorded), "--json", str(tmp_path / "x.json")],
                            capsys)
    assert code == 2 and "drop --json" in captured.err
    (tmp_path / "bad.json").write_text("[]")
    code, captured = _usage(["--from", str(tmp_path / "bad.json"), "--out", str(out)], capsys)
    assert code == 2 and "--from:" in captured.err


def test_console_script_entry_point_exists():
    assert callable(cli.cli)


def test_a_terminal_gets_a_bar_over_the_claims():
    pytest.importorskip("tqdm")
    import io as _io

    from proofs_check.progress import Progress

    stream = _io.StringIO()
    prog = Progress(["a", "b"], stream=stream, bar=True, heartbeat=0)
    assert prog.bar is not None
    prog.start("a")
    prog.note("a line above the bar")
    prog.done("a", "PASS")
    prog.close()
    text = stream.getvalue()
    assert "claims:" in text and "1/2" in text and "running a" in text
    assert "a line above the bar" in text


def test_only_given_twice_checks_both_sets():
    from proofs_check.options import parser

    args = parser("test").parse_args(["--only", "thm4.1", "--only", "appK", "cor6.1"])
    assert args.only == ["thm4.1", "appK", "cor6.1"]
