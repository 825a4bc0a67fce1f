"""RedisWatch's configuration (the crawl it closes when Redis is lost: tests/test_distributed.py)."""

from __future__ import annotations

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from scrapy_cetd import Addon
from scrapy_cetd.cluster.watch import DEFAULT_LOST_CLOSE, MAX_PING_INTERVAL, RedisWatch
from scrapy_cetd.crawl.settings import InvalidSetting

REDIS = {"SCHEDULER": "scrapy_redis.scheduler.Scheduler", "REDIS_URL": "redis://127.0.0.1:1"}


@pytest.fixture(autouse=True)
def _no_redis_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its configuration only: the check at start that Redis answers (none listens on port 1
    here) is tested with real crawls in tests/test_distributed.py."""
    monkeypatch.setattr("scrapy_cetd.cluster.watch.check_redis", lambda settings, ping=True: None)


def test_it_acts_in_scrapy_redis_crawls_only() -> None:
    with pytest.raises(NotConfigured):
        RedisWatch.from_crawler(get_crawler(settings_dict={}))
    with pytest.raises(NotConfigured):
        RedisWatch.from_crawler(get_crawler(settings_dict={**REDIS, "CETD_REDIS_LOST_CLOSE": 0}))
    watch = RedisWatch.from_crawler(get_crawler(settings_dict=REDIS))
    assert watch.lost_close == DEFAULT_LOST_CLOSE and watch.interval == MAX_PING_INTERVAL
    short = RedisWatch.from_crawler(get_crawler(settings_dict={**REDIS, "CETD_REDIS_LOST_CLOSE": "3"}))
    assert short.interval == 1.0  # three pings within the time allowed
    assert short.server.connection_pool.connection_kwargs["socket_timeout"] == 1.0


@pytest.mark.parametrize("value", [-1, "soon", float("nan"), float("inf"), True])
def test_an_invalid_time_names_the_setting(value: object) -> None:
    with pytest.raises(InvalidSetting, match="^CETD_REDIS_LOST_CLOSE: expected seconds"):
        RedisWatch.from_crawler(get_crawler(settings_dict={**REDIS, "CETD_REDIS_LOST_CLOSE": value}))


def test_the_addon_registers_it_in_scrapy_redis_crawls() -> None:
    for scheduler in ("scrapy_redis.scheduler.Scheduler", "scrapy_cetd.cluster.frontier.LeasingScheduler"):
        crawler = get_crawler(settings_dict={**REDIS, "ADDONS": {Addon: 0}, "SCHEDULER": scheduler})
        assert crawler.settings.getdict("EXTENSIONS")[RedisWatch] == 500
        storage = "scrapy_cetd.crawl.exporters.ItemByItemFileFeedStorage"
        assert crawler.settings.getdict("FEED_STORAGES")["file"] == storage
    plain = get_crawler(settings_dict={"ADDONS": {Addon: 0}})
    assert RedisWatch not in plain.settings.getdict("EXTENSIONS")
    # Feed files are written item by item in every crawl (tests/test_operating.py).
    assert plain.settings.getdict("FEED_STORAGES")["file"] == "scrapy_cetd.crawl.exporters.ItemByItemFileFeedStorage"
