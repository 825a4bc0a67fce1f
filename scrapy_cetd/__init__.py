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
_EXPORTS = {
    "DEFAULT_ALGORITHM": "scrapy_cetd.api",
    "extract": "scrapy_cetd.api",
    "extract_tree": "scrapy_cetd.api",
    "Extraction": "scrapy_cetd.extraction",
    "Selection": "scrapy_cetd.extraction",
    "Page": "scrapy_cetd.page",
    "EmptyDocument": "scrapy_cetd.parsing",
    "parse_html": "scrapy_cetd.parsing",
    "algorithm_names": "scrapy_cetd.registry",
    "get_algorithm": "scrapy_cetd.registry",
    "Addon": "scrapy_cetd.addon",
    "ContentAnnotationMiddleware": "scrapy_cetd.middlewares",
    "ContentExtractionPipeline": "scrapy_cetd.pipelines",
    "ContentSpiderMiddleware": "scrapy_cetd.middlewares",
}


def __getattr__(name: str) -> object:
    import importlib

    module = _EXPORTS.get(name)
    if module is not None:
        return getattr(importlib.import_module(module), name)
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
