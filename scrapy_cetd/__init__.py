"""scrapy_cetd: main-content extraction for Scrapy and plain Python.

>>> from scrapy_cetd import extract
>>> result = extract(html_bytes, url="https://example.com/a")   # doctest: +SKIP
>>> result.text, result.html, result.title                      # doctest: +SKIP
"""

from __future__ import annotations

__version__ = "0.1.0"

# Every name is imported on first use: ``import scrapy_cetd`` stays cheap (an extraction
# worker imports it while it cannot yet ignore Ctrl-C: scrapy_cetd.workers), and the
# Scrapy layer is imported only when Scrapy is used, so the library works without it.
# The modules are named relative to the package, so a copy under another name (the
# benchmarks import an earlier commit's as ``cetd_base``) exports its own code.
_EXPORTS = {
    "DEFAULT_ALGORITHM": "api",
    "extract": "api",
    "extract_tree": "api",
    "Extraction": "extraction",
    "Selection": "extraction",
    "Page": "page",
    "EmptyDocument": "parsing",
    "parse_html": "parsing",
    "algorithm_names": "registry",
    "get_algorithm": "registry",
    "Addon": "crawl.addon",
    "ContentAnnotationMiddleware": "crawl.middlewares",
    "ContentExtractionPipeline": "crawl.pipelines",
    "ContentSpiderMiddleware": "crawl.middlewares",
}

# The module paths of earlier versions (scrapy_cetd.pipelines, scrapy_cetd.redis_frontier,
# ...) import, with a DeprecationWarning naming the new path: scrapy_cetd._deprecated.
from ._deprecated import install as _install_moved_modules  # noqa: E402

_install_moved_modules()


def __getattr__(name: str) -> object:
    import importlib

    module = _EXPORTS.get(name)
    if module is not None:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    try:  # a submodule, as after an eager import of the package
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module 'scrapy_cetd' has no attribute {name!r}") from None


__all__ = [
    "DEFAULT_ALGORITHM",
    "EmptyDocument",
    "Extraction",
    "Page",
    "Selection",
    "__version__",
    "algorithm_names",
    "extract",
    "extract_tree",
    "get_algorithm",
    "parse_html",
]
