"""``python -m scrapy_cetd``: the ``scrapy-cetd`` command line."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
