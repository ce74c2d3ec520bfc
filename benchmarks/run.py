"""``make bench``: every benchmark row, printed and written to Markdown and JSON.

    python benchmarks/run.py [--md PATH] [--json PATH] [--quick] [--skip-verify]

Targets are marked met or missed from the measured value; nothing here asserts a speed.
The process runs with the environment it was given: the environment rows measure glibc's
malloc thresholds and the BLAS thread count in child processes, with and without.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from contextlib import nullcontext
from pathlib import Path

START = time.perf_counter()

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import scipy  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

import rows_env  # noqa: E402
import rows_speed  # noqa: E402
import rows_verify  # noqa: E402
from baselines import torch, torch_version  # noqa: E402
from report import table, to_markdown  # noqa: E402

def machine() -> dict:
    from threadpoolctl import threadpool_info

    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    env = {key: os.environ.get(key) for key in (
        "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
        "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")}
    return {"cpu": model, "cpus": os.cpu_count(), "load_average_start": os.getloadavg(),
            "python": platform.python_version(), "numpy": np.__version__,
            "scipy": scipy.__version__, "torch": torch_version() or "not installed",
            "blas": [{k: info.get(k) for k in ("internal_api", "version", "architecture",
                                               "num_threads", "filepath")}
                     for info in threadpool_info()],
            "env": env}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--md", help="write the Markdown report here")
    p.add_argument("--json", help="write the JSON results here")
    p.add_argument("--quick", action="store_true", help="fewer repeats, no large case")
    p.add_argument("--skip-verify", action="store_true", help="leave out row 5 (make verify)")
    p.add_argument("--blas-threads", type=int, default=1,
                   help="BLAS threads for rows 1-4 (default 1, as make verify's workers; "
                        "0 = leave the library default)")
    args = p.parse_args(argv)
    repeats = 5 if args.quick else 11
    info = machine()
    info["blas_threads_rows_1_4"] = args.blas_threads or "library default"
    if torch is not None and args.blas_threads:
        torch.set_num_threads(args.blas_threads)  # the same thread budget on both sides
    info["torch_threads"] = None if torch is None else torch.get_num_threads()
    with (threadpool_limits(args.blas_threads) if args.blas_threads else nullcontext()):
        rows = _speed_rows(repeats, quick=args.quick)
    env_rounds, env_repeats = (1, 3) if args.quick else (3, 5)
    env_rows = [fn(rounds=env_rounds, repeats=env_repeats) for fn in
                (rows_env.malloc_thresholds, rows_env.blas_threads, rows_env.openblas_coretype)]
    if not args.skip_verify:
        rows.append(_show(rows_verify.make_verify()))
    info["load_average_end"] = os.getloadavg()
    doc = {"rows": rows, "env_rows": env_rows, "machine": info, "repeats": repeats,
           "seconds": time.perf_counter() - START}
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=1, default=str) + "\n")
    if args.md:
        Path(args.md).write_text(to_markdown(doc))
    missed = [row["id"] for row in rows if row.get("met") is False]
    print(f"{len(rows)} rows, {len(missed)} targets missed"
          + (f": {', '.join(missed)}" if missed else "") + f" ({doc['seconds']:.0f} s)")
    return 0


def _show(row):
    print(table([row]).splitlines()[-1], flush=True)
    return row


def _speed_rows(repeats, *, quick):
    print(table([]), flush=True)
    rows = [_show(rows_speed.full_batch_vs_floor(1000, 50, 100, repeats=repeats))]
    if not quick:
        rows.append(_show(rows_speed.full_batch_vs_floor(10_000, 200, 500,
                                                         repeats=max(5, repeats // 2))))
    for size in ((100, 10, 20), (100, 50, 100)):
        rows += [_show(r) for r in rows_speed.sgd_vs_baselines(*size, epochs=2, repeats=repeats)]
    rows += [_show(r) for r in rows_speed.batched_vs_sequential(100, 10, 20,
                                                                repeats=max(3, repeats // 2))]
    rows.append(_show(rows_speed.full_batch_vs_torch(1000, 50, 100, steps=10, repeats=repeats)))
    rows.append(_show(rows_speed.full_batch_vs_torch(100, 10, 20, steps=50, repeats=repeats)))
    return rows


if __name__ == "__main__":
    sys.exit(main())
