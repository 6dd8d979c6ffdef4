"""The exact per-move reward for agents: ``V*``, ``Q*``, regret and luck of a move, cached.

The text environment (:mod:`solver.evaluation.text_env`), the verifiers environment
(:mod:`solver.evaluation.verifiers_env`) and the MCP server (:mod:`solver.cli.mcp`) price each
guess an agent plays with :class:`ExactReward`: for the state ``S`` the history leaves (``n =
|S|`` answers, ``d`` guesses left) and the guess ``g`` (docs/algorithms.md §2.3,
:mod:`solver.evaluation.analysis`):

- ``v_star = V*(S, d) / n``, the optimal expected number of guesses from here;
- ``q_star = Q*(S, d, g) / n``, the same after ``g``, optimal play afterwards;
- ``regret = q_star − v_star`` (0 for an optimal move; ``inf`` when ``g`` gives up the sure
  finish) and ``regret_finite``, its finite form (§15.4: the limit relaxed just enough, plus
  the chance of being left with no sure finish), equal to it otherwise;
- ``luck = (q − n)/n − V*(S')/|S'|`` for the state ``S'`` the feedback left (0 once won).

They are the analysis's figures move by move (``wordle analyse``, ``wordle score-games``:
the same search service answers them), computed one move at a time from the service's
primitives — the state's value (:meth:`~solver.exact.service.SearchService.advise`), the
opener's value (:meth:`~solver.exact.service.SearchService.opener_value`) and a move's
(:meth:`~solver.exact.service.SearchService.q_value`, ``relaxed_q``) — so that a step costs a
lookup, not a whole analysis.

**Caches.** The states an agent meets recur from game to game (the same opener, the same
replies); their values and the moves' ``Q*`` are kept in two least-recently-used maps of at
most :data:`STATE_CACHE` states and :data:`MOVE_CACHE` moves, on top of the service's own
(its opener trees, its :data:`~solver.exact.service.SUBTREE_CACHE` solved subtrees). An
entry's key holds the state's answer indices (4 bytes each) and the entry about 200 bytes
more: the states met after a first guess hold tens of answers, so full caches take some tens
of MB (a few large states, the start and the first guesses' classes, add up to 9 kB each on
the NYT's lists).

**Budgets.** With ``budget`` seconds per move, a move whose values are not proven within it
is valued by the analysis itself within that budget (:func:`solver.evaluation.analysis.
analyse_game` on the game so far): its regret and luck are then **proven intervals**
(``exact`` False, ``regret_interval``), never a guess.

**Lists without a proven opener** (a user's own lists): :func:`ensure_exact_root` solves the
empty history exactly once (the search over every allowed guess; seconds for a few hundred
answers, long for thousands: give a budget then), so that ``V*`` at the start is exact.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.exact.anytime import INF
from solver.exact.service import EXACT
from solver.game.errors import InputError
from solver.game.feedback import answers_after, code_to_text
from solver.game.spec import Mode

#: States whose value an :class:`ExactReward` keeps (least recently used dropped).
STATE_CACHE = 65_536
#: Moves (state, guess) whose ``Q*`` an :class:`ExactReward` keeps.
MOVE_CACHE = 65_536
#: The process's exact rewards by game (:func:`shared_reward`).
_SHARED: dict = {}


def ensure_exact_root(service) -> bool:
    """Make ``V*`` at the empty history exact for ``service``: when neither a tree whose
    opener is proven optimal nor a complete opener table covers the game, the empty history
    is solved exactly (:meth:`~solver.exact.service.SearchService.optimal_subtree`: the
    search over every allowed guess) and its tree joins the service's book with the proof
    record it earns (every opener of the guess list, the others at least the optimum).

    Returns True when the root was solved here, False when it was already covered (or its
    answers cannot all be won within the limit: the analysis values it with extra guesses).
    """
    if service.book.proven() is not None or service.table_root() is not None:
        return False
    import policy_tree
    from policy_tree.artifact import encode_artifact
    from solver.exact.versions import SOLVER_VERSION

    word_list, game = service.word_list, service.game
    state = np.arange(word_list.n_answers, dtype=np.int32)
    tree, value, extra = service.optimal_subtree(state, game.guess_limit, [])
    if tree is None or extra:
        return False
    used = tree.replay(service.parts.codes, state, 0)
    histogram = np.bincount(used, minlength=game.guess_limit + 1)[1:]
    proof = {"openers": word_list.n_guesses, "guesses_sha256": word_list.guesses_sha256,
             "others_at_least": int(value)}
    data = encode_artifact(word_list=word_list, tree=tree, mode=game.mode.value,
                           objective=game.objective.value, guess_limit=game.guess_limit,
                           opener=word_list.guesses[int(tree.node_guess[0])], total=int(used.sum()),
                           max_guesses=int(used.max()), histogram=histogram, solver_version=SOLVER_VERSION,
                           opener_proof=proof, feedback=game.feedback.value)
    service.book.add(policy_tree.decode(data))
    return True


@dataclass(frozen=True)
class StateValue:
    """``V*`` of a state (totals over its answers; ``per_game`` divides them for one game).

    Attributes:
        value: ``V*`` total when ``exact``, else the best found (an upper bound; None when
            none was found in time).
        lower: a proven lower bound (equal to ``value`` when exact).
        exact: whether ``value`` is proven optimal.
        optimal_guess: the optimal guess (the best found when not exact).
        extra: guesses past the limit the value counts (a state that cannot be won in time,
            docs/algorithms.md §15.2).
        per_game: the number of answers (the divisor of a total).
    """

    value: int | None
    lower: int | None
    exact: bool
    optimal_guess: str | None
    extra: int
    per_game: int

    @property
    def expected(self) -> float | None:
        """``V*/n``: expected guesses from here with optimal play (None when unknown)."""
        return None if self.value is None else self.value / self.per_game


@dataclass(frozen=True)
class MoveReward:
    """One move priced exactly (module docstring); expected guesses for one game.

    Attributes:
        number: 1 for the first guess.
        guess, feedback: the move and its feedback (``"bbygg"`` text).
        answers_before, answers_after: answers consistent before and after the move.
        guesses_left: ``d``, before the move.
        v_star, q_star: ``V*/n`` and ``Q*/n`` (``q_star`` is ``inf`` when the move gives up
            the sure finish; None when not exact).
        regret, regret_finite: ``q_star − v_star`` and its finite form (§15.4), as floats
            (None when not exact: see ``regret_interval``).
        regret_fraction: the finite regret as an exact Fraction (None when not exact).
        luck: the luck (None when not exact).
        optimal_guess: the optimal guess in the state the move was played in.
        exact: every figure proven; else ``regret_interval``, ``luck_interval`` hold them.
        regret_interval, luck_interval: ``(low, high)`` floats proven to hold the finite
            regret and the luck (a side None when unbounded).
        won: the feedback is all green.
    """

    number: int
    guess: str
    feedback: str
    answers_before: int
    answers_after: int
    guesses_left: int
    v_star: float | None
    q_star: float | None
    regret: float | None
    regret_finite: float | None
    regret_fraction: Fraction | None
    luck: float | None
    optimal_guess: str | None
    exact: bool
    regret_interval: tuple
    luck_interval: tuple | None
    won: bool

    @property
    def optimal(self) -> bool:
        """The move's regret is exactly 0."""
        return self.regret_fraction == 0

    def to_json(self) -> dict:
        """A JSON-ready dict (``inf`` as the string ``"inf"``)."""
        def number(x):
            return "inf" if isinstance(x, float) and math.isinf(x) else x

        return {"number": self.number, "guess": self.guess, "feedback": self.feedback,
                "answers_before": self.answers_before, "answers_after": self.answers_after,
                "guesses_left": self.guesses_left, "v_star": self.v_star, "q_star": number(self.q_star),
                "regret": number(self.regret), "regret_finite": self.regret_finite,
                "regret_fraction": None if self.regret_fraction is None else str(self.regret_fraction),
                "luck": self.luck, "optimal_guess": self.optimal_guess, "exact": self.exact,
                "regret_interval": list(self.regret_interval),
                "luck_interval": None if self.luck_interval is None else list(self.luck_interval),
                "won": self.won}


@dataclass(frozen=True)
class RewardWeights:
    """How the text and verifiers environments combine win, loss, regret and format.

    Per guess the reward is ``−regret × regret_finite`` (the move's finite regret in expected
    guesses; at a move valued only within a budget, the regret's proven upper end), plus
    ``win`` on the guess that wins and ``loss`` on the last guess of a lost game; an invalid
    move (format, unknown word, repeated word) costs ``invalid``. Defaults: win 1, loss 0,
    regret 1, invalid 0.1: an optimal player's game is worth exactly 1, whatever the answer,
    and an expected guess given away costs as much as the win.

    Raises:
        InputError: a weight that is not a finite number, or a negative ``regret`` or
            ``invalid`` (they are costs).
    """

    win: float = 1.0
    loss: float = 0.0
    regret: float = 1.0
    invalid: float = 0.1

    def __post_init__(self):
        for name in ("win", "loss", "regret", "invalid"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InputError(f"the {name} weight is a finite number, not {value!r}")
        if self.regret < 0 or self.invalid < 0:
            raise InputError("the regret and invalid weights are costs: numbers ≥ 0")

    def move_reward(self, move: MoveReward, *, won: bool, lost: bool) -> float:
        """The reward of one guess (class docstring)."""
        regret = move.regret_finite if move.regret_finite is not None else move.regret_interval[1]
        if regret is None:  # no upper bound was found in time: the win is the most it can cost
            regret = max(self.win - self.loss, 0.0)
        return -self.regret * regret + (self.win if won else 0.0) + (self.loss if lost else 0.0)


class ExactReward:
    """Prices moves of one game's lists and mode exactly, with bounded caches (module docstring).

    Args:
        service: the :class:`~solver.exact.service.SearchService` of the game.
        budget: seconds a move may take (> 0), or None (default): exact, however long.
        state_cache, move_cache: how many states and moves to keep (≥ 0).

    Raises:
        InputError: a budget that is not > 0; a cache size that is not a whole number ≥ 0.
    """

    def __init__(self, service, *, budget: float | None = None, state_cache: int = STATE_CACHE,
                 move_cache: int = MOVE_CACHE):
        from solver.exact.advice import check_budget
        from solver.game.checks import check_whole

        check_budget(budget)
        self.state_cache, self.move_cache = check_whole("state_cache", state_cache), check_whole(
            "move_cache", move_cache)
        self.service, self.budget = service, budget
        self.game = service.game
        self._states: OrderedDict = OrderedDict()
        self._moves: OrderedDict = OrderedDict()
        self.hits = self.misses = 0
        if budget is None:
            ensure_exact_root(service)

    # -- caches ------------------------------------------------------------------------------
    def _key(self, steps, state: np.ndarray) -> tuple:
        """A state's key: its answers and guesses left; in hard and ultra mode the history too
        (what may be guessed next depends on it)."""
        rule = tuple(steps) if self.game.mode is not Mode.NORMAL else ()
        return state.tobytes(), self.game.guess_limit - len(steps), rule

    def _get(self, cache: OrderedDict, key):
        value = cache.get(key)
        if value is not None:
            cache.move_to_end(key)
            self.hits += 1
        else:
            self.misses += 1
        return value

    @staticmethod
    def _put(cache: OrderedDict, key, value, size: int) -> None:
        if size:
            cache[key] = value
            if len(cache) > size:
                cache.popitem(last=False)

    # -- values ------------------------------------------------------------------------------
    def state_after(self, steps) -> np.ndarray:
        """int32 answer indices consistent with ``steps`` (``(guess, feedback code)`` pairs)."""
        return self.service.state_after(steps)

    def state_value(self, steps, state: np.ndarray | None = None) -> StateValue:
        """``V*`` of the state ``steps`` leave (exact without a budget; else within it)."""
        steps = list(steps)
        state = self.state_after(steps) if state is None else state
        key = self._key(steps, state)
        found = self._get(self._states, key)
        if found is not None:
            return found
        advice = self.service.advise(steps, top=0, budget=self.budget)
        result = StateValue(advice.value, advice.lower_bound, advice.status == EXACT, advice.next_guess,
                            advice.extra_guesses, int(len(state)))
        if advice.status != EXACT and self.budget is None:  # the root of lists with no opener proof
            tree, value, extra = self.service.optimal_subtree(state, self.game.guess_limit - len(steps), steps)
            result = StateValue(value, value, True, self.service.word_list.guesses[int(tree.node_guess[0])],
                                extra, int(len(state)))
        if result.exact:
            self._put(self._states, key, result, self.state_cache)
        return result

    def _q(self, steps, state: np.ndarray, before: StateValue, guess: str) -> tuple[int, int | None]:
        """``(Q*, finite cost)`` totals of ``guess`` (the cost only when it gives up the sure
        finish: ``Q*`` is then INF), exactly."""
        key = (*self._key(steps, state), guess)
        found = self._get(self._moves, key)
        if found is not None:
            return found
        d = self.game.guess_limit - len(steps)
        if guess == before.optimal_guess:
            result = (before.value, None)
        else:
            if not steps and not before.extra:  # every root class of the opener (its tree, kept)
                opener = self.service.opener_value(guess)
                q = INF if opener.unwinnable else opener.q.lower
            else:
                q = self.service.q_value(state, d, steps, guess, before.extra)
            cost = None
            if q >= INF:
                cost = self.service.relaxed_q(state, d, steps, guess, before.extra).cost(before.value)
            result = (q, cost)
        self._put(self._moves, key, result, self.move_cache)
        return result

    def q_total(self, steps, guess: str, state: np.ndarray | None = None) -> tuple[int, int | None]:
        """``(Q*, finite cost)`` totals of ``guess`` after ``steps``, exactly (``Q*`` INF and
        the cost of docs/algorithms.md §15.4 when the move gives up the sure finish; the cost
        None otherwise), kept in the move cache."""
        steps = list(steps)
        state = self.state_after(steps) if state is None else state
        return self._q(steps, state, self.state_value(steps, state), guess)

    def move(self, steps, guess: str, code: int) -> MoveReward:
        """The move ``guess`` with feedback ``code`` played after ``steps``, priced.

        Args:
            steps: the game before the move, ``(guess word, feedback code)`` pairs (checked by
                the caller: :meth:`solver.exact.service.SearchService.normalise`).
            guess: an allowed guess (as listed); code: its feedback code.

        Raises:
            UnknownWordError: ``guess`` is not an allowed guess.
        """
        started = time.monotonic()
        steps = list(steps)
        word_list = self.service.word_list
        state = self.state_after(steps)
        after = answers_after(self.service.parts, state, word_list.guess_index(guess), code)
        won = code == self.game.all_green
        n = int(len(state))
        if self.budget is not None:
            # within the budget: the move's Q* from the cache, or the optimal guess's (V*);
            # any other move is valued by the analysis within what is left (its Q* may need
            # a whole opener's tree or large classes solved: not bounded here)
            before = self.state_value(steps, state)
            left = self.budget - (time.monotonic() - started)
            known = (*self._key(steps, state), guess) in self._moves or guess == before.optimal_guess
            if not before.exact or left <= 0 or not known:
                return self._within_budget(steps, guess, code, max(left, 0.05))
        before = self.state_value(steps, state)
        q, cost = self._q(steps, state, before, guess)
        if won:
            after_value = Fraction(0)
        else:
            following = self.state_value([*steps, (guess, code)], after) if len(after) else None
            after_value = None if following is None or following.value is None else Fraction(
                following.value, max(len(after), 1))
        value = before.value
        spent = q if cost is None else cost
        regret_finite = Fraction(spent - value, n)
        luck = None if after_value is None else Fraction(spent - n, n) - after_value
        return MoveReward(len(steps) + 1, guess, code_to_text(code, word_list.word_length), n, int(len(after)),
                          self.game.guess_limit - len(steps), value / n,
                          math.inf if q >= INF else q / n, math.inf if q >= INF else float(regret_finite),
                          float(regret_finite), regret_finite, None if luck is None else float(luck),
                          before.optimal_guess, luck is not None, (float(regret_finite), float(regret_finite)),
                          None if luck is None else (float(luck), float(luck)), won)

    def _within_budget(self, steps, guess: str, code: int, seconds: float) -> MoveReward:
        """The move as the analysis values it within ``seconds`` (proven intervals)."""
        from solver.evaluation.analysis import analyse_game

        analysis = analyse_game(self.game, [*steps, (guess, code)], budget=seconds, service=self.service)
        move = analysis.moves[-1]
        per_game = move.per_game or move.answers_before

        def side(x):
            return None if x is None else float(x)

        regret_bounds = move.regret_finite_bounds or (None, None)
        strict = None
        if move.regret is not None:
            strict = float(move.regret)
        elif move.q_loses:
            strict = math.inf
        return MoveReward(move.number, guess, code_to_text(code, self.service.word_list.word_length),
                          move.answers_before, move.answers_after, move.guesses_left,
                          move.expected if move.value_exact else None,
                          math.inf if move.q_loses else (None if move.q_value is None else move.q_value / per_game),
                          strict, side(move.regret_finite), move.regret_finite, side(move.luck),
                          move.optimal_guess, move.exact, (side(regret_bounds[0]), side(regret_bounds[1])),
                          None if move.luck_bounds is None else tuple(side(x) for x in move.luck_bounds),
                          code == self.game.all_green)


def shared_reward(game) -> ExactReward:
    """The one :class:`ExactReward` (exact, no budget) of ``game`` (a
    :class:`~solver.game.spec.Game`: lists, mode, guess limit) in this process, on the one
    search service of that game: the environments (Gymnasium, text, verifiers) and the MCP
    server's games share what was solved and cached (vectorised copies too). Made on first
    use (on lists with no opener proof, the empty history is solved then:
    :func:`ensure_exact_root`)."""
    if game not in _SHARED:
        from solver.exact.service import SearchService

        _SHARED[game] = ExactReward(SearchService(game))
    return _SHARED[game]


def check_guess(service, steps, word: str) -> str:
    """``word`` as the lists spell it when it may be played after ``steps`` (an allowed guess;
    in hard mode one that uses every hint, in ultra-hard mode one consistent with the
    feedback), else InputError (UnknownWordError, HardModeError) saying why."""
    from solver.game.history import History

    word = word.strip().lower()
    index = service.word_list.guess_index(word)  # UnknownWordError
    if service.game.mode is not Mode.NORMAL:
        allowed = History.parse(service.game, steps, limit=False).allowed_guesses()
        if index not in set(int(i) for i in allowed):
            from solver.game.errors import HardModeError

            raise HardModeError(f"{word!r} is not allowed in {service.game.mode.value} mode after "
                                f"{' '.join(w for w, _ in steps)}: it ignores a hint")
    return service.word_list.guesses[index]

