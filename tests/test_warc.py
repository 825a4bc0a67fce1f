"""WARC archives: written by a real loopback crawl, read back by ``scrapy-cetd warc``; Parquet
(feed exporter and CLI output); --jobs and a Dask LocalCluster; damaged and bad input."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from scrapy_cetd.cli import main
from scrapy_cetd.warc.reader import Unit, iter_records, split_units
from scrapy_cetd.warc.writer import WarcFileWriter, exchange_records
from tests.charset_pages import UNDECLARED_PAGES
from tests.conftest import ROOT, read_jsonl, run_crawl
from tests.wcxb import fixture_pages

pq = pytest.importorskip("pyarrow.parquet")
fastwarc = pytest.importorskip("fastwarc")

HTML = [(b"Content-Type", b"text/html; charset=utf-8")]


def _crawl(tmp_path: Path, site_url: str) -> dict[str, Any]:
    """One crawl of the test site (fresh process) with a WARC archive, and a Parquet feed
    beside the JSON Lines feed (``items.jsonl``); the crawl's report."""
    settings = {
        "CETD_WARC_PATH": str(tmp_path / "crawl.warc.gz"),
        "FEEDS": {str(tmp_path / "corpus.parquet"): {"format": "parquet", "fields": ["url", "title", "text"]}},
    }
    result = run_crawl("tests.test_scrapy_crawl.SiteSpider", tmp_path, settings, site_url=site_url)
    return {"stats": result.stats, "warnings": result.warnings, "errors": result.errors}


@pytest.fixture(scope="module")
def crawled(site_url: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    tmp_path = tmp_path_factory.mktemp("crawl")
    return tmp_path, _crawl(tmp_path, site_url)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv)
    return status, capsys.readouterr().err


def test_crawl_archives_every_response_and_warc_reads_back_the_crawls_texts(
    crawled: tuple[Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path, report = crawled
    assert report["warnings"] == [] and report["errors"] == []
    warc = tmp_path / "crawl.warc.gz"
    # A standard WARC: FastWARC and warcio both read it, every digest checks out.
    types, digests = [], []
    with warc.open("rb") as file:
        for record in fastwarc.ArchiveIterator(file, parse_http=False):
            types.append(str(record.record_type).rsplit(".", 1)[-1])
            digests.append(record.verify_block_digest())
    assert all(digests)
    responses = report["stats"]["scrapy_cetd/warc/responses"]
    assert types == ["warcinfo"] + ["request", "response"] * responses
    assert responses == report["stats"]["response_received_count"] == 17  # the 301 was followed, not archived
    warcio = pytest.importorskip("warcio.archiveiterator")
    with warc.open("rb") as file:
        gzipped = [
            (record.http_headers, record.content_stream().read())
            for record in warcio.ArchiveIterator(file)
            if record.rec_type == "response"
            and record.rec_headers.get_header("WARC-Target-URI").endswith("/gzipped.html")
        ]
    # Stored decoded, as the crawl read it: no Content-Encoding, Content-Length of the stored body.
    [(http_headers, body)] = gzipped
    assert http_headers.get_header("Content-Encoding") is None
    assert int(http_headers.get_header("Content-Length")) == len(body)
    assert int(http_headers.get_header("X-Crawler-Content-Length")) < len(body)  # the gzipped size on the wire
    assert b"Compressed: bridge works" in body

    out = tmp_path / "warc.jsonl"
    status, err = _run(["warc", str(warc), "-o", str(out)], capsys)
    assert status == 0, err
    items = read_jsonl(out)
    # One item per HTML response: as many as pages the crawl annotated; the rest skipped by reason.
    assert len(items) == report["stats"]["scrapy_cetd/pages/annotated"] == 9
    assert "skipped: binary 1, empty 1, non_html 3, record/request 17, record/warcinfo 1, status 3" in err
    assert all(list(item)[:4] == ["url", "warc_record_id", "warc_date", "status"] for item in items)
    assert all(item["status"] == 200 and item["warc_record_id"].startswith("<urn:uuid:") for item in items)
    by_url = {item["url"]: item for item in items}
    corpus = [item for item in read_jsonl(tmp_path / "items.jsonl") if item.get("text")]
    assert len(corpus) == 10  # 9 pages and the start item with stored HTML
    for item in corpus:
        if item["url"].startswith("stored://"):
            continue
        assert by_url[item["url"]]["text"] == item["text"], item["url"]
        assert by_url[item["url"]]["title"] == item["title"], item["url"]


def test_make_crawl_archive_re_extracts_to_the_corpus_texts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The example project (``make crawl``) archives beside its corpus; the archive gives the corpus back."""
    corpus = tmp_path / "corpus.jsonl"
    run = subprocess.run(
        [sys.executable, str(ROOT / "example_project" / "run_offline.py"), "--output", str(corpus)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = tmp_path / "again.jsonl"
    status, err = _run(["warc", str(tmp_path / "crawl.warc.gz"), "-o", str(out), "--fields", "title,text,html"], capsys)
    assert status == 0, err
    again = {item["url"]: item for item in read_jsonl(out)}
    articles = read_jsonl(corpus)
    assert len(articles) == 23
    for article in articles:
        for name in ("title", "text", "html"):
            assert again[article["url"]][name] == article[name], (article["url"], name)


def test_parquet_feed_and_parquet_output_hold_the_same_rows(
    crawled: tuple[Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path, _ = crawled
    feed = pq.read_table(tmp_path / "corpus.parquet")
    assert feed.column_names == ["url", "title", "text"]
    corpus = read_jsonl(tmp_path / "items.jsonl")
    assert sorted(feed.to_pylist(), key=str) == sorted(
        ({key: item.get(key) for key in ("url", "title", "text")} for item in corpus), key=str
    )
    out = tmp_path / "warc.parquet"
    status, err = _run(["warc", str(tmp_path / "crawl.warc.gz"), "-o", str(out), "--fields", "text,title,html"], capsys)
    assert status == 0, err
    gz = tmp_path / "warc.jsonl.gz"
    assert main(["warc", str(tmp_path / "crawl.warc.gz"), "-o", str(gz), "--fields", "text,title,html"]) == 0
    rows = [json.loads(line) for line in gzip.open(gz, "rt", encoding="utf-8")]
    table = pq.read_table(out)
    assert table.column_names == ["url", "warc_record_id", "warc_date", "status", "text", "title", "html", "reason"]
    assert table.to_pylist() == rows and len(rows) == 9


def _dev_warc(path: Path, copies: int = 1) -> int:
    """A WARC of the committed WCXB pages (real pages), plus non-HTML records; returns the HTML responses."""
    writer = WarcFileWriter(path)
    count = 0
    for copy in range(copies):
        for page in fixture_pages():
            writer.write(*exchange_records(f"{page.url}#{copy}", 200, [(b"Content-Type", b"text/html")], page.html))
            count += 1
        writer.write(*exchange_records(f"https://example.org/{copy}.png", 200, [(b"Content-Type", b"image/png")],
                                       b"\x89PNG\r\n\x1a\n" + bytes(100)))
    writer.close()
    return count


@pytest.fixture(scope="module")
def dev_warc(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    path = tmp_path_factory.mktemp("dev") / "dev.warc.gz"
    return path, _dev_warc(path)


@pytest.fixture(scope="module")
def local_run(dev_warc: tuple[Path, int]) -> bytes:
    """The output of the plain run (one process) on the dev WARC, in units of 256 KiB."""
    path, _ = dev_warc
    out = path.with_name("local.jsonl")
    assert main(["warc", str(path), "-o", str(out), "--split-size", "256k"]) == 0
    return out.read_bytes()


def test_jobs_2_equals_jobs_1(
    dev_warc: tuple[Path, int], local_run: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, pages = dev_warc
    assert len(split_units(path, 256 * 1024)) >= 4
    two = tmp_path / "two.jsonl"
    status, err = _run(["warc", str(path), "-o", str(two), "--split-size", "256k", "--jobs", "2"], capsys)
    assert status == 0
    assert two.read_bytes() == local_run
    assert len(read_jsonl(two)) == pages and f"{pages} items" in err and "non_html 1" in err


def test_dask_local_cluster_equals_local_run(
    dev_warc: tuple[Path, int], local_run: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    distributed = pytest.importorskip("distributed")
    path, _ = dev_warc
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as cluster:
        out = tmp_path / "dask.jsonl"
        argv = ["warc", str(path), "-o", str(out), "--split-size", "256k", "--dask", cluster.scheduler_address]
        assert main(argv) == 0
        assert out.read_bytes() == local_run
        # Relative paths are the command's: the workers were started in another directory.
        monkeypatch.chdir(path.parent)
        argv = ["warc", path.name, "-o", "relative.jsonl", "--split-size", "256k", "--dask", cluster.scheduler_address]
        status, err = _run(argv, capsys)
        assert status == 0, err
        assert (path.parent / "relative.jsonl").read_bytes() == local_run


def test_rotation_by_size(tmp_path: Path) -> None:
    writer = WarcFileWriter(tmp_path / "rot.warc.gz", max_size=1000)
    for n in range(6):
        writer.write(*exchange_records(f"http://example.org/{n}", 200, HTML, b"<html><p>x</p></html>" + bytes(n)))
    writer.close()
    assert len(writer.files) >= 3
    rotated = [f"rot-{n:05d}.warc.gz" for n in range(1, len(writer.files))]
    assert [p.name for p in writer.files] == ["rot.warc.gz", *rotated]
    assert all(p.stat().st_size >= 1000 for p in writer.files[:-1])  # a file is closed once past the size
    records = [r for p in writer.files for r in iter_records(Unit(str(p)))]
    assert [r.type for r in records].count("warcinfo") == len(writer.files)  # each file starts with one
    assert [r.type for r in records].count("response") == 6


def test_a_resumed_crawl_keeps_the_archive_it_resumes(tmp_path: Path) -> None:
    def crawl(keep_existing: bool, urls: range) -> list[Path]:
        writer = WarcFileWriter(tmp_path / "crawl.warc.gz", max_size=1000, keep_existing=keep_existing)
        for n in urls:
            writer.write(*exchange_records(f"http://example.org/{n}", 200, HTML, b"<html><p>x</p></html>" + bytes(n)))
        writer.close()
        return writer.files

    first = crawl(False, range(3))
    resumed = crawl(True, range(3, 6))  # JOBDIR: the next free names, nothing replaced
    assert not set(first) & set(resumed) and resumed[0].name == f"crawl-{len(first):05d}.warc.gz"
    records = [r for p in first + resumed for r in iter_records(Unit(str(p)))]
    urls = [r.headers["WARC-Target-URI"] for r in records if r.type == "response"]
    assert urls == [f"http://example.org/{n}" for n in range(6)]
    assert crawl(False, range(1))[0].name == "crawl.warc.gz"  # a new crawl starts the archive again


# --- bad input -----------------------------------------------------------------------------


def _members(*bodies: bytes) -> list[bytes]:
    members = []
    for n, body in enumerate(bodies):
        for record in exchange_records(f"http://example.org/{n}", 200, HTML, body):
            members.append(gzip.compress(record, mtime=0))
    return members


PAGE = (
    b"<html><head><title>T</title></head><body><article><p>"
    + b"Words of the article. " * 40
    + b"</p></article></body></html>"
)


def test_corrupt_and_truncated_gzip_members_are_skipped_to_the_next_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    members = _members(PAGE, PAGE, PAGE, PAGE)
    damaged = bytearray(members[3])
    damaged[30:60] = b"\xff" * 30
    corrupt = tmp_path / "corrupt.warc.gz"
    corrupt.write_bytes(b"".join(members[:3]) + bytes(damaged) + b"".join(members[4:]))
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(b"".join(members[:3]) + members[3][: len(members[3]) // 2] + b"".join(members[4:]))
    tail = tmp_path / "tail.warc.gz"
    tail.write_bytes(b"".join(members)[:-40])
    header_cut = tmp_path / "header-cut.warc.gz"  # the file ends inside a record's WARC header
    last = gzip.decompress(members[-1])
    header_cut.write_bytes(b"".join(members[:-1]) + gzip.compress(last[: last.index(b"Content-Length")]))
    line_cut = tmp_path / "line-cut.warc.gz"  # ... in its first bytes: FastWARC ends without a record
    line_cut.write_bytes(b"".join(members[:-1]) + members[-1][:20])
    plain_cut = tmp_path / "line-cut.warc"  # plain: FastWARC finds the cut line itself
    plain_cut.write_bytes(b"".join(map(gzip.decompress, members[:-1])) + last[:4])
    good = tmp_path / "good.warc.gz"
    good.write_bytes(b"".join(members))
    out = tmp_path / "out.jsonl"
    paths = [corrupt, cut, tail, header_cut, line_cut, plain_cut, good]
    status, err = _run(["warc", *map(str, paths), "-o", str(out)], capsys)
    assert status == 1  # some file failed
    items = read_jsonl(out)
    urls = [item["url"].rsplit("/", 1)[1] for item in items]
    assert urls == ["0", "2", "3"] + ["0", "2", "3"] + ["0", "1", "2"] * 4 + ["0", "1", "2", "3"]
    warnings = [line for line in err.splitlines() if "warning:" in line]
    assert len(warnings) == 6
    assert f"{corrupt}: byte " in warnings[0] and "corrupt_gzip" in warnings[0] and "resumed at byte" in warnings[0]
    assert f"{cut}: byte " in warnings[1] and "corrupt_gzip" in warnings[1]
    assert f"{tail}: byte " in warnings[2] and "truncated" in warnings[2]
    assert f"{header_cut}: byte " in warnings[3] and "record header cut short" in warnings[3]
    assert f"{line_cut}: byte " in warnings[4] and "20 bytes after the last record are no whole record" in warnings[4]
    assert f"{plain_cut}: byte " in warnings[5] and "corrupt: Invalid WARC header" in warnings[5]  # FastWARC's
    assert "corrupt_gzip 2" in err and "corrupt 1" in err and "truncated 3" in err and "failed files: 6" in err


def test_broken_http_header_and_too_large_body_are_skipped_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, broken = exchange_records("http://example.org/broken", 200, HTML, PAGE)
    broken = broken.replace(b"HTTP/1.1 200 OK\r\n", b"HTTP/1.1 2OO OK\r\n")
    big = PAGE.replace(b"</p>", b" " * 5000 + b"</p>")
    path = tmp_path / "mixed.warc.gz"
    path.write_bytes(b"".join(_members(PAGE)) + gzip.compress(broken) + b"".join(_members(PAGE, big)))
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out), "--max-size", "4k"], capsys)
    assert status == 0
    assert len(read_jsonl(out)) == 2
    assert "http_header 1" in err and "too_large 1" in err


def test_empty_missing_and_non_warc_files_fail_by_name_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"")
    text = tmp_path / "notes.warc"
    text.write_text("just some notes\n")
    gz = tmp_path / "page.html.gz"
    gz.write_bytes(gzip.compress(PAGE))
    good = tmp_path / "good.warc"
    good.write_bytes(b"".join(gzip.decompress(m) for m in _members(PAGE)))  # plain (uncompressed) WARC
    out = tmp_path / "out.jsonl"
    missing = tmp_path / "missing.warc.gz"
    status, err = _run(["warc", str(empty), str(text), str(missing), str(gz), str(good), "-o", str(out)], capsys)
    assert status == 1
    assert f"error: {empty}: empty file, not a WARC file" in err
    assert f"error: {text}: not a WARC file (it starts with b'just some notes" in err
    assert f"error: {missing}: No such file or directory" in err
    assert f"error: {gz}: gzip data that is not a WARC file" in err
    assert len(read_jsonl(out)) == 1 and "failed files: 4" in err


def test_missing_pyarrow_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    status, err = _run(["warc", str(tmp_path / "x.warc"), "-o", str(tmp_path / "x.parquet")], capsys)
    assert status == 2
    assert "Parquet output needs pyarrow, which is not installed: pip install 'scrapy-cetd[parquet]'" in err


def _as_a_terminal_leaves_sigint() -> None:
    """SIGINT at its default in the child: a suite run in the background by a
    non-interactive shell has it ignored, and a child inherits that (Python then installs
    no KeyboardInterrupt handler), so the interrupt would never arrive."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_leaves_the_items_written_so_far_and_says_so(tmp_path: Path) -> None:
    big = tmp_path / "big.warc.gz"
    big.write_bytes(b"".join(_members(*[PAGE] * 4000)))
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "scrapy_cetd", "warc", str(big), "-o", str(out), "--split-size", "64k"],
        stderr=subprocess.PIPE, text=True, preexec_fn=_as_a_terminal_leaves_sigint,
    )
    while process.poll() is None and (not out.exists() or out.stat().st_size < 100_000):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    items = read_jsonl(out)  # whole lines only
    assert 0 < len(items) < 4000
    assert f"interrupted: {out} holds the first {len(items)} items" in err
    assert [item["url"] for item in items] == [f"http://example.org/{n}" for n in range(len(items))]


# --- wire bytes: chunked and compressed bodies, as wget, warcprox and warcio store them ------


def _wire_record(url: str, headers: list[bytes], body: bytes) -> bytes:
    """A gzipped response record whose block is the HTTP message as it came over the wire."""
    from scrapy_cetd.warc.writer import warc_record

    block = b"\r\n".join([b"HTTP/1.1 200 OK", b"Content-Type: text/html; charset=utf-8", *headers]) + b"\r\n\r\n" + body
    return gzip.compress(warc_record("response", block, content_type="application/http;msgtype=response",
                                     target_uri=url), mtime=0)


def _chunked(body: bytes, size: int = 100) -> bytes:
    """``body`` in chunks of ``size`` bytes, with a chunk extension on one and a trailer field."""
    chunks = [body[n : n + size] for n in range(0, len(body), size)]
    lines = [b"%x%s\r\n%s\r\n" % (len(c), b";ext=1" if n == 1 else b"", c) for n, c in enumerate(chunks)]
    return b"".join(lines) + b"0\r\nX-Trailer: t\r\n\r\n"


def _deflate(data: bytes, wbits: int = 15) -> bytes:
    compressor = zlib.compressobj(wbits=wbits)
    return compressor.compress(data) + compressor.flush()


def _gzip_bomb(size: int) -> bytes:
    compressor = zlib.compressobj(wbits=31)
    parts = [compressor.compress(b"<html><body><p>")]
    parts += [compressor.compress(b" " * (1 << 20)) for _ in range(size >> 20)]
    return b"".join(parts) + compressor.flush()


ARTICLE = (
    b"<html><head><title>Survey</title></head><body><nav><a href='/'>Home</a></nav><article><h1>Survey</h1>"
    + b"<p>In the fall Nutritional Labeling Survey, the labels of the packaged foods were read again. </p>" * 30
    + b"</article></body></html>"
)


def test_chunked_and_compressed_wire_bodies_are_decoded_as_the_crawl_decodes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import brotli
    from backports import zstd

    gz = gzip.compress(ARTICLE)
    records = {
        "plain": [], "chunked": [b"Transfer-Encoding: chunked"],
        "gzip": [b"Content-Encoding: gzip"], "x-gzip": [b"Content-Encoding: x-gzip"],
        "deflate": [b"Content-Encoding: deflate"], "raw-deflate": [b"Content-Encoding: deflate"],
        "br": [b"Content-Encoding: br"], "zstd": [b"Content-Encoding: zstd"],
        "gzip-chunked": [b"Content-Encoding: gzip", b"Transfer-Encoding: chunked"],
        "gzip-then-br": [b"Content-Encoding: gzip, br"],
        "stored-decoded": [b"Content-Encoding: gzip", b"Transfer-Encoding: chunked"],
    }
    bodies = {
        "plain": ARTICLE, "chunked": _chunked(ARTICLE), "gzip": gz, "x-gzip": gz, "deflate": _deflate(ARTICLE),
        "raw-deflate": _deflate(ARTICLE, -15), "br": brotli.compress(ARTICLE), "zstd": zstd.compress(ARTICLE),
        "gzip-chunked": _chunked(gz, 64), "gzip-then-br": brotli.compress(gz),
        "stored-decoded": ARTICLE,  # the archiver stored the decoded body and kept the headers
    }
    path = tmp_path / "wire.warc.gz"
    path.write_bytes(b"".join(_wire_record(f"http://example.org/{name}", records[name], bodies[name])
                              for name in records))
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out)], capsys)
    assert status == 0, err
    items = {item["url"].rsplit("/", 1)[1]: item for item in read_jsonl(out)}
    assert list(items) == list(records)
    expected = items["plain"]["text"]
    assert "In the fall Nutritional Labeling Survey" in expected
    for name, item in items.items():
        assert (item["title"], item["text"]) == ("Survey", expected), name


def test_records_of_pages_in_legacy_encodings_that_declare_none_are_read_in_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_cetd import extract
    from scrapy_cetd.warc.writer import warc_record

    path = tmp_path / "legacy.warc.gz"
    with path.open("wb") as out:
        for name, _, page, _ in UNDECLARED_PAGES:
            block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
            record = warc_record("response", block, content_type="application/http;msgtype=response",
                                 target_uri=f"http://example.org/{name}")
            out.write(gzip.compress(record, mtime=0))
    status, err = _run(["warc", str(path), "-o", str(tmp_path / "out.jsonl")], capsys)
    assert status == 0, err
    texts = {item["url"].rsplit("/", 1)[1]: item["text"] for item in read_jsonl(tmp_path / "out.jsonl")}
    for name, _, page, sentence in UNDECLARED_PAGES:
        assert sentence in texts[name] and texts[name] == extract(page).text


def test_dechunk_is_lenient_as_warcio() -> None:
    from scrapy_cetd.warc.reader import dechunk

    assert dechunk(_chunked(ARTICLE, 0xFA0)) == ARTICLE
    assert dechunk(b"5\nhello\n6\n world\n0\n\n") == b"hello world"  # bare line feeds
    assert dechunk(ARTICLE) == ARTICLE  # not chunked at all: stored de-chunked
    assert dechunk(b"5\r\nhello\r\n6\r\n wor") == b"hello wor"  # cut short
    assert dechunk(b"5\r\nhello\r\nzz\r\nrest") == b"hellozz\r\nrest"  # a bad size line: the rest as it is


def test_undecodable_and_oversized_compressed_bodies_are_skipped_with_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gz = gzip.compress(ARTICLE)
    corrupt = gz[:12] + bytes(range(256)) * 4  # a gzip header, then no deflate stream
    bomb = _gzip_bomb(64 << 20)  # 64 MiB of spaces in 64 KiB
    assert len(bomb) < 100_000
    path = tmp_path / "bad.warc.gz"
    path.write_bytes(
        _wire_record("http://example.org/ok", [b"Content-Encoding: gzip"], gz)
        + _wire_record("http://example.org/corrupt", [b"Content-Encoding: gzip"], corrupt)
        + _wire_record("http://example.org/bad-deflate", [b"Content-Encoding: deflate"], b"\x00\xff" * 300)
        + _wire_record("http://example.org/bomb", [b"Content-Encoding: gzip"], bomb)
        + _wire_record("http://example.org/unknown", [b"Content-Encoding: compress"], gz)
    )
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out), "--max-size", "1m"], capsys)
    assert status == 0, err
    assert [item["url"] for item in read_jsonl(out)] == ["http://example.org/ok"]
    # Corrupt data: content_encoding; past --max-size while decompressing: too_large (it stops
    # there); a coding Scrapy does not know is left, as Scrapy leaves it: not an HTML response.
    assert "skipped: content_encoding 2, non_html 1, too_large 1" in err

    # Without a size limit (--max-size 0) decompression is still bounded: by Scrapy's
    # DOWNLOAD_MAXSIZE default (1 GiB), made 16 MiB here.
    from scrapy_cetd.warc import reader

    monkeypatch.setattr(reader, "DECOMPRESSED_MAX_SIZE", 16 << 20)
    with pytest.raises(reader.BodyDecodeError, match="decompresses to more than 16777216 bytes") as caught:
        reader.decode_body([(b"Content-Encoding", b"gzip")], bomb, 0)
    assert caught.value.reason == "too_large"


def test_a_file_that_fails_in_every_unit_is_one_failed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_cetd.warc import batch
    from scrapy_cetd.warc.extract import WarcOptions

    gone = str(tmp_path / "gone.warc.gz")  # split into units, then removed before they ran
    monkeypatch.setattr(batch, "make_units", lambda paths, size: ([Unit(gone, 0, 10), Unit(gone, 10)], []))
    log = io.StringIO()
    summary = batch.run_batch([gone], str(tmp_path / "out.jsonl"), WarcOptions(), log=log)
    assert log.getvalue().count("No such file or directory") == 2
    assert summary.failed_files == [gone] and "failed files: 1" in summary.lines()


def test_ctrl_c_with_jobs_leaves_a_whole_gzip_holding_the_items_it_reports(tmp_path: Path) -> None:
    """SIGINT to the process group (a Ctrl-C in a terminal) while the output is being written,
    at three points: each time a valid ``.jsonl.gz`` with exactly the items the command reports."""
    members = []
    for n in range(1000):
        rng = random.Random(n)  # words that do not compress: the .jsonl.gz grows every few items
        words = " ".join(f"{rng.getrandbits(40):x}" for _ in range(150)).encode()
        page = b"<html><head><title>T</title></head><body><article><p>" + words + b"</p></article></body></html>"
        members += [gzip.compress(record, 1) for record in exchange_records(f"http://example.org/{n}", 200, HTML, page)]
    big = tmp_path / "big.warc.gz"
    big.write_bytes(b"".join(members))
    out = tmp_path / "out.jsonl.gz"
    argv = [sys.executable, "-m", "scrapy_cetd", "warc", str(big), "-o", str(out), "--jobs", "2",
            "--split-size", "64k", "--fields", "text,title,html"]
    for growth in (1, 4, 12):  # interrupt once the output has grown this many times
        for _ in range(3):  # again if the run ends before the interrupt
            out.unlink(missing_ok=True)
            process = subprocess.Popen(
                argv, stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_as_a_terminal_leaves_sigint
            )
            size, seen = 0, 0
            while process.poll() is None and seen < growth:
                now = out.stat().st_size if out.exists() else 0
                if now != size:
                    size, seen = now, seen + 1
                time.sleep(0.001)
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
            _, err = process.communicate(timeout=60)
            if process.returncode != 0:
                break
        assert process.returncode == 130, err
        with gzip.open(out, "rt", encoding="utf-8") as file:  # the CRC and length are checked at the end
            urls = [json.loads(line)["url"] for line in file]
        assert f"interrupted: {out} holds the first {len(urls)} items" in err, err[-2000:]
        assert urls == [f"http://example.org/{n}" for n in range(len(urls))]
        assert "Traceback" not in err, err  # the workers ignore SIGINT: the command alone stops them


def test_a_record_whose_extraction_raises_is_an_error_item_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scrapy_cetd.warc import extract as warc_extract

    def raising(html: Any, **kwargs: Any) -> Any:  # any bug in one page's extraction
        if kwargs.get("url") == "http://example.org/boom":
            raise RecursionError("maximum recursion depth exceeded")
        return real(html, **kwargs)

    real = warc_extract.extract
    monkeypatch.setattr(warc_extract, "extract", raising)
    path = tmp_path / "mixed.warc.gz"
    path.write_bytes(
        _wire_record("http://example.org/first", [], ARTICLE)
        + _wire_record("http://example.org/boom", [], ARTICLE)
        # a charset Python has but cannot decode text with (Scrapy's response.text raised)
        + _wire_record("http://example.org/base64", [b"Content-Type: text/html; charset=base64"], ARTICLE)
        + _wire_record("http://example.org/last", [], ARTICLE)
    )
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out), "--fields", "text,title"], capsys)
    assert status == 0, err  # as the crawl: logged and counted, not a damaged file
    items = read_jsonl(out)
    assert [item["url"].rsplit("/", 1)[1] for item in items] == ["first", "boom", "base64", "last"]
    boom = items[1]
    assert boom["reason"] == "error" and boom["text"] is None and boom["title"] is None and boom["status"] == 200
    assert items[0]["text"] and items[3]["text"] and items[3]["reason"] is None
    assert f"warning: {path}: byte " in err
    assert "error: extraction failed for http://example.org/boom: RecursionError: maximum recursion" in err
    errors = sum(item["reason"] == "error" for item in items)  # base64: an error until decoding copes
    assert f"extraction errors: {errors} (items with reason error)" in err


COMMENTED = (
    ARTICLE.replace(b"</body>", b"")
    + b"<section id='comments' class='comments'><h2>3 Comments</h2><ol class='comment-list'>"
    + b"".join(
        b"<li class='comment'><div class='comment-author'>Reader %d</div><div class='comment-content'><p>I found "
        b"this survey useful and I read the labels of my foods again after it, thanks. %d</p></div></li>" % (n, n)
        for n in range(3)
    )
    + b"</ol></section></body></html>"
)


def test_markdown_comments_and_fingerprint_fields_are_produced_as_the_crawl_produces_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_cetd import extract
    from scrapy_cetd.fingerprint import text_fingerprint

    path = tmp_path / "one.warc.gz"
    path.write_bytes(_wire_record("http://example.org/c", [], COMMENTED))
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out), "--fields", "text,markdown,comments,fingerprint"], capsys)
    assert status == 0, err
    [item] = read_jsonl(out)
    expected = extract(COMMENTED, url="http://example.org/c", with_markdown=True, with_comments=True)
    assert item["text"] == expected.text
    assert item["markdown"] == expected.markdown and "Nutritional Labeling Survey" in item["markdown"]
    assert item["comments"] == expected.comments and "Reader 1" in item["comments"]
    assert item["fingerprint"] == text_fingerprint(expected.text) and len(item["fingerprint"]) == 16


def _with_length(record: bytes, length: bytes) -> bytes:
    """A WARC record with its Content-Length (the WARC header's, the first) replaced."""
    start = record.index(b"Content-Length: ") + len(b"Content-Length: ")
    return record[:start] + length + record[record.index(b"\r\n", start) :]


def _bad_length_records() -> tuple[list[bytes], list[str]]:
    """Seven exchanges whose responses 1, 2, 3, 4 and 5 have a Content-Length that is negative, too
    long (by 500 bytes: into the next record), too short, past the end of the file, not a
    number; and the URLs whose items must come out whole."""
    pages = [PAGE.replace(b"Words of", b"Words %d of" % n) for n in range(7)]
    records = [gzip.decompress(member) for member in _members(*pages)]
    for n, length in zip((1, 2, 3, 4, 5), (b"-5", None, b"100", b"1000000000", b"abc")):
        response = records[2 * n + 1]
        declared = response.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0]
        records[2 * n + 1] = _with_length(response, length or b"%d" % (int(declared) + 500))
    return records, ["0", "6"]


def test_plain_warc_resyncs_after_a_record_with_a_wrong_content_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records, whole = _bad_length_records()
    path = tmp_path / "bad-length.warc"
    path.write_bytes(b"".join(records))
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out)], capsys)
    assert status == 1  # damaged data
    items = read_jsonl(out)
    assert [item["url"].rsplit("/", 1)[1] for item in items] == whole  # the rest of the file is read
    for item in items:  # no item holds bytes of another record
        n = item["url"].rsplit("/", 1)[1]
        assert f"Words {n} of" in item["text"] and "WARC/1" not in item["text"]
        assert not any(f"Words {m} of" in item["text"] for m in range(7) if str(m) != n)
    warnings = [line for line in err.splitlines() if "warning:" in line]
    offsets = [sum(map(len, records[: 2 * n + 1])) for n in (1, 2, 3, 4, 5)]
    assert len(warnings) == 5
    for warning, offset in zip(warnings, offsets):
        assert f"{path}: byte {offset}: corrupt: " in warning
        assert f"resumed at byte {offset + len(records[offsets.index(offset) * 2 + 3])}" in warning
    assert "invalid Content-Length '-5'" in warnings[0] and "invalid Content-Length 'abc'" in warnings[4]
    assert "does not end the record" in warnings[1] and "does not end the record" in warnings[2]
    assert "Content-Length 1000000000 runs past the end of the file" in warnings[3]
    assert "skipped: corrupt 5, record/request 7" in err


def test_damaged_records_in_sound_gzip_are_corrupt_once_at_their_own_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records, whole = _bad_length_records()
    members = [gzip.compress(record, mtime=0) for record in records]
    path = tmp_path / "bad-length.warc.gz"
    path.write_bytes(b"".join(members))
    long_uri = tmp_path / "long-uri.warc.gz"  # a header FastWARC refuses ("Maximum header length exceeded")
    first, rest = _members(PAGE), _members(PAGE, PAGE)[2:]
    huge = gzip.decompress(rest[1]).replace(b"http://example.org/1", b"http://example.org/" + b"a" * (5 << 20))
    huge = gzip.compress(huge, mtime=0)
    long_uri.write_bytes(b"".join(first) + huge + b"".join(rest))
    zst = tmp_path / "pages.warc.zst"
    zst.write_bytes(b"\x28\xb5\x2f\xfd" + bytes(60))
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), str(long_uri), str(zst), "-o", str(out)], capsys)
    assert status == 1
    assert [item["url"].rsplit("/", 1)[1] for item in read_jsonl(out)] == [*whole, "0", "1"]
    warnings = [line for line in err.splitlines() if "warning:" in line]
    offsets = [sum(map(len, members[: 2 * n + 1])) for n in (1, 2, 3, 4, 5)]
    assert [line.split(": ")[3:5] for line in warnings[:5]] == [[f"byte {n}", "corrupt"] for n in offsets]
    # Each damaged record once, as what it is: the gzip data is sound (was: http_header and
    # corrupt_gzip for the same record).
    assert "skipped: corrupt 6, record/request 9" in err and "http_header" not in err
    huge_at = sum(map(len, first))  # was reported twice, first at the record before it
    assert warnings[5:] == [f"scrapy-cetd: warning: {long_uri}: byte {huge_at}: corrupt: Maximum header length "
                            f"exceeded.; resumed at byte {huge_at + len(huge)}"]
    assert f"error: {zst}: zstd-compressed data, which is not supported: decompress it first (zstd -d)" in err


def test_output_to_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    path = tmp_path / "pages.warc.gz"
    path.write_bytes(b"".join(_members(*[PAGE] * 50)))
    process = subprocess.Popen([sys.executable, "-m", "scrapy_cetd", "warc", str(path), "-o", "-"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader goes away (| head -0) before the items come
    with process.stderr:
        err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1, err  # as scrapy-cetd extract; 2 is a usage error
    assert "Traceback" not in err and "error:" not in err


def test_a_body_binary_once_decoded_is_skipped_as_the_crawl_skips_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # vertical tabs, form feeds and escapes pass the sniff of the bytes, not that of the text:
    # the crawl counts skipped/binary; the archive gave an item with reason "binary:binary"
    path = tmp_path / "mixed.warc.gz"
    path.write_bytes(b"".join(_members(PAGE, b"\x0b\x0c\x1b" * 400, PAGE)))
    out = tmp_path / "out.jsonl"
    status, err = _run(["warc", str(path), "-o", str(out)], capsys)
    assert status == 0
    assert [item["url"].rsplit("/", 1)[1] for item in read_jsonl(out)] == ["0", "2"]
    assert "binary 1" in err


def test_checking_where_a_skipped_compressed_record_ends_holds_little_memory(tmp_path: Path) -> None:
    """The last record of a .warc.gz, too large and unread, is checked to end as its
    Content-Length says by decompressing its member: in bounded pieces (a 1 MB file whose
    last record was 1 GB of spaces took 1.4 GB of memory and 13 s)."""
    import tracemalloc

    from scrapy_cetd.warc.writer import warc_record

    size = 128 << 20
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>"
    header = warc_record("response", b"", content_type="application/http;msgtype=response",
                         target_uri="http://example.org/big").split(b"\r\n\r\n")[0]
    header = header.replace(b"Content-Length: 0", b"Content-Length: %d" % (len(block) + size))
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = [compressor.compress(header + b"\r\n\r\n" + block)]
    bomb += [compressor.compress(b" " * (1 << 20)) for _ in range(size >> 20)]
    bomb.append(compressor.compress(b"\r\n\r\n") + compressor.flush())
    path = tmp_path / "bomb.warc.gz"
    path.write_bytes(_members(PAGE)[1] + b"".join(bomb))
    tracemalloc.start()
    try:
        records = list(iter_records(Unit(str(path)), max_size=1 << 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [r.headers.get("X-Skipped") for r in records] == [None, "too_large"]  # no issue: it ends as declared
    assert peak < 16 << 20, peak
