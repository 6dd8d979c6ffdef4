"""``benchmarks.bench_startup``: its refusals come before any run (the timings themselves are
benchmarks, printed by ``make bench``, never asserted)."""

from __future__ import annotations

import benchmarks.bench_startup as bench


def test_help_and_bad_arguments_are_answered_before_any_run(tmp_path, capsys, monkeypatch):
    ran = []
    monkeypatch.setattr(bench, "bench_mode", lambda *args: ran.append(args) or [])
    assert bench.main(["--help"]) == 0
    assert "--selby-source" in capsys.readouterr().out
    assert bench.main(["--modes", "easy"]) == 2
    assert bench.main(["--opener", "zzzzz"]) == 2
    assert bench.main(["--selby-source", str(tmp_path)]) == 2  # no wordle.cpp there
    assert "no wordle.cpp" in capsys.readouterr().err
    (tmp_path / "wordle.cpp").write_text("int main() {}\n")
    assert bench.main(["--selby-source", str(tmp_path), "--cxx", "no-such-compiler"]) == 2
    assert ran == []
    assert bench.main(["--modes", "hard"]) == 0  # ours only: the comparison is skipped
    assert [args[0] for args in ran] == ["hard"] and ran[0][3] is None
