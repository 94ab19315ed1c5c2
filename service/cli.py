"""The `syndicate` command-line tool."""

import click


@click.group()
def main() -> None:
    """Syndicate: gangster card games over HTTP."""
