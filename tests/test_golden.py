"""The golden pages (tests/golden): each page's text, Markdown and metadata equal its files."""

from __future__ import annotations

import json

import pytest

from tests.golden import FIXTURES, GOLDEN, OUTPUTS, UPDATE_COMMAND, check, golden_pages

PAGES = golden_pages()


@pytest.mark.parametrize("page", PAGES, ids=[page.slug for page in PAGES])
def test_output_equals_the_golden_files(page) -> None:
    diffs = check(page)
    if diffs:
        pytest.fail(f"output differs from the golden files (review, then: {UPDATE_COMMAND}):\n" + "".join(diffs))


def test_every_fixture_page_and_every_folder_is_a_golden_page() -> None:
    sources = {json.loads(p.read_text(encoding="utf-8")).get("source") for p in GOLDEN.glob("*/page.json")}
    ids = [truth.stem for truth in (FIXTURES / "ground-truth").glob("*.json")]
    missing = [i for i in ids if f"../../fixtures/wcxb/html/{i}.html.gz" not in sources]
    assert not missing, f"fixture pages without a golden folder: {missing} ({UPDATE_COMMAND})"
    for page in PAGES:
        assert (page.folder / "expected.txt").exists(), f"{page.slug}: no expected files ({UPDATE_COMMAND})"


def test_a_changed_output_fails_with_a_unified_diff(tmp_path) -> None:
    page = next(p for p in PAGES if p.slug == "article-between-nav-and-footer")
    copy = tmp_path / page.slug
    copy.mkdir()
    (copy / "source.html").write_bytes(page.html)
    (copy / "page.json").write_text(json.dumps({"url": page.url}), encoding="utf-8")
    for name in OUTPUTS:
        if (page.folder / name).exists():
            (copy / name).write_text((page.folder / name).read_text(encoding="utf-8"), encoding="utf-8")
    expected = copy / "expected.txt"
    expected.write_text(expected.read_text(encoding="utf-8").replace("first paragraph", "opening paragraph"))
    (copy / "expected-comments.txt").write_text("A comment that is not there\n", encoding="utf-8")
    page = type(page)(page.slug, copy, page.html, page.url, page.content_type)
    diffs = check(page)
    assert len(diffs) == 2
    assert "-The opening paragraph" in diffs[0] and "+The first paragraph" in diffs[0]
    assert diffs[0].startswith(f"--- tests/golden/{page.slug}/expected.txt\n+++ ")
    assert "-A comment that is not there" in diffs[1] and "+++ /dev/null" in diffs[1]
