"""What every command-line tool shares: the one place that maps errors to exit codes."""

from __future__ import annotations

import sys
from typing import Callable, Sequence

from rich.console import Console

from solver.errors import InputError

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2

error_console = Console(stderr=True, highlight=False)


def run_main(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Call ``main(argv)``; bad input → message on stderr and exit 2; Ctrl-C → exit 130."""
    try:
        return main(argv)
    except InputError as exc:
        error_console.print(f"[bold red]error:[/] {exc}", markup=True, soft_wrap=True)
        return EXIT_INPUT
    except KeyboardInterrupt:
        error_console.print("interrupted; finished work is kept and a rerun resumes it")
        return 130


def exit_with(main: Callable[[Sequence[str] | None], int]) -> None:
    sys.exit(run_main(main))
