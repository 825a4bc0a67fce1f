"""Rows of extraction outputs to Parquet files (:class:`ParquetRows`), with the column type
of each output; used by the crawl's Parquet feed exporter (:mod:`scrapy_cetd.crawl.exporters`)
and by ``scrapy-cetd warc``.  Needs pyarrow: ``pip install 'scrapy-cetd[parquet]'``.
"""

from __future__ import annotations

import functools
import json
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["DEFAULT_BATCH_SIZE", "OUTPUT_TYPES", "WARC_ITEM_TYPES", "ParquetRows", "require_pyarrow"]

logger = logging.getLogger(__name__)

PYARROW_MISSING = "Parquet output needs pyarrow, which is not installed: pip install 'scrapy-cetd[parquet]'"


def require_pyarrow() -> Any:
    """The ``pyarrow.parquet`` module, or ``RuntimeError`` saying how to install it."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise RuntimeError(PYARROW_MISSING) from None
    return pq


#: Rows per Parquet row group (a feed's ``item_export_kwargs`` ``batch_size`` overrides it).
DEFAULT_BATCH_SIZE = 1000

#: The Parquet column type of each pipeline output (:data:`scrapy_cetd.outputs.OUTPUTS`):
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
