"""The project's settings for a distributed crawl: scrapy-redis's scheduler and dupefilter.

Everything in ``settings.py``, plus a frontier (request queue and seen-request set) shared in
Redis by all workers, and duplicate stories dropped across them.  Needs
``pip install 'scrapy-cetd[redis]'`` and a Redis server (``REDIS_URL``).
"""

from .settings import *  # noqa: F403

# The distributed ``news`` spider (news_corpus/distributed.py).
SPIDER_MODULES = ["news_corpus.distributed"]

# scrapy-redis's scheduler, with leased requests: a killed worker's requests in flight go
# back into the queue once its heartbeat (CETD_LEASE_SECONDS) expires (docs/scaling.md).
SCHEDULER = "scrapy_cetd.cluster.frontier.LeasingScheduler"
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
REDIS_URL = "redis://127.0.0.1:6379"
# Keep the queue and the seen requests when a worker closes: without it the first worker to
# go idle deletes the frontier that the others are still crawling.  run_distributed.py
# clears the keys before a new crawl (SCHEDULER_FLUSH_ON_START would let a late worker
# wipe a running crawl).
SCHEDULER_PERSIST = True
# A worker stops after this many seconds with nothing to do (see news_corpus/distributed.py).
# Scrapy checks for idleness every 5 s, so a worker stops 5 to 10 s after the crawl's end.
MAX_IDLE_TIME_BEFORE_CLOSE = 5

# Duplicate stories: drop a story whichever worker saw it first (the store is in REDIS_URL's Redis).
CETD_ON_DUPLICATE = "drop"
CETD_OUTPUT_FIELDS = {**CETD_OUTPUT_FIELDS, "fingerprint": "fingerprint"}  # noqa: F405
FEEDS = {
    path: {**feed, "fields": [*feed["fields"], "fingerprint"]}
    for path, feed in FEEDS.items()  # noqa: F405
}
