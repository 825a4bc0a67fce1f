"""Story fingerprints and duplicate stories: SimHash, the block index, the memory and Redis
stores, and crawls where one story arrives twice (the same text under two URLs, in another
site's chrome)."""

from __future__ import annotations

import contextlib
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import scrapy
from lxml import html as lxml_html

from scrapy_cetd.crawl.duplicates import MemoryStoryStore, RedisStoryStore, blocks
from scrapy_cetd.fingerprint import hamming, simhash, text_fingerprint
from tests.conftest import run_crawl, serve_routes

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "example_project" / "sample_site" / "2026" / "11"
sys.path.insert(0, str(ROOT / "example_project"))
from run_distributed import RedisUnavailable, redis_server  # noqa: E402

GAZETTE_CHROME = {
    "header": '<header><a href="/">The Valley Gazette</a><nav><a href="/news">News</a> <a href="/farming">Farming</a>'
    ' <a href="/weather">Weather</a> <a href="/jobs">Jobs</a> <a href="/motors">Motors</a></nav></header>',
    "aside": '<aside><h3>More from the Gazette</h3><ul><li><a href="/a">Sheep show returns to Upper Dale</a></li>'
    '<li><a href="/b">Reservoir levels back to normal</a></li><li><a href="/c">New vet opens in Market Square</a></li>'
    "</ul></aside>",
    "footer": '<footer><p>The Valley Gazette, Mill Lane, Upper Dale.</p><a href="/privacy">Privacy</a></footer>',
}


def gazette_page(name: str, credit: bool = False) -> bytes:
    """A sample-site story as The Valley Gazette syndicates it: the story's markup kept, the
    Courier's chrome (top bar, masthead, navigation, ads, related stories, sidebar, footer)
    replaced by the Gazette's; ``credit`` adds a credit line to the story."""
    tree = lxml_html.parse(str(SAMPLE / name)).getroot()
    for element in tree.xpath('//div[@class="topbar"] | //header | //div[contains(@class, "ad ")] | //aside'
                              ' | //footer | //section[@class="related"] | //nav[@class="breadcrumb"]'):
        element.drop_tree()
    body = tree.find("body")
    body.insert(0, lxml_html.fragment_fromstring(GAZETTE_CHROME["header"]))
    body.append(lxml_html.fragment_fromstring(GAZETTE_CHROME["aside"]))
    body.append(lxml_html.fragment_fromstring(GAZETTE_CHROME["footer"]))
    if credit:
        line = lxml_html.fragment_fromstring("<p>First published by the Riverside Courier.</p>")
        tree.xpath('//div[@class="story-body"]')[0].append(line)
    return lxml_html.tostring(tree, encoding="utf-8", doctype="<!DOCTYPE html>")


def _routes() -> dict[str, tuple[int, dict[str, str], bytes]]:
    page = {"Content-Type": "text/html; charset=utf-8"}
    return {
        "/courier/bakery.html": (200, page, (SAMPLE / "bakery-expansion.html").read_bytes()),
        "/gazette/bakery.html?utm_source=courier": (200, page, gazette_page("bakery-expansion.html")),
        "/gazette/bakery-credited.html": (200, page, gazette_page("bakery-expansion.html", credit=True)),
        "/gazette/cafes.html": (200, page, gazette_page("cafe-licences.html")),
    }


@pytest.fixture(scope="module")
def stories_url() -> Iterator[str]:
    with serve_routes(_routes()) as url:
        yield url


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A real redis-server on a free loopback port, for this module."""
    try:
        with redis_server() as (url, _):
            yield url
    except RedisUnavailable as exc:
        if "not found" in str(exc):
            pytest.skip(f"{exc} (.ci/run installs it)")
        raise


class StoriesSpider(scrapy.Spider):
    """Fetches the given paths one after another (so "first seen" is well defined)."""

    name = "stories"
    custom_settings = {"CONCURRENT_REQUESTS": 1}

    def __init__(self, base: str, paths: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = [base + path for path in paths.split(",")]

    async def start(self) -> Any:
        yield scrapy.Request(self.urls[0], callback=self.parse, cb_kwargs={"rest": self.urls[1:]})

    def parse(self, response: Any, rest: list[str]) -> Any:
        yield {"url": response.url}
        if rest:
            yield scrapy.Request(rest[0], callback=self.parse, cb_kwargs={"rest": rest[1:]})


PATHS = "/courier/bakery.html,/gazette/bakery.html?utm_source=courier,/gazette/bakery-credited.html,/gazette/cafes.html"
SETTINGS = {"CETD_OUTPUT_FIELDS": {"text": "text", "fingerprint": "fingerprint"}}


def test_simhash_is_stable_and_near_for_small_edits() -> None:
    text = " ".join(f"The council met on day {i} to discuss bridge number {i * 7} over the river." for i in range(40))
    edited = text.replace("council", "committee", 1)
    other = " ".join(f"Rain is forecast for the weekend in district {i} with winds of {i * 3} mph." for i in range(40))
    assert text_fingerprint(text) == text_fingerprint(text) and re.fullmatch(r"[0-9a-f]{16}", text_fingerprint(text))
    assert hamming(simhash(text), simhash(edited)) <= 3
    assert hamming(text_fingerprint(text), text_fingerprint(other)) > 10
    assert text_fingerprint("") == text_fingerprint(" \n ") == ""
    # One shingle: the fingerprint is that shingle's hash.
    assert simhash("one") == simhash("ONE!") != 0


def test_blocks_cover_all_bits() -> None:
    fingerprint = random.Random(1).getrandbits(64)
    for distance in range(8):
        parts = blocks(fingerprint, distance)
        assert len(parts) == distance + 1
        widths = [64 * (i + 1) // (distance + 1) - 64 * i // (distance + 1) for i in range(distance + 1)]
        assert sum(part << sum(widths[:i]) for i, part in enumerate(parts)) == fingerprint


def _flip(fingerprint: int, bits: int, rng: random.Random) -> int:
    for bit in rng.sample(range(64), bits):
        fingerprint ^= 1 << bit
    return fingerprint


def _store_answers(store: Any, rng: random.Random) -> list[Any]:
    seen = [rng.getrandbits(64) for _ in range(300)]
    answers = [store.check_and_add(fp, f"https://a.example/{i}") for i, fp in enumerate(seen)]
    for bits in range(6):
        for fp in rng.sample(seen, 20):
            answers.append(store.check_and_add(_flip(fp, bits, rng), f"https://b.example/{bits}"))
    return answers


def test_memory_store_finds_every_fingerprint_within_the_distance() -> None:
    rng = random.Random(3)
    store = MemoryStoryStore(3)
    answers = _store_answers(store, random.Random(3))
    assert answers[:300] == [None] * 300  # random 64-bit fingerprints are ~32 bits apart
    near = answers[300:]
    for bits in range(6):
        chunk = near[bits * 20 : bits * 20 + 20]
        if bits <= 3:
            assert all(a is not None and a[0] == bits and a[1].startswith("https://a.example/") for a in chunk)
        else:
            assert sum(a is None for a in chunk) >= 18  # new fingerprints (unless near another new one)
    del rng


def test_redis_store_agrees_with_memory_store_and_is_shared(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    prefix = "test:stories"
    first = RedisStoryStore(client, prefix, 3)
    first.clear()
    assert _store_answers(first, random.Random(5)) == _store_answers(MemoryStoryStore(3), random.Random(5))
    # A second worker's store sees what the first recorded.
    second = RedisStoryStore(redis.Redis.from_url(redis_url), prefix, 3)
    fingerprint = simhash("a story about the bakery on Bridge Street and its twelve new jobs")
    assert first.check_and_add(fingerprint, "https://one.example/story") is None
    assert second.check_and_add(fingerprint ^ 0b101, "https://two.example/story") == (2, "https://one.example/story")
    first.clear()
    assert client.keys(f"{prefix}:*") == []


@pytest.mark.parametrize("distance", [None, 7])
def test_syndicated_copies_are_flagged(tmp_path: Path, stories_url: str, distance: int | None) -> None:
    """The copy in other chrome has the same text (exact); the credited copy differs by one
    line, 7 bits of a short story: within k = 7, not within the default k = 3."""
    settings = {**SETTINGS, "CETD_ON_DUPLICATE": "flag"}
    if distance is not None:
        settings["CETD_DUPLICATE_DISTANCE"] = distance
    result = run_crawl("tests.test_duplicates.StoriesSpider", tmp_path, settings, base=stories_url, paths=PATHS)
    items = {item["url"].split("/", 3)[3]: item for item in result.items}
    assert len(items) == 4
    original, copy, credited, other = (items[path.lstrip("/")] for path in PATHS.split(","))
    assert "cetd_flag" not in original and "cetd_flag" not in other
    assert copy["cetd_flag"] == "duplicate" and copy["duplicate_of"] == original["url"]
    assert copy["text"] == original["text"] and copy["fingerprint"] == original["fingerprint"]
    assert "First published" in credited["text"]
    assert 3 < hamming(credited["fingerprint"], original["fingerprint"]) <= 7
    assert hamming(other["fingerprint"], original["fingerprint"]) > 20
    stats = result.stats
    assert stats["scrapy_cetd/duplicates/exact"] == 1
    if distance is None:
        assert "cetd_flag" not in credited and "scrapy_cetd/duplicates/near" not in stats
        assert stats["scrapy_cetd/duplicates/flagged"] == 1 and stats["scrapy_cetd/duplicates/unique"] == 3
    else:
        assert credited["cetd_flag"] == "duplicate" and credited["duplicate_of"] == original["url"]
        assert stats["scrapy_cetd/duplicates/near"] == 1
        assert stats["scrapy_cetd/duplicates/flagged"] == 2 and stats["scrapy_cetd/duplicates/unique"] == 2
    assert result.warnings == [] and result.errors == []


def test_syndicated_copy_is_dropped_across_processes_through_redis(
    tmp_path: Path, stories_url: str, redis_url: str
) -> None:
    """Two crawls in two processes (two workers) share the seen stories in Redis."""
    settings = {**SETTINGS, "CETD_ON_DUPLICATE": "drop", "CETD_DUPLICATES_STORE": "redis", "REDIS_URL": redis_url,
                "CETD_DUPLICATES_KEY": "syndication-test"}  # default k = 3: the credited copy is kept
    paths = PATHS.split(",")
    first = run_crawl("tests.test_duplicates.StoriesSpider", tmp_path / "1", settings, base=stories_url,
                      paths=paths[0])
    second = run_crawl("tests.test_duplicates.StoriesSpider", tmp_path / "2", settings, base=stories_url,
                       paths=",".join(paths[1:]))
    assert [item["url"] for item in first.items] == [stories_url + paths[0]]
    assert [item["url"] for item in second.items] == [stories_url + path for path in paths[2:]]
    assert second.stats["scrapy_cetd/duplicates/dropped"] == 1 and second.stats["item_dropped_count"] == 1
    assert first.warnings == second.warnings == []


def test_a_failing_store_keeps_the_item(caplog: pytest.LogCaptureFixture) -> None:
    """Redis down (nothing listens on port 1): the item is kept, the error logged and counted."""
    from scrapy.utils.test import get_crawler

    from scrapy_cetd.crawl.duplicates import DuplicateStoryPipeline

    crawler = get_crawler(settings_dict={
        "CETD_ON_DUPLICATE": "drop", "CETD_DUPLICATES_STORE": "redis", "REDIS_URL": "redis://127.0.0.1:1",
    })
    crawler.spider = scrapy.Spider("stories")
    pipeline = DuplicateStoryPipeline.from_crawler(crawler)
    pipeline.open_spider()
    item = {"url": "https://a.example/story", "text": "the bakery opens its third shop on Bridge Street"}
    assert pipeline.process_item(item) is item
    assert crawler.stats.get_value("scrapy_cetd/duplicates/errors") == 1
    assert "Duplicate-story check failed for https://a.example/story (item kept): ConnectionError" in caplog.text


# A killed worker: it claimed a story's fingerprint and died before the item was exported.

STORY = simhash("the bakery on Bridge Street opens a third shop and hires twelve bakers from the valley")
PAGE, COPY = "https://courier.example/bakery.html", "https://gazette.example/bakery.html?utm_source=courier"


@pytest.fixture(params=["memory", "redis"])
def two_stores(request: pytest.FixtureRequest) -> Iterator[tuple[Any, Any]]:
    """Two workers' stores: one shared Redis, or (``memory``) one process's store twice."""
    if request.param == "memory":
        store = MemoryStoryStore(3)
        yield store, store
        return
    import redis

    url = request.getfixturevalue("redis_url")
    first = RedisStoryStore(redis.Redis.from_url(url), "test:claims", 3)
    first.clear()
    yield first, RedisStoryStore(redis.Redis.from_url(url), "test:claims", 3)
    first.clear()


def test_a_page_is_not_a_duplicate_of_its_own_unexported_claim(two_stores: tuple[Any, Any]) -> None:
    dead, survivor = two_stores
    assert dead.check_and_add(STORY, PAGE) is None  # claimed, then the worker is killed
    # The survivor crawls the leased request again: same URL, same (or an edited) text: kept.
    assert survivor.check_and_add(STORY ^ 0b1, PAGE) is None
    # Another URL with the story is still a duplicate, of the page's new claim.
    assert survivor.check_and_add(STORY, COPY) == (1, PAGE)
    survivor.exported(PAGE)
    # Exported: crawled again, the page finds itself (the pipeline reports 'recrawled').
    assert survivor.check_and_add(STORY, PAGE) == (1, PAGE)
    assert survivor.check_and_add(STORY, COPY) == (1, PAGE)


def test_two_urls_with_one_story_keep_one_whatever_the_claims_become(two_stores: tuple[Any, Any]) -> None:
    first, second = two_stores
    assert first.check_and_add(STORY, PAGE) is None
    assert second.check_and_add(STORY ^ 0b11, COPY) == (2, PAGE)  # racing, unexported: dropped
    assert first.check_and_add(STORY, PAGE) is None  # PAGE re-crawled after its worker died: kept
    assert second.check_and_add(STORY, COPY) == (0, PAGE)
    # The claim lost in a later pipeline (dropped, not exported): the next copy takes the story.
    first.release(STORY, PAGE)
    assert second.check_and_add(STORY, COPY) is None
    assert first.check_and_add(STORY, "https://third.example/bakery") == (0, COPY)
    first.release(STORY, PAGE)  # not PAGE's claim any more: no effect
    second.exported(COPY)
    second.release(STORY, COPY)  # exported: stays
    assert first.check_and_add(STORY, PAGE) == (0, COPY)


def test_stores_forget_a_claim_everywhere(redis_url: str) -> None:
    """An unexported claim replaced or released leaves no trace in the Redis hashes."""
    import redis

    client = redis.Redis.from_url(redis_url)
    store = RedisStoryStore(client, "test:forget", 3)
    store.clear()
    other = simhash("rain is forecast for the weekend in the upper dale with winds of forty miles an hour")
    assert store.check_and_add(other, COPY) is None
    store.exported(COPY)
    snapshot = {key: client.hgetall(key) for key in store.keys}
    assert store.check_and_add(STORY, PAGE) is None
    assert store.check_and_add(STORY ^ (1 << 40), PAGE) is None  # replaces PAGE's claim
    store.release(STORY ^ (1 << 40), PAGE)
    assert {key: client.hgetall(key) for key in store.keys} == snapshot
    store.clear()


def _pipeline(settings: dict[str, Any]) -> tuple[Any, Any]:
    from scrapy.utils.test import get_crawler

    from scrapy_cetd.crawl.duplicates import DuplicateStoryPipeline

    crawler = get_crawler(settings_dict={"CETD_ON_DUPLICATE": "drop", **settings})
    crawler.spider = scrapy.Spider("stories")
    pipeline = DuplicateStoryPipeline.from_crawler(crawler)
    pipeline.open_spider()
    return crawler, pipeline


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_a_killed_workers_page_is_exported_by_the_worker_that_crawls_it_again(
    kind: str, request: pytest.FixtureRequest
) -> None:
    """The bug: worker 1 claimed 0333.html and was SIGKILLed before exporting it; worker 2, which
    crawled the leased request again, dropped it as '0 bits from .../0333.html'."""
    from scrapy import signals
    from scrapy.exceptions import DropItem

    text = "the bakery on Bridge Street opens a third shop and hires twelve bakers from the valley"
    if kind == "redis":
        settings = {"CETD_DUPLICATES_STORE": "redis", "REDIS_URL": request.getfixturevalue("redis_url"),
                    "CETD_DUPLICATES_KEY": "killed-worker-test"}
        RedisStoryStore(__import__("redis").Redis.from_url(settings["REDIS_URL"]), "killed-worker-test", 3).clear()
        (_, dead), (crawler, survivor) = _pipeline(settings), _pipeline(settings)
    else:  # one process: the page fetched again (a retry, dont_filter) before its item was exported
        crawler, dead = _pipeline({})
        survivor = dead
    page = {"url": PAGE, "text": text}
    assert dead.process_item(dict(page))  # claimed; the worker dies before item_scraped
    exported = survivor.process_item(dict(page))
    assert exported == page
    crawler.signals.send_catch_log(signals.item_scraped, item=exported, response=None, spider=crawler.spider)
    with pytest.raises(DropItem, match="Duplicate story: .*gazette.* is 0 bits from https://courier"):
        survivor.process_item({"url": COPY, "text": text})
    assert survivor.process_item(dict(page)) == page  # again in this crawl: the same page, kept
    stats = crawler.stats.get_stats()
    assert stats["scrapy_cetd/duplicates/unique"] == 1
    assert stats["scrapy_cetd/duplicates/same_page"] == (1 if kind == "redis" else 2)
    assert stats["scrapy_cetd/duplicates/exact"] == stats["scrapy_cetd/duplicates/dropped"] == 1
    if kind == "redis":  # another worker (or tomorrow's crawl) that fetches the exported page again
        later_crawler, later = _pipeline(settings)
        with pytest.raises(DropItem, match=f"Page exported before: {re.escape(PAGE)} was crawled again"):
            later.process_item(dict(page))
        assert later_crawler.stats.get_value("scrapy_cetd/duplicates/recrawled") == 1


@pytest.mark.parametrize("policy", ["flag", "drop"])
@pytest.mark.parametrize("exported_first", [False, True])
def test_several_items_of_one_page_are_not_duplicates_or_recrawls(policy: str, exported_first: bool) -> None:
    """Teasers of one listing page carry its URL and text: none is a copy of the page."""
    from scrapy import signals

    crawler, pipeline = _pipeline({"CETD_ON_DUPLICATE": policy})
    text = "the bakery on Bridge Street opens a third shop and hires twelve bakers from the valley"
    items = [{"url": PAGE, "text": text, "teaser": n} for n in range(3)]
    for item in items:
        assert pipeline.process_item(item) is item
        assert "cetd_flag" not in item and "duplicate_of" not in item
        if exported_first:
            crawler.signals.send_catch_log(signals.item_scraped, item=item, response=None, spider=crawler.spider)
    stats = {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("scrapy_cetd/")}
    assert stats == {"scrapy_cetd/duplicates/unique": 1, "scrapy_cetd/duplicates/same_page": 2}
    with pytest.raises(scrapy.exceptions.DropItem) if policy == "drop" else contextlib.nullcontext():
        copy = pipeline.process_item({"url": COPY, "text": text})  # another URL: still a duplicate
        assert copy["duplicate_of"] == PAGE


class DropCourierPipeline:
    """A later pipeline that drops the Courier's items (e.g. a validation step)."""

    def process_item(self, item: Any) -> Any:
        if "/courier/" in item["url"]:
            raise scrapy.exceptions.DropItem("not wanted")
        return item


def test_a_story_dropped_by_a_later_pipeline_is_kept_from_its_next_copy(tmp_path: Path, stories_url: str) -> None:
    settings = {**SETTINGS, "CETD_ON_DUPLICATE": "drop",
                "ITEM_PIPELINES": {"tests.test_duplicates.DropCourierPipeline": 500}}
    result = run_crawl("tests.test_duplicates.StoriesSpider", tmp_path, settings, base=stories_url, paths=PATHS)
    kept = [item["url"].split("/", 3)[3] for item in result.items]
    # Before: the copy was dropped as a duplicate of the Courier's page, which is in no feed.
    assert kept == ["gazette/bakery.html?utm_source=courier", "gazette/bakery-credited.html", "gazette/cafes.html"]
    # 4 claims: the Courier's, released when the later pipeline dropped it, then the 3 kept.
    assert result.stats["scrapy_cetd/duplicates/unique"] == 4 and "scrapy_cetd/duplicates/dropped" not in result.stats
