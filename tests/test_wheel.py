"""The wheel carries what it needs: built from the checkout, installed with its real dependencies
into a fresh venv, run from another directory with an empty user cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GYM_CHECK = """
import warnings
import gymnasium
from gymnasium.utils.env_checker import check_env
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    check_env(gymnasium.make("solver:ExactWordle-v0").unwrapped)
print("checked", len(caught))
"""


def _run(command, cwd, env, timeout=600):
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
def test_the_installed_wheel_answers_exactly_from_elsewhere(tmp_path):
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(ROOT)],
         tmp_path, None)
    wheels = list(dist.glob("exact_wordle-*.whl"))
    assert len(wheels) == 1
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, None)
    bin_dir = venv / "bin"
    # the real dependencies from the package index (pip's cache makes a second run quick)
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheels[0])], tmp_path, None)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV")}
    env.update(EXACT_WORDLE_CACHE=str(tmp_path / "cache"), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}")

    # the command-line programs are inside the library: no top-level `tools` beside it
    site = Path(_run([str(bin_dir / "python"), "-c", "import solver, pathlib; "
                      "print(pathlib.Path(solver.__file__).parents[1])"], elsewhere, env).strip())
    assert (site / "solver" / "cli" / "wordle.py").is_file() and (site / "policy_tree").is_dir()
    assert not (site / "tools").exists()
    installed = (next(site.glob("exact_wordle-*.dist-info")) / "RECORD").read_text().splitlines()
    assert installed and not [line for line in installed if line.startswith("tools/")]

    # the shipped trees are inside the installed package, not found through the checkout
    where = _run([str(bin_dir / "python"), "-c",
                  "from solver.game.files import ARTIFACTS_DIR; print(ARTIFACTS_DIR)"], elsewhere, env)
    assert Path(where.strip()).is_relative_to(venv) and (Path(where.strip()) / "legacy-normal-salet.msgpack").is_file()

    advice = json.loads(_run([str(bin_dir / "wordle"), "assist", "salet:bbbby", "crane:bbbbb", "--json"],
                             elsewhere, env))
    assert advice["status"] == "exact" and advice["answers_remaining"] == 28
    root = json.loads(_run([str(bin_dir / "wordle"), "assist", "--json", "--top", "0"], elsewhere, env))
    assert root["status"] == "exact" and root["next_guess"] == "tarse" and root["value_total"] == 7883  # today's
    root = json.loads(_run([str(bin_dir / "wordle"), "assist", "--json", "--top", "0", "--words", "legacy"],
                           elsewhere, env))
    assert root["status"] == "exact" and root["next_guess"] == "salet" and root["value_total"] == 7920

    # the opener tables are inside the package too: an opener's rank, the state after it
    opener = json.loads(_run([str(bin_dir / "wordle"), "opener", "salet", "--words", "legacy", "--json"],
                             elsewhere, env))
    assert (opener["source"], opener["value"], opener["rank"]) == ("table", 7920, 1)
    after = json.loads(_run([str(bin_dir / "wordle"), "assist", "reast:bbbbb", "--words", "legacy",
                             "--json", "--top", "0"], elsewhere, env))
    assert after["status"] == "exact" and after["source"] == "table"

    stats = _run([str(bin_dir / "wordle"), "tree", "stats", "legacy-normal-salet"], elsewhere, env)
    assert "7920" in stats

    from test_library import readme_example

    example = readme_example()
    scored = _run([str(bin_dir / "python"), "-c", example], elsewhere, env)
    assert "optimum 3.4212 (7920)" in scored

    assert _run([str(bin_dir / "python"), "-c", GYM_CHECK], elsewhere, env).split() == ["checked", "0"]
