"""The state benchmark's timing of Selby's solver: a state it does not finish within the
timeout counts the timeout, as a lower bound, and says so (no real Selby build needed); and its
judgement of an answer, with and without a budget."""

from __future__ import annotations

import importlib.util
import stat
import sys
from pathlib import Path

import pytest

from benchmarks import compile_bytecode
from benchmarks.bench_states import MARGIN, _selby, judge


def _fake(tmp_path, body: str):
    path = tmp_path / "wordle"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_a_finished_state_is_timed(tmp_path):
    seconds, finished = _selby(_fake(tmp_path, 'echo "Best first guess = north"'), "legacy", "normal",
                               ["salet:bbbby"], timeout=30.0)
    assert finished and 0 < seconds < 30.0


def test_a_state_past_the_timeout_counts_the_timeout_as_a_lower_bound(tmp_path):
    seconds, finished = _selby(_fake(tmp_path, "sleep 5"), "legacy", "hard", ["outgo:ybbbb"], timeout=0.3)
    assert (seconds, finished) == (0.3, False)


def test_a_failing_run_names_the_state(tmp_path):
    with pytest.raises(RuntimeError, match="salet.BBBBY.crane.BBBBB"):
        _selby(_fake(tmp_path, "echo 'Initial word X is illegal' >&2; exit 1"), "legacy", "normal",
               ["salet:bbbby", "crane:bbbbb"], timeout=30.0)


def _answer(status, value, low, guess="torse"):
    return {"status": status, "value_total": value, "lower_bound_total": low, "next_guess": guess}


def test_an_exact_answer_must_equal_the_independent_solve():
    assert judge(_answer("exact", 2287, 2287), (2287, "torse"), None, 9.0) == ("exact = solve_from", True)
    verdict, ok = judge(_answer("exact", 2287, 2287, "crest"), (2287, "torse"), None, 9.0)
    assert not ok and verdict.startswith("DIFFERS")
    assert judge(_answer("exact", 2287, 2287), None, None, 1.0) == ("exact", True)


def test_without_a_budget_only_exact_answers_pass():
    assert judge(_answer("best found, not proven", 2289, 2117), (2287, "torse"), None, 1.0) == (
        "best found, not proven", False)


def test_within_a_budget_a_proven_interval_must_hold_the_exact_value():
    holds = judge(_answer("best found, not proven", 2289, 2117), (2287, "torse"), 2.0, 1.9)
    assert holds == ("not proven: [2117, 2289] holds solve_from's 2287", True)
    assert judge(_answer("best found, not proven", None, 2117), (2287, "torse"), 2.0, 1.9)[1]
    assert not judge(_answer("best found, not proven", 2286, 2117), (2287, "torse"), 2.0, 1.9)[1]
    assert not judge(_answer("best found, not proven", 2289, 2288), (2287, "torse"), 2.0, 1.9)[1]
    assert not judge(_answer("best found, not proven", 2289, None), (2287, "torse"), 2.0, 1.9)[1]


def test_an_answer_past_the_budget_and_its_margin_fails():
    verdict, ok = judge(_answer("exact", 2287, 2287), (2287, "torse"), 2.0, 2.0 + MARGIN + 0.01)
    assert not ok and "PAST the budget" in verdict
    assert judge(_answer("exact", 2287, 2287), (2287, "torse"), 2.0, 2.0 + MARGIN)[1]


def test_the_timed_processes_load_bytecode_even_where_runs_may_not_write_it(tmp_path, monkeypatch):
    module = tmp_path / "package" / "module.py"
    module.parent.mkdir()
    module.write_text("VALUE = 1\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    compile_bytecode(tmp_path, ("package",))
    assert Path(importlib.util.cache_from_source(str(module))).is_file()
