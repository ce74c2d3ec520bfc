"""Files and facts of a run: atomic writes, the code fingerprint, versions and platform.

Everything here is shared by the checkpoints and the report, and imports neither.
"""
from __future__ import annotations

import hashlib
import os
import platform
import stat
import sys
import tempfile
import threading
from pathlib import Path

__all__ = ["atomic_write", "code_fingerprint", "versions", "blas", "platform_info"]

_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    """The process's umask, read without changing it where the OS allows (Linux)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # elsewhere the only way to read it is to set it (and put it back)
        old = os.umask(0o022)
        os.umask(old)
    return old


def atomic_write(path, text) -> None:
    """Write ``text`` (str or bytes) to ``path`` via a temporary file and ``os.replace``.

    A reader, or a run killed at any moment, sees the old file or the new one, never half.
    The file gets the mode a plain ``open(path, "w")`` would give it: an existing file's
    mode, else ``0o666`` less the umask (``mkstemp`` alone would leave ``0o600``).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def code_fingerprint() -> str:
    """SHA-256 over the source of ``linteach`` and ``proofs_check`` (a resume needs the same code)."""
    import linteach

    h = hashlib.sha256()
    for package in (Path(linteach.__file__).parent, Path(__file__).parent.parent):
        for path in sorted(package.rglob("*.py")):
            h.update(str(path.relative_to(package.parent)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def versions() -> dict:
    """Versions of Python and every package that computes a number in the report."""
    import numpy
    import scipy

    out = {"python": sys.version.split()[0], "numpy": numpy.__version__,
           "scipy": scipy.__version__, "platform": platform.platform()}
    from importlib import metadata

    for name in ("cvxpy", "clarabel", "hypothesis", "threadpoolctl"):
        try:  # the installed distribution's version, without importing it
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # optional at report time
            out[name] = None
    import linteach

    out["linteach"] = linteach.__version__
    return out


def blas() -> list:
    """The BLAS libraries loaded (kernel architecture included: it decides the last bits)."""
    import importlib

    from threadpoolctl import threadpool_info

    # Load every numeric library a check may use, so the list does not depend on which
    # ones this process happened to import (workers may have imported them instead).
    for name in ("scipy.linalg", "cvxpy"):
        try:
            importlib.import_module(name)
        except ImportError:  # cvxpy is required, but the report must not be what fails
            pass
    keep = ("internal_api", "version", "architecture", "threading_layer")
    # BLAS only: OpenMP runtimes come and go with whatever else a process imported
    libs = [{"library": Path(lib["filepath"]).name, **{k: lib.get(k) for k in keep}}
            for lib in threadpool_info() if lib.get("user_api") == "blas"]
    return sorted(libs, key=lambda lib: lib["library"])  # load order varies between runs


def platform_info() -> dict:
    uname = platform.uname()
    return {"system": uname.system, "release": uname.release, "machine": uname.machine,
            "python_implementation": platform.python_implementation(), "blas": blas()}
