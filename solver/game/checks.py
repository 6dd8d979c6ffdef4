"""Checks of run parameters shared by the long-running APIs (plain Python, no numba)."""

from __future__ import annotations

import numbers

import numpy as np

from solver.game.errors import InputError, short_repr as _short


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


def worker_count(jobs) -> int:
    """The number of worker processes ``jobs`` means, as joblib reads ``n_jobs``
    (``joblib.effective_n_jobs``): ``jobs`` itself when positive, else all cores + 1 + ``jobs``
    (-1: all cores, -2: all but one), at least 1. Raises InputError as :func:`check_jobs`."""
    from joblib import effective_n_jobs

    return max(1, int(effective_n_jobs(check_jobs(jobs))))


def check_progress(progress):
    """``progress`` (a callback the long runs call with their counts) checked: None or
    callable, returned as is. Raises InputError for anything else."""
    if progress is not None and not callable(progress):
        raise InputError(f"progress must be a function (called with the work done and the work "
                         f"in all) or None, not {_short(progress)}")
    return progress


def check_flag(name: str, value) -> bool:
    """A yes/no option: a bool (numpy's too), returned as a bool; InputError naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError(f"{name} must be True or False, not {_short(value)}")
    return bool(value)


def check_whole(name: str, value, least: int = 0, most: int | None = None) -> int:
    """A whole number in ``least..most`` (``most`` None: no upper bound), returned as an int;
    InputError naming ``name`` and the range (a bool, a fraction or text is refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value < least or (most is not None and value > most):
        span = f"{least}..{most}" if most is not None else f"≥ {least}"
        raise InputError(f"{name} must be a whole number {span}, not {_short(value)}")
    return int(value)


def check_text(name: str, value, *, optional: bool = False) -> str | None:
    """Text (a word, a name), or None when ``optional``; InputError naming ``name``."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InputError(f"{name} must be text{' or None' if optional else ''}, not {_short(value)}")
    return value

