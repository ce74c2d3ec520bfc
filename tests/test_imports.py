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


def test_no_module_outside_strategies_reaches_for_hypothesis():
    # the lazy `linteach.strategies` attribute would pull hypothesis in at run time, which a
    # load-time import test cannot see: no library or checker module may name it
    import ast
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1]
    offenders = []
    for path in sorted([*root.glob("linteach/**/*.py"), *root.glob("proofs_check/**/*.py")]):
        if path.name == "strategies.py" and path.parent.name == "linteach":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Attribute):
                names = [node.attr]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n == "strategies" or n.endswith(".strategies") or n.startswith("hypothesis")
                   for n in names):
                offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []
