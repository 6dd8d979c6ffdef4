"""Import-linter contract types for the numba kernels (used by `make lint`, not at run time).

The built-in contract types name modules explicitly or with whole-segment wildcards, so none
of them can say "every file named ``_*_kernel.py``". ``KernelContract`` finds the kernel
modules by name, so a new kernel is covered as soon as it exists, and checks each kernel's
direct imports: other kernels, the ``allowed_modules`` packages (the game layer) and the
``allowed_external`` packages (numba, numpy) only. Configured in pyproject.toml:

    [tool.importlinter]
    contract_types = ["kernels: tools._lint_contracts.KernelContract", ...]

``SoleImporterContract`` names the one module allowed to import a kernel directly (the search
kernel's door, :mod:`solver.exact.search`); other kernels may import it too.
"""

from __future__ import annotations

import re

from importlinter import Contract, ContractCheck, fields, output

KERNEL_NAME = re.compile(r"_\w+_kernel")


def is_kernel(module: str) -> bool:
    """``pkg.sub._name_kernel``: the last name starts with ``_`` and ends with ``_kernel``."""
    return KERNEL_NAME.fullmatch(module.rpartition(".")[2]) is not None


def _within(module: str, packages) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


class KernelContract(Contract):
    """Kernel modules (``_*_kernel`` under ``package``) import only other kernel modules,
    modules in ``allowed_modules`` (packages) and the external packages in
    ``allowed_external``."""

    type_name = "kernels"

    package = fields.StringField()
    allowed_modules = fields.ListField(subfield=fields.StringField(), required=False)
    allowed_external = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph, verbose: bool) -> ContractCheck:
        allowed = list(self.allowed_modules or [])
        external = set(self.allowed_external or []) | {"__future__"}
        kernels = sorted(m for m in graph.modules if _within(m, [self.package]) and is_kernel(m))
        if not kernels:
            raise ValueError(f"no kernel modules (_*_kernel) found under {self.package}")
        output.verbose_print(verbose, f"Kernel modules: {', '.join(kernels)}")
        roots = self.session_options["root_packages"]
        illegal = []
        for kernel in kernels:
            for imported in sorted(graph.find_modules_directly_imported_by(kernel)):
                if _within(imported, roots):
                    ok = is_kernel(imported) or _within(imported, allowed)
                else:
                    ok = imported.split(".")[0] in external
                if not ok:
                    lines = sorted(d["line_number"] for d in graph.get_import_details(
                        importer=kernel, imported=imported))
                    illegal.append((kernel, imported, lines))
        return ContractCheck(kept=not illegal, metadata={"illegal": illegal, "kernels": kernels})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for kernel, imported, lines in check.metadata["illegal"]:
            where = ", ".join(f"l.{n}" for n in lines) or "?"
            output.print_error(f"{kernel} is not allowed to import {imported} ({where})", bold=False)
        output.new_line()
        output.print_error("A kernel may import only other _*_kernel modules, "
                           f"{', '.join(self.allowed_modules or [])} and "
                           f"{', '.join(self.allowed_external or [])}.", bold=False)


class SoleImporterContract(Contract):
    """Only the ``importers`` (and kernel modules) import ``module`` directly: one door to a
    kernel. Indirect imports through an importer are the point, so they are allowed.

    Configured in pyproject.toml, e.g. the search kernel behind :mod:`solver.exact.search`::

        type = "sole_importer"
        module = "solver.exact._search_kernel"
        importers = ["solver.exact.search"]
    """

    type_name = "sole_importer"

    module = fields.StringField()
    importers = fields.ListField(subfield=fields.StringField())

    def check(self, graph, verbose: bool) -> ContractCheck:
        if self.module not in graph.modules:
            raise ValueError(f"{self.module} is not a module of the graph")
        allowed = set(self.importers)
        illegal = []
        for importer in sorted(graph.find_modules_that_directly_import(self.module)):
            if importer in allowed or is_kernel(importer):
                continue
            lines = sorted(d["line_number"] for d in graph.get_import_details(
                importer=importer, imported=self.module))
            illegal.append((importer, lines))
        return ContractCheck(kept=not illegal, metadata={"illegal": illegal})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, lines in check.metadata["illegal"]:
            where = ", ".join(f"l.{n}" for n in lines) or "?"
            output.print_error(f"{importer} is not allowed to import {self.module} ({where})",
                               bold=False)
        output.new_line()
        output.print_error(f"Only {', '.join(self.importers)} (and kernels) may import "
                           f"{self.module}.", bold=False)
