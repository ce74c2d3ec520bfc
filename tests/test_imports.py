"""``import linteach`` stays light: no cvxpy, matplotlib or hypothesis until asked for."""
import subprocess
import sys


def test_import_linteach_loads_no_heavy_modules():
    code = ("import sys, linteach; heavy = [m for m in ('cvxpy', 'matplotlib', 'hypothesis', "
            "'sklearn') if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == ""
