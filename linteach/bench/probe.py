"""Child process of the environment rows: times a few kernels under the environment it was
started with (glibc reads ``MALLOC_*`` and OpenBLAS its variables only at process start).

Prints one JSON object: per case the median seconds per call and the minor page faults
per call (fresh pages the kernel had to hand over: the cost of memory returned to the OS).
"""
from __future__ import annotations

import json
import resource
import statistics
import sys
import time

import numpy as np

import linteach as lt


def _case_loss_and_grad(n, d, k):
    rng = np.random.default_rng(7)
    net = lt.Net(k=k, alpha=0.3)
    X, W = rng.standard_normal((n, d)), net.init(d, scale=1.0, rng=rng)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    return lambda: net.loss_and_grad(W, X, y)


def _case_gd(n, d, k, runs):
    rng = np.random.default_rng(8)
    net = lt.Net(k=k, alpha=0.3)
    data = lt.make_separable(n, d, margin=0.05, rng=rng)
    W0 = net.init(d, scale=1e-2, rng=rng, batch=runs)
    return lambda: lt.gd(net, W0, data, eta=0.1, n_steps=10, record=1)


CASES = {
    "loss_and_grad n=1000 d=50 k=100": lambda: _case_loss_and_grad(1000, 50, 100),
    "loss_and_grad n=10000 d=200 k=500": lambda: _case_loss_and_grad(10_000, 200, 500),
    "gd 10 steps, 256 runs n=100 d=10 k=20": lambda: _case_gd(100, 10, 20, 256),
}


def main(repeats: int) -> dict:
    from threadpoolctl import threadpool_info

    result = {"blas": [{key: info.get(key) for key in ("internal_api", "architecture",
                                                      "num_threads", "version")}
                       for info in threadpool_info()], "cases": {}}
    for name, make in CASES.items():
        fn = make()
        fn()  # warm-up
        seconds, faults = [], []
        for _ in range(repeats):
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            start = time.perf_counter()
            fn()
            seconds.append(time.perf_counter() - start)
            faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
        result["cases"][name] = {"seconds": statistics.median(seconds),
                                 "page_faults": statistics.median(faults)}
    return result


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
