"""The examples in the docstrings (the kernel's, the share codes') run as tests."""

import doctest
import importlib

import pytest

MODULES = ["solitaire.core.cards", "solitaire.core.shuffle", "solitaire.cli.sharecode"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
