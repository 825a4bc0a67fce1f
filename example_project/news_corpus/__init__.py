"""Example Scrapy project: a cleaned news corpus with scrapy-cetd."""
