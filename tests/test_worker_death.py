"""Issue 58: no worker death can hang a run. A worker process killed with SIGKILL (as the
out-of-memory killer does) stops the run at once with one line, exit status 1, and a rerun
resumes from the run's journal: the shares of a shared root (a solve's, a state's under a
budget, solver.exact.executor's forked workers) and the proofs' loky workers. Each test runs the
real tool in a subprocess on a small list and kills a real worker. (The web server's lanes:
tests/test_server.py.)

One worker is made to wait to be killed by a wrapper of its task, installed by a script that
then runs the tool (:data:`HOLD`, :data:`HOLD_PROOF`): a share finishes in milliseconds on a
small list, and a proof's searches come in bursts. Before the fix the solve and the search
waited for the killed share's result for ever (the search until its budget ran out), and the
proof said "internal error: TerminatedWorkerError"."""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import random_sub_list
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc"),
              pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                 reason="shares are forked")]

#: Runs ``solver.cli.<argv[1]>`` with the rest of argv, every class or state of 12 answers or
#: more shared (as tests/test_shared_root.py lowers the thresholds) and one share made to wait
#: to be killed: share 1 of the second shared class of a solve, share 1 of a state. That share
#: writes its process id to the file ``$HELD_PID`` and sleeps. (The wrappers are module-level
#: functions of ``__main__``, which the forked workers unpickle by name.)
HOLD = """
import importlib, os, sys, time
from solver.exact import anytime, bellman

bellman.SHARE_MIN = bellman.STATE_SHARE_MIN = 12
anytime.IN_PROCESS_MAX = 8
real_solve, real_share = bellman._solve_task, bellman._state_share

def hold():
    path = os.environ["HELD_PID"]
    with open(path + ".tmp", "w") as out:
        out.write(str(os.getpid()))
    os.replace(path + ".tmp", path)
    time.sleep(600)

def held_solve_task(task):
    if len(task) == 13 and task[12][1:3] == (1, 1):  # (token, row, index, shares)
        hold()
    return real_solve(task)

def held_state_share(task):
    if task[1] == 1:  # (token, index, shares)
        hold()
    return real_share(task)

bellman._solve_task, bellman._state_share = held_solve_task, held_state_share
importlib.import_module("solver.cli." + sys.argv.pop(1)).run()
"""


def _write_list(directory: Path, word_list) -> Path:
    directory.mkdir(parents=True)
    (directory / "answers.txt").write_text("".join(w + "\n" for w in word_list.answers))
    (directory / "guesses.txt").write_text("".join(w + "\n" for w in word_list.guesses))
    return directory


@pytest.fixture(scope="module")
def shared_list(tmp_path_factory):
    """(list directory, opener): 120 answers, 400 guesses; the opener's classes of 12 answers or
    more (here three) are shared once the thresholds are lowered (HOLD)."""
    word_list = random_sub_list(load_word_list("legacy"), 66, 120, 400)
    return _write_list(tmp_path_factory.mktemp("lists") / "s66", word_list), word_list.guesses[5]


def _wait_for(condition, seconds: float, what: str, proc=None):
    deadline = time.monotonic() + seconds
    while not condition():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {proc.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {seconds} s")
        time.sleep(0.05)


def _journal_records(journals: Path) -> list[str]:
    """The keys of the records of the one journal under ``journals`` (none yet: [])."""
    from solver.runs.journal import _frames, _unpack

    files = list(journals.glob("*.journal")) if journals.is_dir() else []
    if not files:
        return []
    return [_unpack(body)["key"] for body, _ in _frames(files[0].read_bytes())[1:]]


def _processes() -> dict[int, tuple[int, str]]:
    """``{pid: (parent pid, command line)}`` of every process."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except (OSError, IndexError, ValueError):
                continue
            found[int(entry)] = (parent, command)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _killed_run(command, env, held: Path, *, wait_for=None, seconds: float = 120):
    """Start ``command``, wait for the held worker's process id (and ``wait_for()``), kill that
    worker with SIGKILL; returns (the run's exit status, stdout, stderr, seconds from the kill to
    the run's end, the worker's pid, the pids of the other workers of its parent)."""
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        _wait_for(held.exists, seconds, "held share", proc)
        if wait_for is not None:
            _wait_for(wait_for, seconds, "journal records", proc)
        victim = int(held.read_text())
        processes = _processes()
        # the other workers (not the resource trackers, which end once their users have)
        siblings = [pid for pid, (parent, command) in processes.items()
                    if parent == processes[victim][0] and pid != victim
                    and "resource_tracker" not in command]
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the run still waited 30 s after its worker was killed") from None
        return proc.returncode, out, err, time.monotonic() - killed, victim, siblings
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _one_line(err: str) -> str:
    """The one error line, the last of ``err`` (a progress line may come before it)."""
    lines = [line for line in err.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and errors == lines[-1:] and "Traceback" not in err, err
    return errors[0]


@pytest.mark.slow
@pytest.mark.timed
def test_a_killed_share_of_a_solve_stops_it_and_the_rerun_resumes(tmp_path, shared_list):
    """SIGKILL of one share of a shared root class: the solve stops within a second (it waited
    for ever), one line saying the worker was killed and that the finished classes are kept,
    exit 1, no artifact, no worker left; the rerun takes the journaled classes and searches
    only the others, and writes the tree a solve without a kill writes."""
    words, opener = shared_list
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), HELD_PID=str(tmp_path / "held"))
    journals = tmp_path / "cache" / "journals"
    args = ["solve", "--words", str(words), "--opener", opener, "--jobs", "2"]
    # the class solved in this process first and the first shared class are journaled first
    status, _, err, seconds, victim, siblings = _killed_run(
        [sys.executable, "-c", HOLD, *args, "--out", str(tmp_path / "killed.msgpack")], env,
        tmp_path / "held", wait_for=lambda: len(_journal_records(journals)) >= 2)
    line = _one_line(err)
    assert status == 1 and seconds < 5, (status, seconds)
    assert "a worker process died" in line and "SIGKILL" in line, line
    assert "kept in the solve's journal" in line and "rerun the same command to resume" in line, line
    assert not (tmp_path / "killed.msgpack").exists()
    time.sleep(0.5)
    assert not [pid for pid in [victim, *siblings] if _alive(pid)], "a worker outlived the run"

    kept = _journal_records(journals)
    assert len(kept) >= 2
    log = tmp_path / "searched"
    rerun = subprocess.run(  # (a wrapper that logs each class searched: none of the kept ones)
        [sys.executable, "-c", LOGGED, *args, "--out", str(tmp_path / "resumed.msgpack")], cwd=ROOT,
        env=dict(env, SEARCHED_LOG=str(log)), capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    searched = set(log.read_text().split())
    assert searched and not searched & set(kept), (searched, kept)
    fresh = subprocess.run([sys.executable, "-m", "tools.solve", *args[1:], "--no-resume",
                            "--out", str(tmp_path / "fresh.msgpack")], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert fresh.returncode == 0, fresh.stderr
    assert (tmp_path / "resumed.msgpack").read_bytes() == (tmp_path / "fresh.msgpack").read_bytes()


#: Runs ``solver.cli.<argv[1]>`` with every root class's feedback code appended to
#: ``$SEARCHED_LOG`` as a worker (or this process) searches it.
LOGGED = """
import importlib, os, sys
from solver.exact import bellman

real_solve = bellman._solve_task

def logged_solve_task(task):
    with open(os.environ["SEARCHED_LOG"], "a") as log:
        log.write(f"{task[0]}\\n")
    return real_solve(task)

bellman._solve_task = logged_solve_task
importlib.import_module("solver.cli." + sys.argv.pop(1)).run()
"""


@pytest.mark.slow
@pytest.mark.timed
def test_a_killed_share_of_a_budgeted_state_search_ends_within_the_budget(tmp_path, shared_list):
    """tools.assist with --budget on a state searched by shares (in a child process): SIGKILL
    of a share ends the run at once with one line and exit 1, well within the budget (the run
    went on with one share until the budget ran out; without a budget it waited for ever)."""
    words, opener = shared_list
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), HELD_PID=str(tmp_path / "held"))
    started = time.monotonic()
    status, _, err, seconds, victim, siblings = _killed_run(
        [sys.executable, "-c", HOLD, "assist", "--words", str(words), "--budget", "20",
         f"{opener}:bbbbb"], env, tmp_path / "held")
    line = _one_line(err)
    assert status == 1 and seconds < 5 and time.monotonic() - started < 20, (status, seconds)
    assert "a worker process died" in line and "SIGKILL" in line, line
    time.sleep(0.5)
    assert not [pid for pid in [victim, *siblings] if _alive(pid)], "a share outlived the run"


#: Runs ``tools.prove`` with its 20th opener search (counted across the loky workers, in the
#: file ``$HELD_PID.count``) made to wait to be killed, its process id in ``$HELD_PID``: the
#: searches before it are journaled by then. (loky pickles a function of ``__main__`` by value;
#: in its workers the proof's module is not patched, so the wrapper calls the real search.)
HOLD_PROOF = """
import os, time
from solver.cli import prove
from solver.exact.proofs import total

def held_search_task(*args):
    fd = os.open(os.environ["HELD_PID"] + ".count", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        os.write(fd, b".")
        ordinal = os.lseek(fd, 0, os.SEEK_CUR)  # (after an O_APPEND write: this one's place)
    finally:
        os.close(fd)
    if ordinal == 20:
        path = os.environ["HELD_PID"]
        with open(path + ".tmp", "w") as out:
            out.write(str(os.getpid()))
        os.replace(path + ".tmp", path)
        time.sleep(600)
    return total._search_task(*args)

total._search_task = held_search_task
prove.run()
"""


@pytest.mark.slow
@pytest.mark.timed
def test_a_killed_proof_worker_stops_the_proof_and_the_rerun_resumes(tmp_path):
    """SIGKILL of one of tools.prove's loky workers while it searches: one line saying a
    worker was killed and that the finished openers are kept (it was an "internal error:
    TerminatedWorkerError"), exit 1, no worker left; the rerun reuses the journaled openers'
    searches and finishes."""
    words = _write_list(tmp_path / "words", random_sub_list(load_word_list("legacy"), 11, 100, 600))
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), HELD_PID=str(tmp_path / "held"))
    args = ["--words", str(words), "--jobs", "2", "--rank", "40", "--out", str(tmp_path / "openers.csv")]
    journals = tmp_path / "cache" / "journals"
    status, _, err, seconds, victim, siblings = _killed_run(
        [sys.executable, "-c", HOLD_PROOF, *args], env, tmp_path / "held",
        wait_for=lambda: sum(not key.startswith("bounds:") for key in _journal_records(journals)) >= 2)
    line = _one_line(err)
    assert status == 1 and seconds < 10, (status, seconds)
    assert "a worker process died" in line and "SIGKILL" in line, line
    assert "kept in the proof's journal" in line and "rerun the same command to resume" in line, line
    assert not (tmp_path / "openers.csv").exists()
    time.sleep(0.5)
    assert not [pid for pid in [victim, *siblings] if _alive(pid)], "a loky worker outlived the proof"

    rerun = subprocess.run([sys.executable, "-m", "tools.prove", *args], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    reused = re.search(r"(\d+) searched \((\d+) of them from the journal\)", rerun.stdout)
    assert reused and int(reused.group(2)) >= 2, rerun.stdout
    assert (tmp_path / "openers.csv").exists()


def _dies_at_fifty(task: int) -> int:
    """A task of :func:`test_a_pool_that_breaks_between_two_waits_names_the_death`: task 0
    kills its worker (SIGKILL), the others are done at once."""
    if task == 50:
        os.kill(os.getpid(), signal.SIGKILL)
    return task


@pytest.mark.timed
def test_a_pool_that_breaks_between_two_waits_names_the_death():
    """A worker killed while the pool is being handed tasks (a submit to the broken pool raises
    there, not at a wait) or while its exit status is being collected (the pool's own thread
    may reap it first): always WorkerLost naming SIGKILL, never a raw BrokenProcessPool or
    "how is not known"."""
    from solver.exact.executor import Executor
    from solver.game.errors import WorkerLost

    for _ in range(10):
        with Executor(2) as executor:
            with pytest.raises(WorkerLost, match="SIGKILL"):
                for _ in executor.as_finished(_dies_at_fifty, iter(range(10_000)), 10_000):
                    pass
