"""What an extraction can write into an item or a record, by name: the keys of the crawl's
``CETD_OUTPUT_FIELDS`` and of ``scrapy-cetd warc --fields``, and their values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .extraction import Extraction
from .fingerprint import text_fingerprint

__all__ = ["METADATA_OUTPUTS", "OUTPUTS", "diagnostics_output", "extraction_keywords", "output_value"]

#: The article metadata outputs, one per :class:`scrapy_cetd.metadata.Metadata` field but
#: ``title`` (the headline, written by the ``title`` output).
METADATA_OUTPUTS = (
    "authors", "date_published", "date_modified", "language", "site_name", "description", "canonical_url",
    "image", "tags", "section", "page_type", "declared_page_type",
)
#: Every output.
OUTPUTS = (
    "text", "html", "title", "diagnostics", "algorithm", "markdown", "fingerprint", "comments", "url",
    *METADATA_OUTPUTS,
)


def extraction_keywords(outputs: Iterable[str]) -> dict[str, bool]:
    """The renderings and readings :func:`scrapy_cetd.extract` makes for ``outputs``: only
    those some output needs (Markdown, cleaned HTML, metadata and comments each cost time)."""
    names = set(outputs)
    return {
        "diagnostics": "diagnostics" in names,
        "with_html": "html" in names,
        "with_markdown": "markdown" in names,
        "with_metadata": any(name == "title" or name in METADATA_OUTPUTS for name in names),
        "with_comments": "comments" in names,
    }


def diagnostics_output(result: Extraction) -> dict[str, Any]:
    """The ``diagnostics`` output: threshold, reason and the algorithm's own values (no node table)."""
    info: dict[str, Any] = {
        "threshold": result.threshold,
        "threshold_coefficient": result.threshold_coefficient,
        "reason": result.reason,
    }
    info.update((key, value) for key, value in (result.diagnostics or {}).items() if key != "nodes")
    return info


def output_value(result: Extraction, name: str) -> Any:
    """An output of an extraction by its name: a field of the result, or of its metadata
    (so outputs added to :data:`OUTPUTS` later flow through unchanged)."""
    if name == "diagnostics":
        return diagnostics_output(result)
    if name == "fingerprint":  # the SimHash of the text, for duplicate stories
        return text_fingerprint(result.text)
    if hasattr(result, name):
        return getattr(result, name)
    metadata = getattr(result, "metadata", None)
    return getattr(metadata, name, None)
