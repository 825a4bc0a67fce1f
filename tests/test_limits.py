"""Limits and settings that protect a crawl: gzip expansion in the CLI, the element limit,
the bounds and messages of CETD_WORKERS, CETD_TIMEOUT and CETD_OUTPUT_FIELDS."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from scrapy.settings import Settings

from scrapy_cetd.cli import main
from scrapy_cetd.crawl.settings import MAX_WORKERS, CetdConfig, InvalidSetting
from tests.test_scrapy_components import Components


def test_cli_stops_gunzipping_at_the_size_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.html.gz"
    bomb.write_bytes(gzip.compress(b"<html><body><p>x</p>" + b" " * (40 * 1024 * 1024)))  # 40 MB from 40 KB
    two_members = tmp_path / "two.html.gz"
    two_members.write_bytes(gzip.compress(b"<html><body><p>First part.</p>") + gzip.compress(b"<p>Second.</p>"))
    assert main(["extract", "-a", "cetd-ds", "--threshold-coefficient", "0", str(bomb), str(two_members)]) == 1
    out, err = capsys.readouterr()
    assert f"{bomb}: gzip data expands to more than 16,777,216 bytes (--max-size 16777216)" in err
    assert "First part." in out and "Second." in out


def test_pages_over_the_element_limit_are_skipped_with_a_reason() -> None:
    components = Components({"CETD_MAX_ELEMENTS": 1000})
    big = components.download("http://site.test/big", b"<html><body>" + b"<p>word</p>" * 2000)
    item = components.scrape(big, {"url": "u"})
    assert item["cetd_flag"] == "too_many_elements" and "text" not in item
    assert components.stats["scrapy_cetd/skipped/too_many_elements"] == 1
    small = components.download("http://site.test/small", b"<html><body>" + b"<p>word</p>" * 500)
    assert components.scrape(small, {"url": "v"})["text"]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"CETD_OUTPUT_FIELDS": ["text"]}, 'CETD_OUTPUT_FIELDS: expected a dict of output -> item field, e.g. {"text"'),
        ({"CETD_OUTPUT_FIELDS": '["text"]'}, "CETD_OUTPUT_FIELDS: expected a dict of output -> item field"),
        ({"CETD_WORKERS": 100_000}, f"CETD_WORKERS: expected at most {MAX_WORKERS} worker processes"),
        ({"CETD_TIMEOUT": "soon"}, "CETD_TIMEOUT: expected seconds"),
        ({"CETD_TIMEOUT": -1}, "CETD_TIMEOUT: expected seconds"),
        ({"CETD_TIMEOUT": "inf"}, "CETD_TIMEOUT: expected seconds (a number >= 0, 0 for no limit)"),
        ({"CETD_MAX_ELEMENTS": -5}, "CETD_MAX_ELEMENTS: expected a whole number >= 0"),
        # Infinity, read from a string or given as a float, raised OverflowError (a traceback).
        ({"CETD_MAX_SIZE": "1e400"}, "CETD_MAX_SIZE: expected a whole number >= 0, got '1e400'"),
        ({"CETD_WORKERS": float("inf")}, "CETD_WORKERS: expected a whole number >= 0, got inf"),
        ({"CETD_DUPLICATE_DISTANCE": "inf"}, "CETD_DUPLICATE_DISTANCE: expected a whole number >= 0"),
    ],
)
def test_settings_say_what_they_expect(settings: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidSetting, match="^" + re.escape(message)):
        CetdConfig.from_settings(Settings(settings))


def test_a_whole_number_too_large_for_a_float_is_a_count() -> None:
    # A Python int past a float's range raised OverflowError in the float conversion.
    assert CetdConfig.from_settings(Settings({"CETD_MAX_SIZE": 10**400})).max_size == 10**400


def test_timeout_zero_means_no_limit() -> None:
    assert CetdConfig.from_settings(Settings({"CETD_TIMEOUT": 0})).timeout is None
    assert CetdConfig.from_settings(Settings({"CETD_TIMEOUT": "2.5"})).timeout == 2.5
