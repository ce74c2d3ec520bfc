"""Finding (round 9): eq6's ``breaks_shrink_with_step`` failed at ``--budget thorough``.

The late-phase flow of case ``symmetric``/7565461099101634138 has a largest drop of γ̃ that
shrinks by less than the clause's SHRINK = 0.75 when the step is halved once.  This script
refines the step three times (dt/1, /2, /4, /8, the same total turn) and prints each run's
largest drop and the ratios between levels: the drops vanish with the step, but not at
first order (kinks of the leaky ReLU).  ``python tools/eq6_refinement.py`` (a few minutes).
Since round 10 the clause refines such runs itself (``eq6.REFINE_LEVELS``: SHRINK per
halving over two or three halvings) and the case passes at level 2.
"""
import numpy as np

import linteach as lt
from proofs_check.claims import eq6
from proofs_check.engine.contract import Case
from proofs_check.kit import flow

CASE = Case("symmetric", 7565461099101634138)


def main() -> None:
    spec = eq6.FAMILIES[CASE.family]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec.get("v", 1.0))
    X, y, W0 = flow.stack_runs(eq6._build([CASE], spec, net))
    n_late = flow.steps(eq6.N_LATE, "thorough")
    drops = {}
    for f in (1, 2, 4, 8):
        run = lt.gradient_flow(net, W0, (X, y), dt=eq6.DT / f, n_steps=n_late * f,
                               normalized=True, record="all")
        valid = run.trace["log_loss"] + np.log(spec["n"]) < np.log(np.log(2.0))
        drops[f] = flow.largest_drop(run.trace["smoothed_margin"], valid)
        print(f"dt/{f}: largest drop per run {drops[f]}", flush=True)
    for f in (2, 4, 8):
        print(f"dt/{f} over dt/{f // 2}: {drops[f] / drops[f // 2]} (SHRINK = {eq6.SHRINK})")


if __name__ == "__main__":
    main()
