"""The docstring examples in linteach run and print what they say."""
import doctest
import importlib
import pkgutil

import pytest

import linteach

#: every module of the package; a ``__main__`` would run its command on import
MODULES = sorted(m.name for m in pkgutil.walk_packages(linteach.__path__, "linteach.")
                 if not m.name.endswith(".__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_examples_exist():
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted > 0  # the examples are collected at all
