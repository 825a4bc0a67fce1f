"""Feed output: :class:`ParquetItemExporter` is the Scrapy feed exporter for Parquet
(``FEEDS = {"corpus.parquet": {"format": "parquet"}}``, registered by the add-on; rows are
written by :class:`scrapy_cetd.parquet.ParquetRows`, needs pyarrow: ``pip install
'scrapy-cetd[parquet]'``), :class:`XmlItemExporter` Scrapy's XML exporter for any value, and
:class:`ItemByItemFileFeedStorage` local feed files written as each item is exported
(registered by the add-on for distributed crawls).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from scrapy.exporters import BaseItemExporter
from scrapy.exporters import XmlItemExporter as _ScrapyXmlItemExporter
from scrapy.extensions.feedexport import FileFeedStorage

from ..parquet import DEFAULT_BATCH_SIZE, OUTPUT_TYPES, ParquetRows

__all__ = [
    "FLAG_TYPE",
    "UNFIT_VALUE_STAT",
    "XML_VALUE_STAT",
    "ItemByItemFileFeedStorage",
    "ParquetItemExporter",
    "XmlItemExporter",
    "feed_types",
    "xml_name",
    "xml_text",
]

logger = logging.getLogger(__name__)


class ItemByItemFileFeedStorage(FileFeedStorage):
    """Scrapy's local file storage, unbuffered: each exported item is handed to the
    operating system at once (one ``write`` per item in JSON lines), so a process stopped
    at once (Ctrl-C twice, SIGKILL) leaves every item it exported in the file, each line
    whole.  A buffered file loses its last few kilobytes with the process: items already
    logged as scraped, whose requests a leasing frontier
    (:mod:`scrapy_cetd.cluster.frontier`) may have released.  The add-on registers it for
    ``file://`` and plain paths."""

    def open(self, spider: Any) -> BinaryIO:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        return Path(self.path).open(self.write_mode, buffering=0)


#: Stats key: values a Parquet feed wrote as null because they fit their column's type in no way.
UNFIT_VALUE_STAT = "scrapy_cetd/errors/parquet_value"
#: The pipeline's flag and error fields (``CETD_FLAG_FIELD``, ``CETD_ERROR_FIELD``) hold text.
FLAG_TYPE = "string"


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
