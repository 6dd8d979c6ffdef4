"""Long runs report progress in a pipe or a log too: plain lines, not only a live bar that a
non-terminal shows at the end (solver/studies/progress.py)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.progress import BarColumn, TextColumn

from solver.studies.progress import LineProgress


def _progress(terminal: bool, interval: float, after: float = 0):
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=100, color_system=None)
    return LineProgress(TextColumn("{task.description}"), BarColumn(), console=console,
                        interval=interval, after=after, unit="answers", transient=True), out


def test_a_task_done_before_its_first_line_is_due_prints_nothing():
    bar, out = _progress(terminal=False, interval=0, after=3600)
    with bar:
        task = bar.add_task("solving salet", total=3)
        for done in range(1, 4):
            bar.update(task, completed=done)
    assert out.getvalue().strip() == ""


def test_a_pipe_gets_a_line_at_the_start_at_most_every_interval_and_at_the_end():
    bar, out = _progress(terminal=False, interval=3600)
    with bar:
        task = bar.add_task("solving salet", total=10)
        for done in range(1, 11):
            bar.update(task, completed=done)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines[0].startswith("solving salet: 1/10 answers, ")
    assert lines[1].startswith("solving salet: 10/10 answers, ") and len(lines) == 2


def test_every_update_past_the_interval_is_a_line_and_fields_name_the_phase():
    bar, out = _progress(terminal=False, interval=0)
    with bar:
        task = bar.add_task("best 7920", total=4, phase="searching")
        bar.advance(task)
        bar.advance(task)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines == [lines[0], lines[1]] and lines[1].startswith("searching best 7920: 2/4 answers")


def test_a_terminal_gets_the_live_bar_only():
    bar, out = _progress(terminal=True, interval=0)
    with bar:
        task = bar.add_task("solving salet", total=2)
        bar.update(task, completed=1)
    assert "answers," not in out.getvalue()


def test_a_reset_task_reports_again_after_its_last_line():
    """One task for the levels of a proof: finished at one level, reset for the next, it gets
    lines again (a finished task's last line used to be its last for good)."""
    bar, out = _progress(terminal=False, interval=3600)
    with bar:
        task = bar.add_task("within 4", total=2)
        for level in (4, 5):
            bar.reset(task, total=2, description=f"within {level}")
            for done in (1, 2):
                bar.update(task, completed=done)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert [line.split(",")[0] for line in lines] == ["within 4: 1/2 answers", "within 4: 2/2 answers",
                                                      "within 5: 1/2 answers", "within 5: 2/2 answers"]
