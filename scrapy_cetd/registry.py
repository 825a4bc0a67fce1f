"""The algorithm registry: every algorithm is selected by name.

Algorithm modules live in :mod:`scrapy_cetd.algorithms` and register themselves with
:func:`register`; the package's modules are all imported on first lookup.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .extraction import Selection

__all__ = ["Algorithm", "Param", "algorithm_names", "get_algorithm", "register"]


@dataclass(frozen=True)
class Param:
    """A numeric algorithm parameter with its default and valid range (inclusive)."""

    default: float
    minimum: float = -math.inf
    maximum: float = math.inf
    integer: bool = False
    doc: str = ""

    def validate(self, algorithm: str, name: str, value: Any) -> float:
        """``value`` as a number in range (an ``int`` for integer parameters); ``ValueError``
        naming the parameter for anything else: not a number, NaN, infinite, fractional
        where a whole number is needed, or out of range.  Every parameter and the threshold
        coefficient go through here, so every algorithm's options are checked alike."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            try:
                value = float(value)
            except (TypeError, ValueError, OverflowError):
                raise ValueError(f"{algorithm}: parameter {name!r} must be a number, got {value!r}") from None
        if not _finite(value):
            raise ValueError(f"{algorithm}: parameter {name!r} must be a finite number, got {value!r}")
        if self.integer:
            if value != int(value):
                raise ValueError(f"{algorithm}: parameter {name!r} must be a whole number, got {value!r}")
            value = int(value)
        if not (self.minimum <= value <= self.maximum):
            raise ValueError(
                f"{algorithm}: parameter {name!r}={value!r} is out of range [{self.minimum}, {self.maximum}]"
            )
        return value


def _finite(value: float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


SelectFunction = Callable[..., Selection]


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm: ``select(page, coefficient, **params) -> Selection``."""

    name: str
    select: SelectFunction
    default_coefficient: float
    paper: str
    summary: str
    params: Mapping[str, Param] = field(default_factory=dict)
    max_coefficient: float = math.inf

    def resolve(self, coefficient: float | None, params: Mapping[str, Any]) -> tuple[float, dict[str, Any]]:
        """Validate user options; return the coefficient and the full parameter dict."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            valid = ", ".join(sorted(self.params)) or "none"
            raise ValueError(f"{self.name}: unknown parameter(s) {', '.join(unknown)}; valid: {valid}")
        if coefficient is None:
            coefficient = self.default_coefficient
        coefficient = Param(0.0, 0.0, self.max_coefficient).validate(self.name, "threshold_coefficient", coefficient)
        resolved = {name: p.default for name, p in self.params.items()}
        for name, value in params.items():
            resolved[name] = self.params[name].validate(self.name, name, value)
        return coefficient, resolved


_REGISTRY: dict[str, Algorithm] = {}
_loaded = False


def register(algorithm: Algorithm) -> Algorithm:
    """Add an algorithm to the registry (names are unique)."""
    if algorithm.name in _REGISTRY:
        raise ValueError(f"algorithm {algorithm.name!r} is already registered")
    _REGISTRY[algorithm.name] = algorithm
    return algorithm


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    from . import algorithms

    for module in pkgutil.iter_modules(algorithms.__path__):
        importlib.import_module(f"{algorithms.__name__}.{module.name}")
    _loaded = True


def algorithm_names() -> list[str]:
    """The names of all registered algorithms, sorted."""
    _load_all()
    return sorted(_REGISTRY)


def get_algorithm(name: str) -> Algorithm:
    """Look an algorithm up by name; ``ValueError`` lists the valid names (``TypeError``
    for a name that is no ``str``)."""
    if not isinstance(name, str):
        raise TypeError(f"get_algorithm() argument 'name' must be str, not {type(name).__name__}")
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown algorithm {name!r}; choose one of: {', '.join(sorted(_REGISTRY))}") from None

