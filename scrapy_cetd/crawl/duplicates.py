"""Duplicate stories: keep, flag or drop items whose text another item of the crawl already had.

The same story reaches a crawl several times: syndicated copies on other sites, print and
AMP versions, the article behind tracking parameters.  Their URLs differ, so Scrapy's
request dupefilter lets them through, but their extracted texts are (nearly) the same.
:class:`DuplicateStoryPipeline` (registered by the add-on after the extraction pipeline)
fingerprints each item's text (:func:`scrapy_cetd.fingerprint.simhash`) and looks for a
seen fingerprint within ``CETD_DUPLICATE_DISTANCE`` bits.  ``CETD_ON_DUPLICATE`` switches it on
(``flag`` or ``drop``); the settings are listed in docs/scrapy.md.

A flagged item gets ``CETD_FLAG_FIELD`` = ``"duplicate"`` and the first copy's URL.  The
``memory`` store lives in the process; the ``redis`` store lives in the Redis of
``REDIS_URL`` (scrapy-redis's connection settings), so all workers of a distributed crawl
share it and a story is kept by whichever worker saw it first.  Items without text pass
untouched; if the store fails (Redis down) the item is kept, logged and counted.  Stats:
``scrapy_cetd/duplicates/exact``, ``.../near`` (copies under another URL),
``.../recrawled`` (the same page, exported before), ``.../flagged``, ``.../dropped``,
``.../unique``, ``.../same_page``, ``.../errors``.

Several items yielded from one page (or a page requested twice in one crawl) share its URL
and text: the ones after the first are ``same_page``, passed on untouched, never duplicates
of their own page nor recrawls (this process kept the page's story in this crawl).

Claims, and why a page is never a duplicate of itself.  Two properties are wanted:

1. Two workers that meet one story under two URLs at the same time keep exactly one.  So
   the check and the recording are one atomic step (one Lua script per item in Redis): a
   store that recorded fingerprints only once the item is exported (the ``item_scraped``
   signal) would let both copies pass the check before either is recorded.
2. A story is never lost to a copy that never reached the corpus.  An atomic check records
   the fingerprint before the item is exported, and a worker can die in between (SIGKILL,
   out of memory); ``LeasingScheduler`` then hands the leased request to another worker,
   which crawls the page again, and used to drop it as "0 bits from" its own URL.

So a fingerprint is first recorded as a *claim* of the item's URL, and the claim becomes
final once the item is exported (``item_scraped``: every pipeline passed, and the feed
exports, connected before this pipeline, wrote it).  A claim not yet exported belongs to its
page: when the same URL comes again, the store forgets its claim before the check, so the
page that re-crawls it is kept and claims the story afresh, while a copy under any other
URL is still a duplicate of the claim (property 1).  A claim whose item is lost in a later
pipeline (``item_dropped``, ``item_error``) is forgotten, so the next copy is kept.  A page
already exported and crawled again (a killed worker's request it had finished but not yet
released, or yesterday's page when the keys persist) is ``recrawled``: dropped or flagged,
since it is in the corpus.

The URL is the item's ``url`` output (the response's URL, after redirects: the page that is
exported, and the one a re-crawl of a leased request fetches again), not the request's (a
redirect's first hop is another request), nor the page's canonical URL: copies behind
tracking parameters or syndicated copies name the original as canonical, and they are
exactly the duplicates to catch.  Items without a URL are recorded as final at once.  What
remains: a worker killed between the feed writing the item and the claim becoming final
leaves the page to be exported a second time by the worker that crawls it again (a repeated
line, never a lost story); and with scrapy-redis's own scheduler, which does not crawl a
killed worker's requests again, a claim the killed worker left keeps dropping later copies
of a story that is in no feed (its page is lost anyway with that scheduler).

Lookup is the block (pigeonhole) index of Manku et al. 2007: split the 64 bits into k+1
blocks; two fingerprints within k bits agree on at least one whole block, so only items
sharing a block are compared.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Protocol

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured

from ..fingerprint import hamming, simhash
from .settings import (
    DEFAULTS,
    STATS_PREFIX,
    InvalidSetting,
    duplicate_settings,
    field_setting,
    invalid_setting_reported,
    read_setting,
)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["DuplicateStoryPipeline", "MemoryStoryStore", "RedisStoryStore", "blocks"]

logger = logging.getLogger(__name__)

STATS = f"{STATS_PREFIX}/duplicates"


def blocks(fingerprint: int, distance: int) -> list[int]:
    """The ``distance + 1`` contiguous bit blocks of a 64-bit fingerprint, as numbers."""
    count = distance + 1
    bounds = [64 * i // count for i in range(count + 1)]
    return [(fingerprint >> low) & ((1 << (high - low)) - 1) for low, high in zip(bounds, bounds[1:])]


class StoryStore(Protocol):
    def check_and_add(self, fingerprint: int, url: str) -> tuple[int, str | None] | None:
        """``(distance, first URL)`` of the nearest seen fingerprint within the distance, or
        ``None`` after recording ``fingerprint`` as ``url``'s claim.  ``url``'s own earlier
        claim, if not yet exported, is forgotten first: a page is never a duplicate of itself."""

    def exported(self, url: str) -> None:
        """``url``'s claim was exported: it stays, for good."""

    def release(self, fingerprint: int, url: str) -> None:
        """``url``'s claim of ``fingerprint`` was not exported (dropped or failed later on):
        forget it, unless a newer claim of ``url`` replaced it."""

    def close(self) -> None: ...


class MemoryStoryStore:
    """Seen fingerprints of one process, indexed by block; claims not yet exported by URL."""

    def __init__(self, distance: int) -> None:
        self.distance = distance
        self._index: list[defaultdict[int, list[int]]] = [defaultdict(list) for _ in range(distance + 1)]
        self._urls: dict[int, str] = {}
        self._pending: dict[str, int] = {}  # URL -> its claimed fingerprint, until exported

    def check_and_add(self, fingerprint: int, url: str) -> tuple[int, str | None] | None:
        if url and url in self._pending:  # this page's unexported claim (e.g. a killed worker's)
            self._forget(self._pending.pop(url), url)
        keys = blocks(fingerprint, self.distance)
        best: tuple[int, int] | None = None
        for table, key in zip(self._index, keys):
            for other in table.get(key, ()):
                bits = hamming(fingerprint, other)
                if bits <= self.distance and (best is None or bits < best[0]):
                    best = (bits, other)
        if best is not None:
            return best[0], self._urls.get(best[1])
        for table, key in zip(self._index, keys):
            table[key].append(fingerprint)
        self._urls.setdefault(fingerprint, url)
        if url:
            self._pending[url] = fingerprint
        return None

    def exported(self, url: str) -> None:
        self._pending.pop(url, None)

    def release(self, fingerprint: int, url: str) -> None:
        if url and self._pending.get(url) == fingerprint:
            self._forget(self._pending.pop(url), url)

    def _forget(self, fingerprint: int, url: str) -> None:
        for table, key in zip(self._index, blocks(fingerprint, self.distance)):
            bucket = table.get(key)
            if bucket is not None and fingerprint in bucket:
                bucket.remove(fingerprint)
                if not bucket:
                    del table[key]
        if self._urls.get(fingerprint) == url:
            del self._urls[fingerprint]

    def close(self) -> None:
        pass


#: Removes an unexported claim (the ``pending`` hash's value: the 8-byte fingerprint, then its
#: block values separated by spaces) from the block hashes and the URL hash.
_LUA_FORGET = """
local function forget(claim, url)
  local fp = string.sub(claim, 1, 8)
  local i = 0
  for value in string.gmatch(string.sub(claim, 9), '%S+') do
    i = i + 1
    local bucket = redis.call('HGET', KEYS[i], value)
    if bucket then
      local kept = {}
      for pos = 1, #bucket, 8 do
        local one = string.sub(bucket, pos, pos + 7)
        if one ~= fp then kept[#kept + 1] = one end
      end
      if #kept == 0 then redis.call('HDEL', KEYS[i], value)
      else redis.call('HSET', KEYS[i], value, table.concat(kept)) end
    end
  end
  if redis.call('HGET', KEYS[#KEYS - 1], fp) == url then redis.call('HDEL', KEYS[#KEYS - 1], fp) end
end
"""

#: KEYS: one hash per block (field: block value, value: the 8-byte fingerprints sharing it),
#: the hash fingerprint -> first URL, then the hash URL -> claim not yet exported.  ARGV: the
#: 8-byte fingerprint, the distance, the URL, then the block values.  The URL's own unexported
#: claim is forgotten, then the check and the insert run in one script, so two workers that
#: see one story at once under two URLs cannot both keep it.
_LUA_CHECK_AND_ADD = _LUA_FORGET + """
local fp, url = ARGV[1], ARGV[3]
local limit = tonumber(ARGV[2])
local blocks = #KEYS - 2
local urls, pending = KEYS[blocks + 1], KEYS[blocks + 2]
if url ~= '' then
  local claim = redis.call('HGET', pending, url)
  if claim then forget(claim, url); redis.call('HDEL', pending, url) end
end
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local function word(s, pos)  -- 32 bits of s from pos, as a number
  local b1, b2, b3, b4 = string.byte(s, pos, pos + 3)
  return ((b1 * 256 + b2) * 256 + b3) * 256 + b4
end
local function popcount(x)  -- SWAR: bit pairs, nibbles, bytes; then the bytes summed (mod 255)
  x = x - band(rshift(x, 1), 0x55555555)
  x = band(x, 0x33333333) + band(rshift(x, 2), 0x33333333)
  x = band(x + rshift(x, 4), 0x0F0F0F0F)
  return x % 255
end
local high, low = word(fp, 1), word(fp, 5)
local best, best_fp = limit + 1, nil
for i = 1, blocks do
  local bucket = redis.call('HGET', KEYS[i], ARGV[3 + i])
  if bucket then
    for pos = 1, #bucket, 8 do
      local d = popcount(bxor(high, word(bucket, pos))) + popcount(bxor(low, word(bucket, pos + 4)))
      if d < best then best = d; best_fp = string.sub(bucket, pos, pos + 7) end
    end
  end
end
if best_fp then
  return {best, redis.call('HGET', urls, best_fp)}
end
local values = {}
for i = 1, blocks do
  redis.call('HSET', KEYS[i], ARGV[3 + i], (redis.call('HGET', KEYS[i], ARGV[3 + i]) or '') .. fp)
  values[i] = ARGV[3 + i]
end
redis.call('HSETNX', urls, fp, url)
if url ~= '' then redis.call('HSET', pending, url, fp .. table.concat(values, ' ')) end
return false
"""

#: KEYS as above; ARGV: the URL, the 8-byte fingerprint of its claim to forget.
_LUA_RELEASE = _LUA_FORGET + """
local claim = redis.call('HGET', KEYS[#KEYS], ARGV[1])
if claim and string.sub(claim, 1, 8) == ARGV[2] then
  forget(claim, ARGV[1])
  redis.call('HDEL', KEYS[#KEYS], ARGV[1])
  return 1
end
return 0
"""


class RedisStoryStore:
    """Seen fingerprints in Redis (``k + 3`` hashes under ``prefix``), shared by all workers."""

    def __init__(self, server: Any, prefix: str, distance: int) -> None:
        self.server = server
        self.distance = distance
        self.keys = [f"{prefix}:block{i}" for i in range(distance + 1)] + [f"{prefix}:urls", f"{prefix}:pending"]
        self._script = server.register_script(_LUA_CHECK_AND_ADD)
        self._release = server.register_script(_LUA_RELEASE)

    @classmethod
    def from_settings(cls, settings: Any, prefix: str, distance: int) -> RedisStoryStore:
        try:
            from scrapy_redis.connection import get_redis_from_settings
        except ImportError:
            raise NotConfigured(
                "CETD_DUPLICATES_STORE = 'redis' needs scrapy-redis: pip install 'scrapy-cetd[redis]'"
            ) from None
        return cls(get_redis_from_settings(settings), prefix, distance)

    def check_and_add(self, fingerprint: int, url: str) -> tuple[int, str | None] | None:
        args = [fingerprint.to_bytes(8, "big"), self.distance, url, *blocks(fingerprint, self.distance)]
        found = self._script(keys=self.keys, args=args)
        if not found:
            return None
        first = found[1]
        return int(found[0]), first.decode() if isinstance(first, bytes) else first

    def exported(self, url: str) -> None:
        self.server.hdel(self.keys[-1], url)

    def release(self, fingerprint: int, url: str) -> None:
        if url:
            self._release(keys=self.keys, args=[url, fingerprint.to_bytes(8, "big")])

    def clear(self) -> None:
        self.server.delete(*self.keys)

    def close(self) -> None:
        pass


class DuplicateStoryPipeline:
    """Item pipeline: keep, flag or drop items whose text was already seen (see the module)."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.policy, self.distance, self.store_kind = duplicate_settings(settings)
        if self.policy == "keep":
            raise NotConfigured("CETD_ON_DUPLICATE is 'keep'")
        self.key = read_setting(settings, "CETD_DUPLICATES_KEY")
        fields = settings.getdict("CETD_OUTPUT_FIELDS") or DEFAULTS["CETD_OUTPUT_FIELDS"]
        self.fingerprint_field = fields.get("fingerprint")
        self.text_field = fields.get("text")
        if not self.fingerprint_field and not self.text_field:
            raise InvalidSetting("CETD_ON_DUPLICATE: map the 'text' or 'fingerprint' output in CETD_OUTPUT_FIELDS")
        self.flag_field = field_setting("CETD_FLAG_FIELD", read_setting(settings, "CETD_FLAG_FIELD"))
        self.duplicate_of_field = field_setting(
            "CETD_DUPLICATE_OF_FIELD", read_setting(settings, "CETD_DUPLICATE_OF_FIELD")
        )
        self.url_field = fields.get("url") or "url"
        self.crawler = crawler
        self.stats = crawler.stats
        self.store: StoryStore | None = None
        self._claims: dict[str, int] = {}  # URL -> fingerprint claimed, until the item is exported or lost
        self._pages: set[str] = set()  # URLs whose story this pipeline kept in this crawl
        crawler.signals.connect(self._item_exported, signal=signals.item_scraped)
        crawler.signals.connect(self._item_lost, signal=signals.item_dropped)
        crawler.signals.connect(self._item_lost, signal=signals.item_error)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DuplicateStoryPipeline:
        with invalid_setting_reported():
            return cls(crawler)

    def open_spider(self) -> None:
        if self.store_kind == "memory":
            self.store = MemoryStoryStore(self.distance)
        else:
            prefix = self.key % {"spider": self.crawler.spider.name}
            self.store = RedisStoryStore.from_settings(self.crawler.settings, prefix, self.distance)

    def close_spider(self) -> None:
        if self.store is not None:
            self.store.close()

    def _fingerprint(self, adapter: ItemAdapter) -> int | None:
        if self.fingerprint_field and adapter.get(self.fingerprint_field):
            return int(adapter[self.fingerprint_field], 16)
        text = adapter.get(self.text_field) if self.text_field else None
        return simhash(text) if text and text.strip() else None

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        fingerprint = self._fingerprint(adapter)
        if fingerprint is None:
            return item
        assert self.store is not None
        url = str(adapter.get(self.url_field) or "")
        try:
            found = self.store.check_and_add(fingerprint, url)
        except Exception as exc:  # e.g. Redis unreachable: keep the item, unchecked
            self.stats.inc_value(f"{STATS}/errors")
            logger.error("Duplicate-story check failed for %s (item kept): %s: %s", url, type(exc).__name__, exc)
            return item
        if found is None:
            if url and url in self._pages:  # another item of a page this crawl has had
                self.stats.inc_value(f"{STATS}/same_page")
            else:
                self.stats.inc_value(f"{STATS}/unique")
                if url:
                    self._pages.add(url)
            if url:
                self._claims[url] = fingerprint
            return item
        distance, first_url = found
        if url and first_url == url and url in self._pages:
            # Several items from one page (teasers of a listing, a page requested twice): the
            # first one's story, not a copy, and not a recrawl (this crawl has not exported it before).
            self.stats.inc_value(f"{STATS}/same_page")
            return item
        if url and first_url == url:  # this page, exported before (by a killed worker, or an earlier crawl)
            self.stats.inc_value(f"{STATS}/recrawled")
            reason = f"Page exported before: {url} was crawled again"
        else:
            self.stats.inc_value(f"{STATS}/{'exact' if distance == 0 else 'near'}")
            reason = f"Duplicate story: {url or 'item'} is {distance} bits from {first_url}"
        if self.policy == "drop":
            self.stats.inc_value(f"{STATS}/dropped")
            raise DropItem(reason)
        self.stats.inc_value(f"{STATS}/flagged")
        for field_name, value in ((self.flag_field, "duplicate"), (self.duplicate_of_field, first_url)):
            if field_name:
                try:
                    adapter[field_name] = value
                except KeyError:
                    logger.error("%s has no field %r for the duplicate flag", type(item).__name__, field_name)
        return item

    def _item_exported(self, item: Any) -> None:
        """``item_scraped``: the item passed every pipeline and the feed exports (connected
        before this pipeline existed) wrote it, so its claim stays for good."""
        self._settle(item, exported=True)

    def _item_lost(self, item: Any) -> None:
        """``item_dropped`` or ``item_error`` in a later pipeline: the story is not in the corpus,
        so its claim is forgotten and the next copy is kept."""
        self._settle(item, exported=False)

    def _settle(self, item: Any, exported: bool) -> None:
        url = str(ItemAdapter(item).get(self.url_field) or "")
        fingerprint = self._claims.pop(url, None)
        if fingerprint is None or self.store is None:  # no claim: unchanged, or dropped here
            return
        try:
            if exported:
                self.store.exported(url)
            else:
                self.store.release(fingerprint, url)
        except Exception as exc:  # Redis unreachable: the claim stays unexported (see the module)
            self.stats.inc_value(f"{STATS}/errors")
            logger.error("Duplicate-story store not updated for %s: %s: %s", url, type(exc).__name__, exc)
