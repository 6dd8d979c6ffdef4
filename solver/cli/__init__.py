"""The command-line programs: ``wordle <command>`` (the installed console scripts), or
``python -m tools.<name>`` in a checkout (``tools/`` holds one thin shim per program).

Importing the package installs :func:`solver.cli._cli.install_dependency_hook`: a program run
by a Python without the dependencies says which package is missing in one line, not a
traceback.
"""

from solver.cli._cli import install_dependency_hook as _install_dependency_hook

_install_dependency_hook()
