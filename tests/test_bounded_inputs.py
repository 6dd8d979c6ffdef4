"""Issue 32: nothing a user gives a tool can wedge it, exhaust its memory or mislead it.

Every input file is read by the one bounded reader (:func:`solver.game.files.read_input_file`):
a FIFO, a device (``/dev/zero``) or a file over its kind's size cap is refused before a byte is
read, in one line naming the file (exit status 2; an InputError from the API). Journals: a
damaged one is set aside as ``*.damaged`` and the message says so; a record of the wrong shape
is a clean error naming the file; a journal path that is a directory or a FIFO is refused; a
finished proof removes its journal (the API's too); a killed proof leaves no worker behind."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import random_sub_list
from solver.game.errors import InputError, PriorsError, WordListError
from solver.game.files import INPUT_LIMITS, read_input_file, read_stdin
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]
#: Every subprocess below must end well within this (a hang on a FIFO or /dev/zero would not).
TIMEOUT = 120


def write_lists(directory: Path, seed=3, n_answers=20, n_guesses=60) -> Path:
    wl = random_sub_list(load_word_list("legacy"), seed, n_answers, n_guesses)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.txt").write_text("".join(w + "\n" for w in wl.answers))
    (directory / "guesses.txt").write_text("".join(w + "\n" for w in wl.guesses))
    return directory


def run_tool(tmp_path, module, *args, stdin=None):
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=env, stdin=stdin,
                          capture_output=True, text=True, timeout=TIMEOUT)


def assert_refused(done, *words):
    assert done.returncode == 2, (done.returncode, done.stderr)
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("error: "), done.stderr
    assert "internal error" not in line
    for word in words:
        assert word in line, line


# -- the reader itself --------------------------------------------------------------------------

def test_the_reader_refuses_a_fifo_a_device_and_a_huge_file_before_reading(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # no writer: opening it for reading would wait for ever
    with pytest.raises(InputError, match=r"pipe: is a FIFO \(named pipe\), not a word list file"):
        read_input_file(fifo, "word list")
    with pytest.raises(WordListError, match="/dev/zero: is a character device"):
        read_input_file("/dev/zero", "word list", error=WordListError)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as handle:  # sparse: no disk used, 120 MB long
        handle.truncate(120 * 10**6)
    with pytest.raises(InputError, match=r"huge.txt: 120000000 bytes, larger than a word list file may "
                                         r"be \(the limit is 16 MiB\); it is not read"):
        read_input_file(huge, "word list")
    with pytest.raises(InputError, match="is a directory"):
        read_input_file(tmp_path, "priors")
    with pytest.raises(InputError, match="nope.txt: no such journal file"):
        read_input_file(tmp_path / "nope.txt", "journal")
    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 100)
    assert read_input_file(small, "word list") == b"x" * 100
    with pytest.raises(InputError, match="the limit is 99 bytes"):
        read_input_file(small, "word list", limit=99)
    assert set(INPUT_LIMITS) >= {"word list", "priors", "journal", "artifact", "grid"}


def test_standard_input_is_read_up_to_its_cap_only():
    assert read_stdin("grid", stream=io.BytesIO(b"x" * 10), limit=10) == b"x" * 10
    with pytest.raises(InputError, match=r"standard input: more than a grid may be \(the limit is "
                                         "10 bytes"):
        read_stdin("grid", stream=io.BytesIO(b"x" * 11), limit=10)
    with open("/dev/zero", "rb") as zero:  # endless: refused after cap + 1 bytes
        with pytest.raises(InputError, match="the limit is 1 MiB"):
            read_stdin("grid", stream=zero)


# -- word lists, priors, standard input through the tools ----------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "sparse", "directory"])
def test_a_word_list_that_is_no_file_or_too_large_is_refused(tmp_path, kind):
    words = write_lists(tmp_path / "words")
    target = words / "guesses.txt"
    target.unlink()
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "sparse":
        with open(target, "wb") as handle:
            handle.truncate(120 * 10**6)
    else:
        target.mkdir()
    expected = {"fifo": "is a FIFO", "dev-zero": "is a character device",
                "sparse": "the limit is 16 MiB", "directory": "is a directory"}[kind]
    done = run_tool(tmp_path, "tools.solve", "--words", str(words), "--opener",
                    "zzzzz", "--jobs", "1", "--out", str(tmp_path / "tree.msgpack"))
    assert_refused(done, "guesses.txt", expected)
    with pytest.raises(WordListError, match=expected):
        load_word_list(str(words))


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_priors_file_that_is_no_regular_file_is_refused(tmp_path, kind):
    words = write_lists(tmp_path / "words")
    priors = tmp_path / "priors.csv"
    if kind == "fifo":
        os.mkfifo(priors)
    else:
        priors.symlink_to("/dev/zero")
    opener = (words / "answers.txt").read_text().split()[0]
    done = run_tool(tmp_path, "tools.solve", "--words", str(words), "--opener", opener,
                    "--priors", str(priors), "--jobs", "1", "--out", str(tmp_path / "t.msgpack"))
    assert_refused(done, "priors.csv", "FIFO" if kind == "fifo" else "character device")
    from solver.game.priors import load_priors

    with pytest.raises(PriorsError, match="priors.csv"):
        load_priors(load_word_list(str(words)), str(priors))


def test_tree_play_stops_on_an_endless_line(tmp_path):
    with open("/dev/zero", "rb") as zero:
        done = run_tool(tmp_path, "tools.tree", "play",
                        str(ROOT / "artifacts" / "legacy-normal-salet.msgpack"), stdin=zero)
    assert done.returncode == 2, done.stderr
    assert "a line of more than" in done.stderr and "play stops" in done.stderr


# -- journals -------------------------------------------------------------------------------------

def _proof_journal(words: Path, rank=1) -> Path:
    from solver.exact.prove import proof_journal
    from solver.game.spec import Game

    return proof_journal(Game(load_word_list(str(words))), rank)


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_a_journal_path_that_is_a_directory_or_a_fifo_is_refused(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    words = write_lists(tmp_path / "words")
    journal = _proof_journal(words)
    journal.parent.mkdir(parents=True)
    if kind == "directory":
        journal.mkdir()
    else:
        os.mkfifo(journal)
    done = run_tool(tmp_path, "tools.prove", "--words", str(words), "--jobs", "1",
                    "--out", str(tmp_path / "openers.csv"))
    assert_refused(done, journal.name, "a directory" if kind == "directory" else "a FIFO")
    assert not (tmp_path / "openers.csv").exists()


def test_a_damaged_journal_is_set_aside_and_said_so(tmp_path, monkeypatch):
    """A bit flipped in the header of an interrupted proof's journal: the proof says so in one
    line, sets the file aside as *.damaged (kept, byte for byte), starts over and finishes."""
    import solver
    from solver.exact.prove import prove
    from solver.game.spec import Game

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    words = write_lists(tmp_path / "words")
    prove(Game(load_word_list(str(words))), jobs=1, resume=False)  # prove() keeps its journal
    journal = _proof_journal(words)
    data = bytearray(journal.read_bytes())
    data[20] ^= 0x10
    journal.write_bytes(bytes(data))
    done = run_tool(tmp_path, "tools.prove", "--words", str(words), "--jobs", "1",
                    "--out", str(tmp_path / "openers.csv"))
    assert done.returncode == 0, done.stderr
    aside = journal.with_name(journal.name + ".damaged")
    assert f"warning: {journal}: damaged (its header does not match its checksum); set aside " \
           f"as {aside}, the run starts over" in done.stderr
    assert aside.read_bytes() == bytes(data)
    assert not journal.exists()  # the finished proof removed its own journal
    # the API's proof removes its journal too
    solver.prove(str(words), jobs=1)
    assert not journal.exists()


def test_a_journal_record_of_the_wrong_shape_is_a_clean_error(tmp_path, monkeypatch):
    from solver.exact.prove import prove
    from solver.game.spec import Game
    from solver.runs.journal import Journal, MalformedJournalError, _frames, _unpack

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    words = write_lists(tmp_path / "words")
    game = Game(load_word_list(str(words)))
    prove(game, jobs=1, resume=False)  # prove() keeps its journal
    journal = _proof_journal(words)
    fingerprint = _unpack(_frames(journal.read_bytes())[0][0])["fingerprint"]
    # a record that checks (written by the journal itself) but is not what the proof writes
    opener = game.word_list.guesses[0]
    Journal.open(journal, fingerprint).append(f"{opener}@7", {"value": "seven", "beta": 7})
    before = journal.read_bytes()
    done = run_tool(tmp_path, "tools.prove", "--words", str(words), "--jobs", "1",
                    "--out", str(tmp_path / "openers.csv"))
    assert_refused(done, journal.name, "is not of the shape this run writes", "--no-resume")
    assert journal.read_bytes() == before  # refused, nothing cut off
    with pytest.raises(MalformedJournalError, match=journal.name):
        prove(game, jobs=1)
    done = run_tool(tmp_path, "tools.prove", "--words", str(words), "--jobs", "1", "--no-resume",
                    "--out", str(tmp_path / "openers.csv"))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("objective", ["total", "worst"])
def test_a_proof_that_ends_unwinnable_removes_its_journal(tmp_path, monkeypatch, objective):
    """"No opener wins every game" is a finished proof: nothing is left to resume."""
    from solver.exact.bellman import UnwinnableError
    from solver.exact.prove import proof_journal, prove
    from solver.game.spec import Game

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    game = Game(load_word_list(str(write_lists(tmp_path / "words"))), objective=objective, guess_limit=2)
    with pytest.raises(UnwinnableError, match="within 2 guesses"):
        prove(game, jobs=1)
    assert not proof_journal(game, 1).exists()
    assert list((tmp_path / "cache" / "journals").glob("*")) == []


# -- a killed proof -------------------------------------------------------------------------------

def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_proof_leaves_no_worker_behind(tmp_path):
    """SIGKILL ``tools.prove`` while its loky workers compute: they die with it (and loky's
    helper processes end once they do), within a bounded wait."""
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, "-m", "tools.prove", "--words", "legacy", "--jobs",
                             "2", "--out", str(tmp_path / "openers.csv")], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            workers = [p for p in _descendants(proc.pid)
                       if b"loky" in Path(f"/proc/{p}/cmdline").read_bytes()]
            journals = list((tmp_path / "cache" / "journals").glob("prove-*.journal"))
            if len([w for w in workers if b"popen_loky" in Path(f"/proc/{w}/cmdline").read_bytes()]) >= 2 \
                    and journals and journals[0].stat().st_size > 1000:
                break  # the workers are computing: bounds are being journaled
            time.sleep(0.1)
        assert proc.poll() is None, "the proof ended before it could be killed"
        everything = _descendants(proc.pid)
        assert len(everything) >= 2
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 60  # a bounded wait, not a timing: they die at once
        while time.monotonic() < deadline and any(_alive(p) for p in everything):
            time.sleep(0.1)
        left = [p for p in everything if _alive(p)]
        assert not left, [Path(f"/proc/{p}/cmdline").read_bytes()[:120] for p in left]
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in _descendants(proc.pid) + workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _one_long_step(seconds: float):
    """A search child's steps: its process id, then one step nothing inside can interrupt
    early (as a numba kernel: a Python signal handler would wait for it)."""
    yield os.getpid()
    time.sleep(seconds)
    yield None


_PARENT_OF_A_STREAM = """
import os, time
from solver.exact.executor import Stream

def _one_long_step(seconds):
    yield os.getpid()
    time.sleep(seconds)
    yield None

with Stream(_one_long_step, (300,), time.monotonic() + 300) as stream:
    items = iter(stream)  # (kept: a dropped iterator closes the stream, killing the child)
    print(next(items), flush=True)
    time.sleep(300)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_search_child_dies_on_sigterm_and_with_its_parent():
    """The anytime search's child (``executor.Stream``) ends at once on SIGTERM even when its
    parent handles SIGTERM (the web server's pebble workers do, and a forked child inherits
    the handler: it ran only after the kernel, minutes later), and dies when its parent is
    killed (a worker stopped because its client hung up): no search is left running unwatched."""
    from solver.exact.executor import Stream

    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as a parent that handles it
    try:
        stream = Stream(_one_long_step, (300,), time.monotonic() + 300)
    finally:
        signal.signal(signal.SIGTERM, previous)
    with stream:
        items = iter(stream)
        child = next(items)
        os.kill(child, signal.SIGTERM)
        stream._child.join(timeout=30)  # a bounded wait, not a timing: it dies at once
        assert stream._child.exitcode == -signal.SIGTERM

    parent = subprocess.Popen([sys.executable, "-c", _PARENT_OF_A_STREAM], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        child = int(parent.stdout.readline())
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _alive(child):
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        parent.kill()
        if _alive(child):
            os.kill(child, signal.SIGKILL)


_A_WORKER_WITH_A_SHARED_SEARCH = """
import multiprocessing, os, signal, time
from multiprocessing.util import _exit_function
from solver.exact.executor import Stream, die_with_parent

def _share(parent):
    die_with_parent(parent)
    time.sleep(300)

def _steps():
    share = multiprocessing.get_context("fork").Process(target=_share, args=(os.getpid(),),
                                                         daemon=True)
    share.start()
    yield os.getpid(), share.pid
    time.sleep(300)
    yield None

def _on_sigterm(*_):  # what pebble's workers do on SIGTERM
    _exit_function()
    os._exit(0)

signal.signal(signal.SIGTERM, _on_sigterm)
with Stream(_steps, (), time.monotonic() + 300) as stream:
    items = iter(stream)  # (kept: a dropped iterator closes the stream)
    print(*next(items), flush=True)
    time.sleep(300)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_search_child_with_shares_ends_when_its_worker_exits_on_sigterm():
    """The anytime search's child may fork shares (a large state, docs/algorithms.md §4.5), so
    it is not daemonic; a web worker stopped with SIGTERM exits through multiprocessing's exit
    handler, which joins non-daemonic children: the stream's finalizer kills the child first,
    so the worker exits at once and the child and its share die (not after the search)."""
    worker = subprocess.Popen([sys.executable, "-c", _A_WORKER_WITH_A_SHARED_SEARCH], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    child = share = None
    try:
        child, share = (int(pid) for pid in worker.stdout.readline().split())
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0  # (a join of the child would wait 300 s)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (_alive(child) or _alive(share)):
            time.sleep(0.05)
        assert not _alive(child) and not _alive(share)
    finally:
        worker.kill()
        for pid in (child, share):
            if pid is not None and _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("where", ["fifo", "/dev/zero", "stdin"])
def test_a_grid_that_is_no_file_or_endless_is_refused(tmp_path, where):
    """`analyse --grid` reads through the one bounded reader: a FIFO and a device are refused
    before a byte is read, an endless standard input past the grid's cap."""
    if where == "fifo":
        fifo = tmp_path / "grid"
        os.mkfifo(fifo)
        done = run_tool(tmp_path, "tools.analyse", "--grid", str(fifo))
    elif where == "stdin":
        with open("/dev/zero", "rb") as zero:
            done = run_tool(tmp_path, "tools.analyse", "--grid", "-", stdin=zero)
    else:
        done = run_tool(tmp_path, "tools.analyse", "--grid", where)
    assert_refused(done, "grid")
