"""``wordle``: one command for every tool — ``wordle <command> [options]``.

Each command is a tool of this directory, run with the same arguments and exit statuses as
``python -m tools.<module>`` (which keeps working): ``wordle assist salet:bbbby`` is
``python -m tools.assist salet:bbbby``. ``wordle <command> --help`` explains a command.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from collections.abc import Sequence

from solver.cli import _cli

#: command → (module under solver/cli/, one line for the overview), in the overview's order.
COMMANDS: dict[str, tuple[str, str]] = {
    "assist": ("assist", "the exact next guess from any position (any history, any opener)"),
    "analyse": ("analyse", "regret (skill) and luck of every move of a finished game"),
    "score-games": ("score_games", "logged games (JSON Lines) scored exactly: regret per move, totals per agent"),
    "mcp": ("mcp", "an MCP server (stdio): play scored by exact regret, best guess, analyse (extra: agents)"),
    "opener": ("opener", "how good is an opener: its exact value and rank among all openers"),
    "solve": ("solve", "solve the optimal decision tree for an opener and save it"),
    "prove": ("prove", "prove the best first guess over all allowed guesses"),
    "tree": ("tree", "use a decision tree: verify, stats, export, next, play"),
    "serve": ("serve", "the web page: play from any position, analyse a game (extra: web)"),
    "warm": ("warm", "compile the numba kernels once (at install time), so no budget pays for it"),
    "report": ("report", "policies (built-in or module:attr) scored against the exact optimum"),
    "book": ("book", "build the opening book (the popular openers' trees)"),
    "absurdle": ("absurdle", "the least number of guesses that forces a win at Absurdle"),
    "noisy": ("noisy", "the agents in Noisy Wordle and against the Absurdle adversary"),
    "uct-report": ("uct_report", "score UCT variants and other registered policies"),
    "vocab-report": ("vocab_report", "the classic agents beside the optimum on vocabulary variants"),
    "train-qlearning": ("train_qlearning", "train the Q-learning agent's table"),
    "make-vocab": ("make_vocab", "write vocabulary variants of a word list"),
    "make-wordlists": ("make_wordlists", "build the 4-, 6- and 7-letter lists from wordfreq (extra: wordfreq)"),
}


def overview() -> str:
    """The text ``wordle`` prints with no command or ``--help``: the usage, every command with its
    one-line summary, and the exit statuses."""
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: wordle <command> [options]   (wordle <command> --help for a command's options)",
             "", "Exact optimal Wordle: the solver, its decision trees, and policies scored against",
             "the optimum. Commands:", ""]
    lines += [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += ["", "  --version  print the package's version", "",
              "Exit status: 0 done, 1 the work failed, 2 bad input, 3 unwinnable (no policy wins every",
              "game within the guess limit), 130 interrupted."]
    return "\n".join(lines)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("exact-wordle")
    except PackageNotFoundError:  # a checkout that was not installed
        return "unknown (not installed)"


def _command(argv: list[str]):
    """``(module, rest of argv)`` for a command line, or an exit status already handled."""
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(overview())
        return _cli.EXIT_OK if argv else _cli.EXIT_INPUT
    if argv[0] == "--version":
        print(f"exact-wordle {_version()}")
        return _cli.EXIT_OK
    name = argv[0]
    if name not in COMMANDS:
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        _cli.print_error(f"unknown command {name!r}{hint}; commands: {', '.join(COMMANDS)}")
        return _cli.EXIT_INPUT
    _cli.COMMAND_PREFIX = "wordle"
    return importlib.import_module(f"solver.cli.{COMMANDS[name][0]}"), argv[1:]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``wordle <command> ...`` in this process; returns the exit status."""
    found = _command(list(sys.argv[1:] if argv is None else argv))
    if isinstance(found, int):
        return found
    module, rest = found
    return module.main(rest)


def run() -> None:
    """The console entry: the command's own ``run()`` (its console behaviour: ``assist``
    counts its budget from the start and exits quickly), with its arguments in ``sys.argv``."""
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:  # the overview, --version, a typo
        sys.exit(_cli.run_main(main))
    module, rest = _command(sys.argv[1:])
    sys.argv = [f"wordle {sys.argv[1]}", *rest]
    module.run()


if __name__ == "__main__":
    run()
