"""``python -m benchmarks.bench_agents``: how fast agents' games are scored and rewarded exactly.

Two scripted agents play: ``entropy`` (the classic maximum-entropy agent,
:mod:`solver.policies.classic`) and ``random`` (a random valid agent: a uniformly random
answer still possible, ``random_possible``), both from the lists' proven best opener (TARSE
for nyt-2024, SALET for legacy; an agent's own opener without a shipped tree would have its
tree solved once, seconds to a minute, before the first score). The benchmark

1. writes a game log of ``--games`` games per agent (JSON Lines, ``wordle score-games``'s
   input; ``--log FILE`` keeps it) and times :class:`solver.evaluation.game_log.GameScorer`
   on it in this process (kernels loaded, the search service fresh): games per second;
2. times the steps of the text environment (:mod:`solver.evaluation.text_env`) and of the
   Gymnasium one (``ExactWordle-v0``), ``--episodes`` episodes per agent: a first pass from a
   new search service and empty caches, then the same episodes again with warm caches (the
   states the agents meet recur): steps per second of ``step`` alone (the agents' own
   thinking not counted);
3. does 2 on a user's list too: ``--custom`` answers of the legacy lists and five times as
   many guesses drawn with the seed, written to a directory (V* computed for it: the empty
   history is solved exactly first, timed apart).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from benchmarks.record import record
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, positive_count, seed

AGENTS = {"entropy": "entropy", "random": "random_possible"}
PROG = "python -m benchmarks.bench_agents"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="nyt-2024", help="the shipped lists (default nyt-2024)")
    parser.add_argument("--games", type=positive_count, default=500, help="games per agent in the log (default 500)")
    parser.add_argument("--episodes", type=positive_count, default=200,
                        help="episodes per agent and environment (default 200)")
    parser.add_argument("--custom", type=positive_count, default=200,
                        help="answers of the user's list (default 200; 0 is not allowed)")
    parser.add_argument("--seed", type=seed, default=0, help="the answers' and the random agent's seed")
    parser.add_argument("--log", default=None, metavar="FILE", help="keep the game log in FILE")
    parser.add_argument("--no-record", action="store_true", help="print only; keep no results file")
    add_debug_option(parser)
    return parser


class Agent:
    """A policy of the registry playing from ``opener``; decisions of the deterministic one
    are kept by history (the benchmark times the environments, not the agents)."""

    def __init__(self, name: str, policy, opener: str, seed_value: int):
        self.name, self.policy, self.seed = name, policy, seed_value
        self.opener = opener
        self._memo: dict = {}
        self.restart()

    def restart(self) -> None:
        """Its random choices from the start again: a pass replays the same games."""
        self.rng = np.random.default_rng(self.seed)

    def guess(self, service, steps) -> str:
        from solver.game.protocol import Belief

        if not steps:
            return self.opener
        key = tuple(steps)
        if self.policy.deterministic and key in self._memo:
            return self._memo[key]
        state = service.state_after(steps)
        index = self.policy.choose(Belief(state, service.game.guess_limit - len(steps)), self.rng)
        word = service.word_list.guesses[index]
        if self.policy.deterministic:
            self._memo[key] = word
        return word


def make_agents(service, seed_value: int) -> list[Agent]:
    from solver.policies.registry import make_policy

    opener = service.advise([], top=0).next_guess
    table = service.table
    return [Agent(name, make_policy(policy, service.word_list, table), opener, seed_value)
            for name, policy in AGENTS.items()]


def play(service, agent: Agent, answer: str) -> list[str]:
    from solver.game.feedback import feedback_code

    steps: list[tuple[str, int]] = []
    while len(steps) < service.game.guess_limit:
        word = agent.guess(service, steps)
        steps.append((word, feedback_code(word, answer)))
        if word == answer:
            break
    return [w for w, _ in steps]


def write_log(service, agents, answers) -> list[str]:
    """One JSON line per game: every agent against every answer."""
    return [json.dumps({"agent": agent.name, "answer": answer, "guesses": play(service, agent, answer)})
            for agent in agents for answer in answers]


def time_scoring(words, lines) -> list[tuple]:
    from solver.evaluation.game_log import GameScorer

    rows = []
    for name in AGENTS:
        mine = [line for line in lines if json.loads(line)["agent"] == name]
        scorer = GameScorer(words)
        started = time.perf_counter()
        score = scorer.score_log(mine)
        seconds = time.perf_counter() - started
        summary = score.agents[name]
        rows.append((name, len(score.games), f"{seconds:.2f}", f"{len(score.games) / seconds:.1f}",
                     f"{float(summary.mean_regret):.4f}", f"{summary.optimal_share:.1%}"))
    return rows


def fresh_caches() -> None:
    """Drop the process's shared exact rewards (their services and caches): the next
    environment starts as in a new process, the search kernels loaded."""
    from solver.evaluation import exact_reward

    exact_reward._SHARED.clear()


def time_text_env(words, agent: Agent, answers) -> tuple[int, float]:
    from solver.evaluation.text_env import ExactWordleTextEnv

    env = ExactWordleTextEnv(words, textarena=False)
    agent.restart()
    steps, seconds = 0, 0.0
    for answer in answers:
        env.reset(answer=answer)
        done = False
        while not done:
            reply = f"[{agent.guess(env.service, env.steps)}]"
            started = time.perf_counter()
            done, _ = env.step(reply)
            seconds += time.perf_counter() - started
            steps += 1
    return steps, seconds


def time_gym_env(words, agent: Agent, answers) -> tuple[int, float]:
    from solver.evaluation.gym_env import ExactWordleEnv

    env = ExactWordleEnv(words, opener=agent.opener)
    service = env.service
    agent.restart()
    steps, seconds = 0, 0.0
    for answer in answers:
        if answer == agent.opener:
            continue
        env.reset(options={"answer": answer})
        done = False
        while not done:
            action = service.word_list.guess_index(agent.guess(service, env._steps))
            started = time.perf_counter()
            _, _, done, _, _ = env.step(action)
            seconds += time.perf_counter() - started
            steps += 1
    return steps, seconds


def custom_lists(count: int, seed_value: int, directory: Path):
    from solver.game.wordlists import from_words, load_word_list

    legacy = load_word_list("legacy")
    rng = random.Random(seed_value)
    answers = rng.sample(legacy.answers, count)
    others = rng.sample([w for w in legacy.guesses if w not in set(answers)], 4 * count)
    word_list = from_words(answers, answers + others, name="custom")
    for kind, words in (("answers", word_list.answers), ("guesses", word_list.guesses)):
        (directory / f"{kind}.txt").write_text("\n".join(words) + "\n")
    return load_word_list(directory)


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from solver.evaluation.exact_reward import shared_reward
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    def _service(lists, mode):
        return shared_reward(Game(lists, mode=mode)).service

    console = Console(highlight=False)
    word_list = load_word_list(args.words)
    service = _service(word_list, "normal")
    agents = make_agents(service, args.seed)
    rng = random.Random(args.seed)
    answers = rng.sample(word_list.answers, min(args.games, word_list.n_answers))
    lines = write_log(service, agents, answers)
    if args.log:
        Path(args.log).write_text("\n".join(lines) + "\n")
    scoring = time_scoring(args.words, lines)
    table = Table(title=f"score-games: games per second ({args.words})")
    for column in ("agent", "games", "seconds", "games/s", "mean regret / game", "optimal moves"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in scoring:
        table.add_row(*map(str, row))
    console.print(table)

    steps_rows = []
    episodes = rng.sample(word_list.answers, min(args.episodes, word_list.n_answers))
    with tempfile.TemporaryDirectory(prefix="bench-agents-") as directory:
        custom = custom_lists(args.custom, args.seed, Path(directory))
        started = time.perf_counter()
        custom_service = _service(custom, "normal")  # the empty history solved exactly (ensure_exact_root)
        root_seconds = time.perf_counter() - started
        custom_agents = make_agents(custom_service, args.seed)
        custom_episodes = random.Random(args.seed).sample(custom.answers, min(args.episodes, custom.n_answers))
        for lists, label, service_agents, chosen in ((args.words, args.words, agents, episodes),
                                                     (custom, f"user's list ({custom.n_answers} answers, "
                                                      f"{custom.n_guesses} guesses)", custom_agents, custom_episodes)):
            for env_name, timer in (("text", time_text_env), ("gymnasium", time_gym_env)):
                for agent in service_agents:
                    fresh_caches()  # the first pass from new caches, the second from what it left
                    first = timer(lists, agent, chosen)
                    warm = timer(lists, agent, chosen)
                    steps_rows.append((label, env_name, agent.name, first[0], f"{first[0] / first[1]:.0f}",
                                       warm[0], f"{warm[0] / warm[1]:.0f}"))
    table = Table(title="environments: steps per second of step() (first pass; again, warm caches)")
    for column in ("lists", "environment", "agent", "steps", "steps/s", "steps (warm)", "steps/s (warm)"):
        table.add_column(column, justify="left" if column in ("lists", "environment", "agent") else "right")
    for row in steps_rows:
        table.add_row(*map(str, row))
    console.print(table)
    console.print(f"user's list: the empty history solved exactly in {root_seconds:.1f} s")
    if not args.no_record:
        argv_list = list(argv) if argv is not None else None
        record("agents-score", f"score-games on scripted agents' logs ({args.words}), games per second",
               ("agent", "games", "seconds", "games/s", "mean regret / game", "optimal moves"), scoring,
               prog=PROG, argv=argv_list,
               notes=(f"{args.games} games per agent against answers drawn with seed {args.seed}, from the proven "
                      f"opener {agents[0].opener.upper()}; GameScorer in this process, its search service fresh "
                      "for each agent (kernels loaded, feedback table cached).",))
        record("agents-steps", "text and Gymnasium environments with the exact reward, steps per second",
               ("lists", "environment", "agent", "steps", "steps/s", "steps (warm)", "steps/s (warm)"),
               steps_rows, prog=PROG, argv=argv_list,
               notes=(f"{args.episodes} episodes per agent and environment, step() alone timed (not the agents' "
                      "choices); the first pass starts from a new search service and empty caches (kernels "
                      "loaded), 'warm' replays the same episodes (the random agent's choices from the same seed) "
                      "with the caches the first pass filled.",
                      f"The user's list: {args.custom} legacy answers and 4 times as many other guesses drawn with "
                      f"seed {args.seed}; its empty history solved exactly first in {root_seconds:.1f} s (not in "
                      "the steps)."))
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
