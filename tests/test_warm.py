"""The kernels compile once, before any budget (solver/evaluation/warm.py): ``wordle warm`` (or
the first command that needs them) compiles every specialisation the play commands reach, and
stamps numba's cache; the commands after it compile nothing and print no compile notice.

The slow test starts from an empty numba cache (``NUMBA_CACHE_DIR`` in a temporary
directory) and an empty user cache: it compiles every play kernel once (minutes)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.evaluation import warm
from solver.game import kernel_stamp
from solver.game.compile_notice import LINE, SAID

ROOT = Path(__file__).resolve().parents[1]
PROGRESS = "compiling the kernels once"


def test_the_stamp_holds_the_groups_warmed_under_its_key(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_stamp.stamp_path() == tmp_path / kernel_stamp.STAMP_NAME
    key = kernel_stamp.stamp_key()
    assert kernel_stamp.warmed_groups(key) == set()  # no stamp yet
    kernel_stamp.mark_warmed(key, ["play-5"])
    kernel_stamp.mark_warmed(key, ["play-6"])
    assert kernel_stamp.warmed_groups(key) == {"play-5", "play-6"}
    assert kernel_stamp.warmed_groups("another key") == set()  # other kernels, numba, machine
    kernel_stamp.mark_warmed("another key", ["play-4"])  # a stamp of another key is replaced
    assert kernel_stamp.warmed_groups("another key") == {"play-4"} and kernel_stamp.warmed_groups(key) == set()
    (tmp_path / kernel_stamp.STAMP_NAME).write_text("{not json")
    assert kernel_stamp.warmed_groups(key) == set()


def test_the_key_changes_with_the_numba_cache_and_the_sources_it_covers(tmp_path, monkeypatch):
    source = tmp_path / "warm.py"
    source.write_text("one")
    key = kernel_stamp.stamp_key(extra=[source])
    assert kernel_stamp.stamp_key(extra=[source]) == key
    source.write_text("two")
    assert kernel_stamp.stamp_key(extra=[source]) != key
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "one"))
    one = kernel_stamp.stamp_key(extra=[source])
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "two"))
    assert kernel_stamp.stamp_key(extra=[source]) != one


def test_a_stamped_cache_is_not_warmed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))

    def refuse(*args, **kwargs):
        raise AssertionError("warmed again")

    kernel_stamp.mark_warmed(warm._key(), [warm.group_name(5)])
    monkeypatch.setattr(warm, "compile_kernels", refuse)
    assert warm.is_compiled(5) and not warm.is_compiled(6)
    assert warm.ensure_compiled(5) is False


def _env(numba_cache: Path, user_cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != SAID}  # the notice is what is checked
    env.update(NUMBA_CACHE_DIR=str(numba_cache), EXACT_WORDLE_CACHE=str(user_cache))
    return env


def _run(env, *args, timeout=3600):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


#: Play commands that need the kernels: off the shipped trees, in every mode, within budgets.
COMMANDS = [
    ("tools.assist", "salet:bbbby", "crane:bbbbb"),
    ("tools.assist", "--mode", "hard", "salet:bbbby", "trunk:ybbbb"),
    ("tools.assist", "--mode", "ultra", "salet:bbbby"),
    ("tools.assist", "--words", "legacy", "salet:bbbby", "crane:bbbbb", "--budget", "2"),
    ("tools.assist", "fuzzy:bbbbb", "--budget", "3", "--json"),
    ("tools.analyse", "salet", "crane", "birth", "--answer", "birth"),
    ("tools.analyse", "fuzzy", "bumph", "wimpy", "crony", "--answer", "crony", "--budget", "3"),
    ("tools.tree", "next", "legacy-normal-salet", "salet:bbbbb", "qajaq:bbbbb", "--budget", "3"),
]


@pytest.mark.slow
def test_the_first_command_compiles_before_its_budget_and_no_command_after_it(tmp_path):
    """An empty numba cache: the first command compiles every play kernel with progress lines
    (not numba's notice), its budget counting from after them (its answer exact, as on a warm
    cache); then ``wordle warm`` has nothing to do, and no command compiles anything."""
    env = _env(tmp_path / "numba", tmp_path / "cache")
    first = _run(env, "tools.assist", "salet:bbbby", "crane:bbbbb", "--budget", "3", "--json")
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert lines[0].startswith(f"{PROGRESS}: 1/") and lines[-1].startswith(f"{PROGRESS}: done"), lines
    assert LINE not in lines  # the warm-up's own lines say it
    advice = json.loads(first.stdout)
    assert advice["status"] == "exact" and advice["alternatives_complete"], advice
    stamp = json.loads((tmp_path / "numba" / kernel_stamp.STAMP_NAME).read_text())
    assert stamp["groups"] == ["play-5"]
    again = _run(env, "tools.warm")
    assert again.returncode == 0 and "compiled already" in again.stdout and again.stderr == "", again
    for command in COMMANDS:
        done = _run(env, *command, timeout=600)
        assert done.returncode == 0, (command, done.stderr)
        assert LINE not in done.stderr and PROGRESS not in done.stderr, (command, done.stderr)
    # a fresh server: ready with nothing to compile, its first page analysis within its budget
    from webserver import free_port

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tools.serve", "--port", str(port), "--words", "legacy",
                               "--build-workers", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith("serving http://127.0.0.1")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        body = {"guesses": ["salet", "qajaq", "fuzzy", "bumph", "wimpy", "crony"], "answer": "crony", "budget": 5}
        connection.request("POST", "/api/analyse", body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        assert response.status == 200 and answer["seconds"] <= 5.5, answer
    finally:
        server.terminate()
        server.wait(timeout=30)
    log = server.stderr.read()
    assert LINE not in log and PROGRESS not in log, log


@pytest.mark.parametrize("command, message", [
    (("tools.assist", "salet:bbbbq"), "feedback 'bbbbq'"),
    (("tools.assist", "--mode", "hard", "salet:bbbby", "crane:bbbbb"), "hard mode"),
    (("tools.tree", "next", "legacy-normal-salet", "salet:ggggb", "salep:bbbbb"), "no answer and no allowed guess"),
])
def test_a_bad_history_is_refused_before_any_compiling(tmp_path, command, message):
    """A fresh install (nothing compiled, no stamp): a history the rules refuse is exit 2 at
    once, not after minutes of compiling the kernels it would not use."""
    done = _run(_env(tmp_path / "numba", tmp_path / "cache"), *command, timeout=120)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert PROGRESS not in done.stderr and LINE not in done.stderr, done.stderr
