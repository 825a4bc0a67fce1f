"""Distributed crawls on scrapy-redis (the ``redis`` extra): a frontier that leases requests to
workers (:mod:`.frontier`), a spider that reads its seeds from Redis (:mod:`.spider`) and the
watch that closes a spider once Redis is lost (:mod:`.watch`).  See docs/scaling.md."""

__all__: list[str] = []
