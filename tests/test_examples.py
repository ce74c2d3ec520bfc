"""The README's tour runs and prints exactly what the README says it prints."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_tour_runs_as_printed():
    readme = (ROOT / "README.md").read_text()
    script = (ROOT / "examples" / "tour.py").read_text()
    code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert code.strip() in script  # the README shows the script's own code
    printed = re.search(r"It prints\n\n```\n(.*?)```", readme, re.S).group(1)
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "tour.py")], check=True,
                         capture_output=True, text=True).stdout
    assert out == printed
