"""The verifiers environment (solver.evaluation.verifiers_env): loaded with verifiers' own
loader, full episodes run through verifiers' episode machinery (Env.run_episode: setup, run,
finalize) offline, a scripted model in place of the harness and its model client — it reads
only the text the game sends, as a model would."""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest
import verifiers.v1 as vf
from verifiers.v1.agent import Segment
from verifiers.v1.trace import AgentInfo, Trace, TraceTask

from solver.evaluation.analysis import analyse_game
from solver.evaluation.exact_reward import shared_reward
from solver.game.spec import Game
from solver.game.wordlists import load_word_list
from solver.evaluation.verifiers_env import load_environment
from solver.game.feedback import parse_feedback


class ScriptedInteraction:
    """An agent's interaction whose replies come from ``model(messages) -> text``."""

    def __init__(self, task, model):
        self.model = model
        self.messages = [{"role": "system", "content": task.data.system_prompt},
                         {"role": "user", "content": task.data.prompt}]
        self.trace = Trace(task=TraceTask(type=type(task).__name__, data=task.data),
                           agent=AgentInfo(config=vf.AgentConfig(), name="player"))

    async def turn(self, message: str | None = None) -> Segment:
        if message is not None:
            self.messages.append({"role": "user", "content": message})
        reply = self.model(self.messages)
        if reply is None:  # the model's turn limit: the run ends
            return Segment(messages=[], terminated=True)
        self.messages.append({"role": "assistant", "content": reply})
        return Segment(messages=[vf.AssistantMessage(content=reply)])


class ScriptedAgents:
    def __init__(self, model, completed):
        self.model, self.completed = model, completed

    @property
    def player(self):
        return self

    @contextlib.asynccontextmanager
    async def interaction(self, task):
        interaction = ScriptedInteraction(task, self.model)
        yield interaction
        interaction.trace.ok = True  # the rollout finished without failing, as verifiers' own marks it
        self.completed.append(interaction.trace)


def episode(env, task, model):
    env._episode_agents = lambda ctx, completed, on_trace, on_discard: ScriptedAgents(model, completed)
    return asyncio.run(env.run_episode(task, ctx=None))


def history_of(messages) -> list[tuple[str, int]]:
    """The game so far from the text alone: each valid guess and its G/Y/X feedback."""
    steps = []
    for message in messages:
        found = re.search(r"You submitted \[(\w+)\]\.\nFeedback:\n[A-Z ]+\n([GYX ]+)\n", message["content"])
        if message["role"] == "user" and found:
            steps.append((found.group(1), parse_feedback(found.group(2).replace(" ", "").lower().replace("x", "b"))))
    return steps


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory):
    from conftest import numpy_sub_list

    word_list = numpy_sub_list(11, 40, 80)[0]
    directory = tmp_path_factory.mktemp("lists")
    for kind, words in (("answers", word_list.answers), ("guesses", word_list.guesses)):
        (directory / f"{kind}.txt").write_text("\n".join(words) + "\n")
    return directory, word_list


@pytest.mark.kernels
def test_the_optimal_model_scores_win_plus_format_with_zero_regret_every_turn(small_dir):
    directory, word_list = small_dir
    env = load_environment(str(directory))
    tasks = list(env.taskset)
    assert sorted(t.data.info["answer"] for t in tasks) == sorted(word_list.answers)
    service = shared_reward(Game(load_word_list(directory))).service

    def optimal(messages):
        return f"Let me think. My guess: [{service.advise(history_of(messages), top=0).next_guess}]"

    for task in tasks[:4]:
        result = episode(env, task, optimal)
        assert result.ok, result.errors
        (trace,) = result.traces
        assert trace.info["won"] and all(m["regret_fraction"] == "0" for m in trace.info["moves"])
        scores = {name: (r.score, r.weight) for name, r in trace.rewards.items()}
        assert scores == {"win": (1.0, 1.0), "exact_regret": (0.0, 1.0), "format": (1.0, 0.1)}
        assert trace.reward == pytest.approx(1.1)
        assert trace.metrics["invalid_moves"] == 0 and trace.metrics["guesses"] == len(trace.info["moves"])


@pytest.mark.kernels
def test_a_fixed_suboptimal_model_gets_the_regret_analyse_gives_and_loses_format(small_dir):
    """The model's first reply has no bracketed word (invalid, forgiven), then it plays the
    list's last guess and the first answer still possible; the trace's per-turn regrets are
    analyse_game's, its reward win − Σ regret + 0.1 × (valid share)."""
    directory, word_list = small_dir
    env = load_environment(str(directory), win=2.0, regret=0.5)
    task = list(env.taskset)[5]
    service = shared_reward(Game(load_word_list(directory))).service

    def fixed(messages):
        replies = sum(1 for m in messages if m["role"] == "assistant")
        if replies == 0:
            return "I am not sure what to play."
        steps = history_of(messages)
        if not steps:
            return f"[{word_list.guesses[-1]}]"
        return f"[{word_list.answers[int(service.state_after(steps)[0])]}]"

    result = episode(env, task, fixed)
    assert result.ok, result.errors
    (trace,) = result.traces
    moves = trace.info["moves"]
    steps = [(m["guess"], parse_feedback(m["feedback"])) for m in moves]
    analysis = analyse_game(service.game, steps, service=service)
    assert [m["regret_fraction"] for m in moves] == [str(m.regret_finite) for m in analysis.moves]
    assert moves[0]["regret_finite"] > 0
    replies = len(moves) + 1
    assert trace.rewards["format"].score == pytest.approx(len(moves) / replies)
    assert trace.rewards["exact_regret"].score == pytest.approx(-float(analysis.total_regret_finite))
    assert trace.metrics["regret_turn_1"] == pytest.approx(float(analysis.moves[0].regret_finite))
    assert trace.reward == pytest.approx(2.0 * analysis.won - 0.5 * float(analysis.total_regret_finite)
                                         + 0.1 * len(moves) / replies)


@pytest.mark.kernels
def test_a_model_stopped_by_its_turn_limit_gets_no_win(small_dir):
    directory, word_list = small_dir
    env = load_environment(str(directory))
    task = list(env.taskset)[0]
    replies = iter([f"[{word_list.guesses[0]}]", None])
    result = episode(env, task, lambda messages: next(replies))
    (trace,) = result.traces
    assert trace.rewards["win"].score == 0.0 and len(trace.info["moves"]) == 1
