"""docs/benchmarks.md's generated part: benchmarks keep their figures (benchmarks/record.py) and
``python -m benchmarks.report`` writes them as one table per workload (benchmarks/report.py), the
tables of one row per state asked whole on docs/benchmarks-states.md, their summary on the first."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import record, report

ROOT = Path(__file__).resolve().parents[1]


def _keep(tmp_path, monkeypatch, workload="solve", rows=(("wall s", "1.12"),)):
    monkeypatch.setenv(record.RESULTS_ENV, str(tmp_path / "results"))
    return record.record(workload, "SALET's tree", ("figure", "value"), rows,
                         prog="python -m benchmarks.bench", argv=["--repeat", "5"], notes=["A note."])


def test_record_keeps_the_table_the_command_and_the_machine(tmp_path, monkeypatch):
    path = _keep(tmp_path, monkeypatch)
    assert path == tmp_path / "results" / "solve.json"
    doc = json.loads(path.read_text())
    assert doc["rows"] == [["wall s", "1.12"]] and doc["columns"] == ["figure", "value"]
    assert doc["command"] == "python -m benchmarks.bench --repeat 5"
    assert doc["machine"]["cores"] >= 1 and len(doc["machine"]["load"]) == 3
    assert record.load(path).rows == (("wall s", "1.12"),)


def test_record_refuses_a_bad_name_or_a_ragged_row(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="workload name"):
        _keep(tmp_path, monkeypatch, workload="../x")
    with pytest.raises(ValueError, match="has 1 cells for 2 columns"):
        _keep(tmp_path, monkeypatch, rows=(("only one",),))


def test_render_replaces_only_the_generated_part(tmp_path, monkeypatch):
    _keep(tmp_path, monkeypatch)
    _keep(tmp_path, monkeypatch, workload="prove-normal", rows=(("prove --rank 1, wall s", "58"),))
    directory = tmp_path / "results"
    first = report.render("# Benchmarks\n\nIntro.\n\n## History\n\nold | figures\n", directory)
    assert first.startswith("# Benchmarks\n\nIntro.\n\n" + report.BEGIN)
    assert first.endswith(report.END + "\n\n## History\n\nold | figures\n")
    # one table per workload, in ORDER: the SALET tree before the proof
    assert first.index("### SALET's tree") < first.index("| prove --rank 1, wall s | 58 |")
    assert "Command: `python -m benchmarks.bench --repeat 5`" in first and "A note." in first
    assert report.render(first, directory) == first  # idempotent
    _keep(tmp_path, monkeypatch, rows=(("wall s", "0.98"),))
    second = report.render(first, directory)
    assert "| wall s | 0.98 |" in second and "| wall s | 1.12 |" not in second
    assert second.endswith("## History\n\nold | figures\n")
    with pytest.raises(ValueError, match="markers are broken"):
        report.render(first.replace(report.END, ""), directory)


def test_render_names_the_shared_machine_once_and_groups_figures_into_columns(tmp_path, monkeypatch):
    rows = [(f"{n} worker{'s' * (n > 1)}{' (oversubscribed: 2 cores)' * (n > 2)}: {figure}", value)
            for n in (1, 2, 4) for figure, value in (("wall s", str(60 // n)), ("busy (a: b), %", "90"))]
    _keep(tmp_path, monkeypatch, workload="dask", rows=rows)
    _keep(tmp_path, monkeypatch, rows=(("solve: wall s", "1.12"),))  # one group: left as it is
    text = report.render("# Benchmarks\n\nIntro.\n", tmp_path / "results")
    assert text.count("the machine, unless") == 1 and "Machine:" not in text and "; load average " in text
    assert "| figure | 1 worker | 2 workers | 4 workers (oversubscribed: 2 cores) |" in text
    assert "| wall s | 60 | 30 | 15 |" in text and "| busy (a: b), % | 90 | 90 | 90 |" in text
    assert "| solve: wall s | 1.12 |" in text


def test_render_joins_a_workload_of_the_same_rows_as_more_columns(tmp_path, monkeypatch):
    monkeypatch.setenv(record.RESULTS_ENV, str(tmp_path / "results"))
    states = [("legacy", "pizza:bbbby", "2.50 s"), ("legacy", "laker:bbyyb", "0.81 s")]
    record.record("states", "States", ("lists", "history", "whole process"), states,
                  prog="python -m benchmarks.bench_states", argv=[], notes=["All exact."])
    budget = [("legacy", "pizza:bbbby", "1.86 s"), ("legacy", "laker:bbyyb", "0.61 s")]
    record.record("states-budget", "States, budget", ("lists", "history", "whole process"), budget,
                  prog="python -m benchmarks.bench_states", argv=["--budget", "2"], notes=["One not proven."])
    text = report.render("# Benchmarks\n\nIntro.\n", tmp_path / "results")
    assert "| lists | history | whole process | --budget 2: whole process |" in text
    assert "| legacy | pizza:bbbby | 2.50 s | 1.86 s |" in text and "States, budget" not in text
    assert "--budget 2 columns: One not proven." in text
    assert "Command: `python -m benchmarks.bench_states --budget 2`" in text
    record.record("states-budget", "States, budget", ("lists", "history", "whole process"), budget[:1],
                  prog="python -m benchmarks.bench_states", argv=["--budget", "2"])
    text = report.render("# Benchmarks\n\nIntro.\n", tmp_path / "results")  # other rows: apart
    assert "### States, budget" in text and "| legacy | pizza:bbbby | 1.86 s |" in text


def _states(tmp_path, monkeypatch):
    monkeypatch.setenv(record.RESULTS_ENV, str(tmp_path / "results"))
    rows = [("legacy", f"s{i}:bbbbb", f"{t} s") for i, t in enumerate(("0.50", "2.50", "0.81", "5.06", "2.50", "0.16"))]
    record.record("states", "States (seed 1), whole process", ("lists", "history", "whole process"), rows,
                  prog="python -m benchmarks.bench_states", argv=[], notes=["6 states: total 11.5 s."])
    openers = [("pyats", "0.89"), ("quich", "8.85"), ("mean", "4.87"), ("worst", "8.85 (quich)")]
    record.record("openers", "Openers", ("opener", "CPU s"), openers, prog="python -m benchmarks.bench_openers",
                  argv=[])
    return tmp_path / "results"


def test_a_table_of_states_keeps_its_summary_here_and_every_row_on_the_states_page(tmp_path, monkeypatch):
    directory = _states(tmp_path, monkeypatch)
    _keep(tmp_path, monkeypatch)
    text = report.render("# Benchmarks\n\nIntro.\n", directory)
    page = report.render_states(None, directory)
    # here: the slowest 3, slowest first (a tie in the table's order), the notes and the link
    table = text[text.index("### States (seed 1)"):]
    assert [line.split(" | ")[1] for line in table.splitlines() if line.startswith("| legacy")] == [
        "s3:bbbbb", "s1:bbbbb", "s4:bbbbb"]
    assert "6 states: total 11.5 s." in table and "Command: `python -m benchmarks.bench_states`" in table
    assert ("The slowest 3 of 6 rows (by whole process); every row: "
            "[benchmarks-states.md](benchmarks-states.md#states-seed-1-whole-process).") in table
    # a table's summary rows stay, after its slowest rows; other workloads are untouched
    openers = text[text.index("### Openers"):text.index("### States (seed 1)")]
    assert "| quich | 8.85 |\n| pyats | 0.89 |\n| mean | 4.87 |\n| worst | 8.85 (quich) |" in openers
    assert "The slowest 2 of 2 rows (by CPU s) and the table's summary rows" in openers
    assert "| wall s | 1.12 |" in text and "wall s" not in page
    # the states page: every row, in the table's order, under a heading of its anchor
    assert page.startswith(report.STATES_HEAD + "\n\n" + report.BEGIN)
    assert "## States (seed 1), whole process" in page and "6 states: total 11.5 s." in page
    assert all(f"| legacy | s{i}:bbbbb |" in page for i in range(6))
    assert page.index("s0:bbbbb") < page.index("s5:bbbbb") and "| pyats | 0.89 |" in page
    # figures measured by hand below the markers are kept
    kept = page + "\n## Measured by hand\n\n| x | 1 |\n"
    assert report.render_states(kept, directory) == kept


def test_the_states_page_is_written_and_checked_beside_the_document(tmp_path, monkeypatch):
    directory = _states(tmp_path, monkeypatch)
    document = tmp_path / "benchmarks.md"
    document.write_text("# Benchmarks\n\nIntro.\n")
    states = tmp_path / report.STATES_NAME
    argv = ["--results", str(directory), "--document", str(document)]
    assert report.main([*argv, "--check"]) == 1 and not states.exists()
    assert report.main(argv) == 0 and report.main([*argv, "--check"]) == 0
    assert "[benchmarks-states.md](benchmarks-states.md#" in document.read_text()
    assert "| legacy | s5:bbbbb | 0.16 s |" in states.read_text()
    states.write_text(states.read_text().replace("0.16 s", "0.17 s"))  # edited by hand
    assert report.main([*argv, "--check"]) == 1
    assert report.main(argv) == 0 and "0.16 s" in states.read_text()


def test_the_benchmarks_page_stays_a_reference():
    """docs/benchmarks.md is today's figures at a glance: long tables go to the states page."""
    lines = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 400, f"docs/benchmarks.md has {len(lines)} lines"
    states = (ROOT / "docs" / report.STATES_NAME).read_text(encoding="utf-8")
    assert "| legacy | normal | courd:bbybb |" in states  # a state that is not among the slowest


def test_check_fails_on_a_stale_document_and_writes_nothing(tmp_path, monkeypatch):
    _keep(tmp_path, monkeypatch)
    document = tmp_path / "benchmarks.md"
    document.write_text("# Benchmarks\n\nIntro.\n\n## History\n")
    argv = ["--results", str(tmp_path / "results"), "--document", str(document)]
    assert report.main([*argv, "--check"]) == 1
    assert document.read_text() == "# Benchmarks\n\nIntro.\n\n## History\n"
    assert report.main(argv) == 0
    assert report.main([*argv, "--check"]) == 0


def test_the_committed_document_is_what_the_committed_results_make():
    """docs/benchmarks.md and docs/benchmarks-states.md cannot drift from benchmarks/results/ (run
    in a subprocess, without the tests' scratch results directory)."""
    run = subprocess.run([sys.executable, "-m", "benchmarks.report", "--check",
                          "--results", str(ROOT / "benchmarks" / "results")],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
