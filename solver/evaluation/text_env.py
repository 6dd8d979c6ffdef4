"""Wordle as a text game for LLM agents, with TextArena's conventions and the exact reward.

The agent reads text and answers with text; its guess is the first word in square brackets
(``"I will try [salet]"``). After a guess it is told the feedback, one letter per position:
``G`` (green: right letter, right place), ``Y`` (yellow: in the word, elsewhere), ``X`` (not
in the word, or not that many times) — TextArena's ``Wordle-v0`` format (its prompt, its
``You submitted [word]. Feedback: …`` message), so an agent or a harness built for
TextArena's Wordle plays this one unchanged, on any lists: the shipped ones or a user's own
(``words=`` a directory or a :class:`~solver.game.wordlists.WordList`; ``V*`` is computed for
them).

**Invalid moves, as TextArena handles them** (``textarena.SinglePlayerState``, 0.7): a reply
with no ``[word]``, a word of the wrong length, a word already guessed, a word not in the
guess list (or, in hard mode, one that ignores a hint) is an invalid move. The player is told
why and may answer again: ``error_allowance`` (default 1, TextArena's) invalid moves in a row
are forgiven; the next one ends the game as lost (``game_info[0]["invalid_move"]`` True). A
valid guess resets the count. An invalid move uses no guess. Why TextArena's rule: an LLM's
format slips are common and one retry is what TextArena's own games and their published
results assume; a harness that wants no retry passes ``error_allowance=0``.

**Reward** (:class:`~solver.evaluation.exact_reward.RewardWeights`, documented weights):

- per guess: ``−regret × regret_finite`` (0 for an optimal guess; the regret in expected
  guesses, :mod:`solver.evaluation.exact_reward`);
- per invalid move: ``−invalid``;
- at the end: ``+win`` when won, ``+loss`` (default 0) when lost or ended by invalid moves.

The defaults (win 1, loss 0, regret 1, invalid 0.1) make an optimal player's game worth
exactly 1 whatever the answer (its luck does not count: regret is a property of the decision,
not of the draw), and every expected guess given away cost as much as the win is worth.
``info["reward"]`` is the step's reward; the game's total is the TextArena outcome reward
(``close()[0][0]``, ``state.rewards``). With a time budget, a move not valued in time is
rewarded at its regret's proven upper bound, labelled ``info["exact"] = False``.

**info** after a guess: ``v_star``, ``q_star``, ``regret``, ``regret_finite``, ``luck``,
``optimal_guess``, ``exact``, ``regret_interval``, ``luck_interval``, ``guess``,
``feedback``, ``answers_before``, ``answers_after``, ``reward``, ``won``; after an invalid
move ``invalid`` (the reason) and ``reward``.

TextArena is optional (the ``agents`` extra): when it is installed, the state is its own
``SinglePlayerState`` and ``textarena.make("ExactWordle-v0", words=...)`` builds this
environment with TextArena's default LLM wrappers (:func:`register_textarena`); without
it, a copy of that state's rules (:class:`_SinglePlayerState`) runs, with the same methods
(``reset``, ``step``, ``get_observation``, ``close``).
"""

from __future__ import annotations

import enum
import random
import re

from solver.evaluation.exact_reward import ExactReward, RewardWeights, check_guess
from solver.game.errors import InputError
from solver.game.spec import Mode

#: The environment's id in TextArena's registry.
TEXTARENA_ID = "ExactWordle-v0"
#: The first ``[word]`` of a reply (TextArena's Wordle reads the same pattern).
ACTION = re.compile(r"\[(\w+)\]")


def _textarena():
    """The textarena module, or None when it is not installed."""
    try:
        import textarena
    except ImportError:
        return None
    return textarena


class _ObservationType(enum.Enum):
    """TextArena's ``ObservationType`` names, when textarena is not installed."""

    PROMPT = enum.auto()
    PLAYER_ACTION = enum.auto()
    GAME_ACTION_DESCRIPTION = enum.auto()
    GAME_MESSAGE = enum.auto()
    GAME_BOARD = enum.auto()
    GAME_ADMIN = enum.auto()


GAME_ID = -1


class _SinglePlayerState:
    """TextArena 0.7's ``SinglePlayerState`` rules, for use without textarena: observations
    per player, ``error_allowance`` invalid moves in a row forgiven, the outcome reward."""

    def __init__(self, num_players: int = 1, seed=None, max_turns=None, error_allowance: int = 1):
        if num_players != 1:
            raise InputError(f"Wordle has one player, not {num_players}")
        self.num_players, self.max_turns, self.error_allowance = 1, max_turns, error_allowance
        self.current_player_id = 0

    def reset(self, game_state=None, player_prompt_function=None, role_mapping=None, secret_roles=None):
        self.game_state = game_state
        self.role_mapping = {0: "Player", GAME_ID: "GAME"}
        self.turn, self.done = 0, False
        self.step_info: dict = {}
        self.game_info = {0: {"role": "Player 0", "invalid_move": False, "turn_count": 0}}
        self.observations = {0: []}
        self.rewards = None
        self.logs = []
        self.error_count, self.made_invalid_move = 0, False
        if player_prompt_function is not None:
            self.add_observation(player_prompt_function(player_id=0, game_state=game_state),
                                 _ObservationType.PROMPT, to_id=0)

    def add_observation(self, message: str, observation_type, from_id: int = GAME_ID, to_id: int = -1):
        self.logs.append((from_id, message))
        self.observations[0].append((from_id, message, observation_type))

    def get_current_player_observation(self):
        observation, self.observations[0] = self.observations[0], []
        return observation

    def set_outcome(self, reward: float, reason: str | None = None):
        self.rewards = {0: reward}
        self.game_info[0]["reason"] = reason
        self.done = True

    def set_invalid_move(self, reason: str | None, reward: float = -1.0):
        if self.error_allowance > self.error_count:
            self.error_count += 1
            self.made_invalid_move = True
            self.add_observation(f"You attempted an invalid move. Reason: {reason} Please resubmit a valid move "
                                 "and remember to follow the game rules to avoid penalties.",
                                 _ObservationType.GAME_ADMIN)
        else:
            self.rewards = {0: reward}
            self.game_info[0]["reason"] = f"Invalid Move: {reason}"
            self.game_info[0]["invalid_move"] = True
            self.done = True

    def step(self):
        if not self.made_invalid_move:
            self.error_count = 0
            self.turn += 1
            self.game_info[0]["turn_count"] += 1
        if self.done:
            return True, self.step_info
        self.made_invalid_move = False
        step_info, self.step_info = self.step_info, {}
        return self.done, step_info

    def close(self):
        return self.rewards, self.game_info


class ExactWordleTextEnv:
    """Wordle as text, TextArena's way, with the exact reward (module docstring).

    Args:
        words: the lists: a shipped list's name (default ``"nyt-2024"``), a directory with
            answers.txt and guesses.txt, or a :class:`~solver.game.wordlists.WordList`.
        mode: ``"normal"``, ``"hard"`` or ``"ultra"``.
        weights: the reward's :class:`~solver.evaluation.exact_reward.RewardWeights`.
        error_allowance: invalid moves in a row forgiven (TextArena's default 1).
        budget: seconds a move's valuation may take (None: exact, however long).
        textarena: use TextArena's state (True), the built-in copy of its rules (False), or
            TextArena's when it is installed (None).

    Raises:
        InputError: unknown lists or mode, a negative allowance, a bad budget; MissingExtraError
            when ``textarena=True`` and it is not installed.
    """

    def __init__(self, words="nyt-2024", *, mode: str = "normal", weights: RewardWeights | None = None,
                 error_allowance: int = 1, budget: float | None = None, textarena: bool | None = None):
        from solver.game.checks import check_whole
        from solver.game.errors import require_extra
        from solver.game.wordlists import WordList, load_word_list

        self.word_list = words if isinstance(words, WordList) else load_word_list(words)
        self.error_allowance = check_whole("error_allowance", error_allowance)
        self.weights = weights or RewardWeights()
        if textarena:
            require_extra("textarena", "agents", "the TextArena state")
        self._ta = None if textarena is False else _textarena()
        from solver.evaluation.exact_reward import shared_reward
        from solver.game.spec import Game

        shared = shared_reward(Game(self.word_list, mode=mode))  # the process's one service of the game
        self.service = shared.service
        self.reward = shared if budget is None else ExactReward(self.service, budget=budget)
        self.length = self.word_list.word_length
        self.guess_limit = self.service.game.guess_limit

    # -- TextArena's Env interface --------------------------------------------------------------
    def reset(self, num_players: int = 1, seed: int | None = None, *, answer: str | None = None):
        """A new game: the answer drawn with ``random.Random(seed)`` (with no seed, Python's
        global generator, as TextArena's games draw), or ``answer``. Raises InputError for
        ``num_players`` other than 1 or an answer not in the answer list."""
        if num_players != 1:
            raise InputError(f"Wordle has one player, not {num_players}")
        if answer is not None:
            self.answer = self.word_list.answers[self.word_list.answer_index(answer.strip().lower())]
        else:
            draw = random if seed is None else random.Random(seed)
            self.answer = draw.choice(self.word_list.answers)
        ta = self._ta
        if ta is not None:
            self.state = ta.SinglePlayerState(num_players=1, seed=None, error_allowance=self.error_allowance)
        else:
            self.state = _SinglePlayerState(error_allowance=self.error_allowance)
        self.steps: list[tuple[str, int]] = []
        self.moves: list = []
        self.total_reward = 0.0
        self.invalid_moves = 0
        self.state.reset(game_state={"guess_history": [], "word_length": self.length,
                                     "num_guesses": self.guess_limit},
                         player_prompt_function=self._prompt)

    def _kind(self, name: str):
        return getattr(self._ta.ObservationType if self._ta is not None else _ObservationType, name)

    def _prompt(self, player_id: int, game_state: dict) -> str:
        mode = self.service.game.mode
        rule = "" if mode is Mode.NORMAL else (
            "Hard mode: every guess must keep the green letters in place and use every yellow letter.\n"
            if mode is Mode.HARD else "Ultra-hard mode: every guess must be a word that could be the answer.\n")
        return (f"You are Playing Wordle.\nA secret {self.length}-letter word has been chosen. You have "
                f"{self.guess_limit} attempts to guess it.\n{rule}"
                "For each guess, wrap your word in square brackets (e.g., '[apple]').\n"
                "Feedback for each letter will be given as follows:\n"
                "  - G (green): correct letter in the correct position\n"
                "  - Y (yellow): letter exists in the word but in the wrong position\n"
                "  - X (wrong): letter is not in the word\n"
                "Enter your guess to begin.\n")

    def get_observation(self):
        """``(player id, [(from id, message, observation type), ...])``: the messages since
        the last call (TextArena's)."""
        return self.state.current_player_id, self.state.get_current_player_observation()

    def close(self):
        """``(rewards, game_info)``: ``{0: the game's total reward}`` once over, and why it ended."""
        return self.state.close()

    def step(self, action: str):
        """Play a reply (module docstring). Returns ``(done, info)``. Raises RuntimeError once
        the game is over (call :meth:`reset`)."""
        if self.state.done:
            raise RuntimeError("the game is over: call reset()")
        state = self.state
        state.add_observation(str(action), self._kind("PLAYER_ACTION"), from_id=0)
        reason = None
        match = ACTION.search(str(action))
        if match is None:
            reason = "You tried submitting a word in the wrong format. Please make sure to use squared brackets."
        else:
            word = match.group(1).lower()
            if len(word) != self.length:
                reason = f"Your word must be exactly {self.length} letters."
            elif word in {w for w, _ in self.steps}:
                reason = f"You have already guessed '{word}' before. Please try a different word."
            else:
                try:
                    word = check_guess(self.service, self.steps, word)
                except InputError as exc:
                    reason = (f"'{word}' is not in the game's guess list." if "not an allowed guess" in str(exc)
                              else str(exc))
        if reason is not None:
            return self._invalid(reason)
        return self._guess(word)

    # -- the game ----------------------------------------------------------------------------
    def _invalid(self, reason: str):
        self.invalid_moves += 1
        penalty = -self.weights.invalid
        self.total_reward += penalty
        final = self.total_reward + self.weights.loss
        self.state.set_invalid_move(reason=reason, reward=final)
        self.state.step_info.update(invalid=reason, reward=penalty + (self.weights.loss if self.state.done else 0.0))
        return self.state.step()

    def _guess(self, word: str):
        from solver.game.feedback import feedback_code

        code = feedback_code(word, self.answer, self.service.game.feedback.value)
        move = self.reward.move(self.steps, word, code)
        self.steps.append((word, code))
        self.moves.append(move)
        won = move.won
        lost = not won and len(self.steps) >= self.guess_limit
        reward = self.weights.move_reward(move, won=won, lost=lost)
        self.total_reward += reward
        letters = " ".join(word.upper())
        feedback = " ".join(move.feedback.upper().replace("B", "X"))
        state = self.state
        state.game_state["guess_history"].append((word, list(feedback.split())))
        if won:
            state.set_outcome(reward=self.total_reward, reason="Congratulations! You guessed the word correctly!")
        elif lost:
            state.set_outcome(reward=self.total_reward,
                              reason=f"The turn limit has been reached. You didn't guess the word.\n"
                                     f"The secret word was: **{self.answer}**.")
        else:
            state.add_observation(f"You submitted [{word}].\nFeedback:\n{letters}\n{feedback}\n"
                                  f"You have {self.guess_limit - len(self.steps)} guesses left.",
                                  self._kind("GAME_MESSAGE"))
        state.step_info.update(move.to_json(), guess=word, reward=reward, won=won)
        return state.step()


def register_textarena() -> bool:
    """Register :data:`TEXTARENA_ID` in TextArena's registry (once), with TextArena's default
    LLM wrappers, so that ``textarena.make("ExactWordle-v0", words=...)`` builds
    :class:`ExactWordleTextEnv`. Returns False when textarena is not installed."""
    ta = _textarena()
    if ta is None:
        return False
    from textarena.envs.registration import ENV_REGISTRY

    if TEXTARENA_ID not in ENV_REGISTRY:
        from textarena.envs import DEFAULT_WRAPPERS

        ta.register(id=TEXTARENA_ID, entry_point="solver.evaluation.text_env:ExactWordleTextEnv",
                    default_wrappers=DEFAULT_WRAPPERS)
    return True
