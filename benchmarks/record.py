"""What a benchmark measured, kept for docs/benchmarks.md.

Every benchmark of ``make bench`` ends with :func:`record`: its table of figures, the command
that printed it and the machine it ran on go to ``benchmarks/results/<workload>.json``
(one file per workload, replaced by the next run). ``python -m benchmarks.report`` (the last
step of ``make bench``) then writes those files into docs/benchmarks.md as one table per
workload (a table of one row per state asked as its summary there, whole on
docs/benchmarks-states.md), above the sections kept by hand.

The results directory is ``EXACT_WORDLE_BENCH_RESULTS`` when set (the tests set it, so that a
test run never touches the committed results).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS_ENV = "EXACT_WORDLE_BENCH_RESULTS"


def results_dir() -> Path:
    """Where results are kept: ``$EXACT_WORDLE_BENCH_RESULTS`` or ``benchmarks/results``."""
    return Path(os.environ.get(RESULTS_ENV) or ROOT / "benchmarks" / "results")


@dataclass(frozen=True)
class Figures:
    """One workload's figures as a benchmark printed them.

    Attributes:
        workload: file name and sort key (``solve``, ``prove-normal``, …).
        title: the table's heading in docs/benchmarks.md.
        command: the command line that measured it (``python -m benchmarks.X …``).
        columns: column names; rows: one tuple of strings per row, as wide as ``columns``.
        notes: sentences printed under the table (what the figures mean, what was skipped).
        machine: :func:`machine` when the run finished.
        finished: UTC time the run finished, ISO 8601 to the minute.
    """

    workload: str
    title: str
    command: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    machine: dict = field(default_factory=dict)
    finished: str = ""


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gb() -> float | None:
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def machine() -> dict:
    """The machine and its load: CPU model, cores, memory GB, Python, numpy and numba
    versions, and the load average over 1, 5 and 15 minutes (``os.getloadavg``)."""
    import numba
    import numpy

    load = os.getloadavg() if hasattr(os, "getloadavg") else (None, None, None)
    return {"cpu": _cpu_model(), "arch": platform.machine(), "cores": os.cpu_count(),
            "memory_gb": _memory_gb(), "python": platform.python_version(),
            "numpy": numpy.__version__, "numba": numba.__version__,
            "load": [round(x, 2) for x in load if x is not None]}


def _outside_path(arg: str) -> str:
    """``arg``, or ``DIR`` / ``FILE`` when it names an existing directory or file outside the
    repository (``--opt=VALUE`` looked at after its ``=``): a path of this machine has no place
    in the committed figures."""
    option, eq, value = arg.partition("=") if arg.startswith("--") else ("", "", arg)
    path = Path(value).expanduser()
    try:
        if not value or not path.exists() or path.resolve().is_relative_to(ROOT):
            return arg
    except OSError:  # a name too long for the file system is not a path of this machine
        return arg
    return option + eq + ("DIR" if path.is_dir() else "FILE")


def command_line(prog: str, argv: Sequence[str] | None) -> str:
    """``prog`` and its arguments as a shell line (``argv`` None: this process's own), each
    path outside the repository written ``DIR`` or ``FILE``."""
    args = sys.argv[1:] if argv is None else argv
    return " ".join([prog, *(shlex.quote(_outside_path(arg)) for arg in args)])


def record(workload: str, title: str, columns: Sequence[str], rows: Sequence[Sequence[object]], *,
           prog: str, argv: Sequence[str] | None, notes: Sequence[str] = ()) -> Path:
    """Keep a benchmark's figures (see the module docstring); returns the file written.

    Args:
        workload: a short name, ``[a-z0-9-]+``: the file ``<workload>.json``.
        title: heading of its table; columns, rows: the table (cells are turned into str).
        prog, argv: the benchmark's parser ``prog`` and the arguments it was given.
        notes: sentences printed under the table.

    Raises:
        ValueError: a bad workload name, or a row not as wide as ``columns``.
        OSError: the results file cannot be written (named in the message).
    """
    from solver.game.files import write_text_atomic

    if not workload or not all(c.isascii() and (c.isalnum() or c == "-") for c in workload):
        raise ValueError(f"workload name must be [a-z0-9-]+, got {workload!r}")
    cells = tuple(tuple(str(cell) for cell in row) for row in rows)
    for row in cells:
        if len(row) != len(columns):
            raise ValueError(f"{workload}: row {row} has {len(row)} cells for {len(columns)} columns")
    figures = Figures(workload, title, command_line(prog, argv), tuple(columns), cells,
                      tuple(notes), machine(),
                      datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"))
    text = json.dumps(asdict(figures), indent=1, ensure_ascii=False) + "\n"
    return write_text_atomic(results_dir() / f"{workload}.json", text)


def load(path: str | Path) -> Figures:
    """A results file read back.

    Raises:
        ValueError: the file is not a results file (named in the message).
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return Figures(doc["workload"], doc["title"], doc["command"], tuple(doc["columns"]),
                       tuple(tuple(row) for row in doc["rows"]), tuple(doc.get("notes", ())),
                       dict(doc.get("machine", {})), doc.get("finished", ""))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a benchmark results file ({exc})") from exc
