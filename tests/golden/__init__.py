"""Golden pages: the default extraction of each test page, kept as files beside the page.

Each folder ``tests/golden/<slug>/`` (the slug names the behaviour the page shows) holds a
page and what ``extract(html, url=..., with_markdown=True, with_comments=True)`` gives for
it, in the layout of Readability's ``test-pages/<name>/``:

- ``source.html``: a hand-made page, or ``page.json``'s ``"source"``: the path of a
  fixture page (relative to the folder; gzip read by its ``.gz`` suffix);
- ``page.json`` (optional): ``"url"`` and ``"content_type"`` passed to ``extract``;
- ``expected.txt``, ``expected.md``: the text and the Markdown;
- ``expected-metadata.json``: the title, the empty result's reason and the metadata;
- ``expected-comments.txt``: the comment section, only where the page has one.

Every WCXB fixture page (``tests/fixtures/wcxb``) has a folder ``wcxb-<page type>-<id>``,
made by the update.  ``python -m tests.golden --update`` rewrites every expected file
(``make golden``); ``tests/test_golden.py`` fails on any difference and prints it as a
unified diff, so a rule change shows in review as the lines of text it changed.
"""

from __future__ import annotations

import difflib
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent
FIXTURES = GOLDEN.parent / "fixtures" / "wcxb"
OUTPUTS = ("expected.txt", "expected.md", "expected-metadata.json", "expected-comments.txt")
UPDATE_COMMAND = "python -m tests.golden --update"

__all__ = ["GOLDEN", "GoldenPage", "check", "golden_pages", "outputs", "update"]


@dataclass(frozen=True)
class GoldenPage:
    """One golden folder: its slug, the page's bytes and the options ``extract`` gets."""

    slug: str
    folder: Path
    html: bytes
    url: str | None
    content_type: str | None


def _read_source(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def _page(folder: Path) -> GoldenPage:
    info: dict[str, Any] = {}
    if (folder / "page.json").exists():
        info = json.loads((folder / "page.json").read_text(encoding="utf-8"))
    source = folder / info.get("source", "source.html")
    return GoldenPage(folder.name, folder, _read_source(source), info.get("url"), info.get("content_type"))


def golden_pages() -> list[GoldenPage]:
    """Every golden folder, by slug."""
    return [_page(folder) for folder in sorted(GOLDEN.iterdir()) if folder.is_dir() and not folder.name.startswith("_")]


def outputs(page: GoldenPage) -> dict[str, str]:
    """The expected files' contents for ``page``, from the extraction as it is now."""
    from scrapy_cetd import extract

    result = extract(page.html, url=page.url, content_type=page.content_type, with_markdown=True, with_comments=True)
    metadata = result.metadata.to_dict() if result.metadata is not None else None
    summary = {"title": result.title, "reason": result.reason, "metadata": metadata}
    files = {
        "expected.txt": result.text + "\n",
        "expected.md": result.markdown + "\n",
        "expected-metadata.json": json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
    }
    if result.comments:
        files["expected-comments.txt"] = result.comments + "\n"
    return files


def _fixture_folders() -> None:
    """A folder (``page.json`` naming the fixture) for each WCXB fixture page lacking one."""
    taken = {json.loads(p.read_text(encoding="utf-8")).get("source") for p in GOLDEN.glob("*/page.json")}
    for truth in sorted((FIXTURES / "ground-truth").glob("*.json")):
        source = f"../../fixtures/wcxb/html/{truth.stem}.html.gz"
        if source in taken:
            continue
        record = json.loads(truth.read_text(encoding="utf-8"))
        folder = GOLDEN / f"wcxb-{record['_internal']['page_type']['primary']}-{truth.stem}"
        folder.mkdir()
        info = {"source": source, "url": record["url"]}
        (folder / "page.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


def update() -> list[str]:
    """Rewrite every golden folder's expected files; returns the paths that changed."""
    _fixture_folders()
    changed = []
    for page in golden_pages():
        files = outputs(page)
        for name in OUTPUTS:
            path = page.folder / name
            old = path.read_text(encoding="utf-8") if path.exists() else None
            new = files.get(name)
            if old == new:
                continue
            changed.append(str(path.relative_to(GOLDEN.parent.parent)))
            if new is None:
                path.unlink()
            else:
                path.write_text(new, encoding="utf-8")
    return changed


def check(page: GoldenPage) -> list[str]:
    """The differences between ``page``'s expected files and its output now, as unified
    diffs (a missing or superfluous file is a diff from or to nothing)."""
    files = outputs(page)
    diffs = []
    for name in OUTPUTS:
        path = page.folder / name
        old = path.read_text(encoding="utf-8") if path.exists() else None
        new = files.get(name)
        if old == new:
            continue
        label = f"tests/golden/{page.slug}/{name}"
        diff = difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            fromfile=label if old is not None else "/dev/null",
            tofile=f"{label} (output now)" if new is not None else "/dev/null",
        )
        diffs.append("".join(diff))
    return diffs
