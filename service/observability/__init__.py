"""Logs and metrics, for every process."""
