"""The library: a policy as a function of the history, solver.score, the README's example,
tools.report --policy module:attr, the `wordle` command, the Gymnasium environment, extras."""

from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from conftest import random_sub_list
from naive import INF, BruteForce, feedback as naive_feedback, table as naive_table
from solver.game.feedback import feedback_table
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small():
    """28 answers, 140 guesses (legacy words), its table and the brute force."""
    word_list = random_sub_list(load_word_list("legacy"), 9, 28, 140)
    brute = BruteForce(naive_table(word_list.guesses, word_list.answers), list(word_list.answer_guess_index))
    return word_list, feedback_table(word_list, use_cache=False), brute


def first_fit(history, answers):
    """The first answer still possible."""
    return answers[0]


def _naive_first_fit_games(word_list, opener: str) -> list[int]:
    """Guesses per answer of first_fit from ``opener``, by the plain rule."""
    out = []
    for answer in word_list.answers:
        history, guess = [], opener
        while True:
            code = naive_feedback(guess, answer)
            history.append((guess, code))
            if code == 242:
                break
            fits = [a for a in word_list.answers if all(naive_feedback(g, a) == c for g, c in history)]
            guess = fits[0]
        out.append(len(history))
    return out


# -- a policy as a function of the history ------------------------------------------------------
def test_a_function_of_the_history_is_scored_as_played(small):
    from solver.evaluation.scoring import score_policy
    from solver.policies.function import FunctionPolicy

    word_list, table, _ = small
    opener = word_list.guesses[3]
    seen = []

    def one_argument(history):
        seen.append(history)
        fits = [a for a in word_list.answers
                if all(naive_feedback(g, a) == sum("byg".index(c) * 3**i for i, c in enumerate(f))
                       for g, f in history)]
        return fits[0]

    expected = _naive_first_fit_games(word_list, opener)
    for fn in (first_fit, one_argument):
        policy = FunctionPolicy(fn, word_list, table)
        tree = score_policy(policy, opener)
        games = score_policy(policy, opener, mode="games", jobs=1)
        assert tree.guesses_per_answer.tolist() == expected
        assert games.guesses_per_answer.tolist() == expected
        assert tree.policy == fn.__name__
    assert seen and all(h[0][0] == opener and re.fullmatch("[byg]{5}", h[0][1]) for h in seen)


def test_a_bad_guess_from_a_function_is_refused(small):
    from solver.evaluation.scoring import score_policy
    from solver.policies.function import FunctionPolicy, PolicyFunctionError

    word_list, table, _ = small
    for bad, message in (("zzzzz", "not in the"), (10**6, "out of range"), (None, "not a word")):
        policy = FunctionPolicy(lambda history, *, bad=bad: bad, word_list, table, name="bad")
        with pytest.raises(PolicyFunctionError, match=message):
            score_policy(policy, word_list.guesses[0])


def test_score_prices_every_decision_against_the_brute_force(small, tmp_path, monkeypatch):
    import solver

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, table, brute = small
    opener = word_list.guesses[3]
    scored = solver.score(first_fit, opener, word_list)
    everything = tuple(range(word_list.n_answers))
    g = word_list.guess_index(opener)
    assert scored.optimum_total == brute.guess_cost(g, everything, 6)
    assert scored.total == sum(_naive_first_fit_games(word_list, opener))
    assert scored.result.failures == 0
    # every decision's regret is Q* − V* of the brute force; they add up to the gap
    for regret in scored.regrets:
        state = tuple(sorted(word_list.answer_index(w) for w in regret.state))
        q = brute.guess_cost(word_list.guess_index(regret.guess), state, regret.guesses_left)
        assert regret.value == brute.value(state, regret.guesses_left)
        assert regret.regret == (math.inf if q >= INF else q - regret.value)
    assert scored.total_regret == scored.total - scored.optimum_total
    assert scored.gap == pytest.approx((scored.total - scored.optimum_total) / word_list.n_answers)
    assert "first_fit from" in str(scored)


def _fit_history(word_list, opener: str, pick: int, state: tuple, guesses_left: int):
    """The ``(guess, code)`` steps that playing the answer ``pick`` (0: first, -1: last) of
    those still possible from ``opener`` takes to reach ``state`` (answer indices) with
    ``guesses_left`` left, by the plain rule."""
    history, guess = [], opener
    while True:
        fits = [a for a, w in enumerate(word_list.answers)
                if all(naive_feedback(g, w) == c for g, c in history)]
        if tuple(fits) == state and 6 - len(history) == guesses_left:
            return history
        history.append((guess, naive_feedback(guess, word_list.answers[state[0]])))
        guess = word_list.answers[[a for a in fits if naive_feedback(history[-1][0], word_list.answers[a])
                                   == history[-1][1]][pick]]


def test_score_reports_a_finite_total_regret_by_the_finite_rule(small, tmp_path, monkeypatch):
    """A policy that gives up the sure finish has decisions of strict regret inf; each is
    priced by the finite rule of docs/algorithms.md §15.4 (the brute force's), and the total
    is finite (it was inf)."""
    import solver
    from naive_values import NaiveValues

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, table, brute = small
    useless = word_list.guesses[0]

    def stubborn(history, answers):  # the same word again and again: no news, then the answer
        return useless if len(history) < 5 else answers[0]

    scored = solver.score(stubborn, word_list.guesses[3], word_list)
    naive = NaiveValues(word_list.guesses, word_list.answers, hard=False)
    naive.brute = brute
    gave_up = [r for r in scored.regrets if math.isinf(r.regret)]
    assert gave_up and math.isfinite(scored.total_regret)
    assert math.isinf(scored.total_regret_strict)
    for regret in scored.regrets:
        state = tuple(sorted(word_list.answer_index(w) for w in regret.state))
        value, _ = naive.w(state, frozenset(), regret.guesses_left)
        cost, gives_up = naive.cost(state, frozenset(), regret.guesses_left, word_list.guess_index(regret.guess))
        assert regret.regret_finite == cost - value > 0 and math.isinf(regret.regret) == gives_up
    assert scored.total_regret == sum(r.regret_finite for r in scored.regrets)
    assert f"{scored.total_regret:g} in all" in str(scored) and "∞; finite" in str(scored)


@pytest.mark.slow
def test_score_takes_the_mode_and_prices_hard_mode_against_its_brute_force(small, tmp_path, monkeypatch):
    """solver.score(mode="hard"): the policy plays by hard mode's rule and each decision is
    priced against hard mode's optimum after its own history (V* depends on what the hints
    allow); ultra-hard mode, which the agents do not play, and an unknown mode are refused."""
    import solver
    from naive_values import NaiveValues
    from solver.game.errors import InputError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    # fewer words than ``small``: the hard-mode brute force runs in plain Python
    word_list = random_sub_list(load_word_list("legacy"), 9, 24, 110)
    naive = NaiveValues(word_list.guesses, word_list.answers, hard=True)
    everything, start = naive.start()
    priced = 0
    # first_fit and last_fit from openers where they err
    for pick, k in ((0, 0), (-1, 20), (0, 7), (-1, 3), (0, 40), (-1, 55)):
        opener = word_list.guesses[k]

        def fit(history, answers, pick=pick):
            return answers[pick]

        scored = solver.score(fit, opener, word_list, mode="hard")
        assert scored.mode == "hard" and scored.result.game_mode == "hard" and "(hard mode)" in str(scored)
        assert scored.optimum_total == naive.q(everything, start, 6, word_list.guess_index(opener))
        for regret in scored.regrets:
            state = tuple(sorted(word_list.answer_index(w) for w in regret.state))
            allowed = start
            for guess, code in _fit_history(word_list, opener, pick, state, regret.guesses_left):
                allowed = naive.after(allowed, word_list.guess_index(guess), code)
            value, optimal = naive.brute.best(state, allowed, regret.guesses_left)
            assert regret.value == value and word_list.guess_index(regret.optimal_guess) == optimal
            cost, gives_up = naive.cost(state, allowed, regret.guesses_left, word_list.guess_index(regret.guess))
            assert regret.regret_finite == cost - value > 0 and math.isinf(regret.regret) == gives_up
            priced += 1
        assert scored.total_regret == scored.total - scored.optimum_total
    assert priced >= 4
    normal = solver.score(fit, opener, word_list)
    assert normal.mode == "normal" and normal.optimum_total <= scored.optimum_total
    for mode in ("ultra", "hardest"):
        with pytest.raises(InputError, match="ultra|unknown mode"):
            solver.score(first_fit, opener, word_list, mode=mode)


def readme_example() -> str:
    """The code of the README's researcher example (its ``pycon`` block, prompts stripped)."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## Research: quick start.*?```pycon\n(.*?)```", text, re.S).group(1)
    return "".join(line[4:] + "\n" for line in block.splitlines() if line.startswith((">>> ", "... ")))


@pytest.mark.slow
def test_the_readme_example_runs_in_five_lines(tmp_path):
    block = readme_example()
    assert len(block.strip().splitlines()) <= 5
    done = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    # the legacy lists' optimum from SALET is 7920 guesses (3.4212 per game)
    assert "first_fit from SALET" in done.stdout and "optimum 3.4212 (7920)" in done.stdout


def test_import_solver_stays_light():
    code = ("import sys, solver; heavy = [m for m in ('numba', 'gymnasium', 'solver.api') "
            "if m in sys.modules]; print(heavy)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


def test_the_package_root_exports_the_api():
    import solver
    from solver.evaluation.regret import decision_regrets
    from solver.evaluation.scoring import score_policy
    from solver.policies.base import Policy

    assert solver.score_policy is score_policy and solver.decision_regrets is decision_regrets
    assert solver.Policy is Policy
    for name in solver.__all__:
        assert callable(getattr(solver, name))
    with pytest.raises(AttributeError):
        solver.no_such_thing  # noqa: B018


# -- tools.report --policy module:attr ---------------------------------------------------------------
def test_report_scores_a_policy_from_a_module(small, tmp_path):
    word_list, _, brute = small
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "answers.txt").write_text("\n".join(word_list.answers) + "\n")
    (lists / "guesses.txt").write_text("\n".join(word_list.guesses) + "\n")
    (tmp_path / "mypolicies.py").write_text("def first_fit(history, answers):\n    return answers[0]\n")
    opener = word_list.guesses[3]
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "solver.cli.wordle", "report", "--words", str(lists),
                           "--opener", opener, "--policy", "mypolicies:first_fit", "--out",
                           str(tmp_path / "reports"), "--name", "mine", "--jobs", "1"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(open(tmp_path / "reports" / "mine" / "gap.csv")))
    assert [row["policy"] for row in rows] == ["mypolicies:first_fit"]
    assert int(rows[0]["total"]) == sum(_naive_first_fit_games(word_list, opener))
    assert int(rows[0]["optimal_total"]) == brute.guess_cost(word_list.guess_index(opener),
                                                              tuple(range(word_list.n_answers)), 6)
    bad = subprocess.run([sys.executable, "-m", "solver.cli.report", "--words", str(lists), "--opener", opener,
                          "--policy", "mypolicies:nothing", "--out", str(tmp_path / "r2")],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert bad.returncode == 2 and "has no attribute 'nothing'" in bad.stderr


# -- the wordle command ----------------------------------------------------------------------------
def _wordle(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "solver.cli.wordle", *args], capture_output=True, text=True,
                          timeout=300, **kwargs)


def test_wordle_lists_its_commands_and_refuses_unknown_ones():
    from solver.cli.wordle import COMMANDS

    done = _wordle("--help")
    assert done.returncode == 0
    for name, (module, _) in COMMANDS.items():
        assert f"  {name} " in done.stdout
        assert (ROOT / "solver" / "cli" / f"{module}.py").is_file() and (ROOT / "tools" / f"{module}.py").is_file()
    typo = _wordle("asist")
    assert typo.returncode == 2 and "did you mean 'assist'" in typo.stderr
    assert _wordle().returncode == 2


def test_wordle_runs_a_tool_with_its_own_arguments():
    done = _wordle("assist", "salet:bbbby", "crane:bbbbb", "--json")
    assert done.returncode == 0, done.stderr
    advice = json.loads(done.stdout)
    assert advice["status"] == "exact" and advice["answers_remaining"] == 28
    usage = _wordle("tree", "--help")
    assert usage.returncode == 0 and usage.stdout.startswith("usage: wordle tree")
    bad = _wordle("assist", "salet:bbbbq")
    assert bad.returncode == 2 and "error:" in bad.stderr


def test_tree_reads_a_shipped_tree_by_name(tmp_path):
    done = _wordle("tree", "next", "legacy-normal-salet", "salet:bbbbb", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "next guess" in done.stdout
    missing = _wordle("tree", "stats", "legacy-normal-nosuch", cwd=tmp_path)
    assert missing.returncode == 2 and "legacy-normal-salet" in missing.stderr


def test_a_missing_extra_names_the_install():
    from solver.game.errors import MissingExtraError, require_extra

    with pytest.raises(MissingExtraError, match=r"pip install 'exact-wordle\[web\]'"):
        require_extra("no_such_module_for_the_test", "web", "the web page")
    require_extra("numpy", "web", "the web page")


# -- the Gymnasium environment -----------------------------------------------------------------------
def test_the_environment_is_registered_without_an_import_hook():
    """Gymnasium >= 1.0 loads no plugin entry points: ``gymnasium.make("solver:ExactWordle-v0")``
    imports the package, which registers it; so do importing it after gymnasium and importing
    the environment's module; ``import solver`` alone neither imports gymnasium nor hooks imports."""
    for code in ("import gymnasium; gymnasium.make('solver:ExactWordle-v0')", "import gymnasium, solver",
                 "import solver, gymnasium, solver.evaluation.gym_env"):
        done = subprocess.run([sys.executable, "-c", code + "; print('ExactWordle-v0' in gymnasium.registry)"],
                              capture_output=True, text=True, timeout=120)
        assert done.stdout.strip() == "True", done.stderr
    done = subprocess.run([sys.executable, "-c", "import sys; n = len(sys.meta_path); import solver; "
                           "print('gymnasium' in sys.modules, len(sys.meta_path) == n)"],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "True"], done.stderr


def _check_env_quietly(env):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught] == []


def test_env_checker_passes_on_a_small_list(small, tmp_path, monkeypatch):
    import gymnasium

    import solver  # noqa: F401  (registers the environment)

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, _, _ = small
    for opener in (word_list.guesses[3], None):
        _check_env_quietly(gymnasium.make("ExactWordle-v0", words=word_list, opener=opener).unwrapped)


@pytest.mark.slow
def test_env_checker_passes_on_the_default_environment():
    import gymnasium

    from solver.evaluation import gym_env  # noqa: F401  (registers it, whatever was imported first)

    env = gymnasium.make("ExactWordle-v0")
    _check_env_quietly(env.unwrapped)
    obs, info = env.reset(seed=0)
    assert env.unwrapped.word_list.name == "nyt-2024"  # today's lists, as every play default
    # SALET is played first: on the NYT 2024 lists 7894 guesses in all, TARSE's optimum 7883
    assert info["opener_regret"] == 7894 - 7883 and obs[0, 0] == env.unwrapped.word_list.guess_index("salet") + 1


def test_env_values_and_regrets_equal_the_brute_force(small, tmp_path, monkeypatch):
    """A seeded random agent over many games: every step's V*, optimal guess and regret."""
    from solver.evaluation.gym_env import ExactWordleEnv

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, table, brute = small
    env = ExactWordleEnv(word_list, opener=None)
    rng = np.random.default_rng(7)
    checked = gave_up = 0
    from naive_values import NaiveValues

    naive = NaiveValues(word_list.guesses, word_list.answers, hard=False)
    naive.brute = brute  # the same recursion, its memo shared
    everything = frozenset()
    for episode in range(12):
        obs, info = env.reset(seed=episode)
        state, d = tuple(range(word_list.n_answers)), 6
        value = brute.value(state, d)
        assert info["optimal_value"] == value and obs.sum() == 0
        # an optimal guess (openers of equal value may tie)
        assert brute.guess_cost(word_list.guess_index(info["optimal_guess"]), state, d) == value
        terminated = False
        while not terminated:
            # a plausible agent: mostly answers still possible, sometimes any guess
            fits = [int(word_list.answer_guess_index[a]) for a in state]
            action = int(rng.choice(fits)) if rng.random() < 0.7 else int(rng.integers(word_list.n_guesses))
            obs, reward, terminated, truncated, info = env.step(action)
            q = brute.guess_cost(action, state, d)
            expected = math.inf if q >= INF else q - value
            assert info["regret"] == expected
            assert info["regret_per_game"] == expected / len(state)
            # the finite regret (docs/algorithms.md §15.4), always finite
            finite = naive.cost(state, everything, d, action)[0] - naive.w(state, everything, d)[0]
            assert info["regret_finite"] == finite and math.isfinite(info["regret_finite"])
            assert (finite == expected) if q < INF else finite > 0
            gave_up += q >= INF
            code = table[action, env._answer]
            state = tuple(a for a in state if table[action, a] == code)
            d -= 1
            assert info["answers_left"] == len(state) and not truncated
            assert info["won"] == (code == 242)
            if not terminated:
                value = brute.value(state, d)
                if value < INF:
                    assert info["optimal_value"] == value
                    assert brute.guess_cost(word_list.guess_index(info["optimal_guess"]), state, d) == value
            assert reward == (-1.0 if info["won"] or not terminated else -2.0)
            checked += 1
    assert checked >= 24


def test_env_finite_regret_keeps_every_return_finite(small, tmp_path, monkeypatch):
    """With three guesses a random agent often gives up the sure finish (strict regret inf);
    ``regret_finite`` is then the rule of docs/algorithms.md §15.4 (the brute force's), so
    every episode's sum is finite."""
    from naive_values import NaiveValues
    from solver.evaluation.gym_env import ExactWordleEnv

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, table, brute = small
    naive = NaiveValues(word_list.guesses, word_list.answers, hard=False)
    naive.brute = brute
    env = ExactWordleEnv(word_list, opener=None, guess_limit=3)
    rng = np.random.default_rng(3)
    gave_up = 0
    for episode in range(8):
        env.reset(seed=episode)
        state, d, terminated, total = tuple(range(word_list.n_answers)), 3, False, 0.0
        while not terminated:
            action = int(rng.integers(word_list.n_guesses))
            _, _, terminated, _, info = env.step(action)
            value, _ = naive.w(state, frozenset(), d)
            cost, gives_up = naive.cost(state, frozenset(), d, action)
            assert info["regret_finite"] == cost - value
            assert math.isinf(info["regret"]) == gives_up
            gave_up += gives_up
            total += info["regret_finite_per_game"]
            code = table[action, env._answer]
            state = tuple(a for a in state if table[action, a] == code)
            d -= 1
        assert math.isfinite(total)
    assert gave_up >= 1


def test_env_regrets_add_up_to_the_gap(small, tmp_path, monkeypatch):
    """Summed over the answers, Σ regret_per_game of a game after the opener = the policy's
    total guesses less the optimum's with that opener (first_fit, every game won)."""
    from solver.evaluation.gym_env import ExactWordleEnv

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, _, brute = small
    everything = tuple(range(word_list.n_answers))
    # an opener from which first_fit is not optimal, so that the identity says something
    opener = next(g for g in word_list.guesses[:40]
                  if sum(_naive_first_fit_games(word_list, g))
                  > brute.guess_cost(word_list.guess_index(g), everything, 6))
    env = ExactWordleEnv(word_list, opener=opener)
    games = _naive_first_fit_games(word_list, opener)
    assert max(games) <= 6
    regret_sum = 0.0
    for answer in word_list.answers:
        if answer == opener:  # won by the opener: no decision (reset refuses it)
            continue
        _, info = env.reset(options={"answer": answer})
        while not (info["won"] or info["guesses"] >= 6):
            state = [word_list.answers[a] for a in env._state]
            _, _, _, _, info = env.step(word_list.guess_index(state[0]))
            regret_sum += info["regret_per_game"]
    optimum = brute.guess_cost(word_list.guess_index(opener), everything, 6)
    assert regret_sum == pytest.approx(sum(games) - optimum) and regret_sum > 0


def test_env_refuses_bad_actions_and_options(small, tmp_path, monkeypatch):
    from solver.evaluation.gym_env import ExactWordleEnv
    from solver.game.errors import InputError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, _, _ = small
    env = ExactWordleEnv(word_list, opener=word_list.guesses[3], render_mode="ansi")
    env.reset(seed=1)
    from solver.game.errors import ActionError

    for action in (word_list.n_guesses, -1, 1.5, "3", True, np.array([1, 2]), None):
        with pytest.raises(ActionError, match=r"^action must be a guess index 0\.\.\d+, got ") as caught:
            env.step(action)
        assert isinstance(caught.value, InputError) and isinstance(caught.value, ValueError)
        assert "\n" not in str(caught.value)
    assert env.render().startswith(word_list.guesses[3] + " ")
    with pytest.raises(InputError):
        ExactWordleEnv(word_list, opener="zzzzz")
    with pytest.raises(InputError):
        ExactWordleEnv(word_list, guess_limit=0)
    with pytest.raises(InputError, match="opener"):
        env.reset(options={"answer": word_list.guesses[3]})
    env.reset(options={"answer": word_list.answers[1]})
    while True:
        *_, terminated, _, info = env.step(int(word_list.answer_guess_index[1]))
        if terminated:
            break
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)



@pytest.mark.parametrize("options, words", [
    ([1, 2], "options must be a dict like {'answer': 'cigar'} or None, not [1, 2]"),
    ("cigar", "options must be a dict"),
    ({"anwser": "cigar"}, "options has the key 'anwser'; the only option is 'answer'"),
    ({"answer": 42}, "42 is not a word"),
])
def test_env_reset_refuses_bad_options_with_an_input_error(small, tmp_path, monkeypatch, options, words):
    """reset(options=[1, 2]) raised AttributeError ('list' object has no attribute 'get')."""
    from solver.evaluation.gym_env import ExactWordleEnv
    from solver.game.errors import InputError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    env = ExactWordleEnv(small[0], opener=None)
    with pytest.raises(InputError) as caught:
        env.reset(options=options)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    for seed in (-1, 2.5, "7"):
        with pytest.raises(InputError, match="seed must be a whole number"):
            env.reset(seed=seed)
    env.reset(seed=3, options={"answer": small[0].answers[0]})  # still usable


def test_play_and_analysis_default_to_the_play_lists_research_to_the_legacy_lists():
    """One rule (docs/api.md, "Which lists by default"): solver.analyse("salet crane birth",
    answer="birth") answers on the lists `wordle analyse` uses (it took the legacy lists), and
    so do advise, service, word_list and the Gymnasium environment; the research entry points
    that reproduce the published figures keep the legacy lists."""
    import inspect

    import solver
    from solver.cli.analyse import build_parser
    from solver.cli.assist import load_service
    from solver.evaluation.gym_env import ExactWordleEnv
    from solver.game.wordlists import LEGACY_LISTS, PLAY_LISTS

    def default(function):
        return inspect.signature(function).parameters["words"].default

    cli = load_service(build_parser().parse_args(["salet", "--answer", "birth"])).word_list.name
    assert cli == PLAY_LISTS == "nyt-2024"
    for function in (solver.advise, solver.analyse, solver.service, solver.word_list, ExactWordleEnv):
        assert default(function) == PLAY_LISTS, function
    assert solver.service().word_list.name == solver.word_list().name == cli
    for function in (solver.solve, solver.prove, solver.score, solver.as_policy):
        assert default(function) == LEGACY_LISTS, function
