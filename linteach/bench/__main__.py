"""``python -m linteach.bench``: the same as ``linteach bench``."""
import sys

from .run import main

sys.exit(main())
