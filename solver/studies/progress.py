"""Progress of long runs, on a terminal and in a pipe or a log alike.

rich's :class:`~rich.progress.Progress` draws live bars on a terminal; when its console is no
terminal (``make solve | tee log``, a CI log, a file) it draws nothing until the run ends, so a
run of minutes looks stuck. :class:`LineProgress` is that Progress, which then prints a plain
line per task instead: at its first update once the task has run ``after`` seconds, at most
every ``interval`` seconds after that, and when it finishes (``solving salet: 1200/2315
answers, 41 s``). A task done within ``after`` seconds prints nothing: a quick run's output (or
its one-line error) stays what it is.
"""

from __future__ import annotations

import time

from rich.progress import Progress
from rich.text import Text

#: Seconds between two plain lines of one task.
INTERVAL = 15.0
#: Seconds a task runs before its first plain line.
AFTER = 2.0


class LineProgress(Progress):
    """:class:`rich.progress.Progress` that reports as plain lines when its console is no
    terminal (module docstring). ``interval``: seconds between two lines of one task;
    ``after``: seconds a task runs before its first line; the other arguments are Progress's."""

    def __init__(self, *columns, interval: float = INTERVAL, after: float = AFTER, unit: str = "",
                 **kwargs):
        super().__init__(*columns, **kwargs)
        self.interval = interval
        self.after = after
        self.unit = unit
        self._said: dict = {}  # task id → time of its last line, or True once its last is said

    def update(self, task_id, **kwargs) -> None:
        """Progress.update, then a plain line for the task if one is due (no terminal)."""
        super().update(task_id, **kwargs)
        self._line(task_id)

    def reset(self, task_id, **kwargs) -> None:
        """Progress.reset, and the task's lines start afresh (a finished task said its last
        line; reset, it runs again: the levels of a proof on one task)."""
        super().reset(task_id, **kwargs)
        self._said.pop(task_id, None)

    def advance(self, task_id, advance: float = 1) -> None:
        """Progress.advance, then a plain line for the task if one is due (no terminal)."""
        super().advance(task_id, advance)
        self._line(task_id)

    def _line(self, task_id) -> None:
        if self.disable or self.console.is_terminal:
            return  # the live bar says it
        task = next((t for t in self.tasks if t.id == task_id), None)
        said = self._said.get(task_id)
        if task is None or said is True:
            return
        if said is None and (task.elapsed or 0) < self.after:
            return  # not long enough to need a line (nor, if it is finished, ever)
        now = time.monotonic()
        if not task.finished and said is not None and now - said < self.interval:
            return
        self._said[task_id] = True if task.finished else now
        label = " ".join(str(part) for part in (*task.fields.values(), task.description) if part)
        try:
            label = Text.from_markup(label).plain
        except Exception:  # not markup after all: as written
            pass
        count = f"{task.completed:g}" + (f"/{task.total:g}" if task.total is not None else "")
        unit = f" {self.unit}" if self.unit else ""
        self.console.print(f"{label}: {count}{unit}, {task.elapsed or 0:.0f} s", markup=False,
                           highlight=False, soft_wrap=True)
