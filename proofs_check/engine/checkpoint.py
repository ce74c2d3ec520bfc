"""Checkpoints of a run: one file per finished claim and per finished ``ctx.map`` batch.

Layout: ``<state>/<config>/claims/<claim id>.pkl`` and
``<state>/<config>/batches/<claim id>/<key>.pkl``, where ``<config>`` hashes the root seed,
the budget, the ``--cases`` override and the source of ``linteach`` and ``proofs_check``.
A batch's key hashes the claim, the function and the pickled item, so a resumed check,
which re-runs from its start, finds each batch it had already finished and recomputes
nothing else.  Results are deterministic functions of their items, so a resumed run ends
with the same report as an uninterrupted one.  Every file is written to a temporary name
and renamed: a kill at any moment leaves only whole files (an unreadable one is ignored
and recomputed).
"""
from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path

from . import io
from .io import atomic_write

#: returned by the getters when nothing (readable) is stored
MISSING = object()


def _read(path: Path):
    try:
        return pickle.loads(path.read_bytes())
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError):
        return MISSING


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
    """

    def __init__(self, state, config: dict, *, resume: bool, code: str | None = None):
        self.config = {**config, "code": io.code_fingerprint() if code is None else code}
        blob = json.dumps(self.config, sort_keys=True).encode()
        self.dir = Path(state) / hashlib.sha256(blob).hexdigest()[:16]
        self.resumed = resume and (self.dir / "config.json").exists()
        if not resume and self.dir.exists():
            shutil.rmtree(self.dir)
        atomic_write(self.dir / "config.json", blob)

    @staticmethod
    def key(claim_id: str, fn, item_bytes: bytes) -> str:
        """Content key of one batch: claim, function (by name) and the pickled item."""
        h = hashlib.sha256(f"{claim_id}\0{fn.__module__}\0{fn.__qualname__}\0".encode())
        h.update(item_bytes)
        return h.hexdigest()[:32]

    def _batch(self, claim_id: str, key: str) -> Path:
        return self.dir / "batches" / claim_id / f"{key}.pkl"

    def get_batch(self, claim_id: str, key: str):
        """The stored result of a batch, or :data:`MISSING`."""
        return _read(self._batch(claim_id, key))

    def put_batch(self, claim_id: str, key: str, result_bytes: bytes) -> None:
        """Store a batch's pickled result."""
        atomic_write(self._batch(claim_id, key), result_bytes)

    def get_claim(self, claim_id: str):
        """The stored :class:`~proofs_check.engine.contract.CheckResult` of a finished claim, or MISSING."""
        return _read(self.dir / "claims" / f"{claim_id}.pkl")

    def put_claim(self, result) -> None:
        atomic_write(self.dir / "claims" / f"{result.id}.pkl", pickle.dumps(result, protocol=4))

    def batches_done(self, claim_id: str) -> int:
        folder = self.dir / "batches" / claim_id
        return len(list(folder.glob("*.pkl"))) if folder.exists() else 0

    def clear(self) -> None:
        """Remove this configuration's checkpoints (after a complete run)."""
        shutil.rmtree(self.dir, ignore_errors=True)

