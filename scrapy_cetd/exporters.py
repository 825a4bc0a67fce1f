"""Feed output.  Parquet: :class:`ParquetRows` writes rows of dicts; :class:`ParquetItemExporter`
is the Scrapy feed exporter (``FEEDS = {"corpus.parquet": {"format": "parquet"}}``, registered
by the add-on).  Needs pyarrow: ``pip install 'scrapy-cetd[parquet]'``.
:class:`ItemByItemFileFeedStorage`: local feed files written as each item is exported
(registered by the add-on for distributed crawls).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from scrapy.extensions.feedexport import FileFeedStorage

__all__ = ["ItemByItemFileFeedStorage", "ParquetItemExporter", "ParquetRows", "require_pyarrow"]

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


def _cell(value: Any) -> Any:
    """Mappings, and lists holding them, become JSON text (one column type for any shape)."""
    if isinstance(value, dict) or (isinstance(value, (list, tuple)) and any(isinstance(v, dict) for v in value)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


class ParquetRows:
    """Rows (dicts) to one Parquet file, written in row groups of ``batch_size`` rows.

    The columns are ``fields`` if given, else the keys of the first batch in first-seen
    order; their types are inferred from the first batch (all-empty columns are text, and
    a text column stores later non-text values as JSON).  Keys first seen later are
    dropped, with one warning each.
    """

    def __init__(
        self, sink: str | Path | BinaryIO, fields: Sequence[str] | None = None, batch_size: int = 1000
    ) -> None:
        self._pq = require_pyarrow()
        self.sink = str(sink) if isinstance(sink, Path) else sink
        self.fields = list(fields) if fields else None
        self.batch_size = batch_size
        self.rows_written = 0
        self._batch: list[dict[str, Any]] = []
        self._writer: Any = None
        self._schema: Any = None
        self._dropped: set[str] = set()

    def write(self, row: dict[str, Any]) -> None:
        self._batch.append(row)
        if len(self._batch) >= self.batch_size:
            self._flush()

    def _infer_schema(self) -> Any:
        import pyarrow as pa

        names = self.fields
        if names is None:
            names = list(dict.fromkeys(key for row in self._batch for key in row))
        columns = []
        for name in names:
            values = [_cell(row.get(name)) for row in self._batch]
            kind = pa.array(values).type
            columns.append(pa.field(name, pa.string() if pa.types.is_null(kind) else kind))
        return pa.schema(columns)

    def _flush(self) -> None:
        import pyarrow as pa

        if self._schema is None:
            if not self._batch and self.fields is None:
                return
            self._schema = self._infer_schema()
            self._writer = self._pq.ParquetWriter(self.sink, self._schema)
        names = self._schema.names
        for row in self._batch:
            for key in row.keys() - set(names) - self._dropped:
                self._dropped.add(key)
                logger.warning("Parquet output: field %r first appears after the columns were fixed; dropped", key)
        arrays = []
        for column in self._schema:
            values = [_cell(row.get(column.name)) for row in self._batch]
            try:
                arrays.append(pa.array(values, type=column.type))
            except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
                if not pa.types.is_string(column.type):
                    raise ValueError(
                        f"Parquet output: a value of {column.name!r} does not fit the column's type "
                        f"{column.type}, set by the first rows ({exc})"
                    ) from None
                # A text column (e.g. empty in the first rows) that later gets lists or numbers: JSON text.
                arrays.append(pa.array([v if v is None or isinstance(v, str) else json.dumps(v, default=str)
                                        for v in values], type=column.type))
        self._writer.write_table(pa.Table.from_arrays(arrays, schema=self._schema))
        self.rows_written += len(self._batch)
        self._batch = []

    def close(self) -> None:
        """Write the last rows; a file with columns but no rows is still a valid Parquet file."""
        self._flush()
        if self._writer is not None:
            self._writer.close()


try:
    from scrapy.exporters import BaseItemExporter
except ImportError:  # the library without Scrapy: ParquetRows still works
    BaseItemExporter = object  # type: ignore[assignment,misc]


class ParquetItemExporter(BaseItemExporter):  # type: ignore[misc,valid-type]
    """Scrapy feed exporter writing Parquet; honours the feed's ``fields``.

    Items are buffered in row groups of ``batch_size`` (default 1000; set through the
    feed's ``item_export_kwargs``, as Scrapy passes exporter options); the columns' types
    come from the first row group.
    """

    def __init__(self, file: BinaryIO, **kwargs: Any) -> None:
        batch_size = kwargs.pop("batch_size", 1000)
        super().__init__(dont_fail=True, **kwargs)
        self.file = file
        fields = self.fields_to_export
        if isinstance(fields, dict):
            fields = list(fields.values())
        self.rows = ParquetRows(_KeepOpen(file), fields=fields, batch_size=batch_size)

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
