"""Slow, obviously correct twins of the kernels, written for the tests only.

Every kernel test compares against one of these (the stumpy pattern): they follow the
definitions in docs/algorithms.md literally, with no pruning, no bounds and no shortcuts beyond
the base case of the recursion.
"""

from __future__ import annotations

from collections import Counter

INF = 1 << 30
ALL_GREEN = 242


def feedback(guess: str, answer: str) -> int:
    """Feedback code by the rule's words: greens first, then yellows left to right while the
    answer still has an unmatched copy of the letter (a different procedure from
    ``solver.game.feedback.feedback_code``: it crosses letters off a list)."""
    colours = ["b"] * len(guess)
    leftover = []
    for i in range(len(guess)):
        if guess[i] == answer[i]:
            colours[i] = "g"
        else:
            leftover.append(answer[i])
    for i in range(len(guess)):
        if colours[i] != "g" and guess[i] in leftover:
            colours[i] = "y"
            leftover.remove(guess[i])
    return sum("byg".index(c) * 3**i for i, c in enumerate(colours))


def table(guesses, answers) -> list[list[int]]:
    """The feedback table as nested lists, ``table[g][a]``."""
    return [[feedback(g, a) for a in answers] for g in guesses]


def classes(feedback_table, g, state) -> dict[int, list[int]]:
    """Feedback code → the answers of ``state`` that show it when ``g`` is guessed (in state
    order)."""
    groups: dict[int, list[int]] = {}
    for a in state:
        groups.setdefault(int(feedback_table[g][a]), []).append(int(a))
    return groups


def tie_break(objective, all_green, groups, n) -> tuple:
    """The solver's candidate order after the value (§4.2) of a guess that splits a state of
    ``n`` answers into ``groups``: (bound, second key). Total: (3n − k − [g ∈ S], Σ|C|²);
    worst: (2 if every class is a singleton else 3, 2 Σ|C|² + 1 − [g ∈ S])."""
    green = 1 if all_green in groups else 0
    sumsq = sum(len(m) ** 2 for m in groups.values())
    if objective == "worst":
        return (2 if len(groups) == n else 3, 2 * sumsq + 1 - green)
    return (3 * n - len(groups) - green, sumsq)


def first_optimal(feedback_table, candidates, state, cost, order):
    """(cost, g) of the guess the solver must pick (§4.4): the least key (cost(g),
    *order(g, groups), g) over the ``candidates`` g that split ``state`` (two classes or more)
    at a cost below INF; (INF, -1) when none does."""
    best_key = None
    for g in candidates:
        groups = classes(feedback_table, g, state)
        if len(groups) == 1:
            continue
        value = cost(g)
        if value >= INF:
            continue
        key = (value, *order(g, groups), g)
        if best_key is None or key < best_key:
            best_key = key
    return (INF, -1) if best_key is None else (best_key[0], best_key[-1])


class BruteForce:
    """F(S, d) by the plain Bellman recursion over every guess (Bertsimas & Paskov §3;
    docs/algorithms.md §2.1 for ``objective="total"``, §2.2 for ``"worst"``), memoised on
    (S, d) only so that the tests finish; plus the solver's tie-break rule (§4.4).

    ``guess_of_answer[a]`` is the guess index of answer a; states are tuples of answer
    indices in ascending order; ``word_length`` sets the all-green code 3**L − 1.
    """

    def __init__(self, feedback_table, guess_of_answer, objective="total", word_length=5):
        self.table = feedback_table
        self.guess_of_answer = guess_of_answer
        self.objective = objective
        self.all_green = 3**word_length - 1
        self.memo: dict = {}

    def classes(self, g, state):
        return classes(self.table, g, state)

    def guess_cost(self, g, state, d):
        """Total: |S| + Σ over non-green classes of F(C, d − 1). Worst: the largest of 1 (the
        green class) and 1 + F(C, d − 1) over the non-green classes."""
        classes = [tuple(m) for code, m in self.classes(g, state).items() if code != self.all_green]
        if self.objective == "worst":
            cost = max([1] + [1 + self.value(c, d - 1) for c in classes])
        else:
            cost = len(state) + sum(self.value(c, d - 1) for c in classes)
        return min(cost, INF)

    def order(self, g, groups, n):
        """The solver's candidate order after the value: (bound, second key), §4.2."""
        return tie_break(self.objective, self.all_green, groups, n)

    def one_answer(self, a) -> int:
        """F({a}, d) for d ≥ 1: the answer is guessed at once."""
        return 1

    def value(self, state, d) -> int:
        return self.best(state, d)[0]

    def best(self, state, d):
        """(F(S, d), the guess the solver must pick): the first optimal guess in the order
        (value, :meth:`order`, index) among guesses that split S (n ≥ 2)."""
        key = (state, d)
        if key in self.memo:
            return self.memo[key]
        n = len(state)
        if n == 1:
            result = (self.one_answer(state[0]), self.guess_of_answer[state[0]])
        elif d <= 1:
            result = (INF, -1)
        else:
            result = first_optimal(self.table, range(len(self.table)), state,
                                   lambda g: self.guess_cost(g, state, d),
                                   lambda g, groups: self.order(g, groups, n))
        self.memo[key] = result
        return result

    def tree(self, state, d, guess=None):
        """The tie-broken optimal tree as nested dicts ``{"guess": g, "children": {code: …}}``."""
        if guess is None:
            _, guess = self.best(state, d)
        children = {}
        for code, members in sorted(self.classes(guess, state).items()):
            if code != self.all_green:
                children[code] = self.tree(tuple(members), d - 1)
        return {"guess": guess, "children": children}


def tree_from_arrays(tree, node=0):
    """A :class:`policy_tree.tree.DecisionTree` as the same nested dicts."""
    lo, hi = int(tree.edge_start[node]), int(tree.edge_start[node + 1])
    return {
        "guess": int(tree.node_guess[node]),
        "children": {int(tree.edge_feedback[e]): tree_from_arrays(tree, int(tree.edge_child[e]))
                     for e in range(lo, hi)},
    }


def letter_counts_ok(guess: str, answer: str, code: int) -> bool:
    """A property of every feedback: per letter, greens + yellows = min(count in guess,
    count in answer)."""
    marks = [(code // 3**i) % 3 for i in range(len(guess))]
    shown = Counter(guess[i] for i in range(len(guess)) if marks[i] > 0)
    return all(shown[ch] == min(guess.count(ch), answer.count(ch)) for ch in set(guess))


def depth_one_bound(feedback_table, state, objective="total", word_length=5):
    """The depth-one bound of a class (docs/algorithms.md §9.2): the least per-guess bound
    (§3.2: 3m − k − [g ∈ S]; the worst case: 2 if k = m, else 3) over every guess that makes
    at least two classes on ``state``; INF if none does."""
    all_green = 3**word_length - 1
    m = len(state)
    best = INF
    for row in feedback_table:
        codes = {row[a] for a in state}
        k = len(codes)
        if k < 2:
            continue
        if objective == "worst":
            bound = 2 if k == m else 3
        else:
            bound = 3 * m - k - (1 if all_green in codes else 0)
        best = min(best, bound)
    return best


def letter_family(answers):
    """The answer sets of the opener kernel's letter family, in its order: every answer; for
    each letter a..z the answers without it; for each letter those with it; for each position
    and letter those with the letter there; for each position and letter those with the letter
    elsewhere only."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    length = len(answers[0])
    every = list(range(len(answers)))
    family = [every]
    family += [[a for a in every if x not in answers[a]] for x in letters]
    family += [[a for a in every if x in answers[a]] for x in letters]
    family += [[a for a in every if answers[a][j] == x] for j in range(length) for x in letters]
    family += [[a for a in every if x in answers[a] and answers[a][j] != x]
               for j in range(length) for x in letters]
    return family


def fixed_start_value(brute: BruteForce, prefix, limit=6) -> int:
    """The total of playing the guesses ``prefix`` blind (each whatever the colours before it),
    then optimally (docs/algorithms.md §9.6), by its definition: each answer that is a prefix
    word is found at its guess; every other answer pays the j prefix guesses, and its class of
    joint feedbacks is then worth ``brute.value(C, limit − j)``. Every answer of the table."""
    j = len(prefix)
    groups: dict[tuple, list[int]] = {}
    total = 0
    for a in range(len(brute.table[0])):
        codes = tuple(brute.table[g][a] for g in prefix)
        if brute.all_green in codes:
            total += codes.index(brute.all_green) + 1
        else:
            groups.setdefault(codes, []).append(a)
    for members in groups.values():
        total += j * len(members) + brute.value(tuple(members), limit - j)
    return min(total, INF)


def letter_bound(answers, guess):
    """The letter-position bound of docs/algorithms.md §3.9, by its definition: for each letter
    of ``guess``, the answers (words) that place it other than most of ``answers`` do; the
    bound is how many answers that makes, plus one when some answer is left out."""
    odd = set()
    for x in set(guess):
        placements = [frozenset(i for i, y in enumerate(word) if y == x) for word in answers]
        counts = Counter(placements)
        top = max(counts.values())
        # (any placement gives a valid bound; the kernel takes the first most common one)
        first_top = next(p for p in placements if counts[p] == top)
        odd |= {i for i, p in enumerate(placements) if p != first_top}
    return len(odd) + (len(odd) < len(answers))
