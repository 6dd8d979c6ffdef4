"""``ExactWordle-v0``: a Gymnasium environment whose ``info`` carries the exact optimum.

One episode is one game of Wordle (normal mode; the rules are
:class:`solver.game.environments.Episode`'s) against an answer drawn with the
environment's ``np_random`` at :meth:`ExactWordleEnv.reset` (or given:
``reset(options={"answer": "cigar"})``). Every step the agent plays a guess; besides the
usual reward it learns what the move was worth against the exact optimum (Bertsimas &
Paskov, Operations Research 2024, §3; docs/algorithms.md §2), from the project's search
service (:class:`solver.exact.service.SearchService`: the opener's optimal decision tree,
shipped or solved once and cached, and exactly solved subtrees off it):

- ``info["optimal_value"]``: ``V*(S, d)``, the least total number of guesses still needed,
  summed over the answers ``S`` still possible with ``d`` guesses left (0 once won);
  ``info["optimal_expected"]`` is ``V*/|S|``, the expected further guesses of one game;
  ``info["optimal_guess"]`` the optimal next guess (the solver's tie-break);
  ``info["extra_guesses"]`` > 0 when the answers left cannot all be won in time (values then
  count guesses past the limit, docs/algorithms.md §15.2);
- ``info["regret"]`` (after a step): ``Q*(S, d, g) − V*(S, d)`` for the state ``S`` the guess
  ``g`` was played in: the guesses the move costs, summed over ``S``'s answers (0 for an
  optimal move; ``inf`` when some answer can then no longer be won within the limit);
  ``info["regret_per_game"]`` is that over ``|S|``; ``info["regret_finite"]`` (and
  ``regret_finite_per_game``) the finite regret of docs/algorithms.md §15.4, equal to the
  regret but for such a move, which it values finitely (the limit relaxed, plus the answers
  left with no sure finish), so that an episode's sum is always finite. Averaged over the answers, the sum of an
  episode's ``regret_per_game`` is the policy's expected number of guesses less the optimum's
  (every game won in time): the gap, move by move.

Regret is a property of the agent's decision, not of its luck: it depends on the answers still
possible, not on which one was drawn.

By default the lists are today's game's, :data:`solver.game.wordlists.PLAY_LISTS`
(``"nyt-2024"``, as for every play and analysis default: docs/api.md), and the first guess is
SALET (``opener="salet"``, the proven best opener of the legacy lists, whose optimal tree is
shipped for both lists): reset plays it, and the agent's first action is the second guess
(research on heuristics compares them from a fixed opener, as :func:`solver.score` does);
the answer is then drawn among the others (the opener's own game has no decision).
With ``opener=None`` the agent chooses the first guess too; the exact value of an opener
without a shipped or cached tree is its whole optimal tree, solved once (seconds for common
openers, minutes for odd ones such as FUZZY on two cores) and kept in the user cache, and on
lists without a proven best opener (shipped) the empty history is solved exactly first (the
work of a proof: fine for small lists, long for large ones).

Spaces: the action is a guess index (``Discrete(n_guesses)``, into ``word_list.guesses``);
the observation an int64 array of shape ``(guess_limit, 2)``, row ``k`` holding guess ``k``'s
index + 1 and its feedback code + 1 (:func:`solver.game.feedback.code_to_text`), zeros for
guesses not yet played. Reward: −1 per guess, and ``-loss_penalty`` more when the last allowed
guess does not win. The episode terminates when the game is won or lost (``guess_limit``
guesses played).
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from solver.game.environments import Episode
from solver.game.feedback import code_to_text
from solver.game.spec import GUESS_LIMIT, Game, all_green, n_patterns
from solver.game.wordlists import PLAY_LISTS

from solver import register_environment

def _shared(word_list, guess_limit: int):
    """The process's one exact reward and search service of these lists and guess limit
    (:func:`solver.evaluation.exact_reward.shared_reward`): environments of a process, and
    vectorised copies, share what was solved and the values of the states and moves met
    (bounded caches); on lists with no proven opener the empty history is solved exactly
    once, so that every reset reads V* at the start from its tree."""
    from solver.evaluation.exact_reward import shared_reward

    return shared_reward(Game(word_list, guess_limit))


class ExactWordleEnv(gym.Env):
    """Wordle with the exact optimum and each move's regret in ``info`` (module docstring).

    Args:
        words: the lists (default :data:`~solver.game.wordlists.PLAY_LISTS`, ``"nyt-2024"``): a
            shipped list's name (``"nyt-2024"``, ``"legacy"``, ...), a
            directory with answers.txt and guesses.txt, or a
            :class:`~solver.game.wordlists.WordList`.
        opener: the first guess, played by :meth:`reset` (default ``"salet"``); None: the
            agent plays it.
        guess_limit: guesses in a game (6).
        loss_penalty: subtracted from the last step's reward of a lost game (≥ 0).
        render_mode: None or ``"ansi"`` (:meth:`render` returns the game as text).

    Raises:
        InputError: an unknown list or opener, a guess limit below 1, a negative penalty.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, words=PLAY_LISTS, *, opener: str | None = "salet", guess_limit: int = GUESS_LIMIT,
                 loss_penalty: float = 1.0, render_mode: str | None = None):
        from solver.game.errors import InputError
        from solver.game.wordlists import WordList, load_word_list

        self.word_list = words if isinstance(words, WordList) else load_word_list(words)
        if isinstance(guess_limit, bool) or not isinstance(guess_limit, int) or guess_limit < 1:
            raise InputError(f"the guess limit is a whole number ≥ 1, not {guess_limit!r}")
        if not (isinstance(loss_penalty, (int, float)) and math.isfinite(loss_penalty) and loss_penalty >= 0):
            raise InputError(f"the loss penalty is a finite number ≥ 0, not {loss_penalty!r}")
        if render_mode not in (None, "ansi"):
            raise InputError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.opener = None if opener is None else self.word_list.guesses[self.word_list.guess_index(opener)]
        if self.opener is not None and guess_limit < 2:
            raise InputError("with an opener the guess limit must be at least 2 (the agent plays the rest)")
        self.guess_limit = guess_limit
        self.loss_penalty = float(loss_penalty)
        self.render_mode = render_mode
        self._reward = _shared(self.word_list, guess_limit)
        self.service = self._reward.service
        self.length = self.word_list.word_length
        self.green = all_green(self.length)
        self.action_space = spaces.Discrete(self.word_list.n_guesses)
        rows = np.array([[self.word_list.n_guesses + 1, n_patterns(self.length) + 1]] * guess_limit,
                        dtype=np.int64)
        self.observation_space = spaces.MultiDiscrete(rows)
        opener_answer = -1 if self.opener is None else int(
            self.word_list.guess_answer_index[self.word_list.guess_index(self.opener)])
        #: The answers reset draws from (all but the opener).
        self._candidates = np.array([a for a in range(self.word_list.n_answers) if a != opener_answer],
                                    dtype=np.int64)
        if len(self._candidates) == 0:
            raise InputError("the only answer is the opener: no game to play")
        self._answer = int(self._candidates[0])
        self._steps: list[tuple[str, int]] = []
        self._state = np.arange(self.word_list.n_answers, dtype=np.int32)

    # -- the exact values --------------------------------------------------------------------
    def _values(self) -> dict:
        """The optimum at the current state: V*, V*/|S|, the optimal guess (none once over)."""
        n = int(len(self._state))
        over = bool(self._steps) and (self._steps[-1][1] == self.green or len(self._steps) >= self.guess_limit)
        if over:
            return {"answers_left": n, "optimal_value": 0, "optimal_expected": 0.0, "optimal_guess": "",
                    "extra_guesses": 0}
        # exact (the empty history of lists with no opener proof solved once, by the service)
        value = self._reward.state_value(self._steps, self._state)
        return {"answers_left": n, "optimal_value": int(value.value), "optimal_expected": float(value.value) / n,
                "optimal_guess": value.optimal_guess, "extra_guesses": int(value.extra)}

    def _regret(self, before: dict, state: np.ndarray, guess: str) -> tuple[float, float]:
        """``(strict, finite)`` regret at the state ``guess`` was played in: ``Q*(S, d, guess)
        − V*(S, d)`` (``inf`` when the move gives up the sure finish) and the finite regret of
        docs/algorithms.md §15.4 (equal to it otherwise), from the shared exact reward
        (:class:`solver.evaluation.exact_reward.ExactReward`: the states met before are cached)."""
        q, cost = self._reward.q_total(self._steps, guess, state)
        value = before["optimal_value"]
        if cost is None:
            return float(q - value), float(q - value)
        return math.inf, float(cost - value)

    def _play(self, guess_index: int) -> None:
        """The guess played by the game's rules (:class:`solver.game.environments.Episode`)."""
        code = self._game.step(guess_index)
        self._state = self._game.state
        self._steps.append((self.word_list.guesses[guess_index], code))

    def _observation(self) -> np.ndarray:
        obs = np.zeros((self.guess_limit, 2), dtype=np.int64)
        for k, (word, code) in enumerate(self._steps):
            obs[k] = (self.word_list.guess_index(word) + 1, code + 1)
        return obs

    # -- gymnasium -------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game: the answer drawn with ``np_random`` (or ``options["answer"]``), the
        opener played. Returns ``(observation, info)``; info as the module docstring says
        (no regret yet) plus ``"opener_regret"`` when an opener was played.

        With an opener, the answer is drawn among the answers other than the opener: a game
        the opener wins has no decision left (and an episode cannot end at reset); asking
        for it as ``options["answer"]`` raises InputError.

        Raises InputError for a ``seed`` that is not None or a whole number ≥ 0, ``options``
        that are not None or a dict whose only key is ``"answer"``, and an answer that is not
        an answer of the lists (UnknownWordError)."""
        from collections.abc import Mapping

        from solver.game.checks import check_whole
        from solver.game.errors import InputError, short_repr

        if seed is not None:
            check_whole("seed", seed)
        if options is not None and not isinstance(options, Mapping):
            raise InputError(f"options must be a dict like {{'answer': 'cigar'}} or None, not "
                             f"{short_repr(options)}")
        options = options or {}
        unknown = [key for key in options if key != "answer"]
        if unknown:
            raise InputError(f"options has the key {short_repr(unknown[0])}; the only option is "
                             "'answer' (the answer to play against)")
        super().reset(seed=seed)
        candidates = self._candidates
        if options.get("answer") is not None:
            self._answer = self.word_list.answer_index(options["answer"])
            if self._answer not in candidates:
                raise InputError(f"{options['answer']!r} is the opener: the game is won before a decision")
        else:
            self._answer = int(candidates[int(self.np_random.integers(len(candidates)))])
        self._game = Episode(self.word_list, self.service.table, self._answer, guess_limit=self.guess_limit)
        self._steps = []
        self._state = self._game.state
        info: dict = {}
        if self.opener is not None:
            before = self._values()
            regret, finite = self._regret(before, self._state, self.opener)
            self._play(self.word_list.guess_index(self.opener))
            info["opener_regret"], info["opener_regret_finite"] = regret, finite
        info.update(self._values(), guesses=len(self._steps), won=False)
        return self._observation(), info

    def _won(self) -> bool:
        return bool(self._steps) and self._steps[-1][1] == self.green

    def _over(self) -> bool:
        return self._won() or len(self._steps) >= self.guess_limit

    def step(self, action):
        """Play guess index ``action``. Returns ``(observation, reward, terminated, truncated,
        info)``; info has ``regret``, ``regret_per_game``, ``guess``, ``feedback``, ``won``,
        ``guesses`` and the optimum at the new state (module docstring). Raises RuntimeError
        after the game ended (call reset) and :class:`~solver.game.errors.ActionError` (an
        InputError and a ValueError) for an action that is not a guess index, e.g. out of
        range, a float, a string or an array."""
        if self._over():
            raise RuntimeError("the game is over: call reset()")
        if isinstance(action, bool) or not (np.isscalar(action) and self.action_space.contains(action)):
            from solver.game.errors import ActionError, short_repr

            raise ActionError(f"action must be a guess index 0..{self.word_list.n_guesses - 1}, "
                              f"got {short_repr(action)}")
        guess_index = int(action)
        guess = self.word_list.guesses[guess_index]
        state = self._state
        before = self._values()
        regret, finite = self._regret(before, state, guess)
        self._play(guess_index)
        won, over = self._won(), self._over()
        reward = -1.0 - (self.loss_penalty if over and not won else 0.0)
        info = {"guess": guess, "feedback": code_to_text(self._steps[-1][1], self.length),
                "regret": regret, "regret_per_game": regret / len(state),
                "regret_finite": finite, "regret_finite_per_game": finite / len(state),
                "guesses": len(self._steps), "won": won, **self._values()}
        return self._observation(), reward, over, False, info

    def render(self):
        """The game so far as text lines ``salet bbybb`` (render_mode ``"ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        lines = [f"{word} {code_to_text(code, self.length)}" for word, code in self._steps]
        return "\n".join(lines + [f"{len(self._state)} answers possible"])


# Whatever was imported first (this package before gymnasium), this module registers it.
register_environment()
