"""A spider for the fault tests (``tests/test_operating.py``), run with ``scrapy runspider``:
one item per page of a loopback site; the crawl's stats are written to ``stats_path``."""

from __future__ import annotations

import json
from typing import Any

import scrapy


class FaultSpider(scrapy.Spider):
    name = "faults"

    def __init__(self, site_url: str, pages: str, stats_path: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site_url = site_url
        self.pages = pages.split(",")
        self.stats_path = stats_path

    async def start(self):  # type: ignore[override]
        for page in self.pages:
            yield scrapy.Request(f"{self.site_url}/{page}")

    def parse(self, response, **kwargs):  # type: ignore[override]
        yield {"url": response.url}

    def closed(self, reason: str) -> None:
        stats = {key: str(value) for key, value in self.crawler.stats.get_stats().items()}
        stats["finish_reason"] = reason
        with open(self.stats_path, "w", encoding="utf-8") as stream:
            json.dump(stats, stream)
