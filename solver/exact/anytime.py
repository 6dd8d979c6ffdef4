"""The anytime exact search of one state: the optimum first, then the best alternatives,
stopped at a deadline with every finished value kept.

The state ``S`` (answers still possible) with ``d`` guesses left is searched by the solver's own
kernels (:mod:`solver.exact._search_kernel`: the same bounds, memo, cut-offs and candidate
order as :func:`solver.exact.bellman.solve`, docs/algorithms.md §3–§6) under the game's
objective, mode, feedback rule and priors. What it finds:

- ``V*(S, d)``, the optimal value, and the first optimal guess in the candidate order (§4.2);
- ``Q*(S, d, g)`` of the ``top`` best guesses and of any ``forced`` guess (the move a player made).

A large state is searched in a child process (:func:`solver.exact.executor.stream`) that
streams the exact ``Q*`` of each guess it finishes and is stopped at the deadline; a small
one (at most :data:`IN_PROCESS_MAX` answers: milliseconds) in this process, one guess at a
time, the deadline checked between guesses.
When the deadline comes first every finished value is kept, with a proven lower bound on
``V*`` (the least of the finished guesses' values and the unfinished guesses' bounds, §3.2).
Values already known exactly (a decision tree's, :mod:`solver.exact.service`) are passed in
and never searched again.

This module is used through :class:`solver.exact.service.SearchService`; nothing above the
exact layer calls the search kernels.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from solver.game.errors import InputError, WorkerLost
from solver.game.spec import Game
from solver.game.values import INF
from solver.game.wordlists import WordList

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
        settled: the first ``settled`` guesses of ``order`` are each worth at least
            ``settled_value`` (shares stopped at the deadline finished them, §4.5; 0 when none
            did), which :attr:`lower_bound` counts.
        settled_value: see ``settled`` (``INF``: none of them wins every answer in time).
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
    settled: int = 0
    settled_value: int = INF

    @property
    def value(self) -> int | None:
        """``V*`` total when ``proven`` (None if nothing wins every answer in time), else the
        best exact ``Q*`` found (an upper bound on ``V*``) or None."""
        return self.top[0][1] if self.top else None

    @property
    def lower_bound(self) -> int:
        """A proven lower bound on ``V*`` total: the exact value when proven, else the least of
        the finished guesses' values and the unfinished guesses' bounds (``INF`` if none wins),
        the first ``settled`` guesses counted at ``settled_value`` at least."""
        if self.proven:
            return self.value if self.value is not None else INF
        low = self.bounds.copy()
        low[:self.settled] = np.maximum(low[:self.settled], self.settled_value)
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


def local_problem(word_list: WordList, state: np.ndarray, table):
    """The state's columns of the table (the whole table, or its
    :class:`~solver.game.feedback.TableParts`), answers renumbered 0..n−1 (the solver's own
    localisation, so the tie-break is unchanged): (S, P, guess_of_answer, zobrist1, zobrist2)."""
    from solver.exact.bellman import _localise
    from solver.game.hashing import zobrist_keys

    return _localise(table, state, word_list.answer_guess_index, zobrist_keys(word_list.n_answers))


#: States of at most this many answers are searched in this process, one guess at a time with
#: the deadline checked between guesses (no child process to fork): one guess's exact Q* takes
#: milliseconds there. Larger states run in a child process that is stopped at the deadline.
IN_PROCESS_MAX = 100


def _rank_steps(problem, order, bounds, forced, top, capacity, n_patterns, mode_id, whole=False,
                objective=0, known_values=None, shares=1, root=None):
    """The search, as a generator of messages ``("q", guess, value, exact)`` (one per guess
    evaluated), ``("optimum",)`` once the optimum is proven, then ``("done",)``.

    First the ``forced`` guesses, exactly. Then the optimum: the first optimal guess in the
    candidate order (the solver's own rule, §4.2) and ``V*`` (skipped when ``known_values``,
    guess → exact ``Q*``, holds ``V*`` as an ``"optimum"`` entry), found either (``whole``) by one
    search of the state (:func:`solver.exact._search_kernel.search_state`, or with ``shares`` > 1
    :func:`solver.exact.bellman.subtree` by that many forked processes together in the
    shares' memory ``root``, §4.5; neither can be stopped midway, so only in a child process)
    or guess by guess, each
    candidate in order against the best value so far (its deadline checked between guesses;
    each guess's search scans every guess at the root, so this is for small states). Only
    then, when ``top`` > 1, the candidates in order against the ``top``-th best value, skipping
    those already exact or whose proven bound already reaches it."""
    from solver.exact.bellman import shared_memo
    from solver.exact.search import evaluate_guess, new_search, prepare_search

    S, d, P, goa, z1, z2, rules, constraint, allowed = problem
    position = _positions(order)
    known_values = dict(known_values or {})
    optimum = known_values.pop("optimum", None)
    known: dict[int, tuple[int, bool]] = {int(g): (int(q), True) for g, q in known_values.items()}
    readied: list = []

    def search():
        # readied as a whole search readies it (the letter family, the column counts), on first
        # use (shares readied their own): every guess's search below is of S or a subset of it;
        # with the shares' memory ``root``, on their memo, which holds what they found below S
        # (exact values and proven bounds, whoever stored them: §4.4, §4.5)
        if not readied:
            fresh = new_search(d, P.shape[0], P.shape[1], n_patterns,
                               capacity if root is None else 1)
            if root is not None:
                fresh = type(fresh)(shared_memo(root), *fresh[1:])
            readied.append(prepare_search(S, P, goa, fresh, np.int64(objective), rules))
        return readied[0]

    def q_value(g: int, beta: int) -> int:
        return int(evaluate_guess(S, np.int64(g), np.int64(d), np.int64(beta), P, goa, z1, z2,
                                  search(), np.int64(objective), np.int64(mode_id), rules,
                                  constraint, allowed))

    for g in forced:
        g = int(g)
        if g in known:
            continue
        q = q_value(g, INF)
        known[g] = (q, True)
        yield ("q", g, q, True)
    if optimum is not None:  # V* is known already (a decision tree's)
        pass
    elif whole:
        value, g = _whole_optimum(problem, capacity, n_patterns, objective, mode_id, shares,
                                  root, search)
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


def _whole_optimum(problem, capacity, n_patterns, objective, mode_id, shares, root, search
                   ) -> tuple[int, int]:
    """``(V*, first optimal guess)`` of the problem's state (guess -1 when nothing wins every
    answer in time) by one search of it: by ``shares`` forked processes together when more
    than one (:func:`solver.exact.bellman.subtree` in the shares' memory ``root``, §4.5: the
    root of the optimal subtree it builds), else on ``search()``, the search this process
    keeps, whose memo then serves the alternatives' values."""
    S, d, P, goa, z1, z2, rules, constraint, allowed = problem
    if shares > 1:
        from solver.exact.bellman import subtree

        value, node_guess = subtree((S, P, goa, z1, z2), int(d), capacity, n_patterns,
                                    objective, mode_id, rules, constraint, allowed,
                                    jobs=shares, root=root)[:2]
        return int(value), int(node_guess[0]) if value < INF else -1
    from solver.exact.search import search_state

    value, g = search_state(S, int(d), P, goa, z1, z2, search(), np.int64(objective),
                            np.int64(mode_id), rules, constraint, allowed)
    return int(value), int(g)


def _candidate_order(S, P, n_patterns: int, allowed=None, objective: int = 0, weights=None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """(order, bounds): the guesses that split S in the solver's candidate order (bound, Σ|C|²,
    index; docs/algorithms.md §4.2) and their int64 lower bounds on ``Q*``; only the ``allowed``
    guesses (int32 indices; hard or ultra-hard mode) when given. Under priors, ``weights`` (the
    answers' int64 weights, indexed as S): the weighted bounds of §10.3, which the search
    orders by."""
    bound, order_term = _guess_bounds(S, P, n_patterns, objective, weights)
    if allowed is not None:
        keep = np.zeros(bound.shape[0], dtype=bool)
        keep[allowed] = True
        bound[~keep] = INF
    splitting = np.flatnonzero(bound < INF).astype(np.int32)
    order = splitting[np.lexsort((splitting, order_term[splitting], bound[splitting]))]
    return order, bound[order].astype(np.int64)


def _guess_bounds(S, P, n_patterns: int, objective: int, weights=None):
    """(bound, order term) of every guess on S: the weighted bounds under priors (``weights``
    given, §10.3), else those of §3.2 and §3.6."""
    from solver.exact.search import guess_bounds, weighted_guess_bounds

    if weights is not None:
        return weighted_guess_bounds(S, P, n_patterns, np.asarray(weights, dtype=np.int64))
    return guess_bounds(S, P, n_patterns, objective)


_WARM: set = set()
#: Seconds a fresh process takes to load the search kernels (numba's cache), about (more
#: under load): a search with less time left than this before its deadline is not started.
KERNEL_LOAD_SECONDS = 0.8
#: Past the deadline less this many seconds, no more work is started (an answer is due).
MIN_WORK_SECONDS = 0.05


def _load_kernels(dtype: np.dtype, n_patterns: int = 243, whole: bool = False) -> None:
    """Load the search's kernels in this process once for tables of ``dtype`` (numba's cache:
    a call on a two-answer problem with the argument types of the real calls), so that a
    forked child starts warm; ``whole`` adds the whole-state search (large states)."""
    from solver.exact.search import evaluate_guess, new_search, prepare_search, search_state

    key = (np.dtype(dtype).str, n_patterns, whole)
    if key in _WARM:
        return
    from solver.game._hard_mode_kernel import PACKED_WORDS, no_constraint
    from solver.exact.inputs import SearchRules
    from solver.game.hashing import constraint_keys

    S = np.arange(2, dtype=np.int32)
    P = np.ascontiguousarray(np.array([[0, 1], [1, 0]], dtype=dtype))
    goa = np.arange(2, dtype=np.int32)
    z1, z2 = np.array([1, 3], dtype=np.uint64), np.array([5, 7], dtype=np.uint64)
    rules = SearchRules(np.zeros((2, 5), dtype=np.uint8), *constraint_keys(), np.ones(2, dtype=np.int64),
                        np.zeros((2, PACKED_WORDS), dtype=np.uint64))
    constraint, allowed = no_constraint(), np.arange(2, dtype=np.int32)
    _candidate_order(S, P, n_patterns)
    search = prepare_search(S, P, goa, new_search(2, P.shape[0], P.shape[1], n_patterns, 1 << 4),
                            np.int64(0), rules)
    evaluate_guess(S, np.int64(0), np.int64(2), np.int64(INF), P, goa, z1, z2, search,
                   np.int64(0), np.int64(0), rules, constraint, allowed)
    if whole:
        search_state(S, 2, P, goa, z1, z2, search, np.int64(0), np.int64(0), rules, constraint,
                     allowed)
    _WARM.add(key)


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


def rank_guesses(game: Game, state, guesses_left: int, *, top: int = 1, forced=(),
                 known=None, budget: float | None = None, table=None,
                 in_process: bool | None = None, history=(), meanwhile=None,
                 jobs: int = 1) -> Ranking:
    """The exact ``Q*`` of the best ``top`` guesses of a state (and of the ``forced`` ones),
    searched for at most ``budget`` seconds: the optimum first, the other ``top − 1`` with
    the time left.

    Args:
        game: the :class:`~solver.game.spec.Game` (lists, objective, mode, feedback rule,
            priors: the weighted total, §10.3). In hard mode only the guesses ``history``
            ((guess word, feedback code) pairs that led to the state) allows are ranked (§10).
        state: the answers still possible, answer indices (any order, at least one).
        guesses_left: ``d`` ≥ 1.
        top: how many of the best guesses to find exactly (≥ 1).
        forced: guess indices whose exact ``Q*`` is wanted whatever their rank (evaluated
            first), e.g. the move a player made.
        known: exact values already known, never searched again: ``{guess index: Q*}``, and
            ``"optimum": V*`` when the optimum is known (its guess among the entries).
        budget: wall seconds from this call until the search is stopped (loading the kernels
            included), or None for no limit; what it finished is kept; 0 (or less): no search,
            only the candidate order and its bounds. In this process the
            deadline is checked between guesses, so one guess's search (milliseconds on a
            small state) may run past it.
        table: the feedback table of the game's rule, whole or its
            :class:`~solver.game.feedback.TableParts` (omitted: the state's columns, read
            from the cached table or computed).
        in_process: search in this process (True) or in a child (False); by default in this
            process when the state has at most :data:`IN_PROCESS_MAX` answers.
        meanwhile: a callable run in this process while the child searches (once the child
            has started; before the search when it runs in this process), e.g. a fast policy's
            upper bound, so that both cores work within the budget; not run when the child's
            shares search (they use the cores), whose best finished guess is then kept at the
            deadline instead.
        jobs: processes that may search the state's optimum together (as
            :func:`~solver.game.checks.worker_count` reads it: -1 all cores): used for a state
            of at least :data:`solver.exact.bellman.STATE_SHARE_MIN` answers searched in a child,
            which then forks that many shares (docs/algorithms.md §4.5).

    Returns:
        :class:`Ranking` (values in the objective's units: total guesses, the worst case, or
        the weighted total). Raises InputError for an empty state or ``guesses_left < 1``,
        :class:`~solver.game.errors.WorkerLost` when the search's child process or one of its
        shares died (killed from outside; seen at once, within the budget), and RuntimeError
        if the search failed otherwise (not a timeout).
    """
    started = time.perf_counter()
    deadline = time.monotonic() + (budget if budget is not None else float("inf"))
    word_list = game.word_list
    state = np.unique(np.asarray(state, dtype=np.int32))
    if state.size == 0:
        raise InputError("the state is empty: no answer is possible")
    if guesses_left < 1:
        raise InputError(f"guesses_left must be at least 1, got {guesses_left}")

    def no_time(before: float = 0.0) -> bool:  # checked before each long step (the imports of
        # the search, reading the state's columns, loading the kernels): none starts past it;
        # a budget of 0 asks for the order and its bounds, which need the columns
        return (budget is not None and budget > 0
                and deadline - time.monotonic() < MIN_WORK_SECONDS + before)

    if state.size > 1 and no_time():
        return _unsearched(game, state, guesses_left, started)
    from solver.exact.bellman import (_memo_capacity, allowed_after, local_rules,
                                      new_shared_root, objective_id, release_shared_root,
                                      search_rules, share_workers, shared_best)
    from solver.game.feedback import TableParts

    table = TableParts.of(word_list, game.feedback, table)
    if state.size > 1 and no_time():
        return _unsearched(game, state, guesses_left, started)
    patterns = game.n_patterns
    objective = objective_id(game)
    S, P, goa, z1, z2 = local_problem(word_list, state, table)
    if state.size > 1 and no_time():
        return _unsearched(game, state, guesses_left, started)
    constraint, allowed = allowed_after(game, list(history))
    rules = local_rules(search_rules(game), state)
    problem = (S, int(guesses_left), P, goa, z1, z2, rules, constraint, allowed)
    n = len(state)
    in_process = n <= IN_PROCESS_MAX if in_process is None else bool(in_process)
    hard = game.restricted  # hard or ultra-hard mode: only the allowed guesses
    order, bounds = _candidate_order(S, P, patterns, allowed if hard else None, objective,
                                     rules.weights if game.priors is not None else None)
    if hard:
        allowed_set = set(allowed.tolist())
        forced = [f for f in forced if int(f) in allowed_set]
    known = dict(known or {})
    ranking = Ranking(n, int(guesses_left), order, bounds, in_process=in_process)
    ranking.q_values = {int(g): (int(q), True) for g, q in known.items() if g != "optimum"}
    if n == 1:  # the answer itself; any other guess costs one more
        g = int(goa[0])
        one = int(rules.weights[0]) if game.priors is not None else 1
        ranking.q_values = {g: (one, True), **{int(f): (one if int(f) == g else 2 * one, True)
                                                for f in forced}}
        ranking.top, ranking.proven, ranking.finished = [(g, one)], True, True
        ranking.seconds = time.perf_counter() - started
        return ranking
    # a large state: the optimum by one search over the state, in a child stopped at the deadline
    whole = not in_process and n > IN_PROCESS_MAX
    cold = (np.dtype(P.dtype).str, patterns, whole) not in _WARM
    if budget is not None and (budget <= 0 or no_time(KERNEL_LOAD_SECONDS if cold and not in_process else 0.0)):
        # no time (left to load the kernels, or to search): the order and its bounds only
        ranking.top = sorted(((g, q) for g, (q, _) in ranking.q_values.items()), key=lambda x: x[1])
        ranking.seconds = time.perf_counter() - started
        return ranking
    # a state of STATE_SHARE_MIN answers or more: its optimum by ``jobs`` processes together (§4.5)
    shares = share_workers(n, jobs) if whole else 1
    capacity = _memo_capacity(n)
    # the shares' memory, made here so that this process reads what they settled
    # (shared_best) by its position in ``order``, the kernel's candidate order
    root = new_shared_root(shares, capacity, P.shape[0], rules.letters.shape[1]) if shares > 1 else None
    args = (problem, order, bounds, [int(f) for f in forced], max(int(top), 1), capacity,
            patterns, game.mode_id, whole, objective, known, shares, root)
    if in_process:
        if meanwhile is not None:
            meanwhile()
        for message in _rank_steps(*args):
            _WARM.add((np.dtype(P.dtype).str, patterns, whole))  # its kernels are loaded now
            if _record(ranking, message) or time.monotonic() >= deadline:
                break
    else:
        from solver.exact.executor import Stream

        if shares == 1:  # (the shares load their own kernels, each on its core)
            _load_kernels(P.dtype, patterns, whole)
        try:
            with Stream(_rank_steps, args, deadline) as messages:  # the child is killed on leaving
                # (not while shares search: they take every core this run may use)
                if meanwhile is not None and root is None:
                    meanwhile()
                try:
                    for message in messages:
                        if _record(ranking, message):
                            break
                except WorkerLost:  # the child or a share died: said as such, not as a failure
                    raise
                except RuntimeError as error:
                    raise RuntimeError(f"the exact search failed: {error}") from None
            if root is not None and not ranking.proven:  # what the shares settled in time
                settled = shared_best(root)
                ranking.settled = min(settled.unsettled, order.size)
                if settled.value is not None:
                    ranking.settled_value = settled.value
                    _record(ranking, ("q", int(order[settled.position]), settled.value, True))
        finally:
            if root is not None:
                release_shared_root(root)
    position = _positions(order)
    found = sorted((q, position[g], g) for g, (q, exact) in ranking.q_values.items()
                   if exact and q < INF and g in position)
    ranking.top = [(g, q) for q, _, g in found[:max(int(top), 1)]]
    ranking.seconds = time.perf_counter() - started
    return ranking




def _unsearched(game: Game, state: np.ndarray, guesses_left: int, started: float) -> Ranking:
    """The :class:`Ranking` of a state of two answers or more that there was no time to
    search, nor to read its columns: its answers as the candidates (each one splits the state,
    and is allowed in every mode), each bounded by what any guess needs at least — every
    answer but one takes two guesses or more (the total ``2n − 1``; under priors ``2W − w_max``;
    the worst case 2)."""
    from solver.game.spec import Objective

    order = np.sort(game.word_list.answer_guess_index[state]).astype(np.int32)
    if game.objective.primary is Objective.WORST:
        bound = 2
    elif game.priors is not None:
        weights = np.asarray(game.priors.weights, dtype=np.int64)[state]
        bound = 2 * int(weights.sum()) - int(weights.max())
    else:
        bound = 2 * len(state) - 1
    ranking = Ranking(len(state), int(guesses_left), order, np.full(order.size, bound, dtype=np.int64))
    ranking.seconds = time.perf_counter() - started
    return ranking


def cheap_lower_bound(game: Game, state: np.ndarray, table) -> int:
    """The least per-guess bound (``3n − k − [g ∈ S]`` for the total, docs/algorithms.md
    §3.2; under priors the weighted one, §10.3) over the guesses: a proven lower bound on
    ``V*`` of the state found without search. ``table``: the whole feedback table, or its
    :class:`~solver.game.feedback.TableParts` (the state's columns are read)."""
    state = np.unique(np.asarray(state, dtype=np.int32))
    S, P, _, _, _ = local_problem(game.word_list, state, table)
    bound, _ = _guess_bounds(S, P, game.n_patterns, game.objective_id, _state_weights(game, state))
    return int(bound.min())


def _state_weights(game: Game, state: np.ndarray):
    """Under priors the weights (int64) of the answers of ``state`` (sorted answer indices), by
    local answer index as :func:`local_problem` numbers them; None without priors."""
    if game.priors is None:
        return None
    from solver.exact.bellman import local_rules, search_rules

    return np.asarray(local_rules(search_rules(game), state).weights, dtype=np.int64)


def _first_candidate(members, P, guesses, n_patterns: int, objective: int,
                     allowed=None, weights=None) -> tuple[int, np.ndarray]:
    """(first guess of the candidate order of §4.2 on ``members``, the guesses of ``guesses``
    that split ``members``), scanning only ``guesses`` (int32, ascending): the order's key is
    (bound, Σ|C|², index), so scanning fewer guesses that hold every splitting one gives the
    same first guess; -1 when none splits. Under priors, ``weights`` (int64, by local answer
    index): the weighted bound of §10.3, which the search orders by."""
    from solver.exact.search import guess_bounds_of, weighted_guess_bounds_of

    if allowed is not None:
        guesses = np.intersect1d(guesses, allowed).astype(np.int32)
    if weights is not None:
        bound, order_term = weighted_guess_bounds_of(members, P, guesses, n_patterns, weights)
    else:
        bound, order_term = guess_bounds_of(members, P, guesses, n_patterns, objective)
    splitting = np.flatnonzero(bound < INF)
    if splitting.size == 0:
        return -1, guesses[:0]
    best = splitting[np.lexsort((guesses[splitting], order_term[splitting], bound[splitting]))[0]]
    return int(guesses[best]), guesses[splitting]


def greedy_guesses(game: Game, state, guesses_left: int, *, table,
                   history=(), deadline: float | None = None) -> tuple[int, np.ndarray] | None:
    """A fast policy's play of a state: at every node the first guess of the candidate order
    (the per-guess bound, then Σ|C|², then index; docs/algorithms.md §4.2; under priors the
    weighted bound of §10.3, as the search orders), recursively.

    Its value is an upper bound on ``V*`` — what the anytime answer starts from before the
    search tightens it. A node scans only the guesses that split its parent (a guess that
    gives a set one feedback gives its subsets one too, §6), so the policy is the same at a
    fraction of the cost. Returns ``(first guess index, guesses used per answer int64[n], in
    the order of the sorted state)``, or None when that policy does not win every answer
    within ``guesses_left`` guesses, or when ``deadline`` (:func:`time.monotonic`) passes
    first. ``table``: the whole feedback table, or its :class:`~solver.game.feedback.TableParts`
    (the state's columns are read)."""
    from solver.exact.bellman import allowed_after

    word_list = game.word_list
    state = np.unique(np.asarray(state, dtype=np.int32))
    S, P, goa, _, _ = local_problem(word_list, state, table)
    weights = _state_weights(game, state)
    used = np.zeros(len(state), dtype=np.int64)
    green = game.all_green
    hard = game.restricted  # hard or ultra-hard mode: only the allowed guesses
    first = -1
    everything = np.arange(P.shape[0], dtype=np.int32)
    # (local answers, guesses left, guesses used before, history, guesses to scan): a stack
    stack = [(S, int(guesses_left), 0, list(history), everything)]
    while stack:
        if deadline is not None and time.monotonic() >= deadline:
            return None
        members, d, depth, steps, guesses = stack.pop()
        if d < 1:
            return None
        if len(members) == 1:
            g, splitting = int(goa[members[0]]), guesses
        else:
            allowed = allowed_after(game, steps)[1] if hard else None
            g, splitting = _first_candidate(members, P, guesses, game.n_patterns,
                                            game.objective_id, allowed, weights)
            if g < 0:
                return None
        if first < 0:
            first = g
        codes = P[g, members]
        for code in np.unique(codes):
            part = members[codes == code]
            if code == green:
                used[part] = depth + 1
            else:
                stack.append((part, d - 1, depth + 1,
                              steps + [(word_list.guesses[g], int(code))] if hard else steps,
                              splitting))
    return first, used
