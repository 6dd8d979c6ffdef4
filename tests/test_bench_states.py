"""The state benchmark's timing of Selby's solver: a state it does not finish within the
timeout counts the timeout, as a lower bound, and says so (no real Selby build needed)."""

from __future__ import annotations

import stat

import pytest

from benchmarks.bench_states import _selby


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
