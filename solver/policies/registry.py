"""The policy registry: policy names (``mig_a``, ``rollout10_b``, ...) to constructors.

A *family* is registered under a prefix with a factory; a name is resolved by the longest
registered prefix it starts with, and the factory parses the rest of the name::

    from solver.policies.registry import register_policy

    def _uct_factory(word_list, table, name, suffix):
        # name "uct50k_a_o" → suffix "50k_a_o"; raise UnknownPolicyError if it does not parse
        ...
        return UCTPolicy(word_list, table, ...)   # a solver.policies.base.Policy, .name == name

    register_policy("uct", _uct_factory, "uct<N>[k]_<a|b>[_o]: UCT with N rollouts ...")

A family of one name with nothing after it (``exact``, ``entropy``) is registered with
:func:`register_single_policy`, which refuses any longer name.

Registration happens at import. Besides the built-in families registered below, the modules
listed in :data:`PLUGIN_MODULES` (``solver.policies.uct``) are imported on first use if they exist,
so a module there only has to call :func:`register_policy` at import time; other modules can
be added with :func:`add_plugin_module`. The classic agents (``random_total``,
``random_possible``, ``minimax1``, ``expectimax1``, ``entropy``: :mod:`solver.policies.classic`;
``qlearning``: :mod:`solver.policies.qlearning`) register this way.

Built-in families:

- ``mig_a``, ``mig_b`` — :class:`solver.policies.mig.MIGPolicy` (exact ties);
  ``mig_a_float``, ``mig_b_float`` — the float tie reading that reproduces the thesis;
- ``rollout<n>_<a|b>`` — :class:`solver.policies.rollout.RolloutPolicy`, candidates ranked by entropy
  then alphabetically (the thesis's reading); ``rollout<n>_<a|b>_p`` ranks candidates of
  equal entropy, answers first among ties (so the MIG_B choice is always a candidate);
- ``exact`` — :class:`solver.policies.exact_policy.ExactPolicy` (solves states as they come).

A name with a colon, ``module:attr`` (``attr`` may be dotted), is the researcher's own policy,
imported (:func:`load_policy_object`): a :class:`~solver.policies.base.Policy` subclass
(built as ``cls(word_list, table)``), a Policy instance of the same lists, or a function of
the history (:class:`solver.policies.function.FunctionPolicy`). Its name is kept as given.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from collections.abc import Callable

from solver.game.errors import InputError


class UnknownPolicyError(InputError, ValueError):
    """A policy name that no registered family accepts."""


@dataclass(frozen=True)
class Family:
    """A registered family of policies (:func:`register_policy`): the names starting with ``prefix``
    are built by ``factory(word_list, table, name, suffix)``; ``help`` is its one line for
    ``--help`` and error messages."""
    prefix: str
    factory: Callable
    help: str


_FAMILIES: dict[str, Family] = {}
#: Modules imported (if present) before a name is resolved, so that they can register.
PLUGIN_MODULES: list[str] = ["solver.policies.uct", "solver.policies.classic", "solver.policies.qlearning"]
_plugins_loaded: set[str] = set()


def register_policy(prefix: str, factory: Callable, help: str = "") -> None:
    """Register a family of policies.

    Args:
        prefix: names starting with it go to ``factory`` (longest prefix wins).
        factory: ``factory(word_list, table, name, suffix) -> Policy`` where ``suffix`` is the
            name without the prefix; it raises :class:`UnknownPolicyError` for a suffix it
            does not accept.
        help: one line for ``--help`` and error messages (the syntax of the names).
    """
    _FAMILIES[prefix] = Family(prefix, factory, help)


def register_single_policy(name: str, constructor: Callable, help: str = "") -> None:
    """Register a family of one policy, ``name`` itself: ``constructor(word_list, table)``
    builds it; a longer name starting with ``name`` is refused (:class:`UnknownPolicyError`,
    "did you mean ``name``?"), also by :func:`check_policy_name`."""
    def validate(full_name, suffix):
        if suffix:
            raise UnknownPolicyError(f"unknown policy {full_name!r}: did you mean {name!r}?")

    def factory(word_list, table, full_name, suffix):
        validate(full_name, suffix)
        return constructor(word_list, table)

    factory.validate = validate
    register_policy(name, factory, help)


def add_plugin_module(module: str) -> None:
    """Import ``module`` before resolving names (it registers its families at import)."""
    if module not in PLUGIN_MODULES:
        PLUGIN_MODULES.append(module)


def _load_plugins() -> None:
    for module in PLUGIN_MODULES:
        if module in _plugins_loaded:
            continue
        _plugins_loaded.add(module)
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def families() -> list[Family]:
    """The registered families, sorted by prefix."""
    _load_plugins()
    return [_FAMILIES[p] for p in sorted(_FAMILIES)]


def describe() -> str:
    """One line per family, for help texts and error messages."""
    return "; ".join(f.help or f.prefix for f in families())


def _family_of(name: str) -> tuple[Family, str]:
    _load_plugins()
    for prefix in sorted(_FAMILIES, key=len, reverse=True):
        if name.startswith(prefix):
            return _FAMILIES[prefix], name[len(prefix):]
    raise UnknownPolicyError(f"unknown policy {name!r}; known: {describe()}")


def is_import_spec(name: str) -> bool:
    """Whether ``name`` is a ``module:attr`` policy (module docstring)."""
    return ":" in name


def load_policy_object(spec: str):
    """The object ``module:attr`` names (``attr`` may be dotted). Raises
    :class:`UnknownPolicyError` saying what could not be imported or found."""
    module_name, _, attribute = spec.strip().partition(":")
    if not module_name or not attribute:
        raise UnknownPolicyError(f"{spec!r}: a policy from a module is written module:attr, "
                                 "e.g. mypolicies:first_fit")
    try:
        value = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownPolicyError(f"{spec!r}: cannot import {module_name!r} ({exc}); run from "
                                 "the directory that holds it, or add it to PYTHONPATH") from None
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise UnknownPolicyError(f"{spec!r}: {module_name!r} has no attribute {attribute!r}") from None
    from solver.policies.base import Policy

    if not (callable(value) or isinstance(value, Policy)):
        raise UnknownPolicyError(f"{spec!r} is a {type(value).__name__}, not a Policy, a Policy "
                                 "class or a function of the history")
    return value


def _policy_from_spec(spec: str, word_list, table):
    from solver.policies.base import Policy
    from solver.policies.function import FunctionPolicy

    value = load_policy_object(spec)
    if isinstance(value, type) and issubclass(value, Policy):
        policy = value(word_list, table)
    elif isinstance(value, Policy):
        if value.word_list.identity != word_list.identity:
            raise UnknownPolicyError(f"{spec!r} is a policy of the {value.word_list.name!r} lists, "
                                     f"not of the {word_list.name!r} lists")
        policy = value
    else:
        policy = FunctionPolicy(value, word_list, table, name=spec)
    policy.name = spec
    return policy


def make_policy(name: str, word_list, table):
    """Build the policy called ``name`` for ``word_list`` and its feedback ``table``
    (a registered name, or ``module:attr``, module docstring).

    Raises:
        UnknownPolicyError: no family accepts the name; ``module:attr`` cannot be imported.
    """
    if is_import_spec(name):
        return _policy_from_spec(name.strip(), word_list, table)
    name = name.strip().lower()
    family, suffix = _family_of(name)
    policy = family.factory(word_list, table, name, suffix)
    policy.name = name
    return policy


def check_policy_name(name: str) -> str:
    """Validate a name without building the policy (the factory is not called); returns the
    normalised name. Raises :class:`UnknownPolicyError` if no family can accept it, or if
    the family has a ``validate(suffix)`` attribute on its factory that rejects it. A
    ``module:attr`` name is imported to check it (and kept as given)."""
    if is_import_spec(name):
        load_policy_object(name)
        return name.strip()
    name = name.strip().lower()
    family, suffix = _family_of(name)
    validate = getattr(family.factory, "validate", None)
    if validate is not None:
        validate(name, suffix)
    return name


# ---------------------------------------------------------------------------------------------
# built-in families


def _mig_validate(name: str, suffix: str):
    match = re.fullmatch(r"([ab])(_float)?", suffix)
    if match is None:
        raise UnknownPolicyError(f"unknown policy {name!r}: MIG names are mig_a, mig_b, "
                                 "mig_a_float, mig_b_float")
    return match.group(1), "float" if match.group(2) else "exact"


def _mig_factory(word_list, table, name, suffix):
    from solver.policies.mig import MIGPolicy

    variant, ties = _mig_validate(name, suffix)
    return MIGPolicy(word_list, table, variant, ties)


_mig_factory.validate = _mig_validate


def _rollout_validate(name: str, suffix: str):
    match = re.fullmatch(r"([1-9][0-9]*)_([ab])(_p)?", suffix)
    if match is None:
        raise UnknownPolicyError(f"unknown policy {name!r}: rollout names are rollout<n>_a, "
                                 "rollout<n>_b (n ≥ 1), optionally with _p")
    return int(match.group(1)), match.group(2), bool(match.group(3))


def _rollout_factory(word_list, table, name, suffix):
    from solver.policies.rollout import RolloutPolicy

    n, base, rank_answers_first = _rollout_validate(name, suffix)
    return RolloutPolicy(word_list, table, n, base, rank_answers_first)


_rollout_factory.validate = _rollout_validate


def _exact_policy(word_list, table):
    from solver.policies.exact_policy import ExactPolicy

    return ExactPolicy(word_list, table)


register_policy("mig_", _mig_factory, "mig_a, mig_b (MIG; _float: float tie reading)")
register_policy("rollout", _rollout_factory,
                "rollout<n>_<a|b>[_p] (Rollout_n on MIG_A/MIG_B; _p: answers first among ties)")
register_single_policy("exact", _exact_policy, "exact (the optimum, solved state by state)")
