"""One line on stderr when numba compiles a kernel, so that a long first call is not silent.

numba compiles an ``@njit(cache=True)`` kernel for this machine the first time it is called
with new argument types, then keeps the machine code in its on-disk cache
(:mod:`solver.game.kernel_cache`); the first run of a fresh install compiles every kernel it
reaches (a minute or more, docs/troubleshooting.md) and later runs load them. numba announces
each real compilation (a cache miss, not a cache load) with its ``numba:compile`` event
(numba's event API, :mod:`numba.core.event`); the listener here prints one line the first
time, then stays quiet. The line is said once per run: worker processes started afterwards
inherit :data:`SAID` in their environment and say nothing.
"""

from __future__ import annotations

import os
import sys

from numba.core import event

#: Set in the environment once the line was printed (worker processes inherit it); set it
#: beforehand to silence the line.
SAID = "EXACT_WORDLE_COMPILE_NOTICE_SAID"
LINE = ("compiling the numba kernels for this machine, once: the first run takes a minute or more; "
        "later runs load them from numba's cache")


class _FirstCompile(event.Listener):
    """Prints :data:`LINE` on stderr at the first compilation of this run."""

    def on_start(self, ev) -> None:
        if os.environ.get(SAID):
            return
        os.environ[SAID] = "1"
        try:
            print(LINE, file=sys.stderr, flush=True)
        except (OSError, ValueError):  # no stderr (closed, a broken pipe): nothing to tell
            pass

    def on_end(self, ev) -> None:
        pass


# importing this module (once per process) installs the listener
event.register("numba:compile", _FirstCompile())
