"""Parquet output (:mod:`scrapy_cetd.crawl.exporters`): column types from what the fields are, not
from the first row group; every row kept; one column per field.  Through a real crawl's feed,
the feed exporter API, ``scrapy-cetd warc`` and :class:`ParquetRows` itself."""

from __future__ import annotations

import logging
import typing
from pathlib import Path
from typing import Any

import pytest
import scrapy

from scrapy_cetd import parquet
from scrapy_cetd.crawl.exporters import ParquetItemExporter
from scrapy_cetd.metadata import Metadata
from scrapy_cetd.outputs import METADATA_OUTPUTS, OUTPUTS
from scrapy_cetd.parquet import OUTPUT_TYPES, WARC_ITEM_TYPES, ParquetRows
from tests.conftest import run_crawl

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SENTENCES = (
    "<p>The council met on Monday to discuss story number {n}, and agreed the plan for the new bridge over "
    "the river after a long debate.</p><p>Residents will be consulted in spring before work begins.</p>"
)


def page(n: int, author: str | None = None, short: bool = False) -> str:
    """A small news page; a byline only with ``author``; one short sentence with ``short``."""
    meta = f'<meta name="author" content="{author}">' if author else ""
    body = f"<p>Story {n} in brief.</p>" if short else SENTENCES.format(n=n)
    return (
        f"<html><head><title>Story {n}</title>{meta}</head><body><nav><a href='/'>Home</a></nav>"
        f"<article><h1>Story {n}</h1>{body}</article><footer>About us</footer></body></html>"
    )


#: Three pages without a byline, then three with (the last also short: flagged ``short_text``).
PAGES = [page(0), page(1), page(2), page(3, "Ann Lee"), page(4, "Bo Chen"), page(5, "Cy Diaz", short=True)]


class StoredPagesSpider(scrapy.Spider):
    """Yields the stored :data:`PAGES` as items (``raw_html``), in order; no requests."""

    name = "stored_pages"

    async def start(self):  # type: ignore[override]
        for n, html in enumerate(PAGES):
            yield {"url": f"stored://{n}", "raw_html": html}


def test_a_crawls_feed_keeps_every_row_when_the_first_row_group_has_no_authors(tmp_path: Path) -> None:
    """The user's report: ``batch_size: 2``, three pages without authors, then three with.
    Before: ``list<null>`` from the first row group, 2 rows of 6 in the file."""
    chosen, every = tmp_path / "chosen.parquet", tmp_path / "every.parquet"
    options = {"format": "parquet", "item_export_kwargs": {"batch_size": 2}}
    settings = {
        "CETD_MIN_TEXT_LENGTH": 60,
        "FEEDS": {str(chosen): {**options, "fields": ["url", "title", "authors"]}, str(every): options},
    }
    result = run_crawl("tests.test_parquet.StoredPagesSpider", tmp_path, settings)
    assert result.errors == [] and result.warnings == []
    assert "does not fit" not in result.log and "dropped" not in result.log, result.log[-3000:]
    assert "scrapy_cetd/errors/parquet_value" not in result.stats
    assert len(result.items) == 6 and result.stats["item_scraped_count"] == 6
    table = pq.read_table(chosen)
    assert table.schema.field("authors").type.value_type == pa.string()
    assert sorted(table.to_pylist(), key=lambda row: row["url"]) == [
        {"url": f"stored://{n}", "title": f"Story {n}", "authors": authors}
        for n, authors in enumerate([[], [], [], ["Ann Lee"], ["Bo Chen"], ["Cy Diaz"]])
    ]
    # Without the feed's fields: every item field, and the pipeline's flag field, first set on
    # the last page (after the first row group), is a column too.
    rows = {row["url"]: row for row in pq.read_table(every).to_pylist()}
    assert len(rows) == 6
    assert [rows[f"stored://{n}"]["cetd_flag"] for n in range(6)] == [None] * 5 + ["short_text"]
    assert rows["stored://4"]["authors"] == ["Bo Chen"] and rows["stored://4"]["text"].startswith("The council")
    for item in result.items:
        assert {key: rows[item["url"]][key] for key in item} == item


def _exporter(tmp_path: Path, settings: dict[str, Any], **kwargs: Any) -> tuple[Any, Any, Path]:
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_cetd.Addon": 0}, **settings})
    crawler.stats.open_spider()
    path = tmp_path / "feed.parquet"
    file = path.open("wb")
    exporter = build_from_crawler(ParquetItemExporter, crawler, file, **kwargs)
    exporter.start_exporting()
    exporter.path_file = file
    return exporter, crawler.stats, path


def _finish(exporter: Any) -> None:
    exporter.finish_exporting()
    exporter.path_file.close()


def test_the_feed_exporter_types_the_pipelines_fields_and_keeps_rows_whose_values_do_not_fit(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = {"CETD_OUTPUT_FIELDS": {"text": "body", "authors": "by", "tags": "tags", "diagnostics": "diag"}}
    exporter, stats, path = _exporter(tmp_path, settings, fields_to_export=None, batch_size=2)
    items = [
        {"url": "u0", "body": "a", "by": [], "tags": [], "rank": 1},
        {"url": "u1", "body": None, "by": [], "tags": [], "rank": 2},
        {"url": "u2", "body": "c", "by": ["Ann"], "tags": ["x", "y"], "rank": "third", "diag": {"n": 1}},
        {"url": "u3", "body": "d", "by": ["Bo"], "tags": [], "rank": 4, "cetd_error": "boom"},
        {"url": "u4", "body": "e", "by": ["Cy"], "tags": [], "rank": "fifth"},
    ]
    with caplog.at_level(logging.WARNING, logger="scrapy_cetd.parquet"):
        for item in items:
            exporter.export_item(item)
        _finish(exporter)
    table = pq.read_table(path)
    # The pipeline's fields by their outputs' types, after the first row group's keys.
    assert table.column_names == ["url", "body", "by", "tags", "rank", "diag", "cetd_flag", "cetd_error"]
    assert str(table.schema.field("by").type.value_type) == "string"
    assert table.schema.field("diag").type == pa.string()
    rows = table.to_pylist()
    assert len(rows) == 5
    assert [row["by"] for row in rows] == [[], [], ["Ann"], ["Bo"], ["Cy"]]
    assert rows[2]["tags"] == ["x", "y"] and rows[2]["diag"] == '{"n": 1}' and rows[3]["cetd_error"] == "boom"
    # A spider's own field typed by its first rows (int64): text later is written as null,
    # the rows kept, counted and logged once.
    assert [row["rank"] for row in rows] == [1, 2, None, 4, None]
    assert stats.get_value("scrapy_cetd/errors/parquet_value") == 2
    unfit = [record.getMessage() for record in caplog.records if "do not fit" in record.getMessage()]
    assert unfit == [
        "Parquet output: 1 value(s) of 'rank' do not fit the column's type int64 (e.g. 'third'); "
        "written as null, the rows kept (logged once per column)"
    ]


def test_the_feed_exporter_with_fields_has_those_columns_only(tmp_path: Path) -> None:
    exporter, _, path = _exporter(tmp_path, {}, fields_to_export=["url", "authors", "url"], batch_size=1)
    exporter.export_item({"url": "u0", "authors": [], "text": "x"})
    exporter.export_item({"url": "u1", "authors": ["Ann"], "text": "y"})
    _finish(exporter)
    table = pq.read_table(path)
    assert table.column_names == ["url", "authors"]
    assert table.to_pylist() == [{"url": "u0", "authors": []}, {"url": "u1", "authors": ["Ann"]}]


def test_every_output_has_a_type_and_list_outputs_are_lists_of_text() -> None:
    assert set(OUTPUT_TYPES) == set(OUTPUTS)
    hints = typing.get_type_hints(Metadata)
    for name in METADATA_OUTPUTS:
        expected = "list<string>" if typing.get_origin(hints[name]) is list else "string"
        assert OUTPUT_TYPES[name] == expected, name
    from scrapy_cetd.warc.extract import ITEM_FIELDS

    assert set(WARC_ITEM_TYPES) == {*ITEM_FIELDS, "reason"}


def _warc(path: Path, pages: list[str]) -> None:
    from scrapy_cetd.warc.writer import WarcFileWriter, exchange_records

    writer = WarcFileWriter(path)
    for n, html in enumerate(pages):
        writer.write(*exchange_records(f"https://news.example.org/{n}", 200, [(b"Content-Type", b"text/html")],
                                       html.encode()))
    writer.close()


def _read_everywhere(path: Path) -> list[dict[str, Any]]:
    """The rows, after checking pyarrow and (when installed) pandas read the file."""
    table = pq.read_table(path)
    assert len(set(table.column_names)) == len(table.column_names), table.column_names
    try:
        import pandas
    except ImportError:
        pass
    else:
        assert pandas.read_parquet(path).shape == (table.num_rows, table.num_columns)
    return table.to_pylist()


def test_warc_to_parquet_keeps_the_rows_after_a_first_row_group_without_bylines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user's ``scrapy-cetd warc authors.warc.gz -o a.parquet --fields text,title,authors``
    (1001 pages without a byline, then one with), with row groups of 2 for speed."""
    pytest.importorskip("fastwarc")
    from scrapy_cetd.cli import main

    monkeypatch.setattr(parquet, "DEFAULT_BATCH_SIZE", 2)
    _warc(tmp_path / "authors.warc.gz", PAGES)
    out = tmp_path / "a.parquet"
    status = main(["warc", str(tmp_path / "authors.warc.gz"), "-o", str(out), "--fields", "text,title,authors"])
    err = capsys.readouterr().err
    assert status == 0, err
    assert "6 items" in err and "error" not in err
    rows = _read_everywhere(out)
    assert len(rows) == 6
    assert [row["authors"] for row in rows] == [[], [], [], ["Ann Lee"], ["Bo Chen"], ["Cy Diaz"]]
    assert [row["status"] for row in rows] == [200] * 6


def test_warc_fields_with_url_write_one_url_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("fastwarc")
    from scrapy_cetd.cli import main

    _warc(tmp_path / "pages.warc.gz", PAGES[:2])
    out = tmp_path / "x.parquet"
    assert main(["warc", str(tmp_path / "pages.warc.gz"), "-o", str(out), "--fields", "text,url,title"]) == 0
    rows = _read_everywhere(out)
    assert list(rows[0]) == ["url", "warc_record_id", "warc_date", "status", "text", "title", "reason"]
    assert [row["url"] for row in rows] == ["https://news.example.org/0", "https://news.example.org/1"]
    # JSON Lines: the same single url.
    lines = tmp_path / "x.jsonl"
    assert main(["warc", str(tmp_path / "pages.warc.gz"), "-o", str(lines), "--fields", "text,url,title"]) == 0
    capsys.readouterr()
    import json

    items = [json.loads(line) for line in lines.read_text(encoding="utf-8").splitlines()]
    assert [list(item) for item in items] == [list(rows[0])] * 2
    assert [item["url"] for item in items] == [row["url"] for row in rows]


def test_parquet_rows_infer_undeclared_columns_and_never_lose_a_row(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rows = ParquetRows(tmp_path / "rows.parquet", batch_size=2)
    for row in [
        {"a": None, "n": 1, "l": [], "m": "x"},
        {"a": None, "n": 2, "l": [], "m": ["y"]},
        {"a": ["x"], "n": 3, "l": ["p"], "m": "z"},
        {"a": "z", "n": "four", "l": [], "m": None, "late": 1},
    ]:
        rows.write(row)
    with caplog.at_level(logging.WARNING, logger="scrapy_cetd.parquet"):
        rows.close()
    table = pq.read_table(tmp_path / "rows.parquet")
    # Empty in the first rows: text (lists: lists of text); first values that disagree: text;
    # a text column keeps later lists as JSON; a key first seen later is dropped, with a warning.
    assert [str(field.type) for field in table.schema] == ["string", "int64", "list<element: string>", "string"]
    assert table.to_pylist() == [
        {"a": None, "n": 1, "l": [], "m": "x"},
        {"a": None, "n": 2, "l": [], "m": '["y"]'},
        {"a": '["x"]', "n": 3, "l": ["p"], "m": "z"},
        {"a": "z", "n": None, "l": [], "m": None},
    ]
    assert rows.unfit_values == {"n": 1} and rows.rows_written == 4
    messages = [record.getMessage() for record in caplog.records]
    assert any("field 'late' first appears after the columns were fixed; dropped" in m for m in messages)
    assert any("value(s) of 'n' do not fit the column's type int64" in m for m in messages)


def test_parquet_rows_declared_types_and_fields_each_once(tmp_path: Path) -> None:
    rows = ParquetRows(tmp_path / "rows.parquet", fields=["url", "tags", "url", "n"], batch_size=1,
                       types={"tags": "list<string>", "n": "int64", "unused": "string"})
    rows.write({"url": "u0", "tags": [], "n": None})
    rows.write({"url": "u1", "tags": ["t"], "n": 7})
    rows.close()
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.column_names == ["url", "tags", "n"]
    assert table.to_pylist() == [{"url": "u0", "tags": [], "n": None}, {"url": "u1", "tags": ["t"], "n": 7}]
    with pytest.raises(ValueError, match="unknown column type 'text'"):
        ParquetRows(tmp_path / "bad.parquet", types={"a": "text"})


def test_parquet_rows_never_lose_a_row_group_to_a_value_no_column_holds(tmp_path: Path) -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    looped: list[Any] = [{"a": 1}]
    looped.append(looped)
    rows = ParquetRows(tmp_path / "rows.parquet", batch_size=10, types={"text": "string", "authors": "list<string>"})
    for row in [
        {"text": "ok", "authors": ["A"], "m": {"k": 1}},
        {"text": "lone \ud800 surrogate", "authors": ["x\udfff"], "m": cyclic},  # UTF-8 cannot hold them
        {"text": "tail", "authors": [], "m": {(1, 2): "tuple key"}},  # a key JSON cannot hold
        {"text": "last", "authors": None, "m": looped},
    ]:
        rows.write(row)
    rows.close()
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.to_pylist() == [
        {"text": "ok", "authors": ["A"], "m": '{"k": 1}'},
        {"text": None, "authors": None, "m": None},
        {"text": "tail", "authors": [], "m": None},
        {"text": "last", "authors": None, "m": None},
    ]
    assert rows.unfit_values == {"text": 1, "authors": 1, "m": 3} and rows.rows_written == 4


def test_parquet_feed_without_rows_or_columns_is_a_valid_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.parquet"
    with path.open("wb") as file:  # as Scrapy stores an empty feed (FEED_STORE_EMPTY): "[]" for JSON
        exporter = ParquetItemExporter(file)
        exporter.start_exporting()
        exporter.finish_exporting()
    table = pq.read_table(path)
    assert table.num_rows == 0 and table.column_names == []
    ParquetRows(tmp_path / "rows.parquet").close()
    assert pq.read_table(tmp_path / "rows.parquet").num_rows == 0


# --- the XML feed exporter (same module) ---------------------------------------------------


def test_xml_feed_is_well_formed_whatever_the_values_and_keys() -> None:
    import io
    from collections import Counter

    from lxml import etree

    from scrapy_cetd.crawl.exporters import XmlItemExporter

    class Stats(Counter[str]):
        def inc_value(self, key: str, count: int = 1) -> None:
            self[key] += count

    cyclic: dict[str, Any] = {"name": "loop"}
    cyclic["self"] = cyclic
    looped: list[Any] = ["x"]
    looped.append(looped)
    deep: list[Any] = []
    inner = deep
    for _ in range(1500):  # deeper than the recursion limit of a recursive writer
        inner.append([])
        inner = inner[0]
    out = io.BytesIO()
    exporter = XmlItemExporter(out)
    exporter.stats = stats = Stats()  # as from_crawler sets it
    exporter.start_exporting()
    exporter.export_item({
        "text": "a\x00b\x0bc\x0c\x1fd\ud800e\udfff\ufffe\uffff f\t\n\U0001f600",
        "a b": 1, "1st": 2, "x:y": 3, "": 4, "meta": {"k\x01": ["v\x02", None, 5]},
        "cyclic": cyclic, "looped": looped, "deep": deep,
    })
    exporter.finish_exporting()
    root = etree.fromstring(out.getvalue(), etree.XMLParser(huge_tree=True))
    item = root[0]
    assert [child.tag for child in item] == ["text", "a_b", "_1st", "x_y", "_", "meta", "cyclic", "looped", "deep"]
    assert item.findtext("text") == "a\ufffdb\ufffdc\ufffd\ufffdd\ufffde\ufffd\ufffd\ufffd f\t\n\U0001f600"
    assert [v.text for v in item.find("meta/k_")] == ["v\ufffd", "5"]
    assert item.findtext("cyclic/name") == "loop" and item.findtext("cyclic/self") == "[cyclic value]"
    assert [v.text for v in item.find("looped")] == ["x", "[cyclic value]"]
    assert len(list(item.find("deep").iter("value"))) == 1500
    assert stats == {"scrapy_cetd/errors/xml_value": 2}
