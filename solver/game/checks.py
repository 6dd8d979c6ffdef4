"""Checks of run parameters shared by the long-running APIs (plain Python, no numba)."""

from __future__ import annotations

import numbers

from solver.game.errors import InputError


def check_jobs(jobs) -> int:
    """``jobs`` (worker processes, as joblib reads it) checked and returned as an int.

    A positive count of worker processes, or a negative number counting back from all cores
    (-1: all cores, -2: all but one).

    Raises:
        InputError: 0, or not an integer.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or int(jobs) == 0:
        raise InputError(f"jobs must be a number of worker processes (1, 2, ...) or negative to "
                         f"count back from all cores (-1: all cores), not {jobs!r}")
    return int(jobs)
