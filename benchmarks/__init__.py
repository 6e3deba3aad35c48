"""Benchmark instances and runner: `python -m benchmarks --help`."""
