"""Lazy re-exports for the core's packages: a public name is imported from its module on first use.

A package such as :mod:`explorer.core.rr` lists where each of its public names lives; ``from
explorer.core.rr import epsilon_of`` imports :mod:`explorer.core.rr.mechanisms` then, and not the
package's other modules (the explorer's kernels start faster, and modules of different packages can
import each other without import cycles through the packages).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable

__all__ = ["lazy_exports"]


def lazy_exports(package: str, where: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package`` (PEP 562).

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : dict
        ``{public name: module that defines it}``.

    Returns
    -------
    tuple
        ``(__getattr__, __dir__)`` to assign at the package's top level.
    """

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)      # the next look-up is an ordinary attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
