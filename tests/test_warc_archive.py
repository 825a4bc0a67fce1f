"""The crawl side of WARC archives: which file a writer takes, and what it leaves alone."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_cetd.warc.writer import WarcFileWriter, exchange_records

HTML = [(b"Content-Type", b"text/html; charset=utf-8")]


def _write(writer: WarcFileWriter, n: int) -> None:
    writer.write(*exchange_records(f"http://example.org/{n}", 200, HTML, b"<html><p>x</p></html>"))


def test_a_file_another_writer_holds_or_wrote_meanwhile_is_passed_over(tmp_path: Path) -> None:
    first = WarcFileWriter(tmp_path / "crawl.warc.gz", max_size=1)  # rotates at every exchange
    second = WarcFileWriter(tmp_path / "crawl.warc.gz")
    assert first.open().name == "crawl.warc.gz"
    assert second.open().name == "crawl-00001.warc.gz"  # locked by the first
    assert second.passed_over == [tmp_path / "crawl.warc.gz"]
    _write(second, 0)
    second.close()  # done: unlocked, but written since the first writer began
    _write(first, 1)
    _write(first, 2)  # rotates: crawl-00001 is the second's, kept
    first.close()
    assert [p.name for p in first.files] == ["crawl.warc.gz", "crawl-00002.warc.gz"]
    assert first.passed_over == [tmp_path / "crawl-00001.warc.gz"]
    assert b"example.org/0" in gzip.decompress((tmp_path / "crawl-00001.warc.gz").read_bytes())
    # A later crawl (not resumed) replaces them all, as before.
    third = WarcFileWriter(tmp_path / "crawl.warc.gz")
    _write(third, 3)
    third.close()
    assert third.files == [tmp_path / "crawl.warc.gz"] and third.passed_over == []


def test_the_lock_holds_across_processes(tmp_path: Path) -> None:
    pytest.importorskip("fcntl")
    writer = WarcFileWriter(tmp_path / "crawl.warc.gz")
    writer.open()
    code = (
        "import sys; from scrapy_cetd.warc.writer import WarcFileWriter;"
        f"print(WarcFileWriter({str(tmp_path / 'crawl.warc.gz')!r}).open().name)"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout.strip() == "crawl-00001.warc.gz"
    writer.close()


def test_a_crawl_that_archives_nothing_leaves_the_files_as_they_were(tmp_path: Path) -> None:
    old = tmp_path / "crawl.warc.gz"
    old.write_bytes(b"yesterday")
    writer = WarcFileWriter(old)
    assert writer.open() == old  # taken (a previous crawl's), not yet emptied
    writer.close()
    assert old.read_bytes() == b"yesterday" and writer.files == []
    new = WarcFileWriter(tmp_path / "new" / "crawl.warc.gz")
    new.open()
    new.close()
    assert not (tmp_path / "new" / "crawl.warc.gz").exists()  # the empty file it made is gone


@pytest.mark.parametrize(("value", "shown"), [(float("inf"), "inf"), ("1e400", "'1e400'"), (2.5, "2.5"), (-1, "-1")])
def test_the_rotation_size_is_a_whole_number_of_bytes(tmp_path: Path, value: object, shown: str) -> None:
    # Infinity raised OverflowError (a traceback at start, not the setting's one line);
    # 2.5 was cut to 2 bytes without a word.
    from scrapy.utils.test import get_crawler

    from scrapy_cetd.crawl.archive import WarcArchiveMiddleware
    from scrapy_cetd.crawl.settings import InvalidSetting

    crawler = get_crawler(settings_dict={"CETD_WARC_PATH": str(tmp_path / "a.warc.gz"), "CETD_WARC_MAX_SIZE": value})
    with pytest.raises(InvalidSetting, match=f"^CETD_WARC_MAX_SIZE: expected a whole number >= 0, got {shown}$"):
        WarcArchiveMiddleware(crawler)
    assert not (tmp_path / "a.warc.gz").exists()
