"""The compiled loops over the preference lists (solver/_core.c); everything else is in pyproject.toml."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("solver._core", ["solver/_core.c"], extra_compile_args=["-O2"])])
