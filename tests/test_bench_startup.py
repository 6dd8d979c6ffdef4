"""``benchmarks.bench_startup``: its refusals come before any run (the timings themselves are
benchmarks, printed by ``make bench``, never asserted)."""

from __future__ import annotations

import benchmarks.bench_startup as bench
from benchmarks.record import command_line


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


def test_the_recorded_command_and_notes_hold_no_path_of_this_machine(tmp_path):
    source = tmp_path / "selby"
    source.mkdir()
    (source / "wordle.cpp").write_bytes(b"int main() {}\n")
    prog = "python -m benchmarks.bench_startup"
    assert command_line(prog, ["--repeat", "7", "--selby-source", str(source)]) == (
        prog + " --repeat 7 --selby-source DIR")
    assert command_line(prog, [f"--selby-source={source}", "--selby-tree"]) == (
        prog + " --selby-source=DIR --selby-tree")
    # a path of the repository, or a word that names nothing, stays as it is
    assert command_line(prog, ["--opener", "salet", "--selby-source", "benchmarks"]) == (
        prog + " --opener salet --selby-source benchmarks")
    note = bench._source_note(source)
    # not a git checkout: no commit named; the digest is sha256's of those 14 bytes
    assert note.startswith("DIR: Selby's source (github.com/alex1770/wordle), outside")
    assert "wordle.cpp has sha256 bc8bb8e433bf6521…" in note
    assert str(tmp_path) not in note
