"""What a Scrapy user reads: the one-line invalid-setting error, and item log lines kept short.

The crawls run ``scrapy crawl news`` of a copy of ``example_project`` in a subprocess, as a
user would, against the bundled sample site served on 127.0.0.1.  A copy: the project's own
feed and WARC (``output/``) hold what ``make crawl`` wrote, which the tests must not replace.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import scrapy
from scrapy.utils.test import get_crawler

from scrapy_cetd import Addon
from scrapy_cetd.crawl.logformatter import ShortItemLogFormatter

PROJECT = Path(__file__).resolve().parent.parent / "example_project"


@pytest.fixture(scope="module")
def sample_site() -> Iterator[str]:
    sys.path.insert(0, str(PROJECT))
    try:
        from run_offline import serve_sample_site

        with serve_sample_site() as base_url:
            yield base_url
    finally:
        sys.path.remove(str(PROJECT))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the example project without its ``output/``."""
    copy = tmp_path_factory.mktemp("project") / "example_project"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns("output", "__pycache__"))
    return copy


def scrapy_crawl(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "news", *args],
        capture_output=True, text=True, timeout=120, cwd=project, check=False,
    )


LEASING = "SCHEDULER=scrapy_cetd.cluster.frontier.LeasingScheduler"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (["CETD_ALGORITHM=nope"], "CETD_ALGORITHM: unknown algorithm 'nope'; choose one of: cectd-ds, "),
        (["CETD_WORKERS=-1"], "CETD_WORKERS: expected a whole number >= 0, got '-1'"),
        (["CETD_ON_DUPLICATE=maybe"], "CETD_ON_DUPLICATE: expected one of 'keep', 'flag', 'drop', got 'maybe'"),
        (["CETD_ON_DUPLICATE=flag", "CETD_DUPLICATE_DISTANCE=9"], "CETD_DUPLICATE_DISTANCE: expected 0 to 7, got 9"),
        (
            ["SCHEDULER=scrapy_redis.scheduler.Scheduler", "CETD_REDIS_LOST_CLOSE=soon"],
            "CETD_REDIS_LOST_CLOSE: expected seconds (a number >= 0, 0 for off), got 'soon'",
        ),
        # Built once the spider is open; Scrapy then ends the crawl with another error, raised
        # while handling this one.  (No RedisWatch: it would stop the crawl first, as no Redis
        # answers here.)
        (
            [LEASING, "CETD_REDIS_LOST_CLOSE=0", "CETD_LEASE_SECONDS=0"],
            "CETD_LEASE_SECONDS: expected seconds (a number > 0), got '0'",
        ),
        # The rule and the message agree (-1 said "0 for off", and 0 was refused).
        (
            [LEASING, "CETD_REDIS_LOST_CLOSE=0", "CETD_LEASE_SECONDS=-1"],
            "CETD_LEASE_SECONDS: expected seconds (a number > 0), got '-1'",
        ),
        # Checked while CETD_ON_DUPLICATE is "keep" too (they were accepted).
        (["CETD_DUPLICATE_DISTANCE=8"], "CETD_DUPLICATE_DISTANCE: expected 0 to 7, got 8"),
        (["CETD_DUPLICATE_DISTANCE=-1"], "CETD_DUPLICATE_DISTANCE: expected a whole number >= 0, got '-1'"),
        # An archive that cannot be written: it failed at the first response, as two
        # "Error downloading" tracebacks, and the crawl ended with exit 0 and no items.
        (
            ["CETD_WARC_PATH=scrapy.cfg/crawl.warc.gz"],
            "CETD_WARC_PATH: cannot write the archive 'scrapy.cfg/crawl.warc.gz': Not a directory (scrapy.cfg)",
        ),
    ],
)
def test_an_invalid_setting_is_one_line_naming_it_and_a_failed_exit(
    project: Path, settings: list[str], message: str
) -> None:
    # No start_url either: the spider checks it only once the components (and settings) are
    # built; the scheduler is built after that, so its case has an unreachable one.
    args = [arg for setting in settings for arg in ("-s", setting)]
    scheduler = any("LeasingScheduler" in setting for setting in settings)
    if scheduler:
        args += ["-a", "start_url=http://127.0.0.1:9/"]
    run = scrapy_crawl(project, *args)
    assert run.returncode == 1
    errors = [line for line in run.stderr.splitlines() if " ERROR: " in line]
    assert len(errors) == 1, run.stderr[-3000:]
    assert f"[scrapy_cetd.crawl.settings] ERROR: Crawl not started, invalid setting: {message}" in errors[0]
    assert "Traceback" not in run.stderr and "Task exception was never retrieved" not in run.stderr
    assert scheduler or "Spider opened" not in run.stderr


def _log_line(log: Path, text: str, process: subprocess.Popen[str]) -> str:
    """The first line of ``log`` holding ``text``, waiting for it while ``process`` runs."""
    deadline = time.monotonic() + 120
    while True:
        lines = [line for line in log.read_text(encoding="utf-8").splitlines() if text in line]
        if lines:
            return lines[0]
        assert process.poll() is None and time.monotonic() < deadline, log.read_text(encoding="utf-8")[-3000:]
        time.sleep(0.05)


def test_two_crawls_with_one_warc_path_write_two_whole_archives(
    project: Path, sample_site: str, tmp_path: Path
) -> None:
    """Two workers on one machine with the same settings: the second takes the next free
    name (they used to write one file, which neither warcio nor ``scrapy-cetd warc`` read)."""
    warc = tmp_path / "crawl.warc.gz"
    args = [
        "-a", f"start_url={sample_site}/index.html", "-s", f"CETD_WARC_PATH={warc}", "-s", "LOG_LEVEL=INFO",
        "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "FEEDS={}",
    ]
    first_log = tmp_path / "first.log"
    with first_log.open("w", encoding="utf-8") as log:  # slow: still crawling when the second starts
        first = subprocess.Popen(
            [sys.executable, "-m", "scrapy", "crawl", "news", *args, "-s", "DOWNLOAD_DELAY=0.5"],
            stdout=subprocess.DEVNULL, stderr=log, text=True, cwd=project,
        )
    try:
        assert _log_line(first_log, "Archiving responses to", first).endswith(f"Archiving responses to {warc}")
        deadline = time.monotonic() + 60
        while not warc.stat().st_size:  # it is writing
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        second = scrapy_crawl(project, *args)
        assert second.returncode == 0, second.stderr[-3000:]
    finally:
        first.send_signal(signal.SIGINT)  # Scrapy's graceful stop: the archive is closed whole
        first.wait(60)
    second_warc = tmp_path / "crawl-00001.warc.gz"
    assert [line.split("] INFO: ", 1)[1] for line in second.stderr.splitlines() if "Archiving responses" in line] == [
        f"Archiving responses to {second_warc} ({warc}: in use or written by another crawl)"
    ]
    warcio = pytest.importorskip("warcio.archiveiterator")
    for path, log in ((warc, first_log.read_text(encoding="utf-8")), (second_warc, second.stderr)):
        responses = int(re.search(r"'scrapy_cetd/warc/responses': (\d+)", log)[1])  # type: ignore[index]
        with path.open("rb") as file:
            types = [record.rec_type for record in warcio.ArchiveIterator(file, check_digests="raise")]
        assert responses > 0 and types == ["warcinfo"] + ["request", "response"] * responses, path


def test_a_misspelt_setting_is_one_warning_naming_the_closest(project: Path) -> None:
    """Scrapy ignores settings it does not know; a misspelt CETD_* name went unnoticed."""
    run = scrapy_crawl(project, "-s", "CETD_WORKER=4", "-s", "CETD_ALGORTHM=tfidf", "-s", "CETD_XYZZY=1")
    assert run.returncode == 0  # a warning, as Scrapy would: the crawl runs with the defaults
    warnings = [line.split("] WARNING: ", 1)[1] for line in run.stderr.splitlines() if "Unknown setting" in line]
    assert warnings == [
        "Unknown setting CETD_ALGORTHM (ignored): did you mean CETD_ALGORITHM?",
        "Unknown setting CETD_WORKER (ignored): did you mean CETD_WORKERS?",
        "Unknown setting CETD_XYZZY (ignored): the CETD_* settings are listed in docs/scrapy.md",
    ]


def test_the_known_settings_are_the_documented_ones() -> None:
    from scrapy_cetd.crawl.settings import KNOWN_SETTINGS

    root = PROJECT.parent
    documented = set(re.findall(r"`(CETD_[A-Z_]+)`", (root / "docs" / "scrapy.md").read_text(encoding="utf-8")))
    used = {
        name
        for path in (root / "scrapy_cetd").rglob("*.py")
        for name in re.findall(r"\bCETD_[A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8"))
    }
    assert documented == set(KNOWN_SETTINGS) == used


def test_the_news_spider_without_start_url_says_what_to_give(project: Path) -> None:
    run = scrapy_crawl(project, "-s", "LOG_LEVEL=INFO")
    assert run.returncode == 0
    assert "[news] ERROR: Give the site to crawl: scrapy crawl news -a start_url=https://..." in run.stderr
    assert "Closing spider (no_start_url)" in run.stderr and "Traceback" not in run.stderr


def test_the_debug_log_shows_items_with_long_fields_shortened(project: Path, sample_site: str, tmp_path: Path) -> None:
    feed = tmp_path / "corpus.jsonl"
    run = scrapy_crawl(
        project,
        "-a", f"start_url={sample_site}/index.html",
        "-s", "LOG_LEVEL=DEBUG", "-s", "AUTOTHROTTLE_ENABLED=False",
        "-s", "FEEDS=" + json.dumps({str(feed): {"format": "jsonlines"}}),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    items = {item["url"]: item for item in map(json.loads, feed.read_text(encoding="utf-8").splitlines())}
    records = re.split(r"\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d )", run.stderr)
    scraped = [record for record in records if "DEBUG: Scraped from <200 " in record]
    assert len(scraped) == len(items) == 23
    for record in scraped:
        url = re.search(r"Scraped from <200 (\S+)>", record)[1]  # type: ignore[index]
        item = items[url]
        assert len(item["html"]) > 400  # the whole cleaned page is in the feed...
        assert f"'html': {item['html'][:200]!r}... ({len(item['html']):,} characters)" in record  # ...not in the log
        # Addresses are shown whole (the page's in the log line, its url and canonical_url);
        # everything else in the record is bounded, whatever the page's length.
        assert len(record.replace(url, "")) < 1000


@dataclasses.dataclass
class Story:
    url: str
    text: str
    tags: list[str]


class StoryItem(scrapy.Item):
    url = scrapy.Field()
    text = scrapy.Field()


def logged(result: dict) -> str:  # type: ignore[type-arg]
    record = logging.LogRecord("test", result["level"], __file__, 1, result["msg"], (result["args"],), None)
    return record.getMessage()


def test_the_formatter_shortens_every_item_type_and_keeps_levels() -> None:
    crawler = get_crawler(scrapy.Spider)
    formatter = ShortItemLogFormatter.from_crawler(crawler)
    spider = scrapy.Spider("s")
    spider.crawler = crawler
    long_text = "word " * 1000
    items = [
        ({"url": "u", "text": long_text, "raw": b"x" * 300}, "{'url': 'u', 'text': "),
        (Story("u", long_text, [f"t{i}" for i in range(25)]), "Story({'url': 'u', 'text': "),
        (StoryItem(url="u", text=long_text), "StoryItem({'url': 'u', 'text': "),
    ]
    for item, start in items:
        message = logged(formatter.scraped(item, None, spider))
        shown = message.split("\n", 1)[1]
        assert shown.startswith(start)
        assert f"{long_text[:200]!r}... (5,000 characters)" in shown
        assert len(shown) < 600
    assert "'raw': " + repr(b"x" * 200) + "... (300 bytes)" in logged(formatter.scraped(items[0][0], None, spider))
    assert "'t19', ... (5 more)]" in logged(formatter.scraped(items[1][0], None, spider))
    dropped = formatter.dropped(items[0][0], scrapy.exceptions.DropItem("short"), None, spider)
    assert dropped["level"] == logging.WARNING and "(5,000 characters)" in logged(dropped)
    error = formatter.item_error(items[0][0], ValueError("x"), None, spider)
    assert error["level"] == logging.ERROR and "(5,000 characters)" in logged(error)
    assert items[0][0]["text"] == long_text  # the item itself is untouched


def test_the_addon_sets_the_formatter_unless_one_is_set() -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}})
    crawler._apply_settings()
    assert crawler.settings["LOG_FORMATTER"] == "scrapy_cetd.crawl.logformatter.ShortItemLogFormatter"
    own = "scrapy.logformatter.LogFormatter"
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}, "LOG_FORMATTER": own})
    crawler._apply_settings()
    assert crawler.settings["LOG_FORMATTER"] == own
