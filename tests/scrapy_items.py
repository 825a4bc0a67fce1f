"""Item types and page constants shared by the Scrapy tests: one of each kind itemadapter supports."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import attrs
import scrapy

SITE = Path(__file__).parent / "site"
RIVER_FIRST = "More than eighty volunteers waded into the River Elm on Saturday morning"


class ArticleItem(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    text = scrapy.Field()
    html = scrapy.Field()
    authors = scrapy.Field()
    date_published = scrapy.Field()
    language = scrapy.Field()
    canonical_url = scrapy.Field()
    cetd_flag = scrapy.Field()
    cetd_error = scrapy.Field()


@dataclasses.dataclass
class ArticleData:
    url: str
    title: str | None = None
    text: str | None = None
    html: str | None = None
    authors: list[str] | None = None
    date_published: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    cetd_flag: str | None = None
    cetd_error: str | None = None


@attrs.define
class ArticleAttrs:
    url: str
    title: str | None = None
    text: str | None = None
    html: str | None = None
    authors: list[str] | None = None
    date_published: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    cetd_flag: str | None = None
    cetd_error: str | None = None
