"""Environment rows: glibc malloc thresholds, BLAS threads, and OpenBLAS's core type.

These settings are read at process start, so each is measured in child processes
(``probe.py``) started alternately with and without it; every round yields one ratio per
case and the row reports the median over rounds, so load drifts hit both settings alike.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: the largest mmap threshold glibc accepts on 64-bit (larger values are silently ignored)
MMAP_THRESHOLD_MAX = 32 * 1024 * 1024
MALLOC_TUNED = {"MALLOC_MMAP_THRESHOLD_": str(MMAP_THRESHOLD_MAX),
                "MALLOC_TRIM_THRESHOLD_": str(4 * 1024**3)}
CORETYPE_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def _probe(env: dict, repeats: int) -> dict:
    out = subprocess.run([sys.executable, str(HERE / "probe.py"), str(repeats)], env=env,
                         capture_output=True, text=True, check=True, timeout=900)
    return json.loads(out.stdout)


def _compare(base_env: dict, other_env: dict, *, rounds: int, repeats: int) -> dict:
    """Median over rounds of seconds(other) / seconds(base), per probe case."""
    ratios, last = {}, {}
    for _ in range(rounds):
        base, other = _probe(base_env, repeats), _probe(other_env, repeats)
        for case, b in base["cases"].items():
            o = other["cases"][case]
            ratios.setdefault(case, []).append(o["seconds"] / b["seconds"])
            last[case] = {"base": b, "other": o}
        last["blas"] = {"base": base["blas"], "other": other["blas"]}
    return {"ratio": {case: statistics.median(r) for case, r in ratios.items()},
            "last_round": last}


def _clean_env(**changes) -> dict:
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def malloc_thresholds(*, rounds: int, repeats: int) -> dict:
    """glibc ``MALLOC_MMAP_THRESHOLD_``/``MALLOC_TRIM_THRESHOLD_`` set vs glibc's defaults."""
    base = _clean_env(**{key: None for key in MALLOC_TUNED})
    return {"id": "env malloc", "setting": MALLOC_TUNED,
            **_compare(base, _clean_env(**MALLOC_TUNED), rounds=rounds, repeats=repeats)}


def blas_threads(*, rounds: int, repeats: int) -> dict:
    """One OpenBLAS thread vs the default (one per core)."""
    base = _clean_env(OPENBLAS_NUM_THREADS=None, OMP_NUM_THREADS=None)
    return {"id": "env threads", "setting": {"OPENBLAS_NUM_THREADS": "1"},
            **_compare(base, _clean_env(OPENBLAS_NUM_THREADS="1"), rounds=rounds,
                       repeats=repeats)}


def openblas_coretype(*, rounds: int, repeats: int) -> dict:
    """OpenBLAS's core-type override as set here vs unset (both variables together)."""
    present = {key: os.environ[key] for key in CORETYPE_VARS if key in os.environ}
    if not present:
        return {"id": "env coretype", "setting": None,
                "note": "OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are not set on this machine: "
                        "OpenBLAS already picks its kernel for this CPU; nothing to compare"}
    unset = _clean_env(**{key: None for key in CORETYPE_VARS})
    return {"id": "env coretype", "setting": present,
            **_compare(_clean_env(), unset, rounds=rounds, repeats=repeats)}
