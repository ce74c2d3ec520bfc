"""Checkpoints cannot run code, and a bad one is reported and recomputed (issue 15: 8, 11, 12).

A planted pickle never runs, a perturbed number never reaches ``claims.json``, a file from
another configuration or a truncated one is refused, a resume notices a change of BLAS
kernel, a failed checkpoint write never turns a claim into an ERROR, and report files get
the mode a plain write would.
"""
import json
import os
import pickle
import stat
from pathlib import Path

import numpy as np
import pytest

from proofs_check import report
from proofs_check.__main__ import main
from proofs_check.engine import checkpoint as ck_mod
from proofs_check.engine import codec, io, registry, runner
from proofs_check.engine import selftest as _selftest
from proofs_check.engine.contract import Case

CODE = "fixed"
BITS = {"blas": "test kernel"}
CONFIG = {"seed": 0, "budget": "quick", "cases": 32}


def run(checkpoint):
    results, _ = runner.run_all(["self.sgd"], seed=0, budget="quick", cases=32,
                                load=_selftest.load, checkpoint=checkpoint)
    return report.reproducible(results[0].to_dict())


def checkpoint(tmp_path, resume, **kw):
    return ck_mod.Checkpoint(tmp_path / "state", {**CONFIG, **kw.pop("config", {})},
                             resume=resume, code=kw.pop("code", CODE),
                             bits=kw.pop("bits", BITS))


@pytest.fixture
def finished(tmp_path):
    """A complete checkpointed run of ``self.sgd``: (its result, the checkpoint dir)."""
    first = run(checkpoint(tmp_path, False))
    return first, checkpoint(tmp_path, True)


class Marker:
    """Unpickling this touches a file: the proof that a pickle would have run code."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


# -- the codec -------------------------------------------------------------------------------
VALUES = [None, True, 0, -3, 2**70, 0.1, -0.0, 5e-324, float("inf"), float("-inf"), "x",
          [1, [2.5]], (1, (2,)), {"a": 1}, {1: "int key", (1, 2): "tuple key"}, {"$a": 1},
          np.arange(6.0).reshape(2, 3), np.asfortranarray(np.arange(6.0).reshape(2, 3)),
          np.arange(6.0)[::2], np.array([True, False]), np.zeros((0, 4), np.int32),
          np.float64(0.1), np.int64(-7), np.bool_(True), np.array(1 + 2j),
          np.array([1.0, 2.0], dtype=">f8"), Case("fam", 2**63 - 1)]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_codec_round_trips_type_and_bits(value):
    back = codec.loads(codec.dumps(value))
    assert type(back) is type(value)
    if isinstance(value, (np.ndarray, np.generic)):
        assert back.dtype == value.dtype and back.shape == value.shape
        assert np.asarray(back).tobytes() == np.asarray(value).tobytes()
        flags = np.asarray(value).flags
        if flags.f_contiguous and not flags.c_contiguous:  # memory order kept (BLAS calls
            assert back.flags.f_contiguous and not back.flags.c_contiguous  # may depend on it)
    else:
        assert codec.dumps(back) == codec.dumps(value)
    nan = codec.loads(codec.dumps([float("nan")]))[0]
    assert np.isnan(nan)


@pytest.mark.parametrize("value", [object(), np.array([object()]), {1, 2}, b"bytes",
                                   np.datetime64("2021-01-01"), lambda: 0])
def test_codec_refuses_what_it_cannot_represent(value):
    with pytest.raises(TypeError, match="cannot be checkpointed"):
        codec.dumps({"x": [value]})


@pytest.mark.parametrize("text, message", [
    ('{"$pickle": "gASV"}', "unknown tag"),
    ('{"$array": {"dtype": "|O", "shape": [1], "order": "C", "data": "AAAAAAAAAAA="}}',
     "not allowed"),
    ('{"$array": {"dtype": "<f8", "shape": [2], "order": "C", "data": "AAAAAAAAAAA="}}',
     "do not fill"),
    ('{"$case": ["f", 1.5]}', "malformed \\$case"),
    ('{"$dict": [[[1], 2]]}', "unhashable"),
    ('{"a": 1, "$b": 2}', "unknown tag"),
    ("[" * 100 + "]" * 100, "nested deeper"),
    ("[" * 100000, "not JSON"),
    ('{"a": ', "not JSON"),
])
def test_codec_rejects_what_it_did_not_write(text, message):
    with pytest.raises(codec.CodecError, match=message):
        codec.loads(text)


# -- forged, perturbed, misplaced and truncated checkpoints ----------------------------------
def test_a_planted_pickle_never_runs_and_is_recomputed(finished, tmp_path):
    first, ck = finished
    marker = tmp_path / "pwned"
    evil = pickle.dumps(Marker(marker))
    batches = sorted((ck.dir / "batches" / "self.sgd").glob("*.json"))
    for path in batches:
        path.write_bytes(evil)                         # in place of a checkpoint
        path.with_suffix(".pkl").write_bytes(evil)     # and where the old format lived
    (ck.dir / "claims" / "self.sgd.json").write_bytes(evil)
    (ck.dir / "claims" / "self.sgd.pkl").write_bytes(evil)
    assert run(ck) == first
    assert not marker.exists()
    rejected = {Path(p).name for p, _ in ck.rejected}
    assert rejected == {p.name for p in batches} | {"self.sgd.json"}


def _edit_payload(path: Path, change, *, rehash: bool):
    env = json.loads(path.read_text())
    payload = codec.loads(env["payload"])
    change(payload)
    env["payload"] = codec.dumps(payload)
    if rehash:
        env["sha256"] = ck_mod.payload_hash(env["payload"])  # forging on purpose
    path.write_text(json.dumps(env))


def _perturb_first_slack(payload):
    row = payload["rows"][0]
    row["euler"] = row["euler"] - 1.0  # a forged violation, otherwise a valid file


def test_a_perturbed_number_is_rejected_and_never_reaches_the_report(finished):
    first, ck = finished
    (ck.dir / "claims" / "self.sgd.json").unlink()  # as if killed before the claim ended
    batch = sorted((ck.dir / "batches" / "self.sgd").glob("*.json"))[0]
    _edit_payload(batch, _perturb_first_slack, rehash=False)
    assert run(ck) == first
    assert [reason for _, reason in ck.rejected] == [
        "CodecError: content hash does not match"]


def test_a_perturbed_claim_result_is_rejected(finished):
    first, ck = finished
    path = ck.dir / "claims" / "self.sgd.json"
    _edit_payload(path, lambda doc: doc.update(worst_slack=123.0), rehash=False)
    assert run(ck) == first and len(ck.rejected) == 1


def test_a_file_from_another_configuration_or_key_is_rejected(finished, tmp_path):
    first, ck = finished
    (ck.dir / "claims" / "self.sgd.json").unlink()
    other = checkpoint(tmp_path, False, config={"seed": 1})
    run(other)
    batches = sorted((ck.dir / "batches" / "self.sgd").glob("*.json"))
    theirs = sorted((other.dir / "batches" / "self.sgd").glob("*.json"))
    # seed 1's batch under seed 0's name, hash intact: the envelope names its configuration
    batches[0].write_bytes(theirs[0].read_bytes())
    # one of our own batches under another batch's name: the envelope names its key
    batches[1].write_bytes(batches[2].read_bytes())
    batches[3].write_text(batches[3].read_text()[:100])  # truncated
    assert run(ck) == first
    reasons = sorted(reason for _, reason in ck.rejected)
    assert len(reasons) == 3
    assert "config do not match this run" in reasons[0]
    assert "key do not match this run" in reasons[1]
    assert "not JSON" in reasons[2] or "JSONDecodeError" in reasons[2]


def test_a_changed_blas_kernel_or_numpy_starts_fresh(tmp_path, monkeypatch):
    checkpoint(tmp_path, False)
    assert checkpoint(tmp_path, True).resumed
    assert not checkpoint(tmp_path, True, bits={"blas": "another kernel"}).resumed
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    with_env = ck_mod.bit_config()
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Prescott")
    assert ck_mod.bit_config() != with_env
    assert with_env["versions"]["numpy"] == np.__version__ and with_env["blas"] == io.blas()


def test_a_forged_configuration_file_is_reported_and_not_resumed(tmp_path):
    ck = checkpoint(tmp_path, False)
    (ck.dir / "config.json").write_text('{"seed": 0}')
    again = checkpoint(tmp_path, True)
    assert not again.resumed and "configuration differs" in again.rejected[0][1]


def same_bits(a, b, where="value"):
    """``a`` and ``b`` are the same plain data (:func:`proofs_check.engine.codec.difference`)."""
    found = codec.difference(a, b, where)
    assert found is None, found


def test_same_bits_sees_what_a_report_could_depend_on():
    same_bits({"a": (1, np.float64(0.5)), "b": [np.arange(3)]},
              {"a": (1, np.float64(0.5)), "b": [np.arange(3)]})
    for a, b in [((1,), [1]), (np.float64(1.0), 1.0), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
                 (0.0, -0.0), (np.arange(3), np.arange(3.0)), (np.ones((2, 2)),
                                                              np.asfortranarray(np.ones((2, 2)))),
                 (np.array([1.0]), np.array([np.nextafter(1.0, 2.0)]))]:
        with pytest.raises(AssertionError):
            same_bits(a, b)


@pytest.mark.slow
@pytest.mark.long  # make verify certifies the round trip itself: the mapper checks every batch
@pytest.mark.parametrize("claim_id", list(registry.CHECKS))
def test_every_claims_batches_survive_the_codec_bit_for_bit(claim_id, monkeypatch):
    """Every item and result a paper claim's check hands ``ctx.map`` (what is checkpointed,
    sent to workers and read back on ``--resume``) decodes to the same plain data, bit for
    bit, whatever claim and batch kind.  Then a resumed run, which reads exactly these
    texts back, is the run that wrote them (shown end to end on ``self.sgd`` above)."""
    seen, dumps = [], codec.dumps

    def round_trip(value, where="value"):
        text = dumps(value, where)
        same_bits(codec.loads(text), value, f"{claim_id}: {where}")
        seen.append(where)
        return text

    monkeypatch.setattr(codec, "dumps", round_trip)
    results, missing = runner.run_all([claim_id], seed=0, budget="quick", cases=1)
    assert not missing and results[0].verdict != "ERROR", results[0].error
    assert any(w.startswith("ctx.map result") for w in seen)  # every check hands out work


def test_a_codec_that_does_not_round_trip_makes_the_claim_an_error(monkeypatch):
    """The mapper compares every batch with its decoded text: a codec whose float arrays come
    back one ulp off (so a resumed run would read back other numbers) makes the claim an
    ERROR naming the batch, on every run, checkpointed or not."""
    loads = codec.loads

    def off_by_an_ulp(v):
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            return np.nextafter(v, np.inf)
        if isinstance(v, (list, tuple)):
            return type(v)(off_by_an_ulp(x) for x in v)
        if isinstance(v, dict):
            return {k: off_by_an_ulp(x) for k, x in v.items()}
        return v

    monkeypatch.setattr(codec, "loads", lambda text: off_by_an_ulp(loads(text)))
    results, _ = runner.run_all(["self.sgd"], seed=0, budget="quick", cases=2,
                                load=_selftest.load)
    assert results[0].verdict == "ERROR"
    assert "does not round-trip" in results[0].error and "ctx.map" in results[0].error


# -- checkpoint faults never become ERROR verdicts -------------------------------------------
def test_a_failing_checkpoint_write_is_reported_not_an_error(tmp_path, monkeypatch):
    ck = checkpoint(tmp_path, False)

    def refuse(path, text):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(ck_mod, "atomic_write", refuse)
    results, _ = runner.run_all(["self.sgd"], seed=0, budget="quick", cases=32,
                                load=_selftest.load, checkpoint=ck)
    assert results[0].verdict == "PASS"
    assert len(ck.problems) == 1 and "Permission denied" in ck.problems[0]


def test_a_read_that_raises_is_recomputed(finished, monkeypatch):
    first, ck = finished

    def broken(self, *args, **kwargs):
        raise OSError("I/O error")

    monkeypatch.setattr(Path, "read_text", broken)
    assert run(ck) == first
    assert ck.rejected and all("I/O error" in reason for _, reason in ck.rejected)


def test_cli_reports_rejected_checkpoints_and_writes_the_true_report(tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.setattr(io, "code_fingerprint", lambda: CODE)
    args = ["--selftest", "--only", "self.sgd", "--cases", "16", "--workers", "0",
            "--state", str(tmp_path / "state")]
    assert main([*args, "--no-checkpoint", "--json", str(tmp_path / "straight.json")]) == 0
    # a run that leaves its checkpoints behind, then a forged pickle and a perturbed number
    ck = ck_mod.Checkpoint(tmp_path / "state", {"seed": 0, "budget": "standard", "cases": 16,
                                                "selftest": True}, resume=False)
    runner.run_all(["self.sgd"], seed=0, budget="standard", cases=16, load=_selftest.load,
                   checkpoint=ck)
    marker = tmp_path / "pwned"
    (ck.dir / "claims" / "self.sgd.json").write_bytes(pickle.dumps(Marker(marker)))
    _edit_payload(sorted((ck.dir / "batches" / "self.sgd").glob("*.json"))[0],
                  _perturb_first_slack, rehash=False)
    capsys.readouterr()
    assert main([*args, "--resume", "--json", str(tmp_path / "resumed.json")]) == 0
    err = capsys.readouterr().err
    assert "2 checkpoint file(s) rejected and recomputed" in err
    assert "content hash does not match" in err
    assert not marker.exists()
    docs = [json.loads((tmp_path / f"{n}.json").read_text()) for n in ("straight", "resumed")]
    assert report.reproducible(docs[0]) == report.reproducible(docs[1])


# -- file modes --------------------------------------------------------------------------------
@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_reports_get_the_mode_a_plain_write_would(tmp_path, umask):
    old = os.umask(umask)
    try:
        io.atomic_write(tmp_path / "new.json", "{}\n")
        with open(tmp_path / "plain.json", "w") as fh:
            fh.write("{}\n")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "new.json").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.json").stat().st_mode) == 0o666 & ~umask


def test_an_existing_report_keeps_its_mode(tmp_path):
    path = tmp_path / "claims.json"
    path.write_text("old\n")
    path.chmod(0o640)
    io.atomic_write(path, "new\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.read_text() == "new\n"
