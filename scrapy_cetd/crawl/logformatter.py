"""A Scrapy log formatter that shortens long item fields in the per-item log lines.

Scrapy logs every scraped item whole at DEBUG ("Scraped from <200 ...>" followed by the
item). With scrapy-cetd each item carries its page's text and cleaned HTML, so that line
runs to tens of kilobytes per item. :class:`ShortItemLogFormatter` logs the same lines with every string or bytes value
longer than :attr:`~ShortItemLogFormatter.max_field_length` cut there and followed by its
full length, and long lists cut to their first entries; the items themselves are not
changed. The shortening happens only when a line is actually written, so it costs
nothing when DEBUG is off.

The add-on (:class:`scrapy_cetd.Addon`) sets it as ``LOG_FORMATTER`` at add-on priority,
so a ``LOG_FORMATTER`` set by the project, a spider or the command line wins; set
``LOG_FORMATTER = "scrapy.logformatter.LogFormatter"`` to log whole items again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.logformatter import LogFormatter

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.http import Response
    from scrapy.logformatter import LogFormatterResult
    from twisted.python.failure import Failure

__all__ = ["ShortItemLogFormatter"]

#: Nested dicts and lists deeper than this are shown as their (shortened) repr.
_MAX_DEPTH = 3


class _Cut:
    """Shows as the start of a long value and its full length (used inside a repr)."""

    def __init__(self, value: str | bytes, limit: int) -> None:
        self.head = value[:limit]
        self.length = len(value)
        self.unit = "characters" if isinstance(value, str) else "bytes"

    def __repr__(self) -> str:
        return f"{self.head!r}... ({self.length:,} {self.unit})"


class _More:
    """Stands for the entries left out of a long list or tuple."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __repr__(self) -> str:
        return f"... ({self.count:,} more)"


def _shorten(value: Any, limit: int, max_items: int, depth: int = 0) -> Any:
    if isinstance(value, (str, bytes)):
        return _Cut(value, limit) if len(value) > limit else value
    if depth >= _MAX_DEPTH:
        text = repr(value)
        return _Cut(text, limit) if len(text) > limit else value
    if isinstance(value, dict):
        return {key: _shorten(entry, limit, max_items, depth + 1) for key, entry in value.items()}
    if isinstance(value, (list, tuple)):
        kept: list[Any] = [_shorten(entry, limit, max_items, depth + 1) for entry in value[:max_items]]
        if len(value) > max_items:
            kept.append(_More(len(value) - max_items))
        return kept if isinstance(value, list) else tuple(kept)
    return value


class _ShortItem:
    """An item as it is logged: ``str()`` builds the shortened form, only when the line is written."""

    def __init__(self, item: Any, limit: int, max_items: int) -> None:
        self.item = item
        self.limit = limit
        self.max_items = max_items

    def __str__(self) -> str:
        item = self.item
        if not ItemAdapter.is_item(item):
            return repr(_shorten(str(item), self.limit, self.max_items))
        fields = _shorten(dict(ItemAdapter(item).items()), self.limit, self.max_items)
        return repr(fields) if isinstance(item, dict) else f"{type(item).__name__}({fields!r})"


class ShortItemLogFormatter(LogFormatter):
    """Scrapy's :class:`~scrapy.logformatter.LogFormatter` with long item fields shortened.

    Applies to the lines that show an item: ``scraped`` (DEBUG), ``dropped`` and
    ``item_error``. Levels and message templates are Scrapy's own.
    """

    #: Strings and bytes longer than this are cut to it, with their length shown.
    max_field_length = 200
    #: Lists and tuples longer than this show their first entries and how many more.
    max_list_items = 20

    def _short(self, result: LogFormatterResult) -> LogFormatterResult:
        args = result["args"]
        if isinstance(args, dict) and "item" in args:
            result["args"] = {**args, "item": _ShortItem(args["item"], self.max_field_length, self.max_list_items)}
        return result

    def scraped(self, item: Any, response: Response | Failure | None, spider: Spider) -> LogFormatterResult:
        return self._short(super().scraped(item, response, spider))

    def dropped(
        self, item: Any, exception: BaseException, response: Response | Failure | None, spider: Spider
    ) -> LogFormatterResult:
        return self._short(super().dropped(item, exception, response, spider))

    def item_error(
        self, item: Any, exception: BaseException, response: Response | Failure | None, spider: Spider
    ) -> LogFormatterResult:
        return self._short(super().item_error(item, exception, response, spider))
