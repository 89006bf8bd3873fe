"""The one error printer of the command lines (``playtester`` and ``playtester plan``)."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

from playtester.errors import PlaytesterError

err_console = Console(stderr=True, soft_wrap=True)


def fail(e: PlaytesterError) -> None:
    """Print ``error: MESSAGE`` on stderr and exit with the error's exit code."""
    err_console.print(f"[bold red]error:[/] {escape(str(e))}", highlight=False)  # messages may hold [brackets]
    raise typer.Exit(e.exit_code)
