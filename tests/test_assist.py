"""Advice from any position (solver.evaluation.assist, solver.cli.assist): the next guess and the
Q-values against independent exact values, the tree, the time budget, and bad input."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from solver.game.spec import Game
from solver.game.history import History
import pytest

from naive import BruteForce, table as naive_table
from solver.evaluation.assist import EXACT, NOT_PROVEN, advise_game
from solver.exact.bellman import solve_state
from conftest import q_value
from solver.game.feedback import code_to_text, feedback_code
from solver.game.wordlists import from_words

ROOT = Path(__file__).resolve().parents[1]
ARTIFACT = ROOT / "artifacts" / "legacy-normal-salet.msgpack"


@pytest.fixture(scope="module")
def sub30():
    """(word list, table, brute force): 30 legacy answers, 60 other guesses."""
    from conftest import numpy_sub_list

    word_list, table = numpy_sub_list(5, 30, 60, use_cache=False)
    return word_list, table, BruteForce(naive_table(word_list.guesses, word_list.answers),
                                        list(word_list.answer_guess_index))


def brute_value(word_list, state, guesses_left):
    """(V*, guess) of a small state by the plain recursion of tests/naive.py, on the state's
    answers and every guess of the list (the other answers play no part in it)."""
    answers = [word_list.answers[int(a)] for a in state]
    sub = from_words(answers, word_list.guesses, "state")
    brute = BruteForce(naive_table(sub.guesses, sub.answers), list(sub.answer_guess_index))
    value, guess = brute.best(tuple(range(len(answers))), guesses_left)
    return value, sub.guesses[guess]


@pytest.mark.slow
def test_200_two_guess_histories_off_the_tree_agree_with_independent_values(legacy_table, legacy_tree,
                                                                            warm_assist_kernels):
    """Done-when of issue 11: 200 random two-guess histories off the SALET tree (a random
    opener other than salet, or salet then a random word other than the tree's), each against
    a random answer. The advice must be exact and equal the brute force (the first 20 states of
    at most 3 answers) or solve_state (the others), guess included (the same tie-break)."""
    word_list, table = legacy_table
    rng = random.Random(11)
    brute_checked = checked = 0
    while checked < 200:
        answer = rng.choice(word_list.answers)
        if rng.random() < 0.5:
            first = "salet"
            tree_second = legacy_tree.next_guess([("salet", feedback_code("salet", answer))])
            second = rng.choice([w for w in rng.sample(word_list.guesses, 3) if w != tree_second])
        else:
            first, second = rng.sample(word_list.guesses, 2)
            if first == "salet":
                continue
        history = [(w, feedback_code(w, answer)) for w in (first, second)]
        if history[-1][1] == 242 or history[0][1] == 242:
            continue
        state = History.parse(Game(word_list), history, limit=False).state(table)
        if len(state) > 300:  # a slow state: the budget test covers those
            continue
        # book=False: the SALET tree only, so that other openers' states are searched on their
        # own (the state search under a budget), not answered from their openers' trees
        advice = advise_game(Game(word_list), history, top=1, budget=60, tree=legacy_tree, table=table, book=False)
        assert advice.source == "solver" and (advice.left_tree is not None) == (first == "salet")
        assert advice.status == EXACT, history
        if len(state) <= 3 and brute_checked < 20:  # the brute force costs ~1 s a state
            expected = brute_value(word_list, state, 4)
            brute_checked += 1
        else:
            expected = solve_state(Game(word_list), state, 4, table)
        assert (advice.value, advice.next_guess) == expected, history
        assert advice.alternatives[0].q_value == advice.value
        checked += 1
    assert brute_checked == 20  # both kinds of check were made


@pytest.mark.slow
def test_on_the_tree_the_advice_is_the_trees(legacy_table, legacy_tree, warm_assist_kernels):
    """For 40 random answers, after the tree's first two moves, the advice solved from
    scratch (no tree) is the tree's guess and the tree's value from that state."""
    from solver.evaluation.assist import tree_value

    word_list, table = legacy_table
    rng = random.Random(3)
    for answer in rng.sample(word_list.answers, 40):
        game = legacy_tree.game(answer)
        if len(game) < 3:
            continue
        history = list(game[:2])
        position = legacy_tree.position(history)
        advice = advise_game(Game(word_list), history, top=1, budget=60, table=table)
        from_tree = advise_game(Game(word_list), history, top=0, tree=legacy_tree)
        assert advice.status == EXACT and from_tree.status == EXACT and from_tree.source == "tree"
        assert advice.next_guess == from_tree.next_guess == legacy_tree.guess_at(position.node)
        assert advice.value == from_tree.value == tree_value(legacy_tree, position.node, position.answers)


@pytest.mark.slow
def test_top_five_q_values_are_exact_and_ranked(legacy_table, warm_assist_kernels):
    """salet:bbbby crane:bbbbb: bitty is optimal (63 over 28 answers, as solve_from); each of
    the five alternatives' Q* equals the sum of its classes' solve_state values, and no guess
    outside the five is better than the fifth (checked over every guess's Q* lower bound and,
    where that bound does not settle it, its exact Q*)."""
    word_list, table = legacy_table
    history = [("salet", "bbbby"), ("crane", "bbbbb")]
    advice = advise_game(Game(word_list), history, top=5, budget=60, table=table)
    state = History.parse(Game(word_list), history, limit=False).state(table)
    assert advice.status == EXACT and advice.alternatives_complete
    assert (advice.next_guess, advice.value, advice.n_answers) == ("bitty", 63, 28)
    answers = set(advice.answers)
    qs = []
    for alt in advice.alternatives:
        assert alt.exact and alt.q_value == q_value(word_list, table, state, 4, alt.guess)
        assert alt.could_be_answer == (alt.guess in answers)
        qs.append(alt.q_value)
    assert qs == sorted(qs) and qs[0] == 63
    # every other guess whose partition bound (3n − k − [g ∈ S]) is under the fifth value
    listed = {alt.guess for alt in advice.alternatives}
    for g, guess in enumerate(word_list.guesses):
        codes = table[g, state]
        k = len(np.unique(codes))
        if guess in listed or k == 1 or 3 * 28 - k - (242 in codes) > qs[-1]:
            continue
        assert q_value(word_list, table, state, 4, guess) >= qs[-1], guess


@pytest.mark.slow
@pytest.mark.timed
def test_a_short_budget_is_honest(legacy_table, legacy_tree, warm_assist_kernels):
    """After salet:bbbbb (221 answers; the tree's value is exact there) with a budget far too
    short to finish: never "exact" with a wrong value, the lower bound is ≤ the true value and
    any value given is ≥ it; the call returns soon after the budget."""
    from solver.evaluation.assist import tree_value

    word_list, table = legacy_table
    history = [("salet", "bbbbb")]
    position = legacy_tree.position(history)
    true_value = tree_value(legacy_tree, position.node, position.answers)
    for budget in (0.05, 0.3):
        started = time.perf_counter()
        advice = advise_game(Game(word_list), history, top=5, budget=budget, table=table, book=False)
        assert time.perf_counter() - started < budget + 5
        if advice.status == EXACT:
            assert advice.value == true_value
        else:
            assert advice.status == NOT_PROVEN and not advice.alternatives_complete
            assert advice.lower_bound <= true_value
            if advice.value is None:  # no time even for the fast policy: the order's first guess
                assert advice.source == "heuristic" and advice.next_guess in word_list.guesses
                continue
            assert advice.value >= true_value
            exact_q = q_value(word_list, table, np.asarray(
                [word_list.answer_index(a) for a in advice.answers], dtype=np.int32), 5,
                advice.next_guess)
            if advice.source == "heuristic":  # the fast policy's value: at least its guess's Q*
                assert advice.value >= exact_q
            else:
                assert advice.value == exact_q


@pytest.mark.slow
@pytest.mark.timed
def test_hundreds_of_answers_answer_within_the_budget(legacy_table, warm_assist_kernels):
    """fuzzy:bbbbb then xylyl:bbbbb leaves 946 answers (a state of the second guess: no opener
    table holds it): with a 1 s budget the answer comes labelled not proven, with a lower bound
    under its value, in about a second."""
    word_list, table = legacy_table
    started = time.perf_counter()
    advice = advise_game(Game(word_list), ["fuzzy:bbbbb", "xylyl:bbbbb"], top=5, budget=1.0, table=table,
                         book=False)
    assert time.perf_counter() - started < 4
    assert advice.n_answers == 946 and advice.status == NOT_PROVEN
    assert advice.lower_bound <= (advice.value if advice.value is not None else 1 << 30)
    assert advice.lower_bound >= 2 * 946 - 1  # at least the class bound, §3.1


def test_small_list_against_the_brute_force_every_state(sub30):
    """On a 30-answer sub-list, after every first guess against every answer, the advice with
    five alternatives matches the brute force: the value, the guess, and each alternative's
    Q* (by the recursion's own guess_cost)."""
    word_list, table, brute = sub30
    rng = random.Random(2)
    for _ in range(12):
        answer, first = rng.choice(word_list.answers), rng.choice(word_list.guesses)
        code = feedback_code(first, answer)
        if code == 242:
            continue
        advice = advise_game(Game(word_list), [f"{first}:{code_to_text(code)}"], top=5, budget=30, table=table)
        state = tuple(int(a) for a in History.parse(Game(word_list), [(first, code)], limit=False).state(table))
        value, guess = brute.best(state, 5)
        assert advice.status == EXACT and (advice.value, advice.next_guess) == (value, word_list.guesses[guess])
        for alt in advice.alternatives:
            assert alt.q_value == brute.guess_cost(word_list.guess_index(alt.guess), state, 5)


def test_in_process_and_child_searches_agree(sub30):
    """A state searched in this process (the optimum guess by guess) and in a child process
    (the optimum by one solve_state call) gives the same ranking: the same best guesses with
    the same exact Q*, forced guesses included, and the optimum is the brute force's."""
    from solver.evaluation.assist import rank_guesses

    word_list, table, brute = sub30
    rng = random.Random(5)
    for _ in range(4):
        answer, first = rng.choice(word_list.answers), rng.choice(word_list.guesses)
        state = History.parse(Game(word_list), [(first, feedback_code(first, answer))], limit=False).state(table)
        if len(state) < 3:
            continue
        forced = [rng.randrange(word_list.n_guesses)]
        here = rank_guesses(Game(word_list), state, 5, top=5, forced=forced, budget=60, table=table,
                            in_process=True)
        child = rank_guesses(Game(word_list), state, 5, top=5, forced=forced, budget=60, table=table,
                             in_process=False)
        assert here.in_process and not child.in_process
        assert here.proven and here.finished and child.proven and child.finished
        assert here.top == child.top
        assert here.exact_q(forced[0]) == child.exact_q(forced[0])
        value, guess = brute.best(tuple(int(a) for a in state), 5)
        assert here.top[0] == (guess, value)


def test_a_child_search_with_no_budget_waits_for_its_answer(sub30):
    """No budget (``SearchService.advise`` without one, a state too large for this process):
    the child's search is waited for, however long (it was an OverflowError: an infinite
    timeout given to the pipe's poll)."""
    from solver.evaluation.assist import rank_guesses

    word_list, table, _ = sub30
    state = np.arange(word_list.n_answers, dtype=np.int32)
    here = rank_guesses(Game(word_list), state, 5, top=3, table=table, in_process=True)
    child = rank_guesses(Game(word_list), state, 5, top=3, table=table, in_process=False)
    assert not child.in_process and child.proven and child.finished
    assert child.top == here.top


def test_the_optimum_is_proven_before_the_alternatives(sub30, monkeypatch):
    """The search proves the optimum first; when time runs out right after it (simulated:
    the search stops there), the answer is exact and its alternatives are marked incomplete,
    each with its exact Q*."""
    from solver.exact import anytime as assist

    word_list, table, brute = sub30
    real = assist._rank_steps
    seen = []

    def until_the_optimum(*args):
        for message in real(*args):
            seen.append(message[0])
            yield message
            if message[0] == "optimum":
                return

    monkeypatch.setattr(assist, "_rank_steps", until_the_optimum)
    first = word_list.guesses[0]
    game = Game(word_list)
    answer = next(a for a in word_list.answers
                  if len(History.parse(game, [(first, feedback_code(first, a))]).state(table)) >= 4)
    history = [(first, feedback_code(first, answer))]
    advice = advise_game(Game(word_list), history, top=5, budget=60, table=table, book=False)
    state = tuple(int(a) for a in History.parse(Game(word_list), history, limit=False).state(table))
    value, guess = brute.best(state, 5)
    assert seen[-1] == "optimum" and "done" not in seen
    assert advice.status == EXACT and (advice.value, advice.next_guess) == (value, word_list.guesses[guess])
    assert advice.lower_bound == value and not advice.alternatives_complete
    assert advice.alternatives[0].guess == advice.next_guess
    for alt in advice.alternatives:
        assert alt.exact and alt.q_value == brute.guess_cost(word_list.guess_index(alt.guess), state, 5)


def test_a_won_game_and_a_single_answer(sub30):
    word_list, table, _ = sub30
    answer = word_list.answers[0]
    done = advise_game(Game(word_list), [(answer, 242)], table=table)
    assert done.status == "solved" and done.next_guess is None and done.value == 0
    game = Game(word_list)
    other = next(g for g in word_list.guesses if g != answer
                 and len(History.parse(game, [(g, feedback_code(g, answer))]).state(table)) == 1)
    single = advise_game(Game(word_list), [(other, feedback_code(other, answer))], table=table)
    assert (single.status, single.next_guess, single.value) == (EXACT, answer, 1)


# -- the command line ---------------------------------------------------------------------------
def assist(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "tools.assist", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_cli_json_and_text(warm_assist_kernels):
    # the shape and the values of the output, not the default alternatives budget (1 s from the
    # start, which a loaded machine's kernel loading can use up: the timed tests cover budgets)
    proc = assist("salet:bbbby", "crane:bbbbb", "--json", "--alternatives-budget", "30")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["word_list"] == "nyt-2024"  # today's lists by default (this state is the same in both)
    assert doc["status"] == "exact" and doc["next_guess"] == "bitty" and doc["value_total"] == 63
    assert doc["answers_remaining"] == 28 and doc["expected_guesses"] == 63 / 28
    assert [a["guess"] for a in doc["alternatives"]][:1] == ["bitty"] and len(doc["alternatives"]) == 5
    assert "leaves the SALET tree at guess 2" in doc["left_tree"]
    text = assist("salet:bbbby", "crane:bbbbb", "--top", "2", "--alternatives-budget", "30")
    assert text.returncode == 0
    assert "next guess: bitty (exact, from the solver): 2.25000 expected guesses" in text.stdout
    assert "28 answers remain; 4 guesses left" in text.stdout and "ditty" in text.stdout


@pytest.mark.slow
def test_cli_with_an_empty_cache_reads_only_the_parts_of_the_table_it_needs(legacy_table, tmp_path):
    """A fresh user cache (issue 31): a state in the book (ADIEU's shipped tree) and one off it
    (the history leaves the SALET tree at guess 2: the state is solved) are answered as with
    the whole table, from the rows and columns they need; the whole table (30 MB, a second or
    more to build) is neither built nor written."""
    word_list, table = legacy_table
    env = {**os.environ, "EXACT_WORDLE_CACHE": str(tmp_path)}
    for history, top in ((["adieu:bbybb"], 0), (["salet:bbbby", "crane:bbbbb"], 2)):
        proc = subprocess.run([sys.executable, "-m", "tools.assist", *history, "--words", "legacy",
                               "--top", str(top), "--alternatives-budget", "60", "--json"],
                              cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
        assert proc.returncode == 0, proc.stderr
        doc = json.loads(proc.stdout)
        whole = advise_game(Game(word_list), history, top=top, table=table).to_json()
        for answer in (doc, whole):
            answer.pop("seconds")
        assert doc == whole
        assert doc["source"] == ("tree" if history == ["adieu:bbybb"] else "solver")
        assert not list(tmp_path.glob("feedback-*")), history
    assert doc["next_guess"] == "bitty" and doc["value_total"] == 63


@pytest.mark.slow
@pytest.mark.timed
def test_cli_budget_counts_from_the_start(warm_assist_kernels):
    """crate:bbbbb (246 answers) with --budget 3: the whole command, start-up included, ends
    within about the budget (the search gets what start-up left), and the answer is honest."""
    started = time.perf_counter()
    proc = assist("crate:bbbbb", "--json", "--budget", "3", "--words", "legacy")
    wall = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert wall < 3 + 1.0, wall
    assert doc["status"] in (EXACT, NOT_PROVEN) and doc["answers_remaining"] == 246
    if doc["status"] == EXACT:
        assert doc["value_total"] == 698 and doc["next_guess"] == "diols"  # solve_state's answer
    else:
        assert doc["lower_bound_total"] <= 698 and not doc["alternatives_complete"]


@pytest.mark.parametrize("args, fragment", [
    (["salet:bbbby", "zzzzz:bbbbb"], "guess 2: 'zzzzz' is not an allowed guess"),
    (["salet:bbbby", "crane:ggggg"], "no answer and no allowed guess fits the history: after guess 2"),
    (["salet:bbbbq"], "guess 1: feedback 'bbbbq' is not five of b/y/g"),
    (["salet"], "guess 1: history token 'salet' is not word:feedback"),
    (["--mode", "hard", "salet:bbbbg", "crony:bbbbb"],
     "guess 2 (crony) is not allowed in hard mode: position 5 must stay 't'"),
    (["--budget", "0"], "argument --budget: must be a finite number of seconds > 0"),
    (["--words", "/nonexistent"], "is neither a shipped word list"),
])
def test_cli_bad_input_is_one_line_and_status_2(args, fragment):
    proc = assist(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], proc.stderr


def test_a_commands_budget_clock_starts_with_the_process():
    """Run as a command, --budget counts from the process's start (the interpreter's start and
    the imports included, slow under load), not from when the tool's module was loaded;
    main() called in a process counts from the call."""
    code = ("import time; time.sleep(0.6); import solver.cli._cli as c; "
            "inside = time.monotonic() - c.budget_clock(); c._as_command = True; "
            "print(inside, time.monotonic() - c.budget_clock())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    inside, command = map(float, done.stdout.split())
    assert inside < 0.05 and 0.6 <= command < 5, done


@pytest.mark.slow
@pytest.mark.timed
@pytest.mark.parametrize("command", [
    ["tools.analyse", "salet", "crane", "birth", "--answer", "birth"],
    ["tools.tree", "next", "salet:bbbby", "pizza:bbbbb", "--words", "legacy"],
])
def test_a_budget_is_kept_within_its_margin_under_load(warm_assist_kernels, tmp_path, command):
    """--budget 2 with a core kept busy (a long job beside it) and a fresh user cache: the
    command ends within the budget and its documented margin of 1 s (docs/troubleshooting.md;
    it ran 1.1–2.0 s over: the clock started after the imports, and the interpreter's teardown,
    most of a second under load, came after the answer)."""
    budget, margin = 2.0, 1.0
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])]
    try:
        # what no budget can undercut: starting Python and importing the search, under this load
        started = time.monotonic()
        subprocess.run([sys.executable, "-c", "import solver.cli.analyse, solver.cli.tree, "
                        "solver.exact.service, solver.exact.bellman"], cwd=ROOT, check=True, timeout=120)
        start_up = time.monotonic() - started
        walls = []
        for attempt in range(3):  # the best of three: the machine may have other work too
            cache = tmp_path / f"cache{attempt}"
            started = time.monotonic()
            done = subprocess.run([sys.executable, "-m", *command, "--budget", str(budget)], cwd=ROOT,
                                  env=dict(os.environ, EXACT_WORDLE_CACHE=str(cache)),
                                  capture_output=True, text=True, timeout=120)
            walls.append(time.monotonic() - started)
            assert done.returncode == 0, done.stderr
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert min(walls) <= max(budget, start_up) + margin, (walls, start_up)
