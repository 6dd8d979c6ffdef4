"""Exact optimal Wordle: the solver, its decision trees, and policies scored against the optimum.

The public API (:mod:`solver.api`), loaded on first use so that ``import solver`` stays light::

    import solver

    def first_fit(history, answers):   # history: (("salet", "bbybb"), ...); answers: still possible
        return answers[0]

    print(solver.score(first_fit, opener="salet"))

:func:`solve`, :func:`prove`, :func:`advise`, :func:`analyse`, :func:`score` (with each
decision's regret), :func:`score_policy`, :func:`decision_regrets`, :class:`Game`, :class:`Policy`,
:class:`FunctionPolicy`, :class:`ExactPolicy`, :class:`SearchService`, :func:`word_list`.

The Gymnasium environment ``ExactWordle-v0`` (:mod:`solver.evaluation.gym_env`) is registered
with gymnasium as soon as both this package and gymnasium are imported, in either order.
"""

from __future__ import annotations

import importlib
import importlib.util
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


def _register_env() -> None:
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=_ENV_ENTRY_POINT)


class _RegisterWhenImported:
    """A finder that, when gymnasium is first imported, lets it load, then registers the
    environment (importing gymnasium here would slow every command by 50 ms)."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _register_env()

        spec.loader.exec_module = exec_module
        return spec


if "gymnasium" in sys.modules:
    _register_env()
elif importlib.util.find_spec("gymnasium") is not None:
    sys.meta_path.insert(0, _RegisterWhenImported())
