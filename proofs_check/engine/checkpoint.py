"""Checkpoints of a run: one file per finished claim and per finished ``ctx.map`` batch.

Layout: ``<state>/<config>/claims/<claim id>.json`` and
``<state>/<config>/batches/<claim id>/<key>.json``, where ``<config>`` hashes the
configuration of the run (:func:`bit_config`: root seed, budget, ``--cases``, the source of
``linteach`` and ``proofs_check``, and everything that decides the last bits of a float —
NumPy/SciPy versions, the BLAS libraries and their kernel architecture, the environment
variables that select a kernel, the machine).  A batch's key hashes the claim, the function
and the encoded item, so a resumed check, which re-runs from its start, finds each batch it
had already finished and recomputes nothing else.

**Nothing read back can run code.**  Files are JSON in the tagged format of
:mod:`proofs_check.engine.codec` (plain data only; no pickle is ever loaded).  Each file
also names its configuration, claim and key and carries the SHA-256 of its payload; a file
whose envelope, hash, configuration, claim or key does not match where it was found is
**rejected**: recorded in :attr:`Checkpoint.rejected` (the CLI reports it) and recomputed.
The hash detects corruption and edits that did not recompute it; someone who can write the
state directory can still forge a consistent file of plain data, so resume only from a
directory you trust (a fresh run, or ``--compare`` against one, settles any doubt).

Every file is written to a temporary name and renamed: a kill at any moment leaves only
whole files.  A write that fails (read-only or full disk) is recorded in
:attr:`Checkpoint.problems` and checkpointing stops for the run — never an ERROR verdict.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import threading
from pathlib import Path

from . import codec, io
from .io import atomic_write

#: returned by the getters when nothing (valid) is stored
MISSING = object()
#: the envelope's format name; a change of layout changes it (and every config hash)
FORMAT = "proofs_check checkpoint 2"
#: environment variables that select a BLAS/LAPACK kernel or its reproducibility mode
KERNEL_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_VERBOSE", "MKL_CBWR", "MKL_ENABLE_INSTRUCTIONS",
              "MKL_DEBUG_CPU_TYPE", "NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES",
              "ATLAS_NUM_THREADS")


def bit_config() -> dict:
    """What decides the bits of a result besides the code: a resume must match all of it.

    The versions of the numeric packages, the BLAS libraries loaded (with their kernel
    architecture, as the report's manifest lists them), the kernel-selecting environment
    variables and the machine.  (Remote Dask workers are not inspected: their environment
    is the cluster's.)
    """
    return {"format": FORMAT, "versions": _versions(),
            "blas": io.blas(), "env": {name: os.environ.get(name) for name in KERNEL_ENV},
            "machine": platform.machine()}


def _versions() -> dict:
    """Python and the numeric packages' versions, read from their metadata (no import)."""
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in ("numpy", "scipy", "cvxpy", "clarabel"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def payload_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Checkpoint:
    """The checkpoint directory of one run configuration.

    Parameters
    ----------
    state : path
        Where checkpoints of every configuration live (``.proofs_check_state`` by default).
    config : dict
        Plain data that must match for a resume (seed, budget, cases override).
    resume : bool
        Keep what an earlier run of this configuration finished; otherwise start empty.
    code : str, optional
        Fingerprint of the code (default :func:`proofs_check.engine.io.code_fingerprint`).
    bits : dict, optional
        What decides the bits (default :func:`bit_config`).
    """

    def __init__(self, state, config: dict, *, resume: bool, code: str | None = None,
                 bits: dict | None = None):
        self.config = {**config, "code": io.code_fingerprint() if code is None else code,
                       "bits": bit_config() if bits is None else bits}
        blob = json.dumps(self.config, sort_keys=True)
        self.id = payload_hash(blob)[:16]
        self.dir = Path(state) / self.id
        #: (path, reason) of every stored file that was refused and recomputed
        self.rejected: list = []
        #: writes that failed (checkpointing then stops); reported, never an ERROR
        self.problems: list = []
        self._lock = threading.Lock()
        self._writable = True
        stored = self.dir / "config.json"
        self.resumed = False
        if resume and stored.exists():
            try:
                self.resumed = json.loads(stored.read_text()) == json.loads(blob)
            except (OSError, ValueError, RecursionError) as exc:
                self._reject(stored, f"unreadable configuration ({type(exc).__name__})")
            if not self.resumed and not self.rejected:
                self._reject(stored, "configuration differs from this run's")
        if not self.resumed and self.dir.exists():
            shutil.rmtree(self.dir)
        atomic_write(stored, blob)

    # -- envelope --------------------------------------------------------------------------
    def _reject(self, path, reason: str) -> None:
        with self._lock:
            self.rejected.append((str(path), reason))

    def _write(self, path: Path, kind: str, claim_id: str, key: str, payload: str) -> None:
        envelope = {"format": FORMAT, "config": self.id, "kind": kind, "claim": claim_id,
                    "key": key, "sha256": payload_hash(payload), "payload": payload}
        if not self._writable:
            return
        try:
            atomic_write(path, json.dumps(envelope))
        except OSError as exc:
            with self._lock:
                self._writable = False
                self.problems.append(f"cannot write checkpoint {path}: {exc}; "
                                     "checkpointing stopped for this run")

    def _read(self, path: Path, kind: str, claim_id: str, key: str):
        if not path.exists():
            return MISSING
        try:
            env = json.loads(path.read_text())
            if not isinstance(env, dict) or set(env) != {"format", "config", "kind", "claim",
                                                          "key", "sha256", "payload"}:
                raise codec.CodecError("not a checkpoint envelope")
            expected = {"format": FORMAT, "config": self.id, "kind": kind,
                        "claim": claim_id, "key": key}
            wrong = [f for f, v in expected.items() if env[f] != v]
            if wrong:
                raise codec.CodecError(f"{', '.join(wrong)} do not match this run")
            if not isinstance(env["payload"], str) or payload_hash(env["payload"]) != env["sha256"]:
                raise codec.CodecError("content hash does not match")
            return codec.loads(env["payload"])
        except Exception as exc:  # whatever is wrong with a file, it is recomputed
            self._reject(path, f"{type(exc).__name__}: {exc}")
            return MISSING

    # -- batches and claims ----------------------------------------------------------------
    @staticmethod
    def key(claim_id: str, fn, item_text: str) -> str:
        """Content key of one batch: claim, function (by name) and the encoded item."""
        h = hashlib.sha256(f"{claim_id}\0{fn.__module__}\0{fn.__qualname__}\0".encode())
        h.update(item_text.encode())
        return h.hexdigest()[:32]

    def _batch(self, claim_id: str, key: str) -> Path:
        return self.dir / "batches" / claim_id / f"{key}.json"

    def get_batch(self, claim_id: str, key: str):
        """The stored result of a batch, or :data:`MISSING`."""
        return self._read(self._batch(claim_id, key), "batch", claim_id, key)

    def put_batch(self, claim_id: str, key: str, payload: str) -> None:
        """Store a batch's result, encoded by :func:`proofs_check.engine.codec.dumps`."""
        self._write(self._batch(claim_id, key), "batch", claim_id, key, payload)

    def get_claim(self, claim_id: str):
        """The stored :class:`~proofs_check.engine.contract.CheckResult` of a finished
        claim, or :data:`MISSING`."""
        from .contract import CheckResult

        doc = self._read(self.dir / "claims" / f"{claim_id}.json", "claim", claim_id, claim_id)
        if doc is MISSING:
            return MISSING
        try:
            result = CheckResult.from_dict(doc)
            if result.id != claim_id:
                raise ValueError(f"holds claim {result.id!r}")
            return result
        except (TypeError, ValueError) as exc:
            self._reject(self.dir / "claims" / f"{claim_id}.json", f"{type(exc).__name__}: {exc}")
            return MISSING

    def put_claim(self, result) -> None:
        self._write(self.dir / "claims" / f"{result.id}.json", "claim", result.id, result.id,
                    codec.dumps(result.to_dict(), f"result of {result.id}"))

    def batches_done(self, claim_id: str) -> int:
        folder = self.dir / "batches" / claim_id
        return len(list(folder.glob("*.json"))) if folder.exists() else 0

    def clear(self) -> None:
        """Remove this configuration's checkpoints (after a complete run)."""
        shutil.rmtree(self.dir, ignore_errors=True)
