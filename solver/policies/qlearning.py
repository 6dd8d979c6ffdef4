"""The Q-learning agent: a constant-state Q-table over the allowed guesses (docs/algorithms.md §8.5).

Source: Orenbach et al., *AI algorithms on Wordle and its variants* (a course project), whose
Q-learning agent keeps one value per word and plays the best-valued word still possible. The
reward, learning rate, exploration and training schedule below are ours (the project's
account gives no numbers we could reproduce), chosen so that the table is a well-defined,
seeded artifact:

- **state**: one (the table does not depend on the feedback); the agent plays the word of
  largest Q among the words still possible in its belief setting (ties: alphabetical);
- **training**: ``episodes`` simulated games; each draws its hidden answer uniformly from the
  answer list and plays ε-greedily among the possible words (a random one with probability
  ``epsilon``, else the best-valued); after each guess ``Q[g] ← Q[g] + α (r − Q[g])`` with
  the reward ``r = (|B| − |B'|) / (|B| − 1)``, the share of the other candidates ruled out
  (1 for the winning guess); ``γ = 0`` (one state: the bootstrap term would be the same for
  every action). Q starts at 1 (optimistic: every word is tried before it is judged);
- **randomness**: SplitMix64 streams seeded by (seed, episode), so a training run is
  reproducible bit for bit (:func:`solver.policies._classic_kernel.qlearning_train`).

The trained table is stored as ``artifacts/qlearning-<lists>-<belief>.msgpack`` (written
atomically; :func:`save_qtable`), holding the Q-values and the training settings; it is
made by ``python -m tools.train_qlearning`` (see README).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.game import files
from solver.game.errors import InputError
from solver.game.spec import n_patterns
from solver.policies.belief import Universe, check_belief, make_universe
from solver.policies.classic import ClassicPolicy

#: Format version of the Q-table artifact.
QTABLE_VERSION = 1
#: Where trained tables are shipped.
ARTIFACTS_DIR = files.ARTIFACTS_DIR
#: Training defaults (the shipped tables were trained with these).
DEFAULT_EPISODES = 200_000
DEFAULT_ALPHA = 0.05
DEFAULT_EPSILON = 0.1
DEFAULT_SEED = 0
#: Guesses after which a training game is abandoned (never reached on the legacy lists:
#: every guess of a possible word rules itself out).
MAX_TRAINING_STEPS = 64
REWARD = "r = (|B| - |B'|) / (|B| - 1): share of the other candidates ruled out (1 on a win); gamma = 0"


class QTableError(InputError):
    """A Q-table artifact that is missing, unreadable or made for other word lists."""


@dataclass
class QTable:
    """A trained table and how it was trained.

    Attributes:
        q_values: float64[n_guesses], one value per allowed guess.
        visits: int64[n_guesses], updates each value received.
        meta: the training settings (lists, belief, seed, episodes, alpha, epsilon, reward,
            guesses made, command).
    """

    q_values: np.ndarray
    visits: np.ndarray
    meta: dict


def qtable_path(word_list, belief: str, directory: str | Path | None = None) -> Path:
    """``<directory>/qlearning-<lists>-<belief>.msgpack`` (default directory: artifacts/)."""
    directory = ARTIFACTS_DIR if directory is None else Path(directory)
    return directory / f"qlearning-{word_list.output_name}-{check_belief(belief)}.msgpack"


def check_training(episodes, alpha, epsilon, seed) -> None:
    """Raise InputError unless ``episodes`` ≥ 1, 0 < ``alpha`` ≤ 1, 0 ≤ ``epsilon`` ≤ 1 and
    ``seed`` ≥ 0 (whole numbers where stated)."""
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise InputError(f"--episodes is a whole number ≥ 1, not {episodes!r}")
    if not 0.0 < float(alpha) <= 1.0:
        raise InputError(f"alpha is a learning rate in (0, 1], not {alpha!r}")
    if not 0.0 <= float(epsilon) <= 1.0:
        raise InputError(f"epsilon is a probability in [0, 1], not {epsilon!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"the seed is a whole number ≥ 0, not {seed!r}")


def train_qtable(word_list, belief: str = "guesses", *, episodes: int = DEFAULT_EPISODES,
                 alpha: float = DEFAULT_ALPHA, epsilon: float = DEFAULT_EPSILON, seed: int = DEFAULT_SEED,
                 universe: Universe | None = None, command: str = "") -> QTable:
    """Train a Q-table by simulated games (module docstring).

    Args:
        word_list: the lists; the hidden answers are drawn from its answers.
        belief: ``"answers"`` or ``"guesses"``: which words the agent counts as possible.
        episodes: games simulated (≥ 1).
        alpha: learning rate in (0, 1]; epsilon: exploration rate in [0, 1].
        seed: whole number ≥ 0.
        universe: the belief's universe (built when None).
        command: the command line recorded in the artifact.

    Raises:
        InputError: a bad setting (before any work).
    """
    from solver.policies._classic_kernel import qlearning_train

    belief = check_belief(belief)
    check_training(episodes, alpha, epsilon, seed)
    if universe is None:
        universe = make_universe(word_list, belief)
    q_values = np.ones(word_list.n_guesses, dtype=np.float64)
    visits = np.zeros(word_list.n_guesses, dtype=np.int64)
    guesses_made = qlearning_train(universe.table, universe.guess_of_member, universe.member_of_answer,
                                   q_values, visits, int(episodes), float(alpha), float(epsilon),
                                   int(seed), MAX_TRAINING_STEPS, n_patterns(word_list.word_length))
    meta = {"version": QTABLE_VERSION, "lists": word_list.output_name, "identity": word_list.identity,
            "belief": belief, "seed": int(seed), "episodes": int(episodes), "alpha": float(alpha),
            "epsilon": float(epsilon), "initial_q": 1.0, "reward": REWARD,
            "guesses_made": int(guesses_made), "command": command}
    return QTable(q_values, visits, meta)


def save_qtable(qtable: QTable, path: str | Path) -> Path:
    """Write ``qtable`` as msgpack (atomically); the bytes depend only on the table and its
    settings. Returns the path."""
    import msgpack

    from solver.game.files import write_atomic

    payload = {"meta": qtable.meta,
               "q_values": np.ascontiguousarray(qtable.q_values, dtype="<f8").tobytes(),
               "visits": np.ascontiguousarray(qtable.visits, dtype="<i8").tobytes()}
    return write_atomic(path, msgpack.packb(payload, use_bin_type=True))


def load_qtable(path: str | Path, word_list=None) -> QTable:
    """Read a Q-table artifact; with ``word_list``, check it was trained on those lists.

    Raises:
        QTableError: missing, unreadable, not a regular file or larger than
            ``INPUT_LIMITS["Q-table"]`` (refused before it is read), or trained on other
            lists (exit 2 in the CLIs).
    """
    import msgpack

    from solver.game.files import read_input_file

    path = Path(path)
    if not path.exists():
        raise QTableError(f"{path}: no trained Q-table; train one with python -m tools.train_qlearning "
                          "(see README)")
    data = read_input_file(path, "Q-table", error=QTableError)  # a regular file, within its cap
    try:
        payload = msgpack.unpackb(data, raw=False)
        meta = payload["meta"]
        q_values = np.frombuffer(payload["q_values"], dtype="<f8").astype(np.float64)
        visits = np.frombuffer(payload["visits"], dtype="<i8").astype(np.int64)
    except FileNotFoundError:
        raise QTableError(f"{path}: no trained Q-table; train one with python -m tools.train_qlearning "
                          "(see README)") from None
    except (OSError, ValueError, KeyError, TypeError, msgpack.ExtraData) as exc:
        raise QTableError(f"{path}: not a Q-table artifact ({type(exc).__name__})") from None
    if meta.get("version") != QTABLE_VERSION:
        raise QTableError(f"{path}: Q-table format {meta.get('version')!r}, expected {QTABLE_VERSION}")
    if word_list is not None and (meta.get("identity") != word_list.identity
                                  or q_values.shape[0] != word_list.n_guesses):
        raise QTableError(f"{path}: trained on other word lists ({meta.get('lists')!r})")
    return QTable(q_values, visits, meta)


def qtable_digest(qtable: QTable) -> str:
    """sha256 of the Q-values (to tell tables apart in reports)."""
    return hashlib.sha256(np.ascontiguousarray(qtable.q_values, dtype="<f8").tobytes()).hexdigest()


class QLearningPolicy(ClassicPolicy):
    """``qlearning``: the possible word of largest Q (ties alphabetical); deterministic.

    The table is the one trained in the policy's belief setting: ``qtable`` if given, else
    read from :func:`qtable_path` when first needed (so binding the agent to the guesses
    setting with :meth:`in_belief` switches to the guesses-trained table).

    Raises:
        QTableError: (on first use) the artifact is missing or made for other lists.
    """

    name = "qlearning"
    deterministic = True
    commits = True

    def __init__(self, word_list, table: np.ndarray, qtable: QTable | None = None,
                 directory: str | Path | None = None):
        super().__init__(word_list, table)
        self._qtables = {} if qtable is None else {qtable.meta["belief"]: qtable}
        self.directory = directory

    def qtable(self) -> QTable:
        """The table of the current belief setting."""
        if self.belief not in self._qtables:
            self._qtables[self.belief] = load_qtable(qtable_path(self.word_list, self.belief, self.directory),
                                                     self.word_list)
        return self._qtables[self.belief]

    def _choose(self, state, guesses_left, seed):
        from solver.policies._classic_kernel import q_choose

        return int(q_choose(state, self.qtable().q_values, self.universe.guess_of_member))


def _register() -> None:
    from solver.policies.registry import register_single_policy

    register_single_policy("qlearning", QLearningPolicy,
                           "qlearning (constant-state Q-table, artifacts/qlearning-*.msgpack)")


_register()
