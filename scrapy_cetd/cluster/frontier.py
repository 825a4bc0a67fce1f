"""A scrapy-redis frontier that loses nothing when a worker is killed.

scrapy-redis's scheduler pops a request from the Redis queue when the engine asks for one
and keeps no record of it: a worker killed with SIGKILL (or out of memory, or on a lost
machine) takes its requests in flight with it, and they stay in the seen set, so no
worker fetches them again (``docs/scaling.md``, Faults: 26-27 of 400 articles lost).

:class:`LeasingScheduler` leases instead of popping.  One Lua script moves the request
from the queue into the worker's *lease* hash (``<queue key>:leases:<worker>``); the lease
is released once Scrapy is done with the request, i.e. when the request object is freed
(its response scraped and the items from it through the pipelines, or its failure
handled; a retry or redirect is a new request, queued before the old one is freed).  Each
worker refreshes a heartbeat key (``<queue key>:alive:<worker>``, expiring after
``CETD_LEASE_SECONDS``); every live worker moves the leases of a worker whose heartbeat has
expired back into the queue.  So a killed worker costs the work on its requests in flight,
which another worker does again, and nothing else.  A worker that finds the queue empty
while other workers hold leases waits (up to twice ``CETD_LEASE_SECONDS``) before it goes
idle, so a worker killed near the end still has its requests crawled; if every worker has
gone, they wait in Redis and the next worker to start takes them.  While Redis does not
answer, the requests a worker finds are held in its memory and queued once Redis answers
again (one warning for the outage, not an error per call).

Use it in place of scrapy-redis's scheduler (its settings apply; the queue must be the
default ``scrapy_redis.queue.PriorityQueue``)::

    SCHEDULER = "scrapy_cetd.cluster.frontier.LeasingScheduler"

The feed files should then be written item by item: the add-on does it
(:class:`~scrapy_cetd.crawl.exporters.ItemByItemFileFeedStorage`), as a buffered feed file loses
its last items, already released, with the process.
"""

from __future__ import annotations

import gc
import logging
import os
import socket
import time
import uuid
import weakref
from collections import deque
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler
from twisted.internet.task import LoopingCall

from ..crawl.settings import DEFAULTS, invalid_setting_reported, read_setting, seconds_setting
from .watch import check_redis, quiet_scrapy_redis_deprecations

if TYPE_CHECKING:
    from scrapy import Request, Spider

__all__ = ["DEFAULT_LEASE_SECONDS", "LeasingScheduler"]

logger = logging.getLogger(__name__)

quiet_scrapy_redis_deprecations()

#: How long a worker's leases outlive its last heartbeat (it beats three times as often):
#: a worker whose reactor is held longer than this is taken for dead and its requests are
#: crawled again elsewhere.
DEFAULT_LEASE_SECONDS: float = DEFAULTS["CETD_LEASE_SECONDS"]
#: Requests held during a Redis outage that one heartbeat queues (each is two Redis round
#: trips on the reactor thread, the seen set's and the queue's: a bounded pause per beat).
HELD_PER_BEAT = 500

#: KEYS: queue, the worker's leases.  The first request of the queue, moved into the leases
#: (member: the encoded request; value: its score), or nil.
_LEASE = """
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return false end
redis.call('ZREM', KEYS[1], first[1])
redis.call('HSET', KEYS[2], first[1], first[2])
return first[1]
"""

#: KEYS: the workers' set, queue.  ARGV: the queue key.  The leases of every worker whose
#: heartbeat has expired go back into the queue; returns how many.
_RECLAIM = """
local moved = 0
for _, worker in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. ':alive:' .. worker) == 0 then
    local leases = ARGV[1] .. ':leases:' .. worker
    local entries = redis.call('HGETALL', leases)
    for i = 1, #entries, 2 do
      redis.call('ZADD', KEYS[2], entries[i + 1], entries[i])
      moved = moved + 1
    end
    redis.call('DEL', leases)
    redis.call('SREM', KEYS[1], worker)
  end
end
return moved
"""

#: KEYS: the workers' set.  ARGV: the queue key, this worker.  1 if another worker holds a
#: lease, else 0.
_OTHERS_LEASE = """
for _, worker in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if worker ~= ARGV[2] and redis.call('HLEN', ARGV[1] .. ':leases:' .. worker) > 0 then return 1 end
end
return 0
"""


class LeasingScheduler(Scheduler):
    """scrapy-redis's scheduler with leased requests (see the module): a killed worker's
    requests in flight go back into the queue once its heartbeat expires."""

    def __init__(self, server: Any, *, lease_seconds: float = DEFAULT_LEASE_SECONDS, **kwargs: Any) -> None:
        super().__init__(server, **kwargs)
        self.lease_seconds = lease_seconds
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        #: Leases of the requests freed since the last release (appended by their finalizers).
        self._done: deque[bytes] = deque()
        self._lease = server.register_script(_LEASE)
        self._reclaim = server.register_script(_RECLAIM)
        self._others_lease = server.register_script(_OTHERS_LEASE)
        #: When this worker found the queue empty while others held leases (``None``: it did not).
        self._waiting_since: float | None = None
        #: Requests found while Redis did not answer, queued (in order) once it does.
        self._held: deque[Request] = deque()
        #: Whether the current Redis outage has been logged (one warning per outage), and
        #: how many of its held requests have been queued.
        self._outage_logged = False
        self._held_queued = 0
        self._heartbeat = LoopingCall(self.beat)

    @classmethod
    def from_settings(cls, settings: Any) -> LeasingScheduler:
        with invalid_setting_reported():
            value = read_setting(settings, "CETD_LEASE_SECONDS")
            lease_seconds = seconds_setting("CETD_LEASE_SECONDS", value, zero=None)
            check_redis(settings)  # scrapy-redis's own check ends the crawl with ~70 lines of traceback
        scheduler = super().from_settings(settings)
        scheduler.lease_seconds = lease_seconds
        return scheduler

    def open(self, spider: Spider) -> None:
        super().open(spider)
        if not isinstance(self.queue, PriorityQueue):
            raise ValueError(
                f"LeasingScheduler needs scrapy_redis.queue.PriorityQueue, not {type(self.queue).__name__}"
                " (SCHEDULER_QUEUE_CLASS)"
            )
        prefix = self.queue.key
        self.workers_key = f"{prefix}:workers"
        self.leases_key = f"{prefix}:leases:{self.worker}"
        self.alive_key = f"{prefix}:alive:{self.worker}"
        self.beat()  # registered, and a dead worker's leases are back before the first pop
        self._heartbeat.start(self.lease_seconds / 3, now=False)

    def beat(self) -> None:
        """Refresh this worker's heartbeat, release what is done, queue the requests held
        during a Redis outage, and put the leases of workers without a heartbeat back into
        the queue.

        A request that ends in a reference cycle (a failure's traceback holds it) is freed
        only by a collection of the generation it reached: one full collection per beat
        releases those within a beat (on the sample crawl, 1 to 3 of the 16 requests in
        flight; the collection took 40-90 ms in a worker, once per beat, every 10 s by
        default)."""
        gc.collect()
        try:
            self._release_done()
            pipe = self.server.pipeline()
            pipe.set(self.alive_key, 1, px=int(self.lease_seconds * 1000))
            pipe.sadd(self.workers_key, self.worker)
            pipe.execute()
            self._queue_held(HELD_PER_BEAT)
            moved = self._reclaim(keys=[self.workers_key, self.queue.key], args=[self.queue.key])
        except RedisError as exc:  # Redis down: RedisWatch decides when to stop
            self._redis_lost(exc)
            return
        if moved:
            logger.warning("%d requests of stopped workers put back into the queue", moved)
            if self.stats:
                self.stats.inc_value("scrapy_cetd/frontier/reclaimed", moved)

    def _release_done(self) -> None:
        if self._done:
            done = [self._done.popleft() for _ in range(len(self._done))]
            try:
                self.server.hdel(self.leases_key, *done)
            except Exception:
                self._done.extendleft(reversed(done))  # released at the next call
                raise

    def enqueue_request(self, request: Request) -> bool:
        """scrapy-redis's enqueue; while Redis does not answer, the request is held in this
        worker's memory (behind those already held, in order) and queued at the first beat
        that reaches Redis, not lost with a traceback in the log."""
        if self._held:
            self._held.append(request)
            return True
        try:
            return bool(super().enqueue_request(request))
        except RedisError as exc:
            self._redis_lost(exc)
            self._held.append(request)
            return True

    def _queue_held(self, limit: int | None = None) -> None:
        """Queue the held requests, oldest first, at most ``limit`` of them (a beat queues
        :data:`HELD_PER_BEAT`, so that the reactor is not held for long); raises
        ``RedisError`` if Redis fails again, and what is not queued stays held."""
        queued = 0
        while self._held and (limit is None or queued < limit):
            super().enqueue_request(self._held[0])
            self._held.popleft()
            queued += 1
            self._held_queued += 1
            if self.stats:
                self.stats.inc_value("scrapy_cetd/frontier/held_queued")
        if self._outage_logged and not self._held:
            logger.warning("Redis answers again; the %d requests held meanwhile are queued", self._held_queued)
            self._outage_logged = False
            self._held_queued = 0

    def _redis_lost(self, exc: RedisError) -> None:
        """One warning per outage, however many calls fail."""
        if not self._outage_logged:
            self._outage_logged = True
            logger.warning(
                "Redis does not answer (%s: %s): requests found meanwhile are held in memory and queued "
                "once it does", type(exc).__name__, exc,
            )

    def next_request(self) -> Request | None:
        try:
            self._release_done()
            data = self._lease(keys=[self.queue.key, self.leases_key])
        except RedisError as exc:  # nothing to crawl until Redis answers
            self._redis_lost(exc)
            return None
        if not data:
            return None
        request = self.queue._decode_request(data)
        release = weakref.finalize(request, self._done.append, data)
        release.atexit = False
        if self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        """Requests in the queue, or, for up to twice ``CETD_LEASE_SECONDS``, leases of other
        workers: a worker killed near the end of a crawl has its requests put back into the
        queue once its heartbeat expires, and a worker still here crawls them.  The wait is
        bounded, so workers that hold leases for long (busy, or keeping requests alive)
        never keep each other waiting for ever."""
        if self._held:
            return True
        try:
            if len(self.queue):
                self._waiting_since = None
                return True
            others_lease = self._others_lease(keys=[self.workers_key], args=[self.queue.key, self.worker])
        except RedisError as exc:  # the queue is out of sight, not empty: RedisWatch decides
            self._redis_lost(exc)
            return True
        if not others_lease:
            self._waiting_since = None
            return False
        now = time.monotonic()
        if self._waiting_since is None:
            self._waiting_since = now
        return now - self._waiting_since < 2 * self.lease_seconds

    def close(self, reason: str) -> None:
        """Stop beating; leases of requests never finished (a forced stop) go back into the
        queue, then the worker leaves the set."""
        if self._heartbeat.running:
            self._heartbeat.stop()
        try:
            gc.collect()  # requests held only in reference cycles are freed, so released
            self._release_done()
            self._queue_held()
            self.server.delete(self.alive_key)
            moved = self._reclaim(keys=[self.workers_key, self.queue.key], args=[self.queue.key])
            if moved:
                logger.warning("%d unfinished requests put back into the queue", moved)
        except RedisError as exc:  # Redis down: the leases wait for another worker
            logger.warning("Could not give back the leases: %s: %s", type(exc).__name__, exc)
        if self._held:
            logger.warning("%d requests found while Redis did not answer were never queued", len(self._held))
            if self.stats:
                self.stats.set_value("scrapy_cetd/frontier/held_lost", len(self._held))
        super().close(reason)
