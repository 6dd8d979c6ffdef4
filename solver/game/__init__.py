"""The game layer, below everything else: the rules (:mod:`solver.game.spec`), word lists,
feedback and its tables, hard mode, priors, histories, the environments agents play in, and the
numba kernels of the game (the only package the other kernels may import)."""
