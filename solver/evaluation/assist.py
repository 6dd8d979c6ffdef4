"""Advice from any position: the optimal next guess, its exact value and the best alternatives.

A *history* is the game so far, ``(guess, feedback)`` pairs first guess first (feedback as a
code or as ``"bbygb"`` text, see :func:`solver.game.feedback.parse_feedback`, or a
``"guess:feedback"`` token); it may follow a decision tree or leave it anywhere. The *state*
``S`` is the set of answers consistent with it and ``d`` the guesses left. Values are totals
over the state's answers, as in the solver (docs/algorithms.md §2.1, §2.3):

- ``V*(S, d)``, the least total number of guesses still needed, summed over the answers of
  ``S``; ``V*/|S|`` is the expected number of further guesses (the next one included) for one
  game in that state, every answer equally likely;
- ``Q*(S, d, g) = |S| + Σ_{C ≠ green} V*(C, d − 1)``, the total when ``g`` is played now and
  the optimum afterwards.

The exact work (:func:`rank_guesses`) has a deadline, ``budget`` seconds. It first finds the
optimum (the first optimal guess in the solver's candidate order, docs/algorithms.md §4.2,
and ``V*``), then, with the budget left, the exact ``Q*`` of the next best guesses. A large
state is searched in a child process that streams the exact ``Q*`` of each guess it
finishes and is stopped at the deadline; a small one (at most :data:`IN_PROCESS_MAX`
answers: milliseconds) is searched in this process, one guess at a time, the deadline checked
between guesses. When the deadline comes first, every finished value is kept with a proven
lower bound on ``V*`` (the least of the finished guesses' values and the unfinished guesses'
bounds, §3.2). An answer is then labelled ``"best found, not proven"``, never optimal; an
answer whose optimum was proven is ``"exact"`` (its alternatives are marked incomplete when
the budget ran out before they were). A history on
an optimal decision tree (past the opener, or at the opener when the tree records the opener
proof, docs/algorithms.md §9) is answered from the tree, exactly, with no search.
In hard mode (docs/algorithms.md §10) every guess of the history must be allowed by the hints
before it, and only the guesses the history allows are ranked and searched.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.game.errors import FeedbackError, InputError
from solver.game.feedback import code_to_text, feedback_code, parse_feedback
from solver.game.spec import GUESS_LIMIT, all_green
from solver.game.wordlists import WordList

#: Seconds the exact search may take by default before the best guess found so far is given.
DEFAULT_BUDGET = 10.0
#: Alternatives listed by default.
TOP = 5
#: Play modes this module answers.
MODES = ("normal", "hard")
EXACT = "exact"
NOT_PROVEN = "best found, not proven"
SOLVED = "solved"
INF = 1 << 30


# -- histories ---------------------------------------------------------------------------------
def normalise_history(word_list: WordList, history, guess_limit: int = GUESS_LIMIT
                      ) -> list[tuple[str, int]]:
    """``history`` as ``(guess word, feedback code)`` pairs, each checked.

    Items are ``"word:feedback"`` tokens or ``(word, feedback)`` pairs (feedback a code
    0..3**L − 1 or text). Raises :class:`~solver.game.errors.InputError` subclasses naming
    the guess at fault: a malformed token or feedback, a word not in the guess list, more
    guesses than the limit, a guess after an all-green feedback.
    """
    from policy_tree.lookup import parse_history_token

    length = word_list.word_length
    steps: list[tuple[str, int]] = []
    for turn, item in enumerate(history, start=1):
        try:
            if isinstance(item, str):
                word, code = parse_history_token(item)
            else:
                word, feedback = item
                word = str(word).strip().lower()
                if isinstance(feedback, (int, np.integer)) and not isinstance(feedback, bool):
                    code = int(feedback)
                    code_to_text(code, length)  # raises FeedbackError when out of range
                else:
                    code = parse_feedback(str(feedback), length)
            word_list.guess_index(word)
        except InputError as exc:
            raise type(exc)(f"guess {turn}: {exc}") from None
        if steps and steps[-1][1] == all_green(length):
            raise FeedbackError(f"guess {turn} ({word}) follows an all-green feedback: the game "
                                f"was already won at guess {turn - 1}")
        steps.append((word, code))
    if len(steps) > guess_limit:
        raise InputError(f"the history has {len(steps)} guesses, more than the limit of {guess_limit}")
    return steps


def format_steps(steps) -> list[str]:
    """``[("salet", 3), ...]`` → ``["salet:bbybb", ...]``."""
    return [f"{word}:{code_to_text(code, len(word))}" for word, code in steps]


def check_options(mode: str, budget: float) -> None:
    """Refuse (InputError) an unknown mode and a budget that is not a positive number."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or not math.isfinite(budget) \
            or budget <= 0:
        raise InputError(f"the time budget must be a positive number of seconds, got {budget!r}")


# -- the exact search under a deadline ---------------------------------------------------------
@dataclass
class Ranking:
    """What :func:`rank_guesses` learnt about a state before it finished or ran out of time.

    Attributes:
        n_answers: ``|S|``.
        guesses_left: ``d``.
        order: int32 guess indices that split S, in the solver's candidate order (bound, Σ|C|²,
            index; docs/algorithms.md §4.2); only these can be optimal.
        bounds: int64 lower bound on ``Q*`` of each guess of ``order`` (§3.2).
        q_values: guess index → ``(q, exact)``: the exact ``Q*`` total when ``exact``, else a
            proven lower bound on it (fail-soft, §4.1); ``INF`` (2**30) with ``exact`` for a
            guess after which some answer cannot be won in time.
        proven: the search for the optimum ran to its end: ``top[0]`` is an optimal guess and
            its value ``V*`` (``top`` is empty if nothing wins every answer in time).
        finished: the whole search ran to its end (``proven`` too): ``top`` below is the exact
            best ``top`` guesses, ranked by (``Q*``, candidate order).
        top: the best guesses found, as ``(guess index, exact Q* total)``, best first (all of
            them exact values; the exact ``top`` best only when ``finished``).
        seconds: wall seconds spent.
        in_process: the search ran in this process (a small state), not in a child.
    """

    n_answers: int
    guesses_left: int
    order: np.ndarray
    bounds: np.ndarray
    q_values: dict = field(default_factory=dict)
    proven: bool = False
    finished: bool = False
    top: list = field(default_factory=list)
    seconds: float = 0.0
    in_process: bool = False

    @property
    def value(self) -> int | None:
        """``V*`` total when ``proven`` (None if nothing wins every answer in time), else the
        best exact ``Q*`` found (an upper bound on ``V*``) or None."""
        return self.top[0][1] if self.top else None

    @property
    def lower_bound(self) -> int:
        """A proven lower bound on ``V*`` total: the exact value when proven, else the least of
        the finished guesses' values and the unfinished guesses' bounds (``INF`` if none wins)."""
        if self.proven:
            return self.value if self.value is not None else INF
        low = self.bounds.copy()
        position = _positions(self.order)
        for g, (q, _) in self.q_values.items():
            i = position.get(g)
            if i is not None:
                low[i] = max(int(low[i]), int(q))
        return int(low.min()) if low.size else INF

    def exact_q(self, guess: int) -> int | None:
        """The exact ``Q*`` total of a guess if the search finished it, else None."""
        q, exact = self.q_values.get(int(guess), (None, False))
        return int(q) if exact else None


class _positions:
    """Guess index → its position in ``order`` (``get``, ``in``), without building a dict of
    every guess (13 000 of them: milliseconds, paid on every call)."""

    def __init__(self, order: np.ndarray):
        order = np.asarray(order, dtype=np.int64)
        self._at = np.full(int(order.max()) + 1 if order.size else 0, -1, dtype=np.int64)
        self._at[order] = np.arange(order.size)

    def get(self, g: int) -> int | None:
        g = int(g)
        i = int(self._at[g]) if 0 <= g < self._at.size else -1
        return i if i >= 0 else None

    def __contains__(self, g: int) -> bool:
        return self.get(g) is not None

    def __getitem__(self, g: int) -> int:
        i = self.get(g)
        if i is None:
            raise KeyError(g)
        return i


def _local_problem(word_list: WordList, state: np.ndarray, table: np.ndarray):
    """The state's columns of the table, answers renumbered 0..n−1 (the solver's own
    localisation, so the tie-break is unchanged)."""
    from solver.exact.bellman import _localise
    from solver.game.hashing import zobrist_keys

    return _localise(table, state, word_list.answer_guess_index, zobrist_keys(word_list.n_answers))


#: States of at most this many answers are searched in this process, one guess at a time with
#: the deadline checked between guesses (no child process to fork): one guess's exact Q* takes
#: milliseconds there. Larger states run in a child process that is stopped at the deadline.
IN_PROCESS_MAX = 100


def _rank_steps(problem, order, bounds, forced, top, capacity, n_patterns, mode_id, whole=False):
    """The search, as a generator of messages ``("q", guess, value, exact)`` (one per guess
    evaluated), ``("optimum",)`` once the optimum is proven, then ``("done",)``.

    First the ``forced`` guesses, exactly. Then the optimum: the first optimal guess in the
    candidate order (the solver's own rule, §4.2) and ``V*``, found either (``whole``) by one
    call of the solver's search over the state (:func:`solver.exact._search_kernel.solve_state`,
    which cannot be stopped midway, so only in a child process) or guess by guess, each
    candidate in order against the best value so far (its deadline checked between guesses;
    each guess's search scans every guess at the root, so this is for small states). Only
    then, when ``top`` > 1, the candidates in order against the ``top``-th best value, skipping
    those already exact or whose proven bound already reaches it."""
    from solver.exact._search_kernel import evaluate_guess, new_search

    S, d, P, goa, z1, z2, rules, constraint, allowed = problem
    search = new_search(d, P.shape[0], P.shape[1], n_patterns, capacity)
    position = _positions(order)
    known: dict[int, tuple[int, bool]] = {}

    def q_value(g: int, beta: int) -> int:
        return int(evaluate_guess(S, np.int64(g), np.int64(d), np.int64(beta), P, goa, z1, z2,
                                  search, np.int64(0), np.int64(mode_id), rules, constraint,
                                  allowed))

    for g in forced:
        g = int(g)
        q = q_value(g, INF)
        known[g] = (q, True)
        yield ("q", g, q, True)
    if whole:
        from solver.exact._search_kernel import solve_state

        value, g = solve_state(S, int(d), P, goa, z1, z2, capacity, n_patterns, 0, int(mode_id),
                               rules, constraint, allowed)
        value, g = int(value), int(g)
        if g >= 0 and value < INF:
            if g in known and known[g][0] != value:
                raise AssertionError(f"guess {g}: the search finds {value} over the state, "
                                     f"{known[g][0]} for the guess alone")
            known[g] = (value, True)
            yield ("q", g, value, True)
    else:
        best = INF
        for i, g in enumerate(order):
            if bounds[i] >= best:
                break
            g = int(g)
            if g in known:  # a forced guess: exact already
                q, exact = known[g]
            else:
                q = q_value(g, best)
                exact = q < best or (q >= INF and best >= INF)
                known[g] = (q, exact)
                yield ("q", g, q, exact)
            if exact and q < best:
                best = q
    yield ("optimum",)
    if top > 1:
        # the best ``top`` by (Q*, position): a guess enters when its (Q*, position) comes
        # before the last one's, i.e. when Q* < beta below (a tie counts for an earlier guess)
        ranked = sorted((q, position[g]) for g, (q, exact) in known.items()
                        if exact and q < INF and g in position)[:top]
        for i, g in enumerate(order):
            beta = INF
            if len(ranked) >= top:
                last_q, last_position = ranked[top - 1]
                beta = last_q + 1 if i < last_position else last_q
            if bounds[i] >= beta:  # bounds rise along the order and beta only falls
                break
            g = int(g)
            if g in known and (known[g][1] or known[g][0] >= beta):
                continue
            q = q_value(g, beta)
            exact = q < beta or (q >= INF and beta >= INF)
            known[g] = (q, exact)
            yield ("q", g, q, exact)
            if exact and q < INF:
                ranked.append((q, i))
                ranked.sort()
                del ranked[top:]
    yield ("done",)


def _candidate_order(S, P, n_patterns: int, allowed=None) -> tuple[np.ndarray, np.ndarray]:
    """(order, bounds): the guesses that split S in the solver's candidate order (bound, Σ|C|²,
    index; docs/algorithms.md §4.2) and their int64 lower bounds on ``Q*``; only the ``allowed``
    guesses (int32 indices; hard mode) when given."""
    from solver.exact._search_kernel import guess_bounds

    bound, order_term = guess_bounds(S, P, n_patterns, 0)
    if allowed is not None:
        keep = np.zeros(bound.shape[0], dtype=bool)
        keep[allowed] = True
        bound[~keep] = INF
    splitting = np.flatnonzero(bound < INF).astype(np.int32)
    order = splitting[np.lexsort((splitting, order_term[splitting], bound[splitting]))]
    return order, bound[order].astype(np.int64)


def _child_main(conn, *args) -> None:
    """Child process: send every message of :func:`_rank_steps` (or ``("error", text)``)."""
    try:
        for message in _rank_steps(*args):
            conn.send(message)
    except BaseException as exc:  # noqa: B036 - the parent must hear of any failure
        try:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        except Exception:
            pass
    finally:
        conn.close()


_WARM: set = set()


def _load_kernels(dtype: np.dtype, n_patterns: int = 243, whole: bool = False) -> None:
    """Load the search's kernels in this process once for tables of ``dtype`` (numba's cache:
    a call on a two-answer problem with the argument types of the real calls), so that a
    forked child starts warm; ``whole`` adds the whole-state search (large states)."""
    from solver.exact._search_kernel import evaluate_guess, new_search, solve_state

    key = (np.dtype(dtype).str, n_patterns, whole)
    if key in _WARM:
        return
    from solver.game._hard_mode_kernel import no_constraint
    from solver.game.hashing import constraint_keys

    S = np.arange(2, dtype=np.int32)
    P = np.ascontiguousarray(np.array([[0, 1], [1, 0]], dtype=dtype))
    goa = np.arange(2, dtype=np.int32)
    z1, z2 = np.array([1, 3], dtype=np.uint64), np.array([5, 7], dtype=np.uint64)
    rules = (np.zeros((2, 5), dtype=np.uint8),) + constraint_keys() + (np.ones(2, dtype=np.int64),)
    constraint, allowed = no_constraint(), np.arange(2, dtype=np.int32)
    _candidate_order(S, P, n_patterns)
    search = new_search(2, P.shape[0], P.shape[1], n_patterns, 1 << 4)
    evaluate_guess(S, np.int64(0), np.int64(2), np.int64(INF), P, goa, z1, z2, search,
                   np.int64(0), np.int64(0), rules, constraint, allowed)
    if whole:
        solve_state(S, 2, P, goa, z1, z2, 1 << 4, n_patterns, 0, 0, rules, constraint, allowed)
    _WARM.add(key)


def _context():
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")  # the child inherits the loaded kernels
    except ValueError:  # no fork on this platform: a fresh interpreter (slower to start)
        return multiprocessing.get_context("spawn")


def _record(ranking: Ranking, message) -> bool:
    """Take one message of the search into ``ranking``; True when the search is over."""
    kind = message[0]
    if kind == "done":
        ranking.proven = ranking.finished = True
        return True
    if kind == "optimum":
        ranking.proven = True
        return False
    if kind == "error":
        raise RuntimeError(f"the exact search failed: {message[1]}")
    _, g, q, exact = message
    old = ranking.q_values.get(int(g))
    if exact or old is None or not old[1]:  # an exact value, or a better bound
        q = int(q) if exact or old is None else max(int(q), old[0])
        ranking.q_values[int(g)] = (q, bool(exact))
    return False


def _collect(ranking: Ranking, conn, child, deadline: float) -> None:
    """Take the child's messages into ``ranking`` until it is done or the deadline passes;
    then kill it (what it sent is kept)."""
    failure = None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not conn.poll(left):
                break
            try:
                message = conn.recv()
            except EOFError:  # the child died without a word
                failure = f"the search process stopped unexpectedly (exit code {child.exitcode})"
                break
            if _record(ranking, message):
                break
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        conn.close()
    if failure is not None:
        raise RuntimeError(f"the exact search failed: {failure}")


def rank_guesses(word_list: WordList, state, guesses_left: int, *, top: int = 1, forced=(),
                 budget: float = DEFAULT_BUDGET, table: np.ndarray | None = None,
                 in_process: bool | None = None, mode: str = "normal", history=()) -> Ranking:
    """The exact ``Q*`` of the best ``top`` guesses of a state (and of the ``forced`` ones),
    searched for at most ``budget`` seconds: the optimum first, the other ``top − 1`` with
    the time left.

    Args:
        word_list: the lists.
        state: the answers still possible, answer indices (any order, at least one).
        guesses_left: ``d`` ≥ 1.
        top: how many of the best guesses to find exactly (≥ 1).
        forced: guess indices whose exact ``Q*`` is wanted whatever their rank (evaluated
            first), e.g. the move a player made.
        budget: wall seconds from this call until the search is stopped (loading the kernels
            included); what it finished is kept. In this process the deadline is checked
            between guesses, so one guess's search (milliseconds on a small state) may run
            past it.
        table: the feedback table (loaded from the cache if omitted).
        in_process: search in this process (True) or in a child (False); by default in this
            process when the state has at most :data:`IN_PROCESS_MAX` answers.
        mode: ``"normal"`` or ``"hard"``; in hard mode only the guesses ``history`` ((guess
            word, feedback code) pairs that led to the state) allows are ranked (§10).

    Returns:
        :class:`Ranking`. Raises InputError for an empty state or ``guesses_left < 1``, and
        RuntimeError if the search failed (not a timeout).
    """
    from solver.game.feedback import feedback_table
    from solver.game.spec import n_patterns as count_patterns

    started = time.perf_counter()
    deadline = time.monotonic() + budget
    state = np.unique(np.asarray(state, dtype=np.int32))
    if state.size == 0:
        raise InputError("the state is empty: no answer is possible")
    if guesses_left < 1:
        raise InputError(f"guesses_left must be at least 1, got {guesses_left}")
    table = feedback_table(word_list) if table is None else table
    patterns = count_patterns(word_list.word_length)
    S, P, goa, z1, z2 = _local_problem(word_list, state, table)
    from solver.exact.bellman import allowed_after, search_rules
    from solver.game.spec import GameSpec

    spec = GameSpec(word_length=word_list.word_length, mode=mode)
    constraint, allowed = allowed_after(word_list, spec, list(history))
    problem = (S, int(guesses_left), P, goa, z1, z2, search_rules(word_list), constraint, allowed)
    n = len(state)
    in_process = n <= IN_PROCESS_MAX if in_process is None else bool(in_process)
    order, bounds = _candidate_order(S, P, patterns, allowed if mode == "hard" else None)
    if mode == "hard":
        forced = [f for f in forced if int(f) in set(allowed.tolist())]
    ranking = Ranking(n, int(guesses_left), order, bounds, in_process=in_process)
    if n == 1:  # the answer itself; any other guess costs one more
        g = int(goa[0])
        ranking.q_values = {g: (1, True), **{int(f): (1 if int(f) == g else 2, True) for f in forced}}
        ranking.top, ranking.proven, ranking.finished = [(g, 1)], True, True
        ranking.seconds = time.perf_counter() - started
        return ranking
    # a large state: the optimum by one search over the state, in a child stopped at the deadline
    whole = not in_process and n > IN_PROCESS_MAX
    capacity = 1 << 21 if n > 64 else 1 << 16
    args = (problem, order, bounds, [int(f) for f in forced], max(int(top), 1), capacity,
            patterns, spec.mode_id, whole)
    if in_process:
        for message in _rank_steps(*args):
            if _record(ranking, message) or time.monotonic() >= deadline:
                break
    else:
        _load_kernels(P.dtype, patterns, whole)
        context = _context()
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(target=_child_main, daemon=True, args=(sender, *args))
        child.start()
        sender.close()
        _collect(ranking, receiver, child, deadline)
    position = _positions(order)
    found = sorted((q, position[g], g) for g, (q, exact) in ranking.q_values.items()
                   if exact and q < INF and g in position)
    ranking.top = [(g, q) for q, _, g in found[:max(int(top), 1)]]
    ranking.seconds = time.perf_counter() - started
    return ranking


# -- advice ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Alternative:
    """One guess at the state with its value.

    Attributes:
        guess: the word.
        q_value: ``Q*(S, d, guess)``, total guesses over the state's answers (an int): exact
            when ``exact``, else a proven lower bound.
        exact: whether ``q_value`` is exact.
        could_be_answer: the guess is one of the answers still possible.
        n_answers: ``|S|``.
    """

    guess: str
    q_value: int
    exact: bool
    could_be_answer: bool
    n_answers: int

    @property
    def expected(self) -> float:
        """Expected guesses for one game from here when this guess is played (``q_value / |S|``)."""
        return self.q_value / self.n_answers

    def to_json(self) -> dict:
        return {"guess": self.guess, "q_total": self.q_value, "expected": self.expected,
                "exact": self.exact, "could_be_answer": self.could_be_answer}


@dataclass
class Advice:
    """The outcome of :func:`advise`.

    Attributes:
        word_list: the lists' name.
        history: the history as ``(guess, feedback code)`` pairs.
        answers: the answers still possible, in list order.
        guesses_left: guesses still allowed.
        status: ``"exact"`` (``next_guess`` is optimal, ``value`` is ``V*``),
            ``"best found, not proven"`` (the budget ran out: ``next_guess`` is the best guess
            found, ``value`` its exact ``Q*`` or None, ``lower_bound`` a proven bound on ``V*``)
            or ``"solved"`` (the history ends in all green; no next guess).
        source: where ``next_guess`` came from: ``"tree"``, ``"solver"``, ``"heuristic"``
            (the first guess in the solver's candidate order, when no exact value was
            found in time) or ``None`` when solved.
        next_guess: the word to play, or None when solved.
        value: total guesses over the answers (int) as described under ``status``, or None.
        lower_bound: a proven lower bound on ``V*`` total (equal to ``value`` when exact).
        alternatives: up to ``top`` guesses with their values, best first: the exact best ones
            when ``alternatives_complete``, else those the search finished in time.
        alternatives_complete: whether ``alternatives`` are proven to be the best ``top``.
        left_tree: when a tree was given and the history left it, a sentence saying where;
            else None.
        seconds: wall seconds.
    """

    word_list: str
    history: list
    answers: tuple
    guesses_left: int
    status: str
    source: str | None
    next_guess: str | None
    value: int | None
    lower_bound: int | None
    alternatives: list = field(default_factory=list)
    alternatives_complete: bool = True
    left_tree: str | None = None
    seconds: float = 0.0

    @property
    def n_answers(self) -> int:
        return len(self.answers)

    @property
    def expected(self) -> float | None:
        """``value / |S|``: expected further guesses for one game (the next one included)."""
        return None if self.value is None else self.value / self.n_answers

    def to_json(self) -> dict:
        """A JSON-ready dict (what ``tools.assist --json`` prints and the web page receives)."""
        n = self.n_answers
        return {
            "word_list": self.word_list, "history": format_steps(self.history),
            "answers_remaining": n, "answers": list(self.answers),
            "guesses_left": self.guesses_left, "status": self.status, "source": self.source,
            "next_guess": self.next_guess, "value_total": self.value,
            "expected_guesses": self.expected,
            "lower_bound_total": self.lower_bound,
            "lower_bound_expected": None if self.lower_bound is None else self.lower_bound / n,
            "alternatives": [a.to_json() for a in self.alternatives],
            "alternatives_complete": self.alternatives_complete,
            "left_tree": self.left_tree, "seconds": round(self.seconds, 4),
        }


#: Where the shipped decision trees are: ``artifacts/`` of the project.
ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "artifacts"


def default_tree(word_list: WordList, opener: str = "salet", mode: str = "normal"):
    """The optimal SALET tree of these lists (``artifacts/<lists>-<mode>-salet.msgpack``,
    :func:`solver.exact.bellman.artifact_path`) as a :class:`policy_tree.PolicyTree`, or None
    when there is no such file. A file that exists but cannot be read raises ArtifactError."""
    import policy_tree
    from solver.exact.bellman import artifact_path

    path = artifact_path(word_list, opener, directory=ARTIFACTS_DIR, mode=mode)
    return policy_tree.load(path) if path.exists() else None


def tree_for(word_list: WordList, tree, mode: str = "normal") -> object | None:
    """``tree`` (a :class:`policy_tree.PolicyTree`) if it is an optimal total-guesses tree of
    the game in ``mode`` on exactly these lists, else None."""
    if tree is None:
        return None
    same = tree.word_list.identity == word_list.identity
    return tree if same and tree.objective == "total" and tree.mode == mode else None


def tree_value(tree, node: int, answers) -> int:
    """Total guesses the tree needs from ``node`` over ``answers`` (words): a replay with
    :meth:`policy_tree.tree.DecisionTree.guesses_per_answer`. Raises InputError if the tree
    does not solve one of them."""
    guesses = tree.word_list.guesses
    used = tree.tree.guesses_per_answer(lambda g, answer: feedback_code(guesses[g], answer),
                                        list(answers), start=node)
    if (used == 0).any():
        answer = list(answers)[int(np.argmax(used == 0))]
        raise InputError(f"the decision tree does not solve {answer!r} (run "
                         "`python -m tools.tree verify`)")
    return int(used.sum())


def _left_tree_sentence(position) -> str:
    k = position.left_tree_at
    played = position.steps[k][0]
    return (f"the history leaves the decision tree at guess {k + 1}: the tree plays "
            f"{position.tree_guess!r}, not {played!r}")


def advise(word_list: WordList, history=(), *, top: int = TOP, budget: float = DEFAULT_BUDGET,
           tree=None, table: np.ndarray | None = None, mode: str = "normal",
           guess_limit: int = GUESS_LIMIT) -> Advice:
    """The optimal next guess after ``history``, its value, and the ``top`` best guesses.

    Args:
        word_list: the lists.
        history: see :func:`normalise_history`; any guesses, on or off any tree.
        top: alternatives to list with exact ``Q*`` (0: none; then a history on the tree is
            answered from the tree alone, without loading the solver).
        budget: wall seconds from this call to the answer (> 0), the search's share being
            what is left after reading the history; past it the search stops: an optimum not
            proven by then gives ``"best found, not proven"``, alternatives not ranked by then
            give ``alternatives_complete`` False.
        tree: an optimal :class:`policy_tree.PolicyTree` for these lists (or None); while the
            history follows it past the opener, its guess is the answer, exactly.
        table: the feedback table (loaded from the cache when needed and omitted).
        mode: ``"normal"`` or ``"hard"`` (every guess of the history must then use the hints
            before it; only allowed guesses are advised, docs/algorithms.md §10).
        guess_limit: guesses allowed in a game.

    Returns:
        :class:`Advice`.

    Raises:
        InputError (subclasses) naming the guess at fault: malformed history, unknown word,
        a history no answer fits (FeedbackError), too many guesses; a bad mode or budget;
        a hard-mode history that ignores a hint (HardModeError);
        UnwinnableError when the answers left cannot all be won in the guesses left.
    """
    from solver.exact.bellman import UnwinnableError

    started = time.perf_counter()
    check_options(mode, budget)
    if top < 0:
        raise InputError(f"top must be at least 0, got {top}")
    steps = normalise_history(word_list, history, guess_limit)
    if mode == "hard":
        from solver.game.hard_mode import check_hard_mode_history

        check_hard_mode_history(steps)
    tree = tree_for(word_list, tree, mode)
    position = tree.position(steps) if tree is not None else None
    if position is not None:
        answers = position.answers
    else:
        from solver.exact.bellman import remaining_answers

        table = _table(word_list, table)
        answers = tuple(word_list.answers[int(a)] for a in remaining_answers(word_list, steps, table))
    guesses_left = guess_limit - len(steps)
    name = word_list.name
    if steps and steps[-1][1] == all_green(word_list.word_length):
        return Advice(name, steps, answers, guesses_left, SOLVED, None, None, 0, 0,
                      seconds=time.perf_counter() - started)
    if guesses_left < 1:
        raise UnwinnableError(f"no guesses are left after {len(steps)} guesses; "
                              f"{len(answers)} answers remain")
    left_tree = None
    tree_guess, value_from_tree = None, None
    if position is not None and position.node is not None:
        tree_guess = tree.guess_at(position.node)
        value_from_tree = tree.total if not steps else tree_value(tree, position.node, answers)
    elif position is not None and position.left_tree_at is not None:
        left_tree = _left_tree_sentence(position)
    # Past the opener, a tree node is an exactly solved state: no search is needed for the guess;
    # so is the opener itself when the tree records the proof over every allowed guess.
    tree_exact = tree_guess is not None and (bool(steps) or opener_proven(tree, word_list))
    if tree_exact and top == 0:
        return Advice(name, steps, answers, guesses_left, EXACT, "tree", tree_guess,
                      value_from_tree, value_from_tree, seconds=time.perf_counter() - started)
    table = _table(word_list, table)
    state = np.array([word_list.answer_index(a) for a in answers], dtype=np.int32)
    if tree_guess is not None and top == 0:  # the opener: the tree's, and the cheap bound
        return Advice(name, steps, answers, guesses_left, NOT_PROVEN, "tree", tree_guess,
                      value_from_tree, min(value_from_tree, cheap_lower_bound(word_list, state, table)),
                      alternatives_complete=False, seconds=time.perf_counter() - started)
    forced = [word_list.guess_index(tree_guess)] if tree_guess is not None else []
    ranking = rank_guesses(word_list, state, guesses_left, top=max(top, 1), forced=forced,
                           budget=max(budget - (time.perf_counter() - started), 0.0), table=table,
                           mode=mode, history=steps)
    if ranking.proven and ranking.value is None:
        raise UnwinnableError(f"the {len(answers)} answers left cannot all be won within "
                              f"{guesses_left} more guesses")
    answer_set = set(answers)
    alternatives = [Alternative(word_list.guesses[g], q, True, word_list.guesses[g] in answer_set,
                                len(answers)) for g, q in ranking.top[:top]]
    lower = ranking.lower_bound
    if tree_exact:
        q = ranking.exact_q(forced[0])
        if q is not None and q != value_from_tree:
            raise AssertionError(f"the tree's guess {tree_guess} totals {value_from_tree} from this "
                                 f"state but the search finds {q}")
        status, source, guess, value, lower = EXACT, "tree", tree_guess, value_from_tree, value_from_tree
    elif ranking.proven:
        guess = word_list.guesses[ranking.top[0][0]]
        status, source, value = EXACT, "solver", ranking.value
    else:
        candidates = [(q, word_list.guesses[g]) for g, q in ranking.top]
        if tree_guess is not None:  # the opener: the tree's total is its exact Q*
            candidates.append((value_from_tree, tree_guess))
        status = NOT_PROVEN
        if candidates:
            value, guess = min(candidates)
            source = "tree" if guess == tree_guess and value == value_from_tree else "solver"
        else:
            guess, value, source = word_list.guesses[int(ranking.order[0])], None, "heuristic"
        lower = min(lower, value) if value is not None else lower
        if value is not None and lower == value:  # the bound meets the value found: optimal
            status = EXACT
    return Advice(name, steps, answers, guesses_left, status, source, guess, value, lower,
                  alternatives, ranking.finished, left_tree, time.perf_counter() - started)


def opener_proven(tree, word_list: WordList) -> bool:
    """Whether ``tree`` records a proof (:func:`solver.exact.prove.save_proven_tree`) that its
    opener is optimal over every allowed guess of ``word_list``: then the empty history's
    answer, the tree's opener, is exact."""
    proof = getattr(tree, "opener_proof", None)
    return (proof is not None and proof["guesses_sha256"] == word_list.guesses_sha256
            and proof["openers"] == word_list.n_guesses)


def cheap_lower_bound(word_list: WordList, state: np.ndarray, table: np.ndarray) -> int:
    """The least bound ``3n − k − [g ∈ S]`` over the guesses (docs/algorithms.md §3.2), a
    proven lower bound on ``V*`` total of the state found without search."""
    from solver.exact._search_kernel import guess_bounds
    from solver.game.spec import n_patterns

    S, P, _, _, _ = _local_problem(word_list, np.asarray(state, dtype=np.int32), table)
    bound, _ = guess_bounds(S, P, n_patterns(word_list.word_length), 0)
    return int(bound.min())


def _table(word_list: WordList, table):
    from solver.game.feedback import feedback_table

    return feedback_table(word_list) if table is None else table
