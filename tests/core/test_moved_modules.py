"""The module paths of release 0.1 still import for one release, with a DeprecationWarning naming the new path."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings

import pytest

import explorer.core
from explorer.core import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_module_that_holds_its_contents_now(old):
    new = importlib.import_module(f"explorer.core.{MOVED[old]}")
    sys.modules.pop(f"explorer.core.{old}", None)
    with pytest.warns(DeprecationWarning, match=rf"explorer\.core\.{old} moved to explorer\.core\.{MOVED[old]}"):
        module = importlib.import_module(f"explorer.core.{old}")
    assert module is new
    for name in getattr(new, "__all__", []):
        assert getattr(module, name) is getattr(new, name)


def test_from_import_of_an_old_path_gives_the_same_function():
    from explorer.core.rr.mechanisms import epsilon_of
    sys.modules.pop("explorer.core.rr_mechanisms", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from explorer.core.rr_mechanisms import epsilon_of as old
    assert old is epsilon_of


def test_the_core_is_grouped_by_model_with_a_dozen_modules_at_most_at_the_top():
    top = [m for m in pkgutil.iter_modules(explorer.core.__path__)]
    packages = sorted(m.name for m in top if m.ispkg)
    assert packages == ["closeness", "dominance", "mdrr", "permutation", "rr"]
    assert len([m for m in top if not m.ispkg]) <= 12
    assert not {m.name for m in top} & set(MOVED)          # an old path is never a file of its own


@pytest.mark.parametrize("package", ["rr", "mdrr", "closeness", "permutation", "dominance"])
def test_a_package_exports_its_public_names_lazily_and_none_is_shadowed_by_a_module(package):
    module = importlib.import_module(f"explorer.core.{package}")
    submodules = {m.name for m in pkgutil.iter_modules(module.__path__)}
    assert not submodules & set(module.__all__)             # `from package import name` is never a module
    for name in module.__all__:
        value = getattr(module, name)
        assert getattr(importlib.import_module(module.WHERE[name]), name) is value
