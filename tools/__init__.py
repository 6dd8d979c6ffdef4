"""The command-line tools (``python -m tools.<name>``, or ``wordle <command>``).

Importing the package installs :func:`tools._cli.install_dependency_hook`: a tool run by a
Python without the dependencies says which package is missing in one line, not a traceback.
"""

from tools._cli import install_dependency_hook as _install_dependency_hook

_install_dependency_hook()
