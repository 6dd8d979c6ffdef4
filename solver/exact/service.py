"""The search service: the exact next guess, values and alternatives from any position.

Every question a player or a tool asks — the next guess (``assist``, ``tree next``, ``tree
play``, the web page), a game's analysis (``analyse``) — goes through one
:class:`SearchService` of the game (lists, mode, objective, feedback rule, guess limit,
priors). It answers with the solver's own search (:mod:`solver.exact.bellman`,
:mod:`solver.exact.anytime`: the same bounds, memo, cut-offs and candidate order as ``solve``
and ``prove``), organised so that almost every answer is a lookup:

- **The state asked, first.** A question is answered by searching the state the history
  leaves — the cheap thing — never by first building the opener's whole tree. The opening
  book (:mod:`solver.exact.book`) is a cache that makes questions free where it has a tree:
  after an opener whose optimal tree is loaded, shipped or cached, every state is a node of
  that tree until the player leaves it, and the answer is read there. At the empty history
  the answer is the tree whose opener is proven optimal over every allowed guess
  (docs/algorithms.md §9); without one it is the best shipped opener, labelled not proven.
  Only :meth:`opener_value` (a game analysis needs the played opener's exact value, which
  takes every root class) solves a whole tree, and keeps it in the book.
- **Off the trees.** A state with no tree node is solved exactly
  (:func:`solver.exact._search_kernel.solve_subtree`) and its optimal subtree kept (in
  memory, least recently used dropped), so the following moves are lookups again.
- **Anytime.** With a deadline, a state is searched within it (:mod:`solver.exact.anytime`):
  exact when the search finishes in time, else the best guess found, labelled
  ``"best found, not proven"`` with a proven lower bound on the optimum (and so the gap).
- **Lost games** (docs/algorithms.md §15.2). A state whose answers cannot all be won within the
  guesses left (or with none left) is valued as if the game went on: with the least number of
  extra guesses ``e`` that makes every answer winnable; the answer says so (``extra_guesses``).
- **Answers outside the list.** When no answer of the list fits the history (the NYT has used
  answers that are in no fixed list), the allowed guesses that fit are taken as the answers
  still possible, and the state is solved exactly over them (``outside_list``).

Values are in the objective's units (docs/algorithms.md §2): the total of the guesses still
needed over the state's answers, the most any answer needs (worst case), or the weighted
total under priors (§10.3).

The answers' types and the history checks are :mod:`solver.exact.advice` (re-exported here).
Why this module is over 500 lines: it is one class, :class:`SearchService`, whose methods are
the service's questions (position, advise, Q-values, states solved off the tree) sharing one
cache of solved subtrees and one opening book; split across modules they would share that
state through private attributes instead.
"""

from __future__ import annotations

import functools
import time
from collections import OrderedDict
from dataclasses import replace

import numpy as np

from solver.exact.anytime import INF, KERNEL_LOAD_SECONDS, MIN_WORK_SECONDS
from solver.game.errors import FeedbackError, InputError
from solver.game.feedback import TableParts, answers_after, code_to_text
from solver.game.history import History
from solver.game.spec import Game, Objective
from solver.game.wordlists import WordList
from policy_tree.lookup import Position
from solver.exact.advice import (EXACT, NOT_PROVEN, SOLVED, Advice, Alternative,  # noqa: F401
                                 Bounds, OpenerValue, RelaxedQ, Source, Split, Status, ValueKind,
                                 check_budget, format_steps)

#: Alternatives listed by default.
TOP = 5
#: Seconds a question with no tree for its state gets at the empty history when no time was
#: given (proving the best opener is ``prove``'s work, minutes long).
ROOT_SECONDS = 10.0
#: Extra guesses tried at most when a state cannot be won within the guesses left.
MAX_EXTRA_GUESSES = 12
#: Solved off-tree states kept per service.
SUBTREE_CACHE = 256
#: Openers whose exact value (every root class) is kept per service (a game analysis asks it
#: for every game: ``wordle score-games`` scores thousands with the same few openers).
OPENER_CACHE = 64


class SearchService:
    """The exact answers of one game (module docstring).

    Args:
        game: the :class:`~solver.game.spec.Game`: lists, mode (§10), objective (§2; under a
            lexicographic one, §2.5, its trees, valued and searched under its primary
            objective), guess limit, feedback rule (§10.4), priors (the weighted total, §10.3).
        table: the whole feedback table of the rule, when the caller has it; else a
            question reads the parts it needs (:class:`~solver.game.feedback.TableParts`: from
            the cached table, or computed alone), and only whole-tree work builds it.
        book: use the opening book (shipped, cached and solved opener trees); False: only the
            trees given (:meth:`for_tree`), every other state searched on its own (and the
            empty history within ``ROOT_SECONDS``).
        cache: keep solved opener trees in the user cache.
        tables: read the shipped opener tables (docs/algorithms.md §9.7) where they cover
            the game: an opener's value and the states one guess leaves; False: searched.
        jobs: worker processes for an opener's tree, and for a state of at least
            :data:`solver.exact.bellman.STATE_SHARE_MIN` answers, searched by that many processes
            together (-1: all cores).

    Raises:
        InputError: lists too large for the solver.
    """

    def __init__(self, game: Game, *, table: np.ndarray | None = None, book: bool = True,
                 cache: bool = True, jobs: int = -1, tables: bool = True):
        from solver.exact.bellman import check_searchable
        from solver.exact.book import OpeningBook

        # the searches minimise the primary objective; the book holds the trees of the game's
        # own (a lexicographic tree's values are its primary objective's, docs/algorithms.md §2.5)
        self.game = check_searchable(game.replace(objective=game.objective.primary))
        self.word_list: WordList = game.word_list
        self.priors = game.priors
        self.parts = TableParts(self.word_list, game.feedback, table)
        self.book = (OpeningBook(game, cache=cache) if book else
                     OpeningBook(game, shipped=(), cache=False, solve=False))
        self.jobs = jobs
        self._subtrees: OrderedDict = OrderedDict()
        self._opener_table = False if tables else None  # False: not looked for yet
        self._opener_values: OrderedDict = OrderedDict()  # opener -> exact OpenerValue (no deadline)

    @classmethod
    def for_tree(cls, tree, *, in_book: bool = True, **options) -> SearchService:
        """The service of a decision tree's game (a :class:`policy_tree.PolicyTree`: its lists,
        mode, objective, feedback rule, guess limit and priors), with the tree in its book
        (``in_book=False``: not, for a tree that failed a check, so nothing is read from it)."""
        priors = None
        if tree.priors is not None:
            from solver.game.priors import Priors

            priors = Priors(tree.priors["source"], tree.prior_weights, tree.priors["sha256"])
        game = Game(tree.word_list, tree.guess_limit, tree.feedback, tree.mode, tree.objective,
                    priors)
        service = cls(game, **options)
        if in_book:
            service.book.add(tree)
        return service

    # -- basics -----------------------------------------------------------------------------
    @functools.cached_property
    def objective_id(self) -> int:
        """The search kernels' objective id (:func:`solver.exact.inputs.objective_id`; read
        when a search runs: importing the kernels' module loads numba)."""
        from solver.exact.bellman import objective_id

        return objective_id(self.game)

    @property
    def table(self) -> np.ndarray:
        """The whole feedback table of the game's rule (:func:`~solver.game.feedback.feedback_table`:
        loaded, or built and cached, on first use), for whole-tree work; a question about a
        state reads :attr:`parts` instead."""
        return self.parts.whole()

    @property
    def objective_name(self) -> ValueKind:
        """What this service's values count (:class:`~solver.exact.advice.ValueKind`)."""
        return ValueKind.WEIGHTED if self.priors is not None else ValueKind(self.game.objective.value)

    def per_game(self, state: np.ndarray) -> int:
        """What a state's value is divided by for one game's expectation (see :class:`Advice`)."""
        if self.priors is not None:
            return int(self.priors.weights[state].sum())
        return 1 if self.game.objective is Objective.WORST else int(len(state))

    def normalise(self, history) -> list[tuple[str, int]]:
        """The history checked against the game (:meth:`solver.game.history.History.parse`:
        each guess and feedback, the guess limit, hard mode's hints, the Yellow rule), as
        ``(guess word, feedback code)`` pairs."""
        return list(History.parse(self.game, history).steps)

    def state_after(self, steps) -> np.ndarray:
        """int32 answer indices consistent with every step (possibly empty)."""
        state = np.arange(self.word_list.n_answers, dtype=np.int32)
        for word, code in steps:
            state = answers_after(self.parts, state, self.word_list.guess_index(word), code)
        return state

    def split(self, state: np.ndarray, guess: str) -> Split:
        """How ``guess`` splits ``state`` (int32 answer indices): its feedback classes' sizes,
        by the partition kernel (:func:`solver.game.feedback.feedback_classes`). Raises
        UnknownWordError for a word not in the guess list."""
        from solver.game.feedback import feedback_classes

        g = self.word_list.guess_index(guess)
        _, sizes = feedback_classes(self.parts.rows([g])[0], state, self.word_list.word_length)
        answers = self.word_list.answers
        return Split(guess, tuple(sorted((int(n) for n in sizes), reverse=True)),
                     any(answers[int(a)] == guess for a in state))

    def fitting_guesses(self, steps) -> list[str]:
        """The allowed guesses consistent with every step, in list order."""
        from solver.game.feedback import feedback_code

        words = list(self.word_list.guesses)
        for word, code in steps:
            words = [w for w in words if feedback_code(word, w, self.game.feedback) == code]
        return words

    # -- values on trees --------------------------------------------------------------------
    def value_from_used(self, used: np.ndarray, state: np.ndarray) -> int:
        """A tree's value over ``state`` from the guesses used per answer."""
        if self.priors is not None:
            return int((self.priors.weights[state] * used).sum())
        if self.game.objective is Objective.WORST:
            return int(used.max())
        return int(used.sum())

    def tree_value(self, tree, node: int, state: np.ndarray) -> int:
        """Value of the (sub)tree from ``node`` over the answers ``state``: a replay
        (:meth:`policy_tree.tree.DecisionTree.replay`, reading only the codes of the guesses
        played against the answers that reach them). Raises InputError if the tree does not
        solve one of them (a tree of another feedback rule, or a damaged one: run ``tree
        verify``)."""
        used = tree.replay(self.parts.codes, state, node)
        if (used == 0).any():
            answer = self.word_list.answers[int(state[int(np.argmax(used == 0))])]
            raise InputError(f"the decision tree does not solve {answer!r} under the "
                             f"{self.game.feedback} feedback rule (run `python -m tools.tree verify`)")
        return self.value_from_used(used, state)

    # -- exact search of one state ----------------------------------------------------------
    def optimal_subtree(self, state: np.ndarray, guesses_left: int, steps, *, lift: bool = True):
        """The optimal subtree of a state: ``(DecisionTree, V*, extra)``, memoised.

        ``steps`` (the history that led there) sets the hard-mode constraint (the ultra-hard
        mode's allowed guesses). With ``lift``, a
        state that cannot be won within ``guesses_left`` is solved with the least ``extra``
        guesses more that make it winnable (§15.2); without it, V* may be ``INF`` (tree None).
        A state of one or two answers needs no search (:meth:`small_tree`).
        """
        small = self.small_tree(state, guesses_left, lift)
        if small is not None:
            return small
        from solver.exact.bellman import (_localise, _memo_capacity, allowed_after, local_rules,
                                          search_rules, subtree)
        from solver.game.hashing import zobrist_keys
        from policy_tree.tree import DecisionTree

        constraint, candidates = allowed_after(self.game, list(steps))
        # what the history allows next is part of the key: hard mode's constraint, ultra-hard
        # mode's allowed guesses themselves (§10.5)
        rule = (constraint.tobytes() if self.game.hard
                else candidates.tobytes() if self.game.ultra else b"")
        base = (state.tobytes(), int(guesses_left), rule)
        for other in (lift, not lift):
            # a state won within the guesses left has the same answer with or without lift
            entry = self._subtrees.get((*base, other))
            if entry is not None and (other == lift or (entry[0] is not None and entry[2] == 0)):
                self._subtrees.move_to_end((*base, other))
                return entry
        key = (*base, lift)
        local = _localise(self.parts, state, self.word_list.answer_guess_index,
                          zobrist_keys(self.word_list.n_answers))
        rules = local_rules(search_rules(self.game), state)
        result = (None, INF, 0)
        for extra in range(0, MAX_EXTRA_GUESSES + 1 if lift else 1):
            d = int(guesses_left) + extra
            if d < 1:
                continue
            value, node_guess, edge_start, edge_feedback, edge_child, _ = subtree(
                local, d, _memo_capacity(len(state)), self.game.n_patterns, self.objective_id,
                self.game.mode_id, rules, constraint, candidates, jobs=self.jobs)
            if value < INF:
                tree = DecisionTree(node_guess, edge_start, edge_feedback, edge_child,
                                    self.game.word_length)
                result = (tree, int(value), extra)
                break
        self._subtrees[key] = result
        if len(self._subtrees) > SUBTREE_CACHE:
            self._subtrees.popitem(last=False)
        return result

    def small_tree(self, state: np.ndarray, guesses_left: int, lift: bool = True):
        """:meth:`optimal_subtree`'s answer for a state of one answer (play it) or of two (play the
        first, then the other: value 3, or 2 for the worst case, §3.3, §3.6; the first is the
        solver's own tie-break, §4.4), found without the search kernels (a fresh process need
        not load them); None for any other state, or two answers under priors. A consistent
        answer is always allowed in hard and ultra-hard mode, so the mode does not matter."""
        n = len(state)
        if n > 2 or n == 0 or (n == 2 and self.priors is not None):
            return None
        extra = max(n - int(guesses_left), 0)
        if extra and not lift:
            return None, INF, 0
        from policy_tree.tree import DecisionTree

        guesses = self.word_list.answer_guess_index[state].astype(np.uint32)
        if n == 1:
            tree = DecisionTree(guesses[:1], np.zeros(2, np.uint32), np.zeros(0, self.game.code_dtype),
                                np.zeros(0, np.uint32), self.game.word_length)
        else:
            code = self.parts.codes(int(guesses[0]), state[1:])[0]
            tree = DecisionTree(guesses, np.array([0, 1, 1], np.uint32),
                                np.array([code], self.game.code_dtype), np.array([1], np.uint32),
                                self.game.word_length)
        return tree, self.small_value(state, n), extra

    def q_value(self, state: np.ndarray, guesses_left: int, steps, guess: str, extra: int = 0
                ) -> int:
        """Exact ``Q*(S, d + extra, guess)``: the value when ``guess`` is played now and the
        optimum afterwards (each class solved, :meth:`optimal_subtree`, and kept); ``INF`` when
        some answer can then not be won within ``d + extra`` guesses."""
        g = self.word_list.guess_index(guess)
        codes = self.parts.codes(g, state)
        d = int(guesses_left) + extra
        green = self.game.all_green
        if d < 1:
            return INF
        values = []
        for code in np.unique(codes):
            if code == green:
                continue
            if d == 1:
                return INF
            tree, value, _ = self.optimal_subtree(state[codes == code], d - 1,
                                              list(steps) + [(guess, int(code))], lift=False)
            if value >= INF:
                return INF
            values.append(value)
        return self.q_from_classes(state, values)

    def relaxed_q(self, state: np.ndarray, guesses_left: int, steps, guess: str, extra: int = 0
                  ) -> RelaxedQ:
        """The finite value of a move that gives up the sure finish of its state (§15.4):
        ``Q*(S, d + e', guess)`` with ``e'`` the least number of extra guesses past ``extra``
        (the state's own, §15.2) that makes it finite, and the weight of the classes that
        cannot be won within ``d + extra − 1`` (each class solved, :meth:`optimal_subtree`, and
        kept). Call it when ``q_value(state, guesses_left, steps, guess, extra)`` is ``INF``.

        Raises:
            InputError: the move cannot win every answer even with
                :data:`MAX_EXTRA_GUESSES` more (a guess that never splits the state).
        """
        if not steps and extra == 0 and len(state) == self.word_list.n_answers:
            recorded = self.book.relaxed(self.word_list.guesses[self.word_list.guess_index(guess)])
            if recorded is not None:  # an opener's, computed once (tools.book)
                return recorded
        g = self.word_list.guess_index(guess)
        codes = self.parts.codes(g, state)
        unsafe = []
        for code in np.unique(codes):
            if code == self.game.all_green:
                continue
            members = state[codes == code]
            _, value, _ = self.optimal_subtree(members, int(guesses_left) + extra - 1,
                                           list(steps) + [(guess, int(code))], lift=False)
            if value >= INF:
                unsafe.append(members)
        weight = self.per_game(np.concatenate(unsafe)) if unsafe else 0
        for more in range(extra + 1, extra + MAX_EXTRA_GUESSES + 1):
            q = self.q_value(state, guesses_left, steps, guess, more)
            if q < INF:
                return RelaxedQ(int(q), more, int(weight))
        raise InputError(f"{guess!r} cannot win every answer left even {MAX_EXTRA_GUESSES} "
                         "guesses past the limit")

    # -- positions ------------------------------------------------------------------------------
    def opener_value(self, opener: str, *, deadline: float | None = None,
                     progress=None) -> OpenerValue:
        """``Q*`` of ``opener`` at the empty history and ``V*`` of each of its root classes.

        Every root class is needed for ``Q*``. With no ``deadline`` the opener's tree is what
        is computed: read from the book, or solved (in parallel, journaled, kept in the book and
        the user cache; ``progress(done_answers, total_answers)`` is told). With a ``deadline``
        the tree is read when the book has it; else the classes are solved one by one in this
        process, smallest first, while time is left and a class has at most
        :data:`solver.exact.anytime.IN_PROCESS_MAX` answers (milliseconds each), and each other
        class lies between its cheap lower bound (docs/algorithms.md §3.2) and the value of the
        fast policy (:func:`solver.exact.anytime.greedy_guesses`; no upper bound when that does
        not finish by the deadline): a proven interval.

        Raises:
            UnknownWordError: ``opener`` is not an allowed guess.
        """
        opener = self.word_list.guesses[self.word_list.guess_index(opener)]
        if opener in self._opener_values:  # answered exactly before (no deadline): the same answer
            self._opener_values.move_to_end(opener)
            return self._opener_values[opener]
        value = self._opener_value(opener, deadline, progress)
        if deadline is None and (value.unwinnable or value.q.exact):
            self._opener_values[opener] = value
            if len(self._opener_values) > OPENER_CACHE:
                self._opener_values.popitem(last=False)
        return value

    def _opener_value(self, opener: str, deadline: float | None, progress) -> OpenerValue:
        """:meth:`opener_value`, computed."""
        from solver.exact.anytime import IN_PROCESS_MAX, cheap_lower_bound, greedy_guesses
        from solver.exact.bellman import UnwinnableError

        unwinnable = OpenerValue(opener, Bounds(INF, INF), {}, None, True)
        state = np.arange(self.word_list.n_answers, dtype=np.int32)
        codes = self.parts.codes(self.word_list.guess_index(opener), state)
        d = self.game.guess_limit - 1
        tree = self.book.find(opener)
        if tree is None and self.book.unwinnable(opener) is not None:
            return unwinnable
        entry = None if tree is not None or self.opener_table is None \
            else self.opener_table.entry(opener)
        if entry is not None:  # the opener table: Q* and every class, exactly (§9.7)
            if entry.value >= INF:
                return unwinnable
            classes = {}
            for code in np.unique(codes):
                code = int(code)
                if code != self.game.all_green:
                    members = state[codes == code]
                    classes[code] = Bounds.exactly(self.table_class(opener, code, members)[0])
            return OpenerValue(opener, Bounds.exactly(entry.value), classes, None)
        if tree is None and deadline is None:
            try:
                tree = self.book.tree(opener, progress=progress, jobs=self.jobs)
            except UnwinnableError:
                return unwinnable
        classes, pending = {}, []
        for code in np.unique(codes):
            code = int(code)
            if code == self.game.all_green:
                continue
            members = state[codes == code]
            if tree is not None:
                classes[code] = Bounds.exactly(self.tree_value(tree.tree, tree.tree.child(0, code),
                                                               members))
            elif self.small_value(members, d) is not None:
                classes[code] = Bounds.exactly(self.small_value(members, d))
            else:
                pending.append((len(members), code, members))
        for _, code, members in sorted(pending):
            if deadline is None or (len(members) <= IN_PROCESS_MAX and time.monotonic() < deadline):
                _, value, _ = self.optimal_subtree(members, d, [(opener, code)], lift=False)
                if value >= INF:
                    return unwinnable
                classes[code] = Bounds.exactly(value)
                continue
            if time.monotonic() >= deadline:  # no time left: the class bound of §3.1 (2m − 1)
                classes[code] = Bounds(self.class_bound(members), None)
                continue
            greedy = greedy_guesses(self.game, members, d, table=self.parts,
                                    history=[(opener, code)], deadline=deadline)
            classes[code] = Bounds(cheap_lower_bound(self.game, members, self.parts),
                                   None if greedy is None else self.value_from_used(greedy[1], members))
        lower = self.q_from_classes(state, [b.lower for b in classes.values()])
        uppers = [b.upper for b in classes.values()]
        upper = None if None in uppers else self.q_from_classes(state, uppers)
        return OpenerValue(opener, Bounds(lower, upper), classes, tree)

    @property
    def opener_table(self):
        """The shipped opener table of this game (:class:`policy_tree.opener_table.OpenerTable`,
        docs/algorithms.md §9.7), or None: the tables cover the total objective in normal and
        hard mode, the standard rule, no priors, the guess limit 6. Opened (its CSV read and
        checked) at the first question that needs it."""
        if self._opener_table is False:
            from policy_tree.opener_table import TABLE_MODES, OpenerTable
            from solver.game.spec import GUESS_LIMIT, FeedbackRule

            game = self.game
            covered = (game.objective is Objective.TOTAL and game.priors is None
                       and game.feedback is FeedbackRule.STANDARD
                       and game.guess_limit == GUESS_LIMIT and game.mode.value in TABLE_MODES)
            self._opener_table = (OpenerTable.open(self.word_list, game.mode.value,
                                                   missing_ok=True) if covered else None)
        return self._opener_table

    def table_class(self, opener: str, code: int, members: np.ndarray) -> tuple[int, int] | None:
        """``(V*, first optimal guess index)`` of the state ``members`` that ``opener`` and its
        feedback ``code`` leave (guess limit − 1 guesses left), from the opener table, or None
        when the table does not hold the opener (or the state cannot be won in time). A state
        of one or two answers is not stored: 1 and its answer, 3 and its first answer."""
        table = self.opener_table
        if table is None or table.entry(opener) is None:
            return None
        if len(members) <= 2:
            return self.small_value(members, self.game.guess_limit - 1), int(
                self.word_list.answer_guess_index[int(members[0])])
        found = table.second_guess(opener, int(code))
        if found is None or found[0] >= INF:
            return None
        return found

    def table_root(self) -> tuple[int, str] | None:
        """``(V*, the best opener)`` at the empty history from a complete opener table (every
        opener decided: the least value over all of them, ties by word as the table lists
        them), else None."""
        from policy_tree.opener_table import TableStatus

        table = self.opener_table
        if table is None or any(row.status is TableStatus.PENDING for row in table.rows):
            return None
        best = table.rows[0]
        return (best.value, best.opener) if best.status is TableStatus.EXACT else None

    def class_bound(self, state: np.ndarray) -> int:
        """A lower bound on ``V*`` of a state of two answers or more with no scan: ``2n − 1``
        (docs/algorithms.md §3.1), 2 for the worst case (§3.6), the least weight plus twice the
        others under priors (every answer but one needs two guesses at least)."""
        if self.priors is not None:
            weights = self.priors.weights[state]
            return int(2 * weights.sum() - weights.max())
        return 2 if self.game.objective is Objective.WORST else 2 * len(state) - 1

    def small_value(self, state: np.ndarray, guesses_left: int) -> int | None:
        """``V*`` of a state of one answer, or of two under the total or worst-case objective
        (docs/algorithms.md §3.3, §3.6: play one, then the other), with no search; None for
        any other state."""
        if len(state) == 1 and guesses_left >= 1:
            return self.per_game(state) if self.priors is not None else 1
        if len(state) == 2 and guesses_left >= 2 and self.priors is None:
            return 2 if self.game.objective is Objective.WORST else 3
        return None

    def q_from_classes(self, state: np.ndarray, class_values) -> int:
        """``Q*`` of a guess at ``state`` from its non-green classes' values (§2.1, §2.2,
        §10.3): the guess itself paid by every answer (or once, for the worst case)."""
        class_values = [int(v) for v in class_values]
        if any(v >= INF for v in class_values):
            return INF
        if self.priors is not None:
            return int(self.priors.weights[state].sum()) + sum(class_values)
        if self.game.objective is Objective.WORST:
            return 1 + max(class_values, default=0)
        return len(state) + sum(class_values)

    def position(self, steps, *, solve: bool = True) -> Position:
        """Follow ``steps`` (normalised) through the opener's tree, if the book holds one.

        The opener's tree is only looked up (:meth:`solver.exact.book.OpeningBook.find`:
        loaded, shipped or cached), never solved here: a question about a state is answered
        by searching that state (docs/algorithms.md §15.1). Where there is no tree, or the
        history leaves it, the state reached is solved exactly (:meth:`optimal_subtree`) when
        ``solve``, so the position is a tree node then; without ``solve`` it has no tree."""
        steps = list(steps)
        state = np.arange(self.word_list.n_answers, dtype=np.int32)
        limit = self.game.guess_limit
        where = Position(tuple(steps), state=state, guesses_left=limit)
        if not steps:
            return where
        tree = self.book.find(steps[0][0])
        node: int | None = 0 if tree is not None else None
        dtree = tree.tree if tree is not None else None
        left_tree = None
        green = self.game.all_green
        for k, (word, code) in enumerate(steps):
            state = answers_after(self.parts, state, self.word_list.guess_index(word), code)
            if node is not None and word == self.word_list.guesses[int(dtree.node_guess[node])]:
                node = dtree.child(node, code) if code != green else None
            else:
                if node is not None and k > 0:
                    left_tree = (f"the history leaves the {steps[0][0].upper()} tree at guess {k + 1}: "
                                 f"the tree plays {self.word_list.guesses[int(dtree.node_guess[node])]!r}, "
                                 f"not {word!r}")
                node, dtree = None, None
        guesses_left = limit - len(steps)
        where = Position(tuple(steps), state=state, guesses_left=guesses_left, left_tree=left_tree,
                         opener=steps[0][0] if tree is not None else None)
        if state.size == 0 or steps[-1][1] == green:
            return where
        if node is not None and node >= 0:
            where = replace(where, tree=dtree, node=node, tree_value=self.tree_value(dtree, node, state))
        elif solve:
            sub, value, extra = self.optimal_subtree(state, guesses_left, steps)
            if sub is not None:
                where = replace(where, tree=sub, node=0, tree_value=value, extra=extra)
        return where

    # -- advice --------------------------------------------------------------------------------
    def advise(self, history=(), *, top: int = TOP, budget: float | None = None,
               alternatives_budget: float | None = None, notice=None, splits: bool = False) -> Advice:
        """The optimal next guess after ``history``, its value, and the ``top`` best guesses.

        Args:
            history: see :meth:`solver.game.history.History.parse`; any guesses, on or off any tree, won,
                lost or still going.
            top: alternatives to list with exact ``Q*`` (0: none).
            budget: wall seconds this call may take (> 0), or None: wait for the exact answer.
                The state the history leaves is what is searched (an opener's whole tree is
                read when the book has it, never built here); within the budget the answer
                is exact when the search finishes, else the best guess found with a proven
                lower bound (:data:`NOT_PROVEN`).
            alternatives_budget: seconds (from this call) the alternatives may take, within
                ``budget``; None: as long as ``budget`` allows.
            notice: ``notice(sentence)``, told before an exact search of a large state (one
                that may take a while: no tree holds it and it has more than
                :data:`solver.exact.anytime.IN_PROCESS_MAX` answers).
            splits: also say how the next guess and each alternative split the answers left
                (``Advice.splits``, the page's "why"), once the rest is answered (the partition
                kernel's first call in a process loads it: up to a second on a cold start).

        Returns:
            :class:`Advice`.

        Raises:
            InputError (subclasses) naming the guess at fault: a malformed history, an unknown
            word, a feedback neither an answer nor an allowed guess can give (FeedbackError),
            a hard-mode guess that ignores a hint (HardModeError); a bad budget or ``top``.
        """
        advice = self._advise(history, top=top, budget=budget, alternatives_budget=alternatives_budget,
                              notice=notice, splits=splits)
        if splits and advice.next_guess is not None and not advice.outside_list:  # the "why"
            state = self.state_after(advice.history)
            for guess in dict.fromkeys([advice.next_guess, *(a.guess for a in advice.alternatives)]):
                advice.splits[guess] = self.split(state, guess)
        return advice

    def _advise(self, history=(), *, top: int = TOP, budget: float | None = None,
                alternatives_budget: float | None = None, notice=None, splits: bool = False) -> Advice:
        """:meth:`advise` without the splits."""
        started = time.perf_counter()
        check_budget(budget)
        check_budget(alternatives_budget)
        if not isinstance(top, int) or isinstance(top, bool) or top < 0:
            raise InputError(f"top must be a whole number ≥ 0, got {top!r}")
        deadline = None if budget is None else time.monotonic() + budget
        alt_deadline = deadline
        if alternatives_budget is not None:
            mine = time.monotonic() + alternatives_budget
            alt_deadline = mine if deadline is None else min(deadline, mine)
        steps = self.normalise(history)
        state = self.state_after(steps)
        if state.size == 0:
            return self._outside_list(steps, top, budget, alternatives_budget, started, splits)
        name = self.word_list.name
        answers = tuple(self.word_list.answers[int(a)] for a in state)
        limit = self.game.guess_limit
        guesses_left = max(limit - len(steps), 0)
        common = dict(objective=self.objective_name, mode=self.game.mode.value, per_game=self.per_game(state))
        if steps and steps[-1][1] == self.game.all_green:
            return Advice(name, steps, answers, guesses_left, SOLVED, None, None, 0, 0,
                          seconds=time.perf_counter() - started, **common)
        if not steps:
            return self._root(steps, state, answers, top, deadline, started, common)
        # the state itself: a tree's node when the book holds the opener's tree, else the
        # opener table's second guess, else solved exactly now (no deadline) or searched within
        # the deadline (_anytime)
        where = self.position(steps, solve=False)
        if where.tree is None and len(steps) == 1:
            found = self.table_class(steps[0][0], steps[0][1], state)
            if found is not None:
                value, g = found
                guess = self.word_list.guesses[g]
                alternatives, complete = self._alternatives(where, guess, value, top, alt_deadline)
                return Advice(name, steps, answers, guesses_left, EXACT, Source.TABLE, guess, value,
                              value, alternatives, complete, None, time.perf_counter() - started,
                              **common)
        if where.tree is None and deadline is None:
            from solver.exact.anytime import IN_PROCESS_MAX

            if notice is not None and len(state) > IN_PROCESS_MAX:
                notice(f"searching the {len(state)} answers left exactly (no tree of "
                       f"{steps[0][0].upper()} is shipped or cached); this may take a while: "
                       "--budget SECONDS bounds it")
            sub, value, extra = self.optimal_subtree(state, guesses_left, steps)
            if sub is not None:
                where = replace(where, tree=sub, node=0, tree_value=value, extra=extra)
        opener_tree = where.opener
        if where.tree is not None:
            guess = self.word_list.guesses[int(where.tree.node_guess[where.node])]
            value = where.tree_value
            # the history followed an opener's tree, or a state was solved now
            source = Source.TREE if where.opener is not None and where.left_tree is None else Source.SOLVER
            alternatives, complete = self._alternatives(where, guess, value, top, alt_deadline)
            return Advice(name, steps, answers, guesses_left, EXACT, source, guess, value, value,
                          alternatives, complete, where.left_tree, time.perf_counter() - started,
                          extra_guesses=where.extra, opener_tree=opener_tree, **common)
        # a deadline: the state's anytime search with what is left of the budget
        return self._anytime(steps, state, answers, guesses_left, top, deadline, started, common,
                             where.left_tree, opener_tree)

    def _alternatives(self, where: Position, guess: str, value: int, top: int, deadline):
        """The best ``top`` guesses of a state whose optimum is known (from a tree)."""
        if top <= 0:
            return [], True
        state, d = where.state, where.guesses_left + where.extra
        g = self.word_list.guess_index(guess)
        answer_set = {self.word_list.answers[int(a)] for a in state}
        if len(state) == 1 or top == 1:
            alternatives = [Alternative(guess, value, True, guess in answer_set, self.per_game(state))]
            return alternatives, True
        import sys

        from solver.exact.anytime import rank_guesses

        budget = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        # loading the search kernels takes most of a second in a fresh process: not worth
        # starting when the time left would be gone before the first guess is valued
        loading = 0.0 if "solver.exact._search_kernel" in sys.modules else KERNEL_LOAD_SECONDS
        if budget is not None and budget < loading + 0.05:
            return [Alternative(guess, value, True, guess in answer_set, self.per_game(state))], False
        ranking = rank_guesses(self.game, state, d, top=top, known={g: value, "optimum": value},
                               budget=budget, table=self.parts, history=where.steps)
        top_list = ranking.top if ranking.top else [(g, value)]
        alternatives = [Alternative(self.word_list.guesses[h], q, True,
                                    self.word_list.guesses[h] in answer_set, self.per_game(state))
                        for h, q in top_list[:top]]
        return alternatives, ranking.finished

    def _root(self, steps, state, answers, top, deadline, started, common) -> Advice:
        """The empty history: the proven opener's tree, else the best shipped one."""
        name = self.word_list.name
        limit = self.game.guess_limit
        proven = self.book.proven()
        from_table = self.table_root() if proven is None else None
        if from_table is not None:  # a complete opener table: the best opener and V* (§9.7)
            value, opener = from_table
            alternatives = [Alternative(row.opener, row.value, True, row.opener in set(answers),
                                        self.per_game(state))
                            for row in self.opener_table.rows[:top]]
            return Advice(name, steps, answers, limit, EXACT, Source.TABLE, opener, value, value,
                          alternatives, True, None, time.perf_counter() - started, **common)
        if proven is not None and top == 0:
            value = self.tree_value(proven.tree, 0, state)
            return Advice(name, steps, answers, limit, EXACT, Source.TREE, proven.opener, value, value,
                          [], False, None, time.perf_counter() - started,
                          opener_tree=proven.opener, **common)
        candidates = []
        for opener in sorted(set(self.book.shipped_openers()) | set(self.book.loaded())):
            tree = self.book.find(opener)
            if tree is not None:
                candidates.append((self.tree_value(tree.tree, 0, state), tree.opener))
        candidates.sort()
        answer_set = set(answers)
        alternatives = [Alternative(w, q, True, w in answer_set, self.per_game(state))
                        for q, w in candidates[:top]]
        if proven is not None:
            value = self.tree_value(proven.tree, 0, state)
            best = [(value, proven.opener)] + [c for c in candidates if c[1] != proven.opener]
            alternatives = [Alternative(w, q, True, w in answer_set, self.per_game(state))
                            for q, w in best[:top]]
            return Advice(name, steps, answers, limit, EXACT, Source.TREE, proven.opener, value, value,
                          alternatives, False, None, time.perf_counter() - started,
                          opener_tree=proven.opener, **common)
        if candidates:
            from solver.exact.anytime import cheap_lower_bound

            value, opener = candidates[0]
            lower = self.book.root_lower_bound()
            if lower is None:
                lower = cheap_lower_bound(self.game, state, self.parts)
            lower = min(lower, value)
            status = EXACT if lower == value else NOT_PROVEN
            return Advice(name, steps, answers, limit, status, Source.TREE, opener, value, lower,
                          alternatives, False, None, time.perf_counter() - started,
                          opener_tree=opener, **common)
        if deadline is None:
            deadline = time.monotonic() + ROOT_SECONDS
        return self._anytime(steps, state, answers, limit, top, deadline, started, common, None, None)

    def _anytime(self, steps, state, answers, guesses_left, top, deadline, started, common,
                 left_tree, opener_tree) -> Advice:
        """The state's anytime search (:func:`solver.exact.anytime.rank_guesses`) until the
        deadline: exact when it finishes in time, else the best found with a lower bound."""
        from solver.exact.anytime import greedy_guesses, rank_guesses

        name = self.word_list.name
        d = max(guesses_left, 1)
        def left() -> float | None:  # seconds to the deadline; 0 when too few to start work
            if deadline is None:
                return None
            seconds = deadline - time.monotonic()
            return seconds if seconds >= MIN_WORK_SECONDS else 0.0

        # the fast policy's value is an upper bound the search may not beat in time: computed
        # here while the search runs in its child process (both cores), within the deadline
        fast: list = []

        def fast_policy() -> None:
            if left() != 0.0:
                fast.append(greedy_guesses(self.game, state, d, table=self.parts, history=steps,
                                           deadline=deadline))

        ranking = rank_guesses(self.game, state, d, top=max(top, 1), budget=left(),
                               table=self.parts, history=steps, meanwhile=fast_policy,
                               jobs=self.jobs)
        greedy = fast[0] if fast else None
        if (ranking.proven and ranking.value is None) or guesses_left < 1:
            # no guess wins every answer in time (a lost game, §15.2): solved with extra guesses
            sub, value, extra = self.optimal_subtree(state, guesses_left, steps)
            where = Position(tuple(steps), state=state, guesses_left=guesses_left, tree=sub, node=0,
                             tree_value=value, extra=extra, left_tree=left_tree)
            guess = self.word_list.guesses[int(sub.node_guess[0])]
            alternatives, complete = self._alternatives(where, guess, value, top, deadline)
            return Advice(self.word_list.name, steps, answers, guesses_left, EXACT, Source.SOLVER, guess,
                          value, value, alternatives, complete, left_tree,
                          time.perf_counter() - started, extra_guesses=extra,
                          opener_tree=opener_tree, **common)
        answer_set = set(answers)
        per_game = self.per_game(state)
        alternatives = [Alternative(self.word_list.guesses[g], q, True,
                                    self.word_list.guesses[g] in answer_set, per_game)
                        for g, q in ranking.top[:top]]
        lower = ranking.lower_bound
        if ranking.proven and ranking.value is not None:
            guess = self.word_list.guesses[ranking.top[0][0]]
            return Advice(name, steps, answers, guesses_left, EXACT, Source.SOLVER, guess, ranking.value,
                          ranking.value, alternatives, ranking.finished, left_tree,
                          time.perf_counter() - started, opener_tree=opener_tree, **common)
        found = [(q, self.word_list.guesses[g], Source.SOLVER) for g, q in ranking.top[:1]]
        if greedy is not None:  # an upper bound on V* the search may not have beaten in time
            found.append((self.value_from_used(greedy[1], state), self.word_list.guesses[greedy[0]],
                          Source.HEURISTIC))
        if found:
            value, guess, source = min(found)
        else:
            guess, value, source = self.word_list.guesses[int(ranking.order[0])], None, Source.HEURISTIC
        lower = min(lower, value) if value is not None else lower
        status = EXACT if value is not None and lower == value else NOT_PROVEN
        return Advice(name, steps, answers, guesses_left, status, source, guess, value,
                      None if lower >= INF else lower, alternatives, False, left_tree,
                      time.perf_counter() - started, opener_tree=opener_tree, **common)

    def needs_search(self, steps, top: int = TOP) -> bool:
        """Whether :meth:`advise` of ``steps`` (normalised) with ``top`` alternatives may search
        (and so load the kernels): False when a tree or the opener tables answer it and at
        most the answer itself is listed (the empty history's alternatives are read from the
        book's trees or the table). A lookup is answered first, never after a first run's
        compiling of kernels it does not need."""
        if not steps:
            return False
        state = self.state_after(steps)
        if state.size == 0 or steps[-1][1] == self.game.all_green:
            return state.size == 0
        listed = top > 1 and state.size > 1  # alternatives are ranked by a search
        where = self.position(steps, solve=False)
        if where.tree is not None and where.extra == 0:
            return listed
        if len(steps) == 1 and self.table_class(steps[0][0], steps[0][1], state) is not None:
            return listed
        return True

    def checked_steps(self, history) -> list[tuple[str, int]]:
        """The history's steps (:meth:`normalise`), refused as :meth:`advise` refuses it, with
        no search (nor any kernel to compile): InputError naming the guess at fault, also when
        no answer and no allowed guess fits it."""
        steps = self.normalise(history)
        if steps and self.state_after(steps).size == 0 and not self.fitting_guesses(steps):
            self._nothing_fits(steps)
        return steps

    def _nothing_fits(self, steps) -> None:
        """Raise the FeedbackError of a history no answer and no allowed guess fits, naming
        the first guess after which none does."""
        for k in range(1, len(steps) + 1):
            if not self.fitting_guesses(steps[:k]):
                break
        word, code = steps[k - 1]
        raise FeedbackError(
            f"no answer and no allowed guess fits the history: after guess {k} "
            f"({word}:{code_to_text(code, self.game.word_length)}) no word of the "
            f"{self.word_list.name!r} lists is left")

    def _outside_list(self, steps, top, budget, alternatives_budget, started, splits=False) -> Advice:
        """No answer fits: the allowed guesses that fit are the answers (module docstring)."""
        from solver.game.wordlists import from_words

        fitting = self.fitting_guesses(steps)
        if not fitting:
            self._nothing_fits(steps)
        derived = from_words(fitting, self.word_list.guesses, name=f"{self.word_list.name}+guesses")
        service = SearchService(self.game.replace(word_list=derived, priors=None), book=False,
                                cache=False, jobs=self.jobs)
        advice = service.advise(steps, top=top, budget=budget,
                                alternatives_budget=alternatives_budget, splits=splits)
        advice.word_list = self.word_list.name
        advice.outside_list = True
        advice.left_tree = None
        advice.seconds = time.perf_counter() - started
        return advice
