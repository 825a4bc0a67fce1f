"""The old module paths (``scrapy_cetd.pipelines``, ``scrapy_cetd.redis_frontier``, ...), kept for
users' settings and imports: no files, but modules made on import by a finder that
``scrapy_cetd`` installs, whose every name is the new module's, read with a
``DeprecationWarning`` that names the new path."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["MOVED", "install", "moved_module"]

#: Old module path -> new module path.
MOVED = {
    "scrapy_cetd.addon": "scrapy_cetd.crawl.addon",
    "scrapy_cetd.middlewares": "scrapy_cetd.crawl.middlewares",
    "scrapy_cetd.pipelines": "scrapy_cetd.crawl.pipelines",
    "scrapy_cetd.settings": "scrapy_cetd.crawl.settings",
    "scrapy_cetd.exporters": "scrapy_cetd.crawl.exporters",
    "scrapy_cetd.duplicates": "scrapy_cetd.crawl.duplicates",
    "scrapy_cetd.logformatter": "scrapy_cetd.crawl.logformatter",
    "scrapy_cetd.warc.archive": "scrapy_cetd.crawl.archive",
    "scrapy_cetd.redis_frontier": "scrapy_cetd.cluster.frontier",
    "scrapy_cetd.redis_spider": "scrapy_cetd.cluster.spider",
    "scrapy_cetd.redis_watch": "scrapy_cetd.cluster.watch",
}


def moved_module(old: str, new: str) -> Callable[[str], Any]:
    """The module ``__getattr__`` of the old path ``old``: each name read from it is looked up
    in the module ``new`` (imported on first use) and warns."""

    def __getattr__(name: str) -> Any:
        # A module attribute (``__file__``, ``__path__``: tools that scan sys.modules read them)
        # is the alias's own, none when it has none; only the moved names are forwarded.
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        module = importlib.import_module(new)
        try:
            value = getattr(module, name)
        except AttributeError:
            raise AttributeError(f"module {old!r} has no attribute {name!r}") from None
        warnings.warn(
            f"{old}.{name} is deprecated, use {new}.{name} (the module moved)", DeprecationWarning, stacklevel=2
        )
        return value

    return __getattr__


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths (after every other finder: a real module of that name wins)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a plain module

    def exec_module(self, module: types.ModuleType) -> None:
        new = MOVED[module.__name__]
        module.__doc__ = f"Deprecated: :mod:`{new}` (every name read here is that module's, and warns)."
        module.__all__ = []  # type: ignore[attr-defined]  # nothing of its own
        module.__getattr__ = moved_module(module.__name__, new)  # type: ignore[method-assign]


def install() -> None:
    """Make the old paths importable (once per process)."""
    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())
