"""``solver.game.files``: the one atomic write (content, permissions, clean failure) and the
cache directory."""

from __future__ import annotations

import os

import pytest

from solver.game import feedback
from solver.game.files import cache_dir, write_atomic, write_text_atomic


def leftovers(directory):
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_write_atomic_writes_and_creates_parents(tmp_path):
    path = tmp_path / "a" / "b" / "file.bin"
    assert write_atomic(path, b"\x00\x01payload") == path
    assert path.read_bytes() == b"\x00\x01payload"
    write_atomic(str(path), b"second")
    assert path.read_bytes() == b"second" and leftovers(path.parent) == []
    assert write_text_atomic(tmp_path / "t.txt", "grüße\n").read_bytes() == "grüße\n".encode()


def test_a_new_file_respects_the_umask_and_an_old_one_keeps_its_mode(tmp_path):
    old = os.umask(0o027)
    try:
        path = write_atomic(tmp_path / "new", b"x")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o640
    kept = tmp_path / "kept"
    kept.write_bytes(b"old")
    kept.chmod(0o604)
    write_atomic(kept, b"new")
    assert kept.stat().st_mode & 0o777 == 0o604 and kept.read_bytes() == b"new"


@pytest.mark.parametrize("where, error", [("replace", OSError), ("write", KeyboardInterrupt)])
def test_a_failed_write_leaves_the_target_and_no_temporary_file(tmp_path, monkeypatch, where, error):
    path = tmp_path / "target"
    path.write_bytes(b"before")

    def fail(*args, **kwargs):
        raise error("injected")

    monkeypatch.setattr(os, where, fail)
    with pytest.raises(error):
        write_atomic(path, b"after")
    monkeypatch.undo()
    assert path.read_bytes() == b"before"
    assert leftovers(tmp_path) == []


def test_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    assert feedback.cache_dir is cache_dir  # the older import path still works
    monkeypatch.delenv("EXACT_WORDLE_CACHE")
    assert cache_dir().name == "exact-wordle"
