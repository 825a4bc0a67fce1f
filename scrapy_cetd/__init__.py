"""scrapy_cetd: main-content extraction for Scrapy and plain Python.

>>> from scrapy_cetd import extract
>>> result = extract(html_bytes, url="https://example.com/a")   # doctest: +SKIP
>>> result.text, result.html, result.title                      # doctest: +SKIP
"""

from __future__ import annotations

from .api import DEFAULT_ALGORITHM, extract, extract_tree
from .extraction import Extraction, Selection
from .page import Page
from .parsing import EmptyDocument, parse_html
from .registry import algorithm_names, get_algorithm

__version__ = "0.1.0"

# The Scrapy layer is imported on first use only, so the library works without Scrapy.
_SCRAPY_COMPONENTS = {
    "Addon": "scrapy_cetd.addon",
    "ContentAnnotationMiddleware": "scrapy_cetd.middlewares",
    "ContentExtractionPipeline": "scrapy_cetd.pipelines",
    "ContentSpiderMiddleware": "scrapy_cetd.middlewares",
}


def __getattr__(name: str) -> object:
    module = _SCRAPY_COMPONENTS.get(name)
    if module is None:
        raise AttributeError(f"module 'scrapy_cetd' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)

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
