"""A package's names imported on first use (PEP 562), so that importing the
package, or one small module of it, does not import everything it exports."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def names(package: str, where: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose name NAME
    lives in its module ``where[NAME]``."""
    home = importlib.import_module(package)

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(home, name, value)  # found once
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(home)) | set(where))

    return __getattr__, __dir__
