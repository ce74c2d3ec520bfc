"""What ``python -m proofs_check`` checks before it runs anything (every problem: exit 2).

Each function returns a message naming the option, the rule and the value, or ``None``.
The output paths are checked *before* the run, so an unwritable ``--json`` never costs a
run's report, and ``--out`` can never overwrite ``--json``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["MAX_CASES", "MAX_SEED", "MAX_WORKERS", "DASK_SCHEMES", "dedupe", "option_problem",
           "path_problem", "dask_problem"]

#: the largest ``--cases`` (cases per family): beyond a campaign's 10^6 a run is a typo
MAX_CASES = 10**6
#: seeds are unsigned 64-bit integers (what ``np.random.SeedSequence`` is given)
MAX_SEED = 2**64 - 1
#: more local worker processes than this is a typo on any machine this runs on
MAX_WORKERS = 1024
#: address schemes a Dask scheduler can listen on
DASK_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")


def dedupe(ids) -> tuple:
    """``(ids without repeats, in order, the repeated ones)``."""
    seen, out, repeated = set(), [], []
    for i in ids:
        (repeated if i in seen else out).append(i)
        seen.add(i)
    return out, repeated


def option_problem(args, known) -> str | None:
    """Claim ids, numbers and option combinations."""
    known_list = ", ".join(known)
    unknown = [c for c in args.only or () if c not in known]
    if unknown:
        return f"--only: unknown claim id(s) {', '.join(unknown)}; known: {known_list}"
    if args.replay is not None and args.replay not in known:
        return f"--replay: unknown claim id {args.replay!r}; known: {known_list}"
    if args.family is not None and args.replay is None:
        return "--family only applies to --replay"
    if args.family is not None and not args.family.strip():
        return "--family must be a non-empty family name"
    if not 0 <= args.seed <= MAX_SEED:
        return f"--seed must be an integer in [0, 2**64 - 1], got {args.seed}"
    if args.cases is not None and not 1 <= args.cases <= MAX_CASES:
        return f"--cases must be in [1, {MAX_CASES}] (cases per family), got {args.cases}"
    if not 0 <= args.workers <= MAX_WORKERS:
        return f"--workers must be in [0, {MAX_WORKERS}], got {args.workers}"
    if args.resume and args.no_checkpoint:
        return "--resume needs checkpoints: drop --no-checkpoint"
    return None


def _writable_dir(directory: Path) -> str | None:
    """Why files cannot be created in ``directory`` (created if missing), or ``None``."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".proofs_check-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def path_problem(args) -> str | None:
    """``--json``, ``--out``, ``--pages`` and ``--state``: writable, distinct, not nested."""
    files = {flag: value for flag, value in (("--json", args.json), ("--out", args.out))
             if value is not None}
    resolved = {}
    for flag, value in files.items():
        if not value.strip():
            return f"{flag} must be a file path, got an empty string"
        path = Path(value).expanduser().resolve()
        if path.is_dir():
            return f"{flag} must be a file, but {value} is a directory"
        why = _writable_dir(path.parent)
        if why:
            return f"{flag}: cannot write in {path.parent}: {why}"
        if path.exists() and not os.access(path, os.W_OK):
            return f"{flag}: {value} is not writable"
        resolved[flag] = path
    if len(set(resolved.values())) < len(resolved):
        return f"--out and --json must be different files, both are {args.json}"
    if args.pages is not None:
        if not args.pages.strip():
            return "--pages must be a directory path, got an empty string"
        pages = Path(args.pages).expanduser().resolve()
        if pages.exists() and not pages.is_dir():
            return f"--pages must be a directory, but {args.pages} is a file"
        why = _writable_dir(pages)
        if why:
            return f"--pages: cannot write in {args.pages}: {why}"
    if not args.no_checkpoint and args.compare is None and args.replay is None:
        if not args.state.strip():
            return "--state must be a directory path, got an empty string"
        state = Path(args.state).expanduser().resolve()
        if state.exists() and not state.is_dir():
            return f"--state must be a directory, but {args.state} is a file"
        why = _writable_dir(state)
        if why:
            return (f"--state: cannot write checkpoints in {args.state}: {why} "
                    "(choose another --state, or run with --no-checkpoint)")
        for flag, path in resolved.items():
            # the configuration folders state/<id>/ are deleted when a run completes
            if path.parent != state and _inside(path, state):
                return (f"{flag} must not be inside a folder of the checkpoint directory "
                        f"--state {args.state} (those are deleted when a run completes)")
    return None


def dask_problem(address: str | None) -> str | None:
    """An address that cannot be a Dask scheduler's (checked before connecting)."""
    if address is None:
        return None
    if not address.strip():
        return "--dask needs a scheduler address such as tcp://127.0.0.1:8786, got ''"
    scheme, sep, rest = address.partition("://")
    if sep and scheme not in DASK_SCHEMES:
        return (f"--dask: unknown address scheme {scheme!r} in {address!r}; use one of "
                f"{', '.join(DASK_SCHEMES)} (e.g. tcp://127.0.0.1:8786)")
    if not (rest if sep else address).strip(":/"):
        return f"--dask: no host in {address!r} (e.g. tcp://127.0.0.1:8786)"
    return None
