"""Crawl the bundled sample news site, offline, and write a cleaned corpus.

    python example_project/run_offline.py [--start index|sitemap|feed] [--output PATH]

Serves ``sample_site/`` on 127.0.0.1 (a free port), runs the ``news`` spider of this project
against it with the project's settings (scrapy-cetd enabled by its add-on, a JSON Lines
feed), stops the server, and prints where the corpus is and a short summary.  ``make crawl``
runs this.  The same spider crawls a real site: ``scrapy crawl news -a start_url=...``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent
SITE = PROJECT / "sample_site"
START_PATHS = {"index": "/index.html", "sitemap": "/sitemap.xml", "feed": "/feed.xml"}
# The sitemap and the feed hold absolute URLs; this token stands for the server's address.
BASE_TOKEN = b"http://__BASE_URL__"


class SampleSiteHandler(SimpleHTTPRequestHandler):
    """Static files from ``sample_site``; XML files get the server's real base URL."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".xml": "application/xml"}

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.suffix != ".xml" or not path.is_file():
            return super().send_head()
        host, port = self.server.server_address[:2]
        body = path.read_bytes().replace(BASE_TOKEN, f"http://{host}:{port}".encode())
        self.send_response(200)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_sample_site(site: Path = SITE) -> Iterator[str]:
    """Serve the sample site (or another directory) on 127.0.0.1; yield its base URL; always stop the server."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SampleSiteHandler, directory=str(site)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def crawl(start_url: str, output: Path) -> dict[str, Any]:
    """Run the ``news`` spider with the project's settings; return the crawl's stats."""
    os.chdir(PROJECT)
    sys.path.insert(0, str(PROJECT))
    os.environ["SCRAPY_SETTINGS_MODULE"] = "news_corpus.settings"
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    feed = dict(settings.getdict("FEEDS")["output/corpus.jsonl"], overwrite=True)  # a new corpus each run
    settings.set("FEEDS", {str(output): feed})
    if settings.get("CETD_WARC_PATH"):  # the WARC archive goes beside the corpus
        settings.set("CETD_WARC_PATH", str(output.with_name(Path(settings["CETD_WARC_PATH"]).name)))
    settings.set("AUTOTHROTTLE_ENABLED", False)  # loopback: no need to be polite to ourselves
    settings.set("LOG_LEVEL", "WARNING")
    process = CrawlerProcess(settings)
    crawler = process.create_crawler("news")
    failures: list[BaseException] = []
    process.crawl(crawler, start_url=start_url).addErrback(lambda failure: failures.append(failure.value))
    process.start()
    if failures:  # e.g. an invalid CETD_* setting in news_corpus/settings.py
        raise CrawlNotStarted(f"{type(failures[0]).__name__}: {failures[0]}")
    return crawler.stats.get_stats()


class CrawlNotStarted(Exception):
    """The crawl failed while starting (its components could not be built)."""


#: What the sample site's numbers mean, beside the stats in the summary.
STAT_NOTES = {
    "scrapy_cetd/items/extracted": "articles that received their title, text and HTML",
    "scrapy_cetd/pages/annotated": "HTML pages parsed: front page, sections, articles, about, contact",
    "scrapy_cetd/items/dropped/page_type": "pages not kept by CETD_PAGE_TYPES = ['article']: the front page,"
    " the sections, about and contact",
    "scrapy_cetd/skipped/non_html": "not HTML, so not parsed: the sitemap.xml and feed.xml the front page links to",
    "scrapy_cetd/skipped/status": "error responses, not parsed: {404} are 404s, the site's missing robots.txt and"
    " its deliberately dead links to author, user, ad, login and legal pages",
}


def summary(output: Path, stats: dict[str, Any]) -> str:
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").split("\n") if line.strip()]
    with_text = [item for item in items if item.get("text")]
    seconds = (stats["finish_time"] - stats["start_time"]).total_seconds()
    lines = [
        f"Corpus: {output}",
        f"  {len(items)} articles ({len(with_text)} with text) from {stats.get('response_received_count', 0)}"
        f" pages in {seconds:.1f} s; finish reason: {stats.get('finish_reason')}",
    ]
    if with_text:
        chars = sorted(len(item["text"]) for item in with_text)
        lines.append(
            f"  text per article: median {chars[len(chars) // 2]} characters (min {chars[0]}, max {chars[-1]});"
            f" algorithm: {with_text[0].get('algorithm')}"
        )
    flagged = [item for item in items if item.get("cetd_flag") or item.get("cetd_error")]
    lines.append(f"  flagged or failed: {len(flagged)}")
    lines.append("  scrapy-cetd stats (docs/scrapy.md lists them all):")
    not_found = stats.get("downloader/response_status_count/404", 0)
    for key, value in sorted(stats.items()):
        if key.startswith("scrapy_cetd/"):
            note = STAT_NOTES.get(key, "").replace("{404}", str(not_found))
            lines.append(f"    {key}: {value}" + (f"\n      {note}" if note else ""))
    lines.append("  first articles:")
    for item in sorted(with_text, key=lambda item: item["url"])[:3]:
        first_line = item["text"].splitlines()[0]
        lines.append(f"    {item['title']}\n      {item['url']}\n      {first_line[:100]}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--start", choices=sorted(START_PATHS), default="index", help="where the crawl starts")
    parser.add_argument("--output", type=Path, default=PROJECT / "output" / "corpus.jsonl")
    args = parser.parse_args()
    output = args.output.resolve()
    output.parent.mkdir(parents=True, exist_ok=True)
    with serve_sample_site() as base_url:
        start_url = base_url + START_PATHS[args.start]
        print(f"Serving the sample news site at {base_url}; crawling from {start_url}", flush=True)
        try:
            stats = crawl(start_url, output)
        except CrawlNotStarted as exc:
            print(f"The crawl did not start: {exc}", file=sys.stderr)
            return 1
    print(summary(output, stats))
    return 0 if stats.get("finish_reason") == "finished" and output.stat().st_size else 1


if __name__ == "__main__":
    sys.exit(main())
