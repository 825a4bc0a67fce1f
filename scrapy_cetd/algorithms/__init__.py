"""One module per paper; each registers its algorithms with :func:`scrapy_cetd.registry.register`."""

__all__: list[str] = []
