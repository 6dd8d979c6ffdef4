"""A ``verifiers`` environment: Wordle played turn by turn, rewarded by each guess's exact regret.

Built on the verifiers library's own API (0.4, ``verifiers.v1``): a taskset
(:class:`ExactWordleTaskset`, one task per answer, in a seeded order) and a multi-turn
environment (:class:`ExactWordleVerifiersEnv`) whose ``run`` plays the game the way
verifiers' own TextArena environment does — the model's reply is stepped through the text
game (:class:`solver.evaluation.text_env.ExactWordleTextEnv`: TextArena's ``[word]`` format,
``G``/``Y``/``X`` feedback, its invalid-move rule), and the next user turn is the game's
feedback — and records its rewards on the rollout's trace, with their weights
(``Trace.record_reward(name, score, weight)``; the rollout's reward is ``Σ score × weight``):

==============  ======================================================  =============
reward          score                                                   weight
==============  ======================================================  =============
``win``         1 when the game is won, else 0                          ``win`` (1)
``exact_regret``  ``−Σ_t regret_t``: the guesses' exact regrets (expected  ``regret`` (1)
                guesses given away, :mod:`solver.evaluation.exact_reward`;
                0 for optimal play) summed over the game's turns
``format``      the share of the model's replies that were valid moves  ``format`` (0.1)
                (a ``[word]`` of the guess list, not guessed before)
==============  ======================================================  =============

So optimal play scores exactly ``win + 0.1`` on every answer (its luck does not count), and
each expected guess given away costs as much as the win. The per-turn figures are on the
trace too: ``trace.info["moves"]`` (each guess's ``V*``, ``Q*``, regret, luck, optimal guess)
and the metrics ``regret_turn_<t>``, ``guesses``, ``invalid_moves``.

Load it with :func:`load_environment` (``load_environment(words="nyt-2024", mode="normal")``)
or by id with verifiers' own loader: the taskset id ``exact-wordle`` names the installed
package :mod:`exact_wordle` that exports these classes (verifiers imports a taskset by its
id).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import verifiers.v1 as vf
from pydantic import Field

from solver.evaluation.exact_reward import RewardWeights
from solver.evaluation.text_env import ExactWordleTextEnv

#: The verifiers taskset id of this environment (the package :mod:`exact_wordle`).
TASKSET_ID = "exact-wordle"
#: The system prompt of every task: the format the game reads.
SYSTEM_PROMPT = ("You are playing Wordle. Think step by step if you like, then give your guess as the only "
                 "square-bracketed word in your reply, e.g. [crane]; the game reads the first bracketed word.")


class ExactWordleTasksetConfig(vf.TasksetConfig):
    """The game: lists, mode, the reward's weights, the invalid-move allowance, the order."""

    words: str = "nyt-2024"
    """A shipped list's name or a directory with answers.txt and guesses.txt."""
    mode: str = "normal"
    """normal, hard or ultra."""
    win: float = 1.0
    """Weight of the win reward."""
    regret: float = Field(1.0, ge=0)
    """Weight of the exact-regret reward (−Σ regret)."""
    format: float = Field(0.1, ge=0)
    """Weight of the format reward (share of valid replies)."""
    error_allowance: int = Field(1, ge=0)
    """Invalid replies in a row forgiven (TextArena's rule); the next one ends the game."""
    budget: float | None = Field(None, gt=0)
    """Seconds a guess's valuation may take (None: exact; else proven intervals)."""
    seed: int = Field(0, ge=0)
    """The answers' order."""


class ExactWordleData(vf.TaskData):
    info: dict
    """The answer and the game's settings (seen by the environment, not the model)."""


class ExactWordleTask(vf.Task[ExactWordleData, vf.State, vf.TaskConfig]):
    pass


class ExactWordleTaskset(vf.Taskset[ExactWordleTask, ExactWordleTasksetConfig]):
    """One task per answer of the lists, in the order ``random.Random(seed)`` shuffles them;
    the prompt is the text game's (TextArena's Wordle prompt)."""

    def load(self) -> Iterator[ExactWordleTask]:
        """Yield one :class:`ExactWordleTask` per answer, in the seeded shuffled order, each with
        the text game's prompt and the answer and settings in its ``info``."""
        config = self.config
        game = _game(config)
        game.reset(answer=game.word_list.answers[0])
        prompt = game.get_observation()[1][0][1]
        answers = list(game.word_list.answers)
        random.Random(config.seed).shuffle(answers)
        for number, answer in enumerate(answers):
            yield ExactWordleTask(
                ExactWordleData(name=f"wordle#{number}", prompt=prompt, system_prompt=SYSTEM_PROMPT,
                                info={"answer": answer, "words": config.words, "mode": config.mode}),
                config.task)


class ExactWordleEnvConfig(vf.EnvConfig):
    """The environment's settings: the agent that plays the game (``player``)."""
    player: vf.AgentConfig = vf.AgentConfig()


def _game(config: ExactWordleTasksetConfig) -> ExactWordleTextEnv:
    """The text game of the taskset's settings (its search service shared in the process)."""
    return ExactWordleTextEnv(config.words, mode=config.mode, error_allowance=config.error_allowance,
                              budget=config.budget, weights=RewardWeights(win=config.win, regret=config.regret),
                              textarena=False)


def _feedback(observation) -> str:
    """The game's messages since the model's reply (its feedback, or why the move was invalid)."""
    return "\n".join(message for sender, message, _ in observation if sender != 0)


class ExactWordleVerifiersEnv(vf.Env[ExactWordleEnvConfig]):
    """The game engine plays the user: each reply is a move, the feedback the next turn."""

    async def run(self, task, agents):
        """Play one game of ``task``: each reply of the player is a move, the game's feedback the
        next turn, until the game is done or the player stops; the rewards are then recorded on the
        interaction's trace (:func:`record`)."""
        config = self.taskset.config
        game = _game(config)
        game.reset(answer=task.data.info["answer"])
        game.get_observation()  # the prompt: the task's own
        replies = valid = 0
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                replies += 1
                before = len(game.moves)
                done, _ = game.step(segment.last_reply)
                valid += len(game.moves) - before
                if done:
                    break
                segment = await interaction.turn(_feedback(game.get_observation()[1]))
        record(interaction.trace, game, config, replies, valid)


def record(trace, game: ExactWordleTextEnv, config: ExactWordleTasksetConfig, replies: int, valid: int) -> None:
    """The rewards and per-turn figures of a finished (or stopped) game, on ``trace``."""
    won = bool(game.moves) and game.moves[-1].won
    regrets = [m.regret_finite if m.regret_finite is not None else m.regret_interval[1] for m in game.moves]
    total = None if None in regrets else sum(regrets)
    trace.record_reward("win", 1.0 if won else 0.0, config.win)
    # a regret not bounded within the budget: the most it can cost is the whole win
    trace.record_reward("exact_regret", -(total if total is not None else max(config.win, 0.0)), config.regret)
    trace.record_reward("format", valid / replies if replies else 0.0, config.format)
    for move, regret in zip(game.moves, regrets):
        if regret is not None:
            trace.record_metric(f"regret_turn_{move.number}", regret)
    trace.record_metric("guesses", len(game.moves))
    trace.record_metric("invalid_moves", game.invalid_moves)
    trace.info["answer"] = game.answer
    trace.info["won"] = won
    trace.info["moves"] = [m.to_json() for m in game.moves]


def load_environment(words: str = "nyt-2024", mode: str = "normal", *, win: float = 1.0,
                     regret: float = 1.0, format: float = 0.1, error_allowance: int = 1,
                     budget: float | None = None, seed: int = 0, **env) -> ExactWordleVerifiersEnv:
    """The environment (module docstring) for ``words`` and ``mode``, its rewards weighted
    ``win``, ``regret``, ``format``. ``env``: further :class:`ExactWordleEnvConfig` fields
    (``player=vf.AgentConfig(model=..., client=...)``, ``timeout``, ...).

    Raises:
        pydantic.ValidationError: a negative weight or allowance, a budget not > 0.
        InputError: unknown lists or mode (when the taskset is read).
    """
    taskset = ExactWordleTasksetConfig(id=TASKSET_ID, words=words, mode=mode, win=win, regret=regret,
                                       format=format, error_allowance=error_allowance, budget=budget,
                                       seed=seed)
    config = ExactWordleEnvConfig(taskset=taskset, **env)
    return vf.load_environment(config)


__all__ = ["ExactWordleTaskset", "ExactWordleVerifiersEnv", "ExactWordleTasksetConfig", "ExactWordleEnvConfig",
           "load_environment"]
