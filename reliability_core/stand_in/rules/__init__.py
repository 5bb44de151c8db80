"""Deterministic offline handlers for every model step.

Each module in this package registers its handlers with
``@offline_step("<step>", InputModel)`` from
``reliability_core.stand_in.model``. Importing this package imports
every module in it, so the registry is complete whichever module a caller
imported first.
"""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> list[str]:
    """Import every module of this package (idempotent); returns their names."""
    names: list[str] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(f"{__name__}.{info.name}")
        names.append(info.name)
    return names


load_all()
