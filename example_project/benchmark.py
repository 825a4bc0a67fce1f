"""Crawl throughput with and without content extraction, on loopback.

    python example_project/benchmark.py [--pages 504] [--repeat 2] [--corpus wcxb|sample]

Serves pages from a separate process on 127.0.0.1 (the 42 committed WCXB fixture pages,
each under several URLs; or the sample site's articles with ``--corpus sample``), then
crawls all of them once per mode, each crawl in a fresh process: extraction off
(``CETD_ENABLED=False``), in-process (``CETD_WORKERS=0``), 1 and 2 worker processes.
Prints pages per second from the crawl's own start and finish times.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WCXB = HERE.parent / "tests" / "fixtures" / "wcxb" / "html"
CORPORA = {
    # 42 real-world pages (WCXB fixtures, mean 320 KB of HTML): a heavy, realistic mix.
    "wcxb": lambda: [gzip.decompress(p.read_bytes()) for p in sorted(WCXB.glob("*.html.gz"))],
    # The 23 articles of the bundled sample news site (about 9 KB each).
    "sample": lambda: [p.read_bytes() for p in sorted((HERE / "sample_site").glob("20*/*/*.html"))],
}
MODES = {
    "off": {"CETD_ENABLED": False},
    "in-process": {"CETD_WORKERS": 0},
    "1 worker": {"CETD_WORKERS": 1},
    "2 workers": {"CETD_WORKERS": 2},
}


def serve(port_file: str, corpus: str) -> None:
    """Serve /page/N (page N mod the corpus size) until killed; write the port to ``port_file``."""
    pages = CORPORA[corpus]()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = pages[int(self.path.rsplit("/", 1)[1]) % len(pages)]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Path(port_file).write_text(str(server.server_address[1]))
    server.serve_forever()


def crawl(base: str, pages: int, settings: dict[str, Any]) -> dict[str, Any]:
    """One crawl in this process; returns its stats summary."""
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    class ThroughputSpider(scrapy.Spider):
        name = "throughput"

        async def start(self):  # type: ignore[override]
            for n in range(pages):
                yield scrapy.Request(f"{base}/page/{n}")

        def parse(self, response):  # type: ignore[override]
            yield {"url": response.url}

    process = CrawlerProcess(
        {
            "ADDONS": {"scrapy_cetd.Addon": 0},
            "LOG_LEVEL": "ERROR",
            "TELNETCONSOLE_ENABLED": False,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
            **settings,
        }
    )
    crawler = process.create_crawler(ThroughputSpider)
    marks: dict[str, float] = {}

    def mark(name: str) -> Any:
        def handler(**kwargs: Any) -> None:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            marks[name] = usage.ru_utime + usage.ru_stime

        return handler

    opened, closed = mark("opened"), mark("closed")  # signals hold weak references
    crawler.signals.connect(opened, signal=signals.spider_opened)
    crawler.signals.connect(closed, signal=signals.spider_closed)
    process.crawl(crawler)
    process.start()
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    stats = crawler.stats.get_stats()
    seconds = (stats["finish_time"] - stats["start_time"]).total_seconds()
    responses = max(1, stats.get("response_received_count", 0))
    return {
        "responses": stats.get("response_received_count", 0),
        "items": stats.get("item_scraped_count", 0),
        "extracted": stats.get("scrapy_cetd/items/extracted", 0),
        "seconds": round(seconds, 3),
        "pages_per_second": round(stats.get("response_received_count", 0) / seconds, 1),
        # CPU of the crawling process from spider_opened to spider_closed, and of the worker
        # processes (including their start-up), per page: independent of other load.
        "crawler_cpu_ms_per_page": round(1000 * (marks["closed"] - marks["opened"]) / responses, 2),
        "worker_cpu_ms_per_page": round(1000 * (workers.ru_utime + workers.ru_stime) / responses, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=504)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="wcxb")
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    parser.add_argument("--crawl", help=argparse.SUPPRESS)  # internal: BASE|MODE, run one crawl
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # internal: port file
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.corpus)
        return
    if args.crawl:
        base, mode = args.crawl.split("|")
        print(json.dumps(crawl(base, args.pages, MODES[mode])))
        return
    import tempfile
    import time

    with tempfile.TemporaryDirectory() as tmp:
        port_file = Path(tmp) / "port"
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port_file), "--corpus", args.corpus])
        try:
            while not port_file.exists() or not port_file.read_text():
                time.sleep(0.05)
            base = f"http://127.0.0.1:{port_file.read_text()}"
            results: dict[str, list[dict[str, Any]]] = {}
            for _ in range(args.repeat):
                for mode in args.modes.split(","):
                    out = subprocess.run(
                        [sys.executable, __file__, "--pages", str(args.pages), "--crawl", f"{base}|{mode}"],
                        check=True, capture_output=True, text=True,
                    ).stdout
                    result = json.loads(out.strip().splitlines()[-1])
                    results.setdefault(mode, []).append(result)
                    print(f"{mode:>10}: {result}", flush=True)
        finally:
            server.terminate()
            server.wait()
    best = {mode: max(r["pages_per_second"] for r in runs) for mode, runs in results.items()}
    print(f"\nbest of {args.repeat} runs: pages/s, and median CPU ms per page (crawling process + workers)")
    for mode, rate in best.items():
        ratio = f" ({rate / best['off']:.0%} of no-extraction throughput)" if "off" in best and mode != "off" else ""
        runs = sorted(results[mode], key=lambda r: r["crawler_cpu_ms_per_page"])
        cpu = runs[len(runs) // 2]
        print(
            f"  {mode:>10}: {rate:6.1f} pages/s{ratio:42}"
            f" CPU {cpu['crawler_cpu_ms_per_page']:.1f} + {cpu['worker_cpu_ms_per_page']:.1f} ms/page"
        )


if __name__ == "__main__":
    main()
