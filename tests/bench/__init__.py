"""Benchmarks: not collected by pytest; run each module with python -m."""
