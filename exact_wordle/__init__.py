"""The verifiers taskset ``exact-wordle``: verifiers imports a taskset by its id as an installed
package that exports its classes (:mod:`solver.evaluation.verifiers_env`, the ``agents``
extra)."""

from solver.evaluation.verifiers_env import (ExactWordleEnvConfig, ExactWordleTaskset, ExactWordleTasksetConfig,
                                             ExactWordleVerifiersEnv, load_environment)

__all__ = ["ExactWordleTaskset", "ExactWordleVerifiersEnv", "ExactWordleTasksetConfig", "ExactWordleEnvConfig",
           "load_environment"]
