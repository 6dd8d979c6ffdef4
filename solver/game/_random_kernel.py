"""The project's random stream for numba kernels: SplitMix64 (Steele, Lea & Flood 2014,
"Fast splittable pseudorandom number generators", OOPSLA). Used by the noise of Noisy Wordle
(:mod:`solver.game._noise_kernel`) and the policies' rollouts and UCT."""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)


@njit(cache=True)
def splitmix64(x):
    """One step of SplitMix64 (Steele, Lea & Flood 2014): ``(next_state, output)``, uint64."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return x, z
