"""Settings of the example project: scrapy-cetd enabled with one line, a JSON Lines corpus."""

BOT_NAME = "news_corpus"
SPIDER_MODULES = ["news_corpus.spiders"]
NEWSPIDER_MODULE = "news_corpus.spiders"

# scrapy-cetd: the downloader middleware, the spider middleware and the pipeline.
ADDONS = {"scrapy_cetd.Addon": 0}
CETD_OUTPUT_FIELDS = {
    "title": "title",
    "authors": "authors",
    "date_published": "date_published",
    "date_modified": "date_modified",
    "language": "language",
    "site_name": "site_name",
    "canonical_url": "canonical_url",
    "text": "text",
    "html": "html",
    "algorithm": "algorithm",
}
# A corpus of articles: every other page type (front page, sections, about, contact) is dropped.
CETD_PAGE_TYPES = ["article"]
CETD_MIN_TEXT_LENGTH = 200  # shorter extractions are kept, with cetd_flag = "short_text"
# Archive every response (WARC/1.1, gzip per record) to re-extract later: `scrapy-cetd warc`.
CETD_WARC_PATH = "output/crawl.warc.gz"

# The corpus: JSON Lines, one article per line (`-O other.jsonl` on the command line adds a second copy).
# It is appended to, never replaced: a crawl resumed from its job directory (`-s JOBDIR=...`)
# adds its articles to the first run's; delete the file to start a new corpus.
FEEDS = {
    "output/corpus.jsonl": {
        "format": "jsonlines",
        "encoding": "utf-8",
        "overwrite": False,
        "fields": [
            "url", "title", "authors", "date_published", "date_modified", "language", "site_name", "canonical_url",
            "text", "html", "algorithm", "crawled_at", "cetd_flag", "cetd_error",
        ],
    },
}

# Polite defaults for real sites; the bundled sample site runs on 127.0.0.1.
ROBOTSTXT_OBEY = True
USER_AGENT = "news-corpus-example (+https://github.com/scrapy-cetd)"
CONCURRENT_REQUESTS_PER_DOMAIN = 8
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_TARGET_CONCURRENCY = 4.0
DEPTH_LIMIT = 3
CLOSESPIDER_ITEMCOUNT = 1000
HTTPCACHE_ENABLED = False
TELNETCONSOLE_ENABLED = False
FEED_EXPORT_ENCODING = "utf-8"
