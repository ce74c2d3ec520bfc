"""``import linteach`` stays light: no cvxpy, matplotlib or hypothesis until asked for."""
import subprocess
import sys


def test_import_linteach_loads_no_heavy_modules():
    code = ("import sys, linteach; heavy = [m for m in ('cvxpy', 'matplotlib', 'hypothesis', "
            "'sklearn') if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == ""


def test_proofs_check_claims_load_without_hypothesis():
    # every claim module (and the generators they draw their cases with) imports without
    # hypothesis, which is a test dependency, not an install one
    code = ("import sys; from proofs_check.engine import registry; "
            "[registry.load(c) for c in registry.CHECKS]; import linteach.generators; "
            "print('hypothesis' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "False"
