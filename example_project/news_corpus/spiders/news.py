"""The ``news`` spider: crawl a news site from a start page, a sitemap or an RSS/Atom feed.

    scrapy crawl news -a start_url=https://www.example-news.com/
    scrapy crawl news -a start_url=https://www.example-news.com/sitemap.xml
    scrapy crawl news -a start_url=https://www.example-news.com/feed.xml -a article_pattern='/20\\d\\d/'

It follows links within the start URL's site (``DEPTH_LIMIT`` deep) and yields one small
item per HTML page (per page whose URL matches ``article_pattern``, if given):
``{"url": ..., "crawled_at": ...}``.  scrapy-cetd's pipeline adds the title, the cleaned
text and HTML and the algorithm, and keeps the articles only (``CETD_PAGE_TYPES`` in the
project's settings: the front page, the sections, "about" and "contact" are dropped); no
HTML passes through the item.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import CloseSpider
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.sitemap import Sitemap


class NewsSpider(scrapy.Spider):
    name = "news"

    def __init__(self, start_url: str | None = None, article_pattern: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_url = start_url
        host = urlsplit(start_url).hostname or ""
        self.allowed_domains = [host.removeprefix("www.")]
        self.article_pattern = re.compile(article_pattern) if article_pattern else None
        self.links = LinkExtractor()

    async def start(self) -> AsyncIterator[scrapy.Request]:
        # Checked here rather than in __init__: an exception there ends `scrapy crawl` with a
        # long asyncio traceback, and the components (and their settings) are checked first.
        if not self.start_url:
            self.logger.error("Give the site to crawl: scrapy crawl news -a start_url=https://...")
            raise CloseSpider("no_start_url")
        yield scrapy.Request(self.start_url, callback=self.parse_start)

    def parse_start(self, response: Response) -> Iterator[Any]:
        """The start URL may be an HTML page, a sitemap (index) or an RSS/Atom feed."""
        if isinstance(response, XmlResponse) or response.body.lstrip()[:5] == b"<?xml":
            yield from self.parse_xml(response)
        else:
            yield from self.parse(response)

    def parse_xml(self, response: Response) -> Iterator[scrapy.Request]:
        body = response.body
        if b"<urlset" in body[:2048] or b"<sitemapindex" in body[:2048]:
            sitemap = Sitemap(body)
            callback = self.parse_xml if sitemap.type == "sitemapindex" else self.parse
            for entry in sitemap:
                yield response.follow(entry["loc"], callback=callback)
            return
        # RSS <item><link>text</link> or Atom <entry><link href="..."/>.
        response.selector.remove_namespaces()
        links = response.xpath("//item/link/text() | //entry/link[not(@rel) or @rel='alternate']/@href").getall()
        for link in links:
            yield response.follow(link.strip(), callback=self.parse)

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        if not isinstance(response, TextResponse):
            return
        is_page = isinstance(response, HtmlResponse)  # not a feed or a sitemap linked from a page
        if is_page and (self.article_pattern is None or self.article_pattern.search(response.url)):
            yield {"url": response.url, "crawled_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        for link in self.links.extract_links(response):
            if self.within_site(link.url):
                yield scrapy.Request(link.url, callback=self.parse)

    def within_site(self, url: str) -> bool:
        host = urlsplit(url).hostname or ""
        return any(host == domain or host.endswith("." + domain) for domain in self.allowed_domains)
