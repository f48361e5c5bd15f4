"""setuptools' hook: the metadata is in pyproject.toml; this adds only the build steps."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from build_locale import BuildPyWithLocale  # (beside this file)

setup(cmdclass={"build_py": BuildPyWithLocale})
