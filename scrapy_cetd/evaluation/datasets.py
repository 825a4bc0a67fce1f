"""Labelled datasets on disk, in the four layouts we read (detected automatically).

- **WCXB** (``wcxb``): ``ground-truth/<id>.json`` (``url``, ``ground_truth.main_content``,
  possibly missing: an empty gold, ``_internal.page_type.primary``, and the ``title``,
  ``author``, ``publish_date`` labels) and ``html/<id>.html.gz``.  Scored with the word-bag
  metric.
- **article-extraction-benchmark** (``aeb``): ``ground-truth.json`` mapping each id to
  ``{"articleBody": ..., "url": ...}`` and ``html/<id>.html.gz``.  Scored with 4-gram
  shingles.
- **trafilatura's evaluation pages** (``trafilatura``): ``evaldata.json`` mapping each URL
  to ``{"file", "with", "without", "title", "author", "date", ...}`` and ``html/<file>.gz``.
  Scored with its own metric: ``with`` snippets found are true positives, ``without``
  snippets found false positives (:func:`~scrapy_cetd.evaluation.metrics.snippet_counts`).
- **Readability's test pages** (``readability``): ``<name>/source.html.gz``,
  ``<name>/expected.html.gz`` (the content Readability.js keeps, as HTML: its text is the
  gold) and ``<name>/expected-metadata.json`` (``title``, ``byline``, ``lang``, ...).
  Scored with the word-bag metric.

Every page carries its metadata labels under one set of names (``title``, ``author``,
``publish_date``; a field the set does not label is absent) and the language the set
declares for it, if any (else the page's own ``<html lang>``, read when it is scored).

Pages are ordered by id (numerically when every id is a number), which is the order
``--ids-from``/``--ids-to``, ``--split`` and ``--limit`` select in.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

__all__ = [
    "SPLITS",
    "gold_text",
    "html_text",
    "Dataset",
    "DatasetError",
    "GoldPage",
    "METRICS",
    "load_dataset",
    "read_html",
    "page_language",
    "read_page_html",
    "select_pages",
]

SPLITS = ("first-half", "second-half")
_HTML_SUFFIXES = (".html.gz", ".html", ".htm.gz", ".htm")


class DatasetError(ValueError):
    """The directory is not a dataset we can read."""


#: The metric of each layout: ``word`` (WCXB's word bag), ``shingle`` (the article
#: benchmark's 4-grams), ``snippet`` (trafilatura's with/without snippets).
METRICS = {"wcxb": "word", "aeb": "shingle", "trafilatura": "snippet", "readability": "word"}


@dataclass(frozen=True)
class GoldPage:
    """One labelled page: where its HTML is, its gold text (or, for the snippet metric, the
    snippets it must and must not contain), its page type, metadata labels and language."""

    page_id: str
    html_path: Path
    gold: str
    page_type: str | None = None
    url: str | None = None
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()
    labels: Mapping[str, str | None] = field(default_factory=dict)
    language: str | None = None


@dataclass
class Dataset:
    """A dataset directory: its layout (see :data:`METRICS`), metric and pages by id."""

    root: Path
    layout: str
    pages: list[GoldPage]
    missing_html: list[str] = field(default_factory=list)

    @property
    def metric(self) -> str:
        """How the text is scored: see :data:`METRICS`."""
        return METRICS[self.layout]

    @property
    def name(self) -> str:
        """The directory's name, as reports show it."""
        return self.root.resolve().name or str(self.root)


def read_html(path: Path) -> bytes:
    """The page's bytes, gunzipped when the file is gzip."""
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def read_page_html(page: GoldPage) -> bytes:
    """:func:`read_html` of a dataset page; a page that cannot be read is a :class:`DatasetError`."""
    try:
        return read_html(page.html_path)
    except (OSError, EOFError, zlib.error) as exc:
        raise DatasetError(f"{page.html_path}: cannot read the page ({exc})") from None


def _id_key(ids: Sequence[str]) -> Callable[[str], tuple[int, str]]:
    """Sort key for ids: numeric when every id is a number (``"0100"`` equals ``100``)."""
    if ids and all(i.isdigit() for i in ids):

        def numeric(page_id: str) -> tuple[int, str]:
            if not page_id.isdigit():
                raise ValueError(f"page ids are numbers here; got {page_id!r}")
            return int(page_id), ""

        return numeric
    return lambda page_id: (0, page_id)


def _html_path(root: Path, page_id: str) -> Path | None:
    for suffix in _HTML_SUFFIXES:
        path = root / "html" / f"{page_id}{suffix}"
        if path.is_file():
            return path
    return None


_Record = dict[str, Any]


def _wcxb_records(root: Path) -> dict[str, _Record]:
    records: dict[str, _Record] = {}
    for path in (root / "ground-truth").glob("*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        truth = record.get("ground_truth") or {}
        page_type = ((record.get("_internal") or {}).get("page_type") or {}).get("primary")
        labels = {key: _label(truth.get(key)) for key in ("title", "author", "publish_date")}
        records[path.stem] = {
            "gold": truth.get("main_content") or "",
            "page_type": page_type,
            "url": record.get("url"),
            "labels": labels,
        }
    return records


def _aeb_records(root: Path) -> dict[str, _Record]:
    data = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DatasetError(f"{root / 'ground-truth.json'}: expected an object mapping ids to records")
    return {
        str(page_id): {"gold": (record or {}).get("articleBody") or "", "url": (record or {}).get("url")}
        for page_id, record in data.items()
    }


def _label(value: Any) -> str | None:
    """A metadata label as one string: a list (several authors) joined by ``"; "``."""
    if isinstance(value, list):
        value = "; ".join(v.strip() for v in value if isinstance(v, str) and v.strip())
    return value.strip() or None if isinstance(value, str) else None


def _snippets(value: Any) -> tuple[str, ...]:
    return tuple(s for s in value if isinstance(s, str) and s.strip()) if isinstance(value, list) else ()


_TRAFILATURA_LABELS = {"title": "title", "author": "author", "publish_date": "date"}


def _trafilatura_records(root: Path) -> dict[str, _Record]:
    """``evaldata.json``: each page's id is its file name without ``.html``/``.gz``."""
    data = json.loads((root / "evaldata.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DatasetError(f"{root / 'evaldata.json'}: expected an object mapping URLs to records")
    records: dict[str, _Record] = {}
    for url, record in data.items():
        if not isinstance(record, dict) or not isinstance(record.get("file"), str):
            continue
        page_id = record["file"].removesuffix(".gz").removesuffix(".html").removesuffix(".htm")
        records[page_id] = {
            "url": url,
            "with": _snippets(record.get("with")),
            "without": _snippets(record.get("without")),
            "labels": {key: _label(record.get(name)) for key, name in _TRAFILATURA_LABELS.items()},
        }
    return records


def _readability_records(root: Path) -> dict[str, _Record]:
    """``<name>/expected-metadata.json``; the gold text is read from ``expected.html`` when
    the page is scored (:func:`gold_text`).  Readability labels no date."""
    records: dict[str, _Record] = {}
    for case in root.iterdir():
        if not (case / "expected-metadata.json").is_file():
            continue
        meta = json.loads((case / "expected-metadata.json").read_text(encoding="utf-8"))
        records[case.name] = {
            "labels": {"title": _label(meta.get("title")), "author": _label(meta.get("byline"))},
            "language": meta.get("lang") or None,
        }
    return records


def _readability_html(root: Path, page_id: str) -> Path | None:
    for name in ("source.html.gz", "source.html"):
        if (root / page_id / name).is_file():
            return root / page_id / name
    return None


def _layout(root: Path) -> str:
    if (root / "ground-truth.json").is_file():
        return "aeb"
    if (root / "ground-truth").is_dir():
        return "wcxb"
    if (root / "evaldata.json").is_file():
        return "trafilatura"
    if root.is_dir() and any((case / "expected-metadata.json").is_file() for case in root.iterdir()):
        return "readability"
    raise DatasetError(
        f"{root}: not a dataset (expected ground-truth/*.json (WCXB), ground-truth.json (article benchmark), "
        "evaldata.json (trafilatura) or */expected-metadata.json (Readability's test pages))"
    )


_RECORDS = {
    "wcxb": _wcxb_records,
    "aeb": _aeb_records,
    "trafilatura": _trafilatura_records,
    "readability": _readability_records,
}


def load_dataset(path: str | Path) -> Dataset:
    """Read a dataset directory; the layout is detected from what it contains."""
    root = Path(path)
    layout = _layout(root)
    records = _RECORDS[layout](root)
    ids = sorted(records, key=_id_key(list(records)))
    pages: list[GoldPage] = []
    missing: list[str] = []
    for page_id in ids:
        html_path = _readability_html(root, page_id) if layout == "readability" else _html_path(root, page_id)
        if html_path is None:
            missing.append(page_id)
            continue
        record = records[page_id]
        pages.append(
            GoldPage(
                page_id,
                html_path,
                record.get("gold") or "",
                record.get("page_type"),
                record.get("url"),
                with_snippets=record.get("with", ()),
                without_snippets=record.get("without", ()),
                labels=record.get("labels", {}),
                language=record.get("language"),
            )
        )
    return Dataset(root=root, layout=layout, pages=pages, missing_html=missing)


def gold_text(page: GoldPage) -> str:
    """The page's gold text: its label, or for Readability's test pages the text of
    ``expected.html`` (a line break after every block element)."""
    if page.gold or page.html_path.name not in ("source.html.gz", "source.html"):
        return page.gold
    expected = page.html_path.with_name(page.html_path.name.replace("source", "expected"))
    try:
        return html_text(read_html(expected).decode("utf-8", "replace"))
    except (OSError, EOFError, zlib.error) as exc:
        raise DatasetError(f"{expected}: cannot read the expected content ({exc})") from None


_BLOCK_TAGS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 "
    "header hr li main nav ol p pre section table td th tr ul".split()
)


def html_text(markup: str) -> str:
    """Text of an HTML document or fragment, with a line break after every block element
    (what word-bag scoring needs: words of adjacent blocks never run together)."""
    if not markup.strip():
        return ""
    root = etree.fromstring(markup, etree.HTMLParser())
    if root is None:
        return ""
    for element in root.iter(etree.Element):
        if element.tag in _BLOCK_TAGS:
            element.tail = "\n" + (element.tail or "")
    return "".join(root.itertext(etree.Element))


_HTML_LANG = re.compile(rb"<html\b[^>]*?\blang\s*=\s*[\"']?\s*([A-Za-z]{2,3})\b", re.IGNORECASE)


def page_language(page: GoldPage, html: bytes) -> str | None:
    """The language the set declares for the page, else its ``<html lang>`` (primary
    subtag, lower case), else ``None``."""
    if page.language:
        return page.language.split("-")[0].split("_")[0].lower() or None
    match = _HTML_LANG.search(html[:16384])
    return match.group(1).decode("ascii").lower() if match else None


def select_pages(
    pages: Sequence[GoldPage],
    *,
    ids_from: str | None = None,
    ids_to: str | None = None,
    split: str | None = None,
    page_types: Sequence[str] = (),
    limit: int | None = None,
) -> list[GoldPage]:
    """Pick pages (already in id order), in this order of steps.

    ``ids_from``/``ids_to``: an inclusive id range; ``split``: ``first-half`` is the first
    ``ceil(n / 2)`` pages left, ``second-half`` the rest; ``page_types``: keep only these
    types (after the split, so that ``--split second-half --page-type article`` holds only
    held-out pages); ``limit``: the first ``limit`` pages left.
    """
    key = _id_key([p.page_id for p in pages])
    selected = list(pages)
    if ids_from is not None:
        selected = [p for p in selected if key(p.page_id) >= key(ids_from)]
    if ids_to is not None:
        selected = [p for p in selected if key(p.page_id) <= key(ids_to)]
    if split is not None:
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}; choose one of: {', '.join(SPLITS)}")
        half = (len(selected) + 1) // 2
        selected = selected[:half] if split == "first-half" else selected[half:]
    if page_types:
        wanted = set(page_types)
        selected = [p for p in selected if p.page_type in wanted]
    if limit is not None:
        selected = selected[:limit]
    return selected
