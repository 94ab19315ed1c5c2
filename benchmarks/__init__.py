"""Benchmarks: `make bench`. Figures go to stdout; nothing here is a test."""
