"""The README's main job: the offline crawl runner of ``example_project`` against its sample site."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from lxml import html as lxml_html

import scrapy_cetd

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "example_project"
SAMPLE_SITE = PROJECT / "sample_site"


#: The parts of a sample article that are not the story, by their class in the bundled pages.
NOT_STORY = "|".join(
    f"//*[contains(concat(' ', @class, ' '), ' {name} ')]"
    for name in ("comments", "comment", "reply", "share", "related", "newsletter", "byline")
)


def sample_articles() -> dict[str, tuple[str, str, str]]:
    """URL path -> (page title, the story's standfirst, its first paragraph), read from the
    bundled pages."""
    articles = {}
    for path in sorted(SAMPLE_SITE.glob("20*/*/*.html")):
        tree = lxml_html.parse(str(path))
        first = tree.xpath('//div[@class="story-body"]/p[1]')[0].text_content()
        standfirst = tree.xpath('//p[@class="standfirst"]')[0].text_content()
        articles["/" + path.relative_to(SAMPLE_SITE).as_posix()] = (tree.findtext(".//title"), standfirst, first)
    return articles


def not_story_texts(path: str) -> set[str]:
    """The texts of a sample article's comment, reply, share, related, newsletter and byline
    parts (each element's and each text node's, 4 characters or more), and its headline."""
    tree = lxml_html.parse(str(SAMPLE_SITE / path.lstrip("/")))
    parts = [part for el in tree.xpath(NOT_STORY) for part in el.iter()]
    pieces = {" ".join(part.text_content().split()) for part in parts}
    pieces.update(" ".join(t.split()) for part in parts for t in part.itertext())
    pieces.add(tree.findtext(".//h1"))
    return {piece for piece in pieces if len(piece) >= 4}


@pytest.mark.parametrize("start", ["index", "sitemap", "feed"])
def test_offline_crawl_writes_the_corpus(tmp_path: Path, start: str) -> None:
    corpus = tmp_path / "corpus.jsonl"
    run = subprocess.run(
        [sys.executable, "-W", "error", str(PROJECT / "run_offline.py"), "--start", start, "--output", str(corpus)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    articles = sample_articles()
    assert len(articles) == 23
    assert f"Corpus: {corpus}" in run.stdout
    assert f"  {len(articles)} articles ({len(articles)} with text)" in run.stdout
    assert "finish reason: finished" in run.stdout
    assert "scrapy_cetd/skipped/status: 42\n      error responses, not parsed: 42 are 404s, " in run.stdout
    assert "deliberately dead links" in run.stdout
    # The spider yields an item for every HTML page; CETD_PAGE_TYPES = ["article"] keeps the
    # 23 articles and drops the front page, the five sections, "about" and "contact".
    pages = {"/" + p.relative_to(SAMPLE_SITE).as_posix() for p in SAMPLE_SITE.rglob("*.html")}
    assert len(pages) - len(articles) == 8
    assert "scrapy_cetd/items/dropped/page_type: 8\n" in run.stdout
    assert "scrapy_cetd/page_types/article: 23\n" in run.stdout
    items = [json.loads(line) for line in corpus.read_text(encoding="utf-8").split("\n") if line]
    by_path = {"/" + item["url"].split("/", 3)[3]: item for item in items}
    assert len(by_path) == len(items) == len(articles)
    assert set(by_path) == set(articles)
    for path, (title, standfirst, first_paragraph) in articles.items():
        item = by_path[path]
        assert list(item) == [
            "url", "title", "authors", "date_published", "date_modified", "language", "site_name", "canonical_url",
            "text", "html", "algorithm", "crawled_at",
        ], path
        assert item["title"] == title.split(" | ")[0]  # the headline, without the site's name
        assert item["site_name"] == "The Riverside Courier" and item["language"] == "en-GB", path
        assert item["authors"] and item["date_published"].startswith("2026-"), path
        assert item["canonical_url"] == item["url"], path  # declared relative, given absolute
        # the story comes first: its standfirst (part of the story a reader sees) may open it
        assert item["text"].startswith((first_paragraph, f"{standfirst}\n{first_paragraph}")), path
        lines = item["text"].splitlines()
        for piece in not_story_texts(path):  # no such line, nor a long one inside a line
            assert piece not in lines, (path, piece)
            assert len(piece) < 25 or not any(piece in line for line in lines), (path, piece)
        assert "Privacy policy" not in item["text"] and "Newsletter" not in item["text"]
        assert item["html"].startswith("<html") and "<p>" in item["html"]
        assert item["algorithm"] == scrapy_cetd.DEFAULT_ALGORITHM
        assert datetime.fromisoformat(item["crawled_at"]).tzinfo is not None
