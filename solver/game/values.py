"""The value scale the exact search and its callers share: plain Python with no imports, so
that both the numba kernels (which read it as a compile-time constant) and the lookup tools
(which must not load numba) take it from here.
"""

#: The value of a state no policy wins within the guesses left ("infinity", 2**30): larger
#: than any total of guesses over at most 11,585 answers (and, under priors, than any
#: weighted total, the weights summing to about 2**24: docs/algorithms.md §10.3).
INF = 1 << 30
