"""What every command-line tool shares: the one error funnel, ``--debug``, argument types.

Every tool's ``main(argv) -> int`` is wrapped by :func:`entry_point`, so the same rules hold
whether it runs as ``python -m tools.X`` or is called in-process:

======  =====================================================================================
status  meaning
======  =====================================================================================
0       done
1       the work failed: a verification failed (``tree verify``), a write failed after the
        work was done (the message says where the finished work is kept), a worker process
        died (killed from outside, e.g. by the out-of-memory killer: the message says how,
        and what was kept, as Ctrl-C's does), a dependency is
        not installed in the Python that runs the tool (one plain line naming the package
        and ``make install``), or an internal error (a short message; the traceback only
        with ``--debug``)
2       bad input, refused before any work: a word list, word, feedback, artifact, option
        value or output path that cannot be used (one line naming it and how to fix it);
        argparse's usage errors are 2 too
3       the solver's answer is that no policy wins: every game cannot be won within the guess
        limit from this opener or state (:class:`~solver.game.errors.UnwinnableError`; the
        input was well formed, so not 2)
130     interrupted (Ctrl-C); the message says what was kept and how to resume
======  =====================================================================================
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Sequence

from solver.game.errors import InputError, UnwinnableError, WorkerLost

EXIT_OK, EXIT_FAILED, EXIT_INPUT, EXIT_UNWINNABLE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DEBUG_HELP = "on an internal error, print the traceback too"
#: The help of every --mode option.
MODE_HELP = ("normal (any allowed guess), hard (the NYT rule: every guess keeps the greens in "
             "place and uses every revealed letter) or ultra (ultra-hard: every guess could be "
             "the answer given all feedback so far)")

Interrupted = str | Callable[[list[str]], str]

#: Set by ``wordle`` (solver/cli/wordle.py) while it runs a subcommand: the usage lines then say
#: ``wordle <command>`` instead of ``python -m tools.<module>``.
COMMAND_PREFIX: str | None = None


def prog_name(module: str) -> str:
    """The program name a tool's usage shows: ``python -m tools.<module>``, or ``wordle
    <command>`` when run as a subcommand of ``wordle``."""
    if COMMAND_PREFIX is not None:
        return f"{COMMAND_PREFIX} {module.replace('_', '-')}"
    return f"python -m tools.{module}"


def print_error(text: str) -> None:
    """Print ``error: text`` in red on stderr (text is not read as markup); plain when rich
    cannot be imported (a Python without the dependencies: the message must still get out)."""
    # rich is imported only on the error path: lookups should not pay for it
    try:
        from rich.console import Console
        from rich.markup import escape
    except ImportError:
        print(f"error: {text}", file=sys.stderr)
        return
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(text)}", soft_wrap=True)


#: The project's own top-level packages: a ModuleNotFoundError naming one of them is a bug (or
#: a broken checkout), not a missing dependency.
OWN_PACKAGES = ("solver", "policy_tree", "tools", "benchmarks")
#: Import names whose distribution (what pip installs) is spelled otherwise.
DISTRIBUTIONS = {"yaml": "pyyaml", "msgpack": "msgpack", "sklearn": "scikit-learn"}


def missing_dependency(exc: BaseException) -> str | None:
    """The one-line message for a :class:`ModuleNotFoundError` that names a missing dependency
    (not one of :data:`OWN_PACKAGES`), or None for any other exception: which package is
    missing from which Python, and how to install the dependencies."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    top = exc.name.split(".")[0]
    if top in OWN_PACKAGES:
        return None
    package = DISTRIBUTIONS.get(top, top)
    return (f"the package {package!r} is not installed for this Python ({sys.executable}): "
            "run `make install` and use the virtual environment's .venv/bin/python (or "
            "`pip install -e .` into this Python)")


def install_dependency_hook() -> None:
    """Make an uncaught missing-dependency error (a tool's module importing numpy or rich at its
    top, before :func:`run_main` runs) one plain line on stderr instead of a traceback, exit
    status 1; every other uncaught exception goes to the hook that was there. Installed once
    by ``solver/cli/__init__.py``."""
    previous = sys.excepthook
    if getattr(previous, "missing_dependency_hook", False):
        return

    def hook(kind, exc, trace):
        message = missing_dependency(exc)
        if message is None:
            previous(kind, exc, trace)
        else:
            print(f"error: {message}", file=sys.stderr)

    hook.missing_dependency_hook = True
    sys.excepthook = hook


def add_debug_option(parser: argparse.ArgumentParser, *, subcommand: bool = False) -> None:
    """Add ``--debug`` to ``parser`` (to a subcommand's parser too, so it may come before or
    after the subcommand). :func:`run_main` reads it from argv, so a parse error can be
    debugged as well."""
    parser.add_argument("--debug", action="store_true",
                        default=argparse.SUPPRESS if subcommand else False, help=DEBUG_HELP)


def _first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit] + "…"


def _os_error_text(exc: OSError) -> str:
    """An OSError in one line: its own message when it has one (WriteFailedError), else
    ``<file>: <reason>``."""
    if exc.strerror is None:  # our own message names its files: as long as an input error's
        return _first_line(str(exc), limit=2000) or type(exc).__name__
    if exc.filename is None:
        return exc.strerror
    also = f" → {exc.filename2}" if getattr(exc, "filename2", None) is not None else ""
    return f"{exc.filename}{also}: {exc.strerror}"


def _silence_stdout() -> None:
    """After a broken pipe (``... | head``), point stdout at /dev/null so that the final flush
    at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class UsageError(InputError):
    """An argument argparse refuses (an unknown option, a value out of range): one line, exit 2."""


def _empty_arguments(parser: argparse.ArgumentParser, namespace) -> list[str]:
    """The arguments of ``parser`` given an empty value (``--words ''``, or an empty word among
    a positional's): a value no option of the tools takes, which ``args.words or DEFAULT``
    would silently read as the default."""
    empty = []
    for action in parser._actions:
        value = getattr(namespace, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(item, str) and not item.strip() for item in values):
            empty.append("/".join(action.option_strings) or action.metavar or action.dest)
    return empty


@contextlib.contextmanager
def _one_line_usage_errors():
    """argparse errors as one line naming the option (a :class:`UsageError`, exit 2) instead
    of the usage block, like every other bad input; an empty value of any argument is one of
    them (never the default in disguise)."""
    original, original_parse = argparse.ArgumentParser.error, argparse.ArgumentParser.parse_known_args

    def error(parser, message):
        raise UsageError(f"{message} (`{parser.prog} --help` explains every option)")

    def parse_known_args(parser, args=None, namespace=None):
        namespace, extras = original_parse(parser, args, namespace)
        empty = _empty_arguments(parser, namespace)
        if empty:
            hint = ("give one, or leave the option out for its default" if empty[0].startswith("-")
                    else "every word must be given")
            parser.error(f"argument {empty[0]}: an empty value ({hint})")
        return namespace, extras

    argparse.ArgumentParser.error = error
    argparse.ArgumentParser.parse_known_args = parse_known_args
    try:
        yield
    finally:
        argparse.ArgumentParser.error = original
        argparse.ArgumentParser.parse_known_args = original_parse


@contextlib.contextmanager
def _notices_as_lines():
    """Warnings meant for the user (:class:`~solver.game.errors.UserNotice`: a damaged journal
    set aside, say) as one line on stderr, ``warning: <message>``; other warnings as Python
    shows them."""
    from solver.game.errors import UserNotice

    original = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, UserNotice):
            print(f"warning: {message}", file=sys.stderr)
        else:
            original(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", UserNotice)
            warnings.showwarning = show
            yield
    finally:
        warnings.showwarning = original


def run_main(body: Callable[[list[str]], int], argv: Sequence[str] | None = None, *,
             interrupted: Interrupted = "interrupted") -> int:
    """Call ``body(argv)`` and map every outcome to an exit status (module docstring).

    ``argv`` defaults to ``sys.argv[1:]``. ``interrupted`` is the Ctrl-C message, or a
    callable building it from argv; what it says was kept is said too when a worker process
    died (:class:`~solver.game.errors.WorkerLost`), which stops the run the same way. Never
    raises (SystemExit from argparse is returned as its status)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    # joblib warns when a run stops early (an error, Ctrl-C) with tasks still queued: noise
    # before the one line that says what happened
    warnings.filterwarnings("ignore", message=r"\d+ tasks (have been successfully executed|which "
                            r"were still being processed)", category=UserWarning)
    try:
        with _one_line_usage_errors(), _notices_as_lines():
            status = body(argv)
        return EXIT_OK if status is None else int(status)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or EXIT_OK
        print_error(str(exc.code))
        return EXIT_FAILED
    except KeyboardInterrupt:
        message = interrupted(argv) if callable(interrupted) else interrupted
        print(message, file=sys.stderr)
        return EXIT_INTERRUPTED
    except InputError as exc:
        if debug:
            traceback.print_exc()
        print_error(_first_line(str(exc), limit=2000) or type(exc).__name__)
        return EXIT_INPUT
    except UnwinnableError as exc:  # the solver's answer about good input, not bad input
        if debug:
            traceback.print_exc()
        print_error(_first_line(str(exc), limit=2000) or type(exc).__name__)
        return EXIT_UNWINNABLE
    except WorkerLost as exc:  # the run stopped part-way, as at Ctrl-C: the same work is kept
        if debug:
            traceback.print_exc()
        kept = _what_was_kept(interrupted(argv) if callable(interrupted) else interrupted)
        print_error(f"{_first_line(str(exc))}; {kept or 'rerun the command'}")
        return EXIT_FAILED
    except ModuleNotFoundError as exc:  # a Python without the dependencies: one plain line
        message = missing_dependency(exc)
        if message is None:  # one of our own modules: a broken checkout
            message = f"internal error: {_first_line(str(exc))}"
        if debug:
            traceback.print_exc()
        print_error(message)
        return EXIT_FAILED
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing left to say
        _silence_stdout()
        return EXIT_FAILED
    except OSError as exc:
        if debug:
            traceback.print_exc()
        print_error(_os_error_text(exc))
        return EXIT_FAILED
    except MemoryError:
        print_error("out of memory")
        return EXIT_FAILED
    except Exception as exc:  # a bug: say so briefly
        if debug:
            traceback.print_exc()
        hint = "" if debug else " (rerun with --debug to see the traceback)"
        detail = _first_line(str(exc))
        print_error(f"internal error: {type(exc).__name__}{': ' + detail if detail else ''}{hint}")
        return EXIT_FAILED


def _what_was_kept(interrupted: str) -> str:
    """What a tool's Ctrl-C message says was kept, without its "interrupted" ("" if nothing)."""
    import re

    return re.sub(r"^interrupted[:;]?\s*", "", interrupted.strip())


def journal_kept(pieces: str, run: str) -> Callable[[list[str]], str]:
    """The Ctrl-C message of a tool whose run journals its finished ``pieces`` ("root
    classes", "openers") in ``run``'s journal ("solve", "proof") in the user cache."""

    def message(argv: list[str]) -> str:
        from solver.game.files import cache_dir

        return (f"interrupted: the finished {pieces} are kept in the {run}'s journal "
                f"({cache_dir() / 'journals'}); rerun the same command to resume, or add "
                "--no-resume to start over")

    return message


def entry_point(interrupted: Interrupted = "interrupted"):
    """Decorator: ``main(argv) -> int`` run through :func:`run_main` (the error funnel), with
    ``interrupted`` as the Ctrl-C message. The undecorated function is ``main.body``."""

    def wrap(body: Callable[[list[str]], int]) -> Callable[[Sequence[str] | None], int]:
        @functools.wraps(body)
        def main(argv: Sequence[str] | None = None) -> int:
            return run_main(body, argv, interrupted=interrupted)

        main.body = body
        return main

    return wrap


#: The garbage collector's youngest-generation threshold in a tool's process (Python's
#: default is 700; mypy sets 200,000 too). A tool's start-up makes some 120,000 objects that
#: live as long as the process (numpy's, numba's) and are never garbage: with the default, a
#: SALET tree's run collected 280 times, twice over every object, for 0.1–0.2 s of its one
#: second, and freed next to nothing. Short-lived cycles are still collected.
GC_THRESHOLD = 200_000


#: True once :func:`exit_with` runs a tool as the process's command (:func:`budget_clock`).
_as_command = False


def process_started() -> float | None:
    """The :func:`time.monotonic` reading at which this process started (before the
    interpreter loaded anything), from the kernel's record of it (Linux: ``/proc/self/stat``'s
    start time against the boot-time clock, to 10 ms); None where there is no such record."""
    import time

    try:
        with open("/proc/self/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22 of stat(5), counted after the command's name
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return time.monotonic() - age if 0 <= age < 86400 else None


def budget_clock() -> float:
    """Where a tool's ``--budget`` counts from: run as a command, the process's start
    (:func:`process_started`: the interpreter's start and the imports, slow under load, are
    part of the wait the user asked for, docs/troubleshooting.md); ``main()`` called in a
    process, the moment of the call."""
    import time

    now = time.monotonic()
    started = process_started() if _as_command else None
    return now if started is None else min(started, now)


def exit_with(main: Callable[[Sequence[str] | None], int], *, quick_exit: bool = False) -> None:
    """``sys.exit(main())``: the console-script entry of a tool (the process is the tool's:
    its garbage collector runs every :data:`GC_THRESHOLD` allocations). A ``main`` not
    decorated with :func:`entry_point` is run through :func:`run_main` here, so it gets the
    funnel too.

    ``quick_exit`` (for a tool whose files are all closed when ``main`` returns): once
    ``main`` has returned, the atexit handlers run and stdout and stderr are flushed, then the
    process ends with :func:`os._exit`, skipping the interpreter's teardown — a last full
    garbage collection and the freeing of every object, 0.2–0.3 s after a solve has loaded
    numba (mypy ends the same way)."""
    global _as_command
    _as_command = True
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    status = main() if hasattr(main, "body") else run_main(main)
    if not quick_exit:
        sys.exit(status)
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # closed, or a broken pipe
            pass
    os._exit(status if isinstance(status, int) else EXIT_FAILED)


#: The largest seed any tool takes: every random generator the project uses (numpy's, the
#: numba kernels' SplitMix64, Python's) represents it exactly.
SEED_MAX = 2**32 - 1
#: The most seconds a budget may be (a year): longer is a typo, and float seconds stay exact.
SECONDS_MAX = 365 * 24 * 3600.0


def _range_text(lo, hi) -> str:
    if lo is not None and hi is not None:
        return f"{lo}..{hi}"
    return f"≥ {lo}" if lo is not None else f"≤ {hi}"


def whole(lo: int | None = None, hi: int | None = None, *, also: tuple = (),
          what: str = "a whole number") -> Callable[[str], int]:
    """argparse type: a whole number in ``lo..hi`` (inclusive; None = unbounded), or one of
    ``also`` (e.g. -1 for "all cores"). Anything else (a fraction, 1e3, a 23-digit number
    out of range) is refused by argparse with one line naming the option and the range (exit 2),
    before any work."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or (value not in also and (
                (lo is not None and value < lo) or (hi is not None and value > hi))):
            extra = "".join(f" or {a}" for a in also)
            raise argparse.ArgumentTypeError(
                f"must be {what} in {_range_text(lo, hi)}{extra}, got {_short_text(text)}")
        return value

    parse.__name__ = "whole number"
    return parse


def number(lo: float | None = None, hi: float | None = None, *, lo_open: bool = False,
           unit: str = "", note: str = "") -> Callable[[str], float]:
    """argparse type: a finite number in ``lo..hi`` (``lo_open``: strictly above ``lo``); NaN,
    infinities and out-of-range values are refused by argparse naming the option and the range
    (exit 2)."""
    import math

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except (ValueError, OverflowError):
            value = math.nan
        if (not math.isfinite(value) or (lo is not None and (value <= lo if lo_open else value < lo))
                or (hi is not None and value > hi)):
            low = "" if lo is None else (f"> {lo:g}" if lo_open else f"≥ {lo:g}")
            high = "" if hi is None else f"≤ {hi:g}"
            bounds = " and ".join(b for b in (low, high) if b)
            raise argparse.ArgumentTypeError(
                f"must be a finite number{' of ' + unit if unit else ''}{' ' + bounds if bounds else ''}"
                f"{note}, got {_short_text(text)}")
        return value

    parse.__name__ = "number"
    return parse


def _short_text(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


#: argparse types shared by the tools.
seed = whole(0, SEED_MAX, what="a seed")
jobs = whole(-4096, 4096, what="a number of worker processes (not 0)")
positive_count = whole(1, 10**9)
positive_seconds = number(0, SECONDS_MAX, lo_open=True, unit="seconds")
positive_hours = number(0, SECONDS_MAX / 3600, lo_open=True, unit="hours")
seconds = number(0, SECONDS_MAX, unit="seconds")
guess_limit = whole(1, 50, what="a number of guesses")


def _jobs(text: str) -> int:
    value = jobs(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be a number of worker processes: N ≥ 1, or -1 for all "
                                         "cores, -2 for all but one, …; got 0")
    return value


_jobs.__name__ = "number of worker processes"


def add_jobs_option(parser: argparse.ArgumentParser, *, default: int = -1, what: str = "") -> None:
    """Add ``--jobs``, worker processes as joblib counts ``n_jobs`` (one meaning for every
    tool, :func:`solver.game.checks.worker_count`): N ≥ 1 processes, or a negative number
    counting back from all cores (-1: all cores, -2: all but one); 0 is refused."""
    default_text = {-1: "all cores", 1: "1, in this process"}.get(default, str(default))
    parser.add_argument("--jobs", type=_jobs, default=default, metavar="N",
                        help=f"worker processes{' ' + what if what else ''}: N ≥ 1, or -1 for all cores, "
                             f"-2 for all but one, … as joblib counts them (default: {default_text})")


def memory_gb(text: str) -> float:
    """argparse type: gigabytes of memory, finite, > 0 and at most this machine's memory."""
    total = physical_memory_gb()
    return number(0, total, lo_open=True, unit="GB", note=" (this machine's memory)")(text)


def physical_memory_gb() -> float:
    """This machine's memory in GB (10**9 bytes, rounded down to 0.1), or 2**20 if unknown."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e8) / 10
    except (ValueError, OSError, AttributeError):
        return float(2**20)


def seed_list(text: str) -> list[int]:
    """argparse type: ``"0,1,2"`` → ``[0, 1, 2]`` (seeds 0..SEED_MAX, at least one)."""
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        seeds = None
    if not seeds or any(not 0 <= s <= SEED_MAX for s in seeds):
        raise argparse.ArgumentTypeError(
            f"{_short_text(text)} is not a comma-separated list of seeds in 0..{SEED_MAX} "
            "(e.g. 0,1,2)")
    return seeds


class SolveProgress:
    """A ``progress(done, total)`` callback that shows a rich progress bar on stderr from its
    first call on (an opener's tree being solved, :mod:`solver.exact.book`); nothing is shown
    when no tree is solved. Use as a context manager, so the bar is closed."""

    def __init__(self, label: str = "solving the opener's tree (once; kept for next time)"):
        self.label = label
        self._bar = None
        self._task = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

            from solver.studies.progress import LineProgress

            self._bar = LineProgress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("answers"), TimeElapsedColumn(),
                                 console=Console(stderr=True), transient=False)
            self._bar.start()
            self._task = self._bar.add_task("", total=total)
        self._bar.update(self._task, completed=done, total=total)

    def __enter__(self) -> SolveProgress:
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
