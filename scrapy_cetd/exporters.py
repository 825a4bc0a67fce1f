"""Feed output.  Parquet: :class:`ParquetRows` writes rows of dicts; :class:`ParquetItemExporter`
is the Scrapy feed exporter (``FEEDS = {"corpus.parquet": {"format": "parquet"}}``, registered
by the add-on).  Needs pyarrow: ``pip install 'scrapy-cetd[parquet]'``.
:class:`ItemByItemFileFeedStorage`: local feed files written as each item is exported
(registered by the add-on for distributed crawls).
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from scrapy.extensions.feedexport import FileFeedStorage

__all__ = [
    "OUTPUT_TYPES",
    "WARC_ITEM_TYPES",
    "ItemByItemFileFeedStorage",
    "ParquetItemExporter",
    "ParquetRows",
    "XmlItemExporter",
    "feed_types",
    "xml_name",
    "xml_text",
    "require_pyarrow",
]

logger = logging.getLogger(__name__)

PYARROW_MISSING = "Parquet output needs pyarrow, which is not installed: pip install 'scrapy-cetd[parquet]'"


def require_pyarrow() -> Any:
    """The ``pyarrow.parquet`` module, or ``RuntimeError`` saying how to install it."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise RuntimeError(PYARROW_MISSING) from None
    return pq


class ItemByItemFileFeedStorage(FileFeedStorage):
    """Scrapy's local file storage, unbuffered: each exported item is handed to the
    operating system at once (one ``write`` per item in JSON lines), so a process stopped
    at once (Ctrl-C twice, SIGKILL) leaves every item it exported in the file, each line
    whole.  A buffered file loses its last few kilobytes with the process: items already
    logged as scraped, whose requests a leasing frontier
    (:mod:`scrapy_cetd.redis_frontier`) may have released.  The add-on registers it for
    ``file://`` and plain paths."""

    def open(self, spider: Any) -> BinaryIO:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        return Path(self.path).open(self.write_mode, buffering=0)


#: Rows per Parquet row group (a feed's ``item_export_kwargs`` ``batch_size`` overrides it).
DEFAULT_BATCH_SIZE = 1000

#: The Parquet column type of each pipeline output (:data:`scrapy_cetd.settings.OUTPUTS`):
#: what the output is, whatever the first pages hold.  Text outputs (and ``fingerprint``, hex
#: digits) are strings; ``authors`` and ``tags`` lists of strings (``Metadata``'s
#: ``list[str]`` fields); ``diagnostics`` (a dict) is stored as JSON text.
OUTPUT_TYPES: dict[str, str] = {
    "text": "string", "html": "string", "title": "string", "diagnostics": "string", "algorithm": "string",
    "markdown": "string", "fingerprint": "string", "comments": "string", "url": "string",
    "authors": "list<string>", "date_published": "string", "date_modified": "string", "language": "string",
    "site_name": "string", "description": "string", "canonical_url": "string", "image": "string",
    "tags": "list<string>", "section": "string", "page_type": "string",
    "declared_page_type": "string",
}
#: The types of the fields ``scrapy-cetd warc`` writes around the outputs
#: (:data:`scrapy_cetd.warc.extract.ITEM_FIELDS` and ``reason``).
WARC_ITEM_TYPES: dict[str, str] = {
    "url": "string", "warc_record_id": "string", "warc_date": "string", "status": "int64", "reason": "string",
}
#: Stats key: values a Parquet feed wrote as null because they fit their column's type in no way.
UNFIT_VALUE_STAT = "scrapy_cetd/errors/parquet_value"
#: The pipeline's flag and error fields (``CETD_FLAG_FIELD``, ``CETD_ERROR_FIELD``) hold text.
FLAG_TYPE = "string"


def _arrow_type(spec: Any) -> Any:
    """A pyarrow type from a name of :data:`OUTPUT_TYPES` (or a pyarrow type, unchanged)."""
    import pyarrow as pa

    if not isinstance(spec, str):
        return spec
    named = {"string": pa.string(), "list<string>": pa.list_(pa.string()), "int64": pa.int64(),
             "float64": pa.float64(), "bool": pa.bool_()}
    if spec not in named:
        raise ValueError(f"Parquet output: unknown column type {spec!r}; use one of {', '.join(named)}")
    return named[spec]


def _without_nulls(kind: Any) -> Any:
    """An inferred type with its ``null`` parts (a column, or lists, empty in the first rows)
    made text: ``null`` -> ``string``, ``list<null>`` -> ``list<string>``."""
    import pyarrow as pa

    if pa.types.is_null(kind):
        return pa.string()
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return pa.list_(_without_nulls(kind.value_type))
    return kind


@functools.cache
def _arrow_errors() -> tuple[type[BaseException], ...]:
    """What pyarrow raises for a value that does not fit a type (imported when first needed)."""
    import pyarrow as pa

    return (pa.ArrowException, TypeError, ValueError, OverflowError)


#: A value JSON cannot hold (cyclic, keys that are not text or numbers, nested past the
#: recursion limit): no column type fits it, so it is written as null and counted.
class _NotJson:
    def __repr__(self) -> str:
        return "<a value JSON cannot hold: cyclic, or with keys that are not text or numbers>"


_NOT_JSON = _NotJson()


def _json(value: Any) -> Any:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return _NOT_JSON


def _cell(value: Any) -> Any:
    """Mappings, and lists holding them, become JSON text (one column type for any shape)."""
    if isinstance(value, dict) or (isinstance(value, (list, tuple)) and any(isinstance(v, dict) for v in value)):
        return _json(value)
    return value


def _json_text(value: Any) -> Any:
    return value if value is None or value is _NOT_JSON or isinstance(value, str) else _json(value)


class ParquetRows:
    """Rows (dicts) to one Parquet file, written in row groups of ``batch_size`` rows.

    The columns are ``fields`` if given (each once), else the keys of the first batch in
    first-seen order followed by the other names of ``types``.  A column's type is its entry
    in ``types`` (a name of :data:`OUTPUT_TYPES`, e.g. ``"list<string>"``, or a pyarrow
    type), else inferred from the first batch: a column, or lists, empty there are text
    (``list<string>`` for lists), and a column whose first values disagree is text.  A text
    column stores any other value as JSON text.  A value that fits its column's type in no
    way is written as null: its row is kept, the column logged once, counted in
    :attr:`unfit_values` and reported to ``on_unfit(column, count)``.  Keys neither in the
    columns nor in ``types`` that first appear after the first batch are dropped, with one
    warning each (a Parquet file cannot add a column).
    """

    def __init__(
        self,
        sink: str | Path | BinaryIO,
        fields: Sequence[str] | None = None,
        batch_size: int | None = None,
        types: Mapping[str, Any] | None = None,
        on_unfit: Callable[[str, int], None] | None = None,
    ) -> None:
        self._pq = require_pyarrow()
        self.sink = str(sink) if isinstance(sink, Path) else sink
        self.fields = list(dict.fromkeys(fields)) if fields else None
        self.batch_size = batch_size or DEFAULT_BATCH_SIZE
        self.types = {name: _arrow_type(spec) for name, spec in (types or {}).items()}
        self.on_unfit = on_unfit
        self.rows_written = 0
        #: Values written as null because they fit their column's type in no way, by column.
        self.unfit_values: Counter[str] = Counter()
        self._batch: list[dict[str, Any]] = []
        self._writer: Any = None
        self._schema: Any = None
        self._dropped: set[str] = set()

    def write(self, row: dict[str, Any]) -> None:
        self._batch.append(row)
        if len(self._batch) >= self.batch_size:
            self._flush()

    def _column_type(self, name: str) -> Any:
        import pyarrow as pa

        if name in self.types:
            return self.types[name]
        try:
            kind = pa.array([_cell(row.get(name)) for row in self._batch]).type
        except _arrow_errors():  # e.g. text in some rows, lists in others
            return pa.string()
        return _without_nulls(kind)

    def _make_schema(self) -> Any:
        import pyarrow as pa

        names = self.fields
        if names is None:
            names = list(dict.fromkeys([*(key for row in self._batch for key in row), *self.types]))
        return pa.schema([pa.field(name, self._column_type(name)) for name in names])

    def _array(self, column: Any, values: list[Any]) -> Any:
        """The column's values as an array of its type; values that do not fit are text
        (JSON) in a text column, else null, counted and logged once per column."""
        import pyarrow as pa

        try:
            return pa.array(values, type=column.type)
        except _arrow_errors():
            pass
        if pa.types.is_string(column.type):
            values = [_json_text(value) for value in values]
            try:
                return pa.array(values, type=column.type)
            except _arrow_errors():  # e.g. a lone surrogate, which UTF-8 cannot hold
                pass
        kept, unfit = [], []
        for value in values:
            try:
                if value is _NOT_JSON:
                    raise TypeError
                pa.array([value], type=column.type)
            except _arrow_errors():
                kept.append(None)
                unfit.append(value)
            else:
                kept.append(value)
        if column.name not in self.unfit_values:
            logger.error(
                "Parquet output: %d value(s) of %r do not fit the column's type %s (e.g. %.200r); "
                "written as null, the rows kept (logged once per column)",
                len(unfit), column.name, column.type, unfit[0],
            )
        self.unfit_values[column.name] += len(unfit)
        if self.on_unfit is not None:
            self.on_unfit(column.name, len(unfit))
        return pa.array(kept, type=column.type)

    def _flush(self) -> None:
        import pyarrow as pa

        if self._schema is None:
            if not self._batch and self.fields is None and not self.types:
                return
            self._schema = self._make_schema()
            self._writer = self._pq.ParquetWriter(self.sink, self._schema)
        names = self._schema.names
        for row in self._batch:
            for key in row.keys() - set(names) - self._dropped:
                self._dropped.add(key)
                logger.warning("Parquet output: field %r first appears after the columns were fixed; dropped", key)
        batch, self._batch = self._batch, []
        arrays = [self._array(column, [_cell(row.get(column.name)) for row in batch]) for column in self._schema]
        self._writer.write_table(pa.Table.from_arrays(arrays, schema=self._schema))
        self.rows_written += len(batch)

    def close(self) -> None:
        """Write the last rows; a file with columns but no rows, or none (no rows, no
        ``fields``, no ``types``), is still a valid Parquet file, as an empty JSON feed is ``[]``."""
        self._flush()
        if self._writer is None:
            import pyarrow as pa

            self._writer = self._pq.ParquetWriter(self.sink, pa.schema([]))
        self._writer.close()


try:
    from scrapy.exporters import BaseItemExporter
    from scrapy.exporters import XmlItemExporter as _ScrapyXmlItemExporter
except ImportError:  # the library without Scrapy: ParquetRows still works
    BaseItemExporter = _ScrapyXmlItemExporter = object  # type: ignore[assignment,misc]


def feed_types(crawler: Any) -> dict[str, str]:
    """The column types of the item fields the crawl's content pipeline writes
    (``CETD_OUTPUT_FIELDS``, ``CETD_FLAG_FIELD``, ``CETD_ERROR_FIELD``); none when the
    pipeline is off or its settings are invalid (the pipeline reports them)."""
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.misc import load_object

    from .pipelines import ContentExtractionPipeline
    from .settings import CetdConfig, InvalidSetting

    settings = crawler.settings
    paths = build_component_list(settings.get_component_priority_dict_with_base("ITEM_PIPELINES"))
    if not any(load_object(path) is ContentExtractionPipeline for path in paths):
        return {}
    try:
        config = CetdConfig.from_settings(settings)
    except InvalidSetting:
        return {}
    if not config.enabled:
        return {}
    types = {field: OUTPUT_TYPES[output] for output, field in config.output_fields.items()}
    for name in (config.flag_field, config.error_field):
        if name:
            types[name] = FLAG_TYPE
    return types


#: Stats key: values an XML feed could not write as they are (a value holding itself).
XML_VALUE_STAT = "scrapy_cetd/errors/xml_value"
#: What an XML feed writes for a value met again inside itself (a cyclic dict or list).
CYCLE_TEXT = "[cyclic value]"
#: Characters XML 1.0 cannot hold (``Char``, section 2.2): C0 controls but tab, line feed and
#: carriage return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NAME_START = (
    "A-Z_a-z\xc0-\xd6\xd8-\xf6\xf8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
#: Characters that cannot be in an element name (XML 1.0 ``NameChar``, without the colon:
#: namespace-aware readers take it as an undeclared prefix).
_NOT_NAME_CHAR = re.compile(f"[^{_NAME_START}\\-.0-9\xb7\u0300-\u036f\u203f-\u2040]")
_NAME_START_CHAR = re.compile(f"[{_NAME_START}]")
_END = object()  # marks a container's end on the XML exporter's stack


def xml_text(text: str) -> str:
    """``text`` with each character XML 1.0 cannot hold replaced by U+FFFD."""
    return _NOT_XML_CHAR.sub("\ufffd", text)


def xml_name(key: Any) -> str:
    """An element name for a key: each character a name cannot hold (a space, a colon, ...)
    replaced by ``_``, and ``_`` put first when the name cannot start with its first character."""
    name = _NOT_NAME_CHAR.sub("_", str(key))
    return name if _NAME_START_CHAR.match(name) else "_" + name


class XmlItemExporter(_ScrapyXmlItemExporter):  # type: ignore[misc,valid-type]
    """Scrapy's XML feed exporter, always writing well-formed XML.  Registered by the add-on
    for ``xml`` feeds.  Unlike Scrapy's:

    * ``None`` is an absent element: Scrapy's writes ``str(None)``, so a missing date became
      ``<date_published>None</date_published>``, a text no reader can tell from the word.
    * Characters XML 1.0 cannot hold (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, lone
      surrogates U+D800-U+DFFF, U+FFFE, U+FFFF) are replaced by U+FFFD (:func:`xml_text`).
    * A key that is not an XML name becomes one (:func:`xml_name`: ``"a b"`` -> ``a_b``,
      ``"1st"`` -> ``_1st``).
    * A dict or list met again inside itself is written as :data:`CYCLE_TEXT`, logged and
      counted (``scrapy_cetd/errors/xml_value``); nesting of any depth is written without
      recursion.
    """

    def __init__(self, file: BinaryIO, *, stats: Any = None, **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Any, file: BinaryIO, *args: Any, **kwargs: Any) -> XmlItemExporter:
        return cls(file, *args, stats=crawler.stats, **kwargs)

    def _export_xml_field(self, name: str, serialized_value: Any, depth: int) -> None:
        from xml.sax.xmlreader import AttributesImpl

        from scrapy.utils.python import is_listlike

        open_values: set[int] = set()  # the containers being written: a value among them is a cycle
        todo: list[tuple[Any, ...]] = [(name, serialized_value, depth)]
        while todo:
            entry = todo.pop()
            if entry[0] is _END:  # a container's end
                _, name, depth, ident = entry
                open_values.discard(ident)
                self._beautify_indent(depth=depth)
                self.xg.endElement(name)
                self._beautify_newline()
                continue
            name, value, depth = entry
            if value is None:
                continue
            name = xml_name(name)
            mapping = hasattr(value, "items")
            container = mapping or is_listlike(value)
            if container and id(value) in open_values:
                logger.error("XML feed: %r holds itself; written as %r", name, CYCLE_TEXT)
                if self.stats is not None:
                    self.stats.inc_value(XML_VALUE_STAT)
                value, container = CYCLE_TEXT, False
            self._beautify_indent(depth=depth)
            self.xg.startElement(name, AttributesImpl({}))
            if container:
                self._beautify_newline()
                children = list(value.items()) if mapping else [("value", child) for child in value]
                open_values.add(id(value))
                todo.append((_END, name, depth, id(value)))
                todo.extend((key, child, depth + 1) for key, child in reversed(children))
                continue
            self.xg.characters(xml_text(value if isinstance(value, str) else str(value)))
            self.xg.endElement(name)
            self._beautify_newline()


class ParquetItemExporter(BaseItemExporter):  # type: ignore[misc,valid-type]
    """Scrapy feed exporter writing Parquet; honours the feed's ``fields``.

    Items are buffered in row groups of ``batch_size`` (default 1000; set through the
    feed's ``item_export_kwargs``, as Scrapy passes exporter options).  Built by a crawl,
    the fields the content pipeline writes have their outputs' types (:func:`feed_types`),
    and its flag and error fields are columns even when the first row group has none;
    other fields' types come from the first row group.  A value that fits its column in no
    way is written as null and counted (``scrapy_cetd/errors/parquet_value``).
    """

    def __init__(
        self, file: BinaryIO, *, types: Mapping[str, Any] | None = None, stats: Any = None, **kwargs: Any
    ) -> None:
        batch_size = kwargs.pop("batch_size", DEFAULT_BATCH_SIZE)
        super().__init__(dont_fail=True, **kwargs)
        self.file = file
        self.stats = stats
        fields = self.fields_to_export
        types = dict(types or {})
        if isinstance(fields, dict):  # item field -> column name
            types = {fields.get(name, name): kind for name, kind in types.items()}
            fields = list(fields.values())
        if fields:  # only the feed's columns
            types = {name: kind for name, kind in types.items() if name in fields}
        self.rows = ParquetRows(_KeepOpen(file), fields=fields, batch_size=batch_size, types=types,
                                on_unfit=self._count_unfit)

    @classmethod
    def from_crawler(cls, crawler: Any, file: BinaryIO, *args: Any, **kwargs: Any) -> ParquetItemExporter:
        return cls(file, *args, types=feed_types(crawler), stats=crawler.stats, **kwargs)

    def _count_unfit(self, column: str, count: int) -> None:
        if self.stats is not None:
            self.stats.inc_value(UNFIT_VALUE_STAT, count)

    def export_item(self, item: Any) -> None:
        self.rows.write(dict(self.get_serialized_fields(item, default_value=None, include_empty=True)))

    def finish_exporting(self) -> None:
        self.rows.close()


class _KeepOpen:
    """The feed's file for pyarrow, which closes what it writes to; the feed storage closes it."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self.closed = False

    def write(self, data: bytes) -> int:
        return self._file.write(data)

    def flush(self) -> None:
        self._file.flush()

    def tell(self) -> int:
        return self._file.tell()

    def close(self) -> None:
        self.flush()
        self.closed = True
