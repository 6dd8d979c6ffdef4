"""Exact optimal Wordle: the solver, its decision trees, and policies scored against the optimum.

The public API (:mod:`solver.api`), loaded on first use so that ``import solver`` stays light::

    import solver

    def first_fit(history, answers):   # history: (("salet", "bbybb"), ...); answers: still possible
        return answers[0]

    print(solver.score(first_fit, opener="salet"))

:func:`solve`, :func:`prove`, :func:`advise`, :func:`analyse`, :func:`score` (with each
decision's regret), :func:`score_policy`, :func:`decision_regrets`, :class:`Game`, :class:`Policy`,
:class:`FunctionPolicy`, :class:`ExactPolicy`, :class:`SearchService`, :func:`word_list`.

The Gymnasium environment ``ExactWordle-v0`` (:mod:`solver.evaluation.gym_env`):
``gymnasium.make("solver:ExactWordle-v0")`` (gymnasium imports this package, which registers
it); importing this package after gymnasium, or :mod:`solver.evaluation.gym_env`, registers it
too.
"""

from __future__ import annotations

import importlib
import sys

#: name → (module, attribute): what ``solver.<name>`` is.
_EXPORTS = {
    "solve": ("solver.api", "solve"),
    "prove": ("solver.api", "prove"),
    "advise": ("solver.api", "advise"),
    "analyse": ("solver.api", "analyse"),
    "score": ("solver.api", "score"),
    "word_list": ("solver.api", "word_list"),
    "Game": ("solver.game.spec", "Game"),
    "service": ("solver.api", "service"),
    "as_policy": ("solver.api", "as_policy"),
    "PolicyScore": ("solver.api", "PolicyScore"),
    "score_policy": ("solver.evaluation.scoring", "score_policy"),
    "ScoreResult": ("solver.evaluation.scoring", "ScoreResult"),
    "decision_regrets": ("solver.evaluation.regret", "decision_regrets"),
    "DecisionRegret": ("solver.evaluation.regret", "DecisionRegret"),
    "Policy": ("solver.policies.base", "Policy"),
    "FunctionPolicy": ("solver.policies.function", "FunctionPolicy"),
    "ExactPolicy": ("solver.policies.exact_policy", "ExactPolicy"),
    "make_policy": ("solver.policies.registry", "make_policy"),
    "SearchService": ("solver.exact.service", "SearchService"),
    "from_words": ("solver.game.wordlists", "from_words"),
    "ExactWordleEnv": ("solver.evaluation.gym_env", "ExactWordleEnv"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        module, attribute = _EXPORTS[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


#: The Gymnasium environment's id and class (imported by gymnasium.make only).
ENV_ID = "ExactWordle-v0"
_ENV_ENTRY_POINT = "solver.evaluation.gym_env:ExactWordleEnv"


def register_environment() -> None:
    """Register ``ExactWordle-v0`` with gymnasium (once; imports gymnasium)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=_ENV_ENTRY_POINT)


# Gymnasium 1.0 dropped the loading of plugin entry points (its envs/__init__.py registers its
# own environments only), so the environment registers itself: ``gymnasium.make(
# "solver:ExactWordle-v0")`` imports this package, which registers it since gymnasium is loaded
# by then. Importing gymnasium here otherwise would slow every command by some 50 ms.
if "gymnasium" in sys.modules:
    register_environment()
