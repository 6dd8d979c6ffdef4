"""What every command-line tool shares: the one place that maps errors to exit codes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from solver.game.errors import InputError

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


def print_error(text: str) -> None:
    """Print ``error: text`` in red on stderr (text is not read as markup)."""
    # rich is imported only on the error path: lookups should not pay for it
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(text)}", soft_wrap=True)


def run_main(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Call ``main(argv)``; bad input → message on stderr and exit 2; Ctrl-C → exit 130."""
    try:
        return main(argv)
    except InputError as exc:
        print_error(str(exc))
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted; finished work is kept and a rerun resumes it", file=sys.stderr)
        return 130


def exit_with(main: Callable[[Sequence[str] | None], int]) -> None:
    sys.exit(run_main(main))
