"""Labelled datasets on disk, in the two layouts we read (detected automatically).

- **WCXB**: ``ground-truth/<id>.json`` (``url``, ``ground_truth.main_content``, possibly
  missing: an empty gold, and ``_internal.page_type.primary``) and ``html/<id>.html.gz``.
  Scored with the word-bag metric.
- **article-extraction-benchmark** ("aeb"): ``ground-truth.json`` mapping each id to
  ``{"articleBody": ..., "url": ...}`` and ``html/<id>.html.gz``.  Scored with 4-gram
  shingles.

Pages are ordered by id (numerically when every id is a number), which is the order
``--ids-from``/``--ids-to``, ``--split`` and ``--limit`` select in.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "SPLITS",
    "Dataset",
    "DatasetError",
    "GoldPage",
    "load_dataset",
    "read_html",
    "read_page_html",
    "select_pages",
]

SPLITS = ("first-half", "second-half")
_HTML_SUFFIXES = (".html.gz", ".html", ".htm.gz", ".htm")


class DatasetError(ValueError):
    """The directory is not a dataset we can read."""


@dataclass(frozen=True)
class GoldPage:
    """One labelled page: where its HTML is, its gold text, its page type if known."""

    page_id: str
    html_path: Path
    gold: str
    page_type: str | None = None
    url: str | None = None


@dataclass
class Dataset:
    """A dataset directory: its layout (``wcxb`` or ``aeb``), metric and pages by id."""

    root: Path
    layout: str
    pages: list[GoldPage]
    missing_html: list[str] = field(default_factory=list)

    @property
    def metric(self) -> str:
        """``word`` (WCXB's word bag) or ``shingle`` (the article benchmark's 4-grams)."""
        return "word" if self.layout == "wcxb" else "shingle"


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


def _wcxb_records(root: Path) -> dict[str, dict[str, str | None]]:
    records: dict[str, dict[str, str | None]] = {}
    for path in (root / "ground-truth").glob("*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        truth = record.get("ground_truth") or {}
        page_type = ((record.get("_internal") or {}).get("page_type") or {}).get("primary")
        records[path.stem] = {"gold": truth.get("main_content") or "", "type": page_type, "url": record.get("url")}
    return records


def _aeb_records(root: Path) -> dict[str, dict[str, str | None]]:
    data = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DatasetError(f"{root / 'ground-truth.json'}: expected an object mapping ids to records")
    return {
        str(page_id): {"gold": (record or {}).get("articleBody") or "", "type": None, "url": (record or {}).get("url")}
        for page_id, record in data.items()
    }


def load_dataset(path: str | Path) -> Dataset:
    """Read a dataset directory; the layout is detected from what it contains."""
    root = Path(path)
    if (root / "ground-truth.json").is_file():
        layout, records = "aeb", _aeb_records(root)
    elif (root / "ground-truth").is_dir():
        layout, records = "wcxb", _wcxb_records(root)
    else:
        raise DatasetError(
            f"{root}: not a dataset (expected ground-truth/*.json (WCXB) or ground-truth.json (article benchmark))"
        )
    ids = sorted(records, key=_id_key(list(records)))
    pages: list[GoldPage] = []
    missing: list[str] = []
    for page_id in ids:
        html_path = _html_path(root, page_id)
        if html_path is None:
            missing.append(page_id)
            continue
        record = records[page_id]
        pages.append(GoldPage(page_id, html_path, record["gold"] or "", record["type"], record["url"]))
    return Dataset(root=root, layout=layout, pages=pages, missing_html=missing)


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
