"""setuptools' build step for the shipped artifacts; everything else is in pyproject.toml.

The decision trees, openers tables and Q-tables in ``artifacts/`` (and the opening book in
``artifacts/book/``) stay in the checkout's top level, where ``make solve`` and ``make book``
write them; a wheel carries a copy as ``solver/_shipped/`` so that an installed package finds
them (:func:`solver.game.files.shipped_artifacts_dir`). An editable install reads the
checkout's own directory instead, so nothing is copied then.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: The shipped files: trees (and their proofs of unwinnability, with the finite values of
#: those openers), openers tables, the opener tables with their shards, Q-tables.
PATTERNS = ("*.msgpack", "*-openers.csv", "book/*.msgpack", "book/*.unwinnable", "book/*.relaxed",
            "tables/*.csv", "tables/*/*.msgpack")


class build_py_with_artifacts(build_py):
    """``build_py``, then ``artifacts/`` copied into the build as ``solver/_shipped/``."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "solver" / "_shipped"
        for pattern in PATTERNS:
            for source in sorted(ARTIFACTS.glob(pattern)):
                if source.name.endswith(".seconds.csv"):
                    continue  # a proof's timings: not an artifact
                destination = target / source.relative_to(ARTIFACTS)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, destination)


setup(cmdclass={"build_py": build_py_with_artifacts})
