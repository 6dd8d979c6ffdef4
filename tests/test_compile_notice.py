"""numba's one-time compilation says so: one line on stderr before the long first call, none
once the kernels are in numba's cache (solver/game/compile_notice.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from solver.game.compile_notice import LINE, SAID

FEEDBACK = """
from solver.game.wordlists import from_words
from solver.game.feedback import feedback_table
words = ["hatch", "latch", "match", "patch"]
print(feedback_table(from_words(words, words + ["blimp"]), use_cache=False).shape)
"""


def _run(cache, **extra):
    env = {k: v for k, v in os.environ.items() if k != SAID}
    env.update(NUMBA_CACHE_DIR=str(cache), **extra)
    done = subprocess.run([sys.executable, "-c", FEEDBACK], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "(5, 4)", done.stderr
    return done.stderr.splitlines()


def test_the_first_compilation_says_so_once_then_the_cache_is_quiet(tmp_path):
    assert _run(tmp_path / "cold") == [LINE]  # an empty numba cache: compiled, said once
    assert _run(tmp_path / "cold") == []  # loaded from the cache: nothing to say
    assert _run(tmp_path / "other", **{SAID: "1"}) == []  # said already (a worker of a run)
