"""``python -m scrapy_cetd``: the ``scrapy-cetd`` command line."""

from .cli import main

raise SystemExit(main())
