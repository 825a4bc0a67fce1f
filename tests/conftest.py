"""Fixtures for the Scrapy tests: a loopback HTTP server for ``tests/site`` and a crawl helper."""

from __future__ import annotations

import contextlib
import gzip
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

SITE = Path(__file__).parent / "site"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".txt": "text/plain",
    ".png": "image/png",
    ".pdf": "application/pdf",
    ".json": "application/json",
}
HUGE_PARAGRAPHS = 20_000


def _huge_page() -> bytes:
    """A ~3 MB article: many paragraphs of council minutes between a nav and a footer."""
    paragraphs = "\n".join(
        f"<p>Item {n}: the committee noted the report on drainage, street lighting and the library garden, "
        f"and agreed to return to it at the next meeting.</p>"
        for n in range(HUGE_PARAGRAPHS)
    )
    return (
        "<!DOCTYPE html><html><head><title>Council minutes</title></head><body>"
        '<nav><a href="/index.html">Home</a> <a href="/article-river.html">Environment</a></nav>'
        f"<article><h1>Council minutes</h1>{paragraphs}</article>"
        '<footer><a href="/about.html">About</a></footer></body></html>'
    ).encode()


def _routes() -> dict[str, tuple[int, dict[str, str], bytes]]:
    routes = {
        f"/{path.name}": (200, {"Content-Type": CONTENT_TYPES[path.suffix]}, path.read_bytes())
        for path in SITE.iterdir()
        if path.suffix in CONTENT_TYPES
    }
    latin1 = routes["/latin1.html"]
    routes["/latin1.html"] = (200, {"Content-Type": "text/html"}, latin1[2])  # charset only in <meta>
    routes["/redirect"] = (301, {"Location": "/moved-article.html"}, b"")
    routes["/missing.html"] = (
        404,
        {"Content-Type": "text/html; charset=utf-8"},
        b"<html><body><h1>Not found</h1><p>The page you asked for does not exist.</p></body></html>",
    )
    routes["/empty.html"] = (200, {"Content-Type": "text/html; charset=utf-8"}, b"")
    routes["/pdf-as-html"] = (200, {"Content-Type": "text/html"}, routes["/doc.pdf"][2])
    # Compressed on the wire: the annotation middleware (585) must see it decompressed (590).
    routes["/gzipped.html"] = (
        200,
        {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"},
        gzip.compress(routes["/moved-article.html"][2].replace(b"Bridge works", b"Compressed: bridge works")),
    )
    routes["/huge.html"] = (200, {"Content-Type": "text/html; charset=utf-8"}, _huge_page())
    # UTF-8 bytes served as windows-1252: Scrapy's decoding yields replacement characters.
    routes["/wrong-charset.html"] = (
        200,
        {"Content-Type": "text/html; charset=windows-1252"},
        (
            "<html><head><title>Visiting coach praises the youth league</title></head><body>"
            '<nav><a href="/index.html">Home</a> <a href="/article-river.html">Environment</a></nav>'
            "<article><h1>Visiting coach praises the youth league</h1>"
            "<p>Načelnik Đoković, the visiting coach from Novi Sad, watched three matches on Sunday and said "
            "the youth league's café-side pitches were the friendliest he had seen in England.</p>"
            "<p>He will return in spring with an under-fourteen team for a weekend tournament.</p>"
            '</article><footer><a href="/about.html">About</a></footer></body></html>'
        ).encode(),
    )
    return routes


class _Handler(BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
    #: Seconds each answer waits (a slow site).
    delay = 0.0

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        status, headers, body = self.routes.get(
            self.path, (404, {"Content-Type": "text/html"}, b"<html><body><p>No such page.</p></body></html>")
        )
        if self.delay:
            time.sleep(self.delay)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve_routes(routes: dict[str, tuple[int, dict[str, str], bytes]], delay: float = 0.0) -> Iterator[str]:
    """Serve ``routes`` (path -> status, headers, body) on 127.0.0.1; yields the base URL."""
    handler = type("RoutesHandler", (_Handler,), {"routes": routes, "delay": delay})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Base URL (no trailing slash) of the test site, served on 127.0.0.1."""
    with serve_routes(_routes()) as url:
        yield url


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The items of a JSON Lines feed."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


ROOT = Path(__file__).resolve().parent.parent
BASE_CRAWL_SETTINGS: dict[str, Any] = {
    "ADDONS": {"scrapy_cetd.Addon": 0},
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "CETD_WORKERS": 0,
}


class CrawlResult:
    """What a crawl in a subprocess produced: feed items, stats, warnings, start-up errors, log."""

    def __init__(self, items: list[dict[str, Any]], report: dict[str, Any], log: str) -> None:
        self.items = items
        self.stats: dict[str, Any] = report["stats"]
        self.warnings: list[str] = report["warnings"]
        self.errors: list[str] = report["errors"]
        self.log = log

    def by_path(self) -> dict[str, dict[str, Any]]:
        """Items keyed by URL path (``/index.html``); fails on a URL scraped twice."""
        result: dict[str, dict[str, Any]] = {}
        for item in self.items:
            path = "/" + item["url"].split("/", 3)[3] if item["url"].count("/") >= 3 else item["url"]
            assert path not in result, f"{path} scraped twice"
            result[path] = item
        return result


def run_crawl(spider: str, tmp_path: Path, settings: dict[str, Any] | None = None, **spider_args: Any) -> CrawlResult:
    """Run ``spider`` ("module.Class") in a fresh Python process with a JSON Lines feed.

    Each crawl gets its own process (a Twisted reactor cannot be restarted); warnings of
    any kind raised during the crawl are reported back, so tests can require none.
    """
    feed = tmp_path / "items.jsonl"
    spec = {
        "spider": spider,
        "settings": {**BASE_CRAWL_SETTINGS, **(settings or {})},
        "spider_args": spider_args,
        "feed": str(feed),
    }
    process = subprocess.run(
        [sys.executable, "-m", "tests.conftest", json.dumps(spec)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    if process.returncode != 0:
        raise AssertionError(f"crawl process failed:\n{process.stderr[-4000:]}")
    report = json.loads(process.stdout.strip().splitlines()[-1])
    items = read_jsonl(feed) if feed.exists() else []
    return CrawlResult(items, report, process.stderr)


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str)) else str(value)


def _crawl_main(spec: dict[str, Any]) -> None:
    """Child side of :func:`run_crawl`: crawl, then print a JSON report on the last line.

    Every warning is routed to the ``py.warnings`` logger (as Scrapy itself does) and recorded.
    """
    import logging
    import warnings

    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.misc import load_object

    caught: list[str] = []

    class Recorder(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            caught.append(record.getMessage().strip())

    warnings.simplefilter("always")
    logging.captureWarnings(True)
    logging.getLogger("py.warnings").addHandler(Recorder())
    errors: list[str] = []
    feed = {"format": "jsonlines", "encoding": "utf-8", "overwrite": True}
    settings = {**spec["settings"], "FEEDS": {**spec["settings"].get("FEEDS", {}), spec["feed"]: feed}}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(load_object(spec["spider"]))
    deferred = process.crawl(crawler, **spec["spider_args"])
    deferred.addErrback(lambda failure: errors.append(f"{failure.type.__name__}: {failure.getErrorMessage()}"))
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    report = {"stats": {key: _plain(value) for key, value in stats.items()}, "warnings": caught, "errors": errors}
    print(json.dumps(report))


if __name__ == "__main__":
    _crawl_main(json.loads(sys.argv[1]))
