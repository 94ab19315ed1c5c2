"""Syndicate: the HTTP service, its workers and its command-line tool."""
