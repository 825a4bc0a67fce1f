"""The ``CETD_*`` Scrapy settings and the per-request ``cetd_*`` meta keys, read and validated once.

:data:`DEFAULTS` holds every setting with its default, the one place a default is written;
docs/scrapy.md is the reference (a test checks it against :data:`DEFAULTS`).  This module
imports nothing from Scrapy at module level.  Every invalid value raises
:class:`InvalidSetting` whose message starts with the setting (or meta key) at fault, e.g.
``CETD_ALGORITHM: unknown algorithm 'x'; ...``.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import importlib.util
import json
import logging
import math
import os
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..api import DEFAULT_ALGORITHM
from ..limits import DEFAULT_MAX_ELEMENTS, DEFAULT_MAX_SIZE
from ..outputs import METADATA_OUTPUTS, OUTPUTS
from ..registry import get_algorithm

__all__ = [
    "DEFAULTS",
    "DEFAULT_OUTPUT_FIELDS",
    "DEFAULT_TIMEOUT",
    "DEFAULT_WORKERS",
    "KNOWN_SETTINGS",
    "MAX_DISTANCE",
    "MAX_WORKERS",
    "META_KEYS",
    "STATS_PREFIX",
    "CetdConfig",
    "ExtractionOptions",
    "InvalidSetting",
    "ServiceUnreachable",
    "check_crawl_settings",
    "choice_setting",
    "count_setting",
    "duplicate_settings",
    "field_setting",
    "invalid_setting_reported",
    "read_setting",
    "seconds_setting",
    "uses_scrapy_redis",
]

#: Every ``CETD_*`` setting and its default (docs/scrapy.md says what each does).
DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "CETD_ENABLED": True,
    "CETD_ALGORITHM": DEFAULT_ALGORITHM,
    "CETD_THRESHOLD_COEFFICIENT": None,  # the algorithm's own
    "CETD_PARAMS": MappingProxyType({}),
    # A news corpus's fields.  The cleaned HTML is not among them: it doubles an item's size
    # and its rendering time, and a corpus reads the text (map ``html`` to add it).
    "CETD_OUTPUT_FIELDS": MappingProxyType({
        "url": "url",
        "title": "title",
        "text": "text",
        "authors": "authors",
        "date_published": "date_published",
        "language": "language",
        "canonical_url": "canonical_url",
    }),
    "CETD_MIN_TEXT_LENGTH": 0,
    "CETD_ON_SHORT_TEXT": "flag",
    "CETD_ON_ERROR": "keep",
    "CETD_FLAG_FIELD": "cetd_flag",
    "CETD_ERROR_FIELD": "cetd_error",
    "CETD_SOURCE_FIELD": "raw_html",
    "CETD_ITEM_CLASSES": (),  # every item
    "CETD_MAX_SIZE": DEFAULT_MAX_SIZE,
    # Extraction runs in this many worker processes by default (at most one per core), off the
    # reactor thread: the best measured on real-world pages (example_project/benchmark.py).
    "CETD_WORKERS": 2,
    "CETD_TIMEOUT": 10.0,  # seconds one page may take in a worker (docs/operating.md)
    "CETD_MAX_ELEMENTS": DEFAULT_MAX_ELEMENTS,
    "CETD_WARC_PATH": None,
    "CETD_WARC_MAX_SIZE": 1024**3,
    "CETD_ON_DUPLICATE": "keep",
    # On the dev pages (benchmarks/duplicate_distance.py, docs/scaling.md), a copy with another
    # site's chrome is within 3 bits for 80% of pages (68% exact; up to 8 bits: 93%), while of
    # 279,378 pairs of distinct pages one pair is within 12 bits (2 bits apart).  A larger k
    # catches more copies but compares more candidates per lookup (blocks of 64 / (k + 1)
    # bits); 3 is Manku et al.'s k.
    "CETD_DUPLICATE_DISTANCE": 3,
    "CETD_DUPLICATES_STORE": None,  # "redis" on a scrapy-redis crawl, else "memory"
    "CETD_DUPLICATES_KEY": "%(spider)s:stories",
    "CETD_DUPLICATE_OF_FIELD": "duplicate_of",
    "CETD_LEASE_SECONDS": 30.0,
    "CETD_REDIS_LOST_CLOSE": 60.0,
    "CETD_PAGE_TYPES": (),  # every type
    "CETD_HTMLDATE": False,
    "CETD_ON_OTHER_PAGE_TYPE": "drop",
})
#: Every ``CETD_*`` setting: another ``CETD_*`` name is a misspelling, and the crawl warns
#: about it at start.
KNOWN_SETTINGS = frozenset(DEFAULTS)
DEFAULT_OUTPUT_FIELDS: Mapping[str, str] = DEFAULTS["CETD_OUTPUT_FIELDS"]
_FIELDS_EXAMPLE = '{"text": "text", "title": "title"}'
#: ``CETD_WORKERS``'s default on this machine: one on a single core.
DEFAULT_WORKERS = min(DEFAULTS["CETD_WORKERS"], os.cpu_count() or 1)
#: More worker processes than this is a mistake (each holds a parsed page in memory).
MAX_WORKERS = 64
DEFAULT_TIMEOUT: float = DEFAULTS["CETD_TIMEOUT"]
#: ``CETD_DUPLICATE_DISTANCE`` at most: eight blocks of 8 bits; beyond this a lookup
#: compares most of the seen fingerprints.
MAX_DISTANCE = 7

#: Per-request overrides read from ``request.meta``.
META_KEYS = ("cetd_enabled", "cetd_algorithm", "cetd_threshold_coefficient", "cetd_params", "cetd_min_text_length")
#: The prefix of every stats key the crawl's components write (docs/scrapy.md#stats).
STATS_PREFIX = "scrapy_cetd"


logger = logging.getLogger(__name__)


class InvalidSetting(ValueError):
    """A ``CETD_*`` setting or ``cetd_*`` meta key has an invalid value; the message names it."""

    #: What the one log line says before the message when this error ends a crawl's start.
    headline = "Crawl not started, invalid setting"


class ServiceUnreachable(InvalidSetting):
    """A setting names a server that does not answer (``REDIS_URL``); the message names the
    setting, the server and the error."""

    headline = "Crawl not started"


@contextlib.contextmanager
def invalid_setting_reported() -> Iterator[None]:
    """Around building a Scrapy component: an :class:`InvalidSetting` raised inside is
    logged as one line naming the setting if it ends the crawl being started (see
    :func:`_report_if_it_ends_the_crawl`), and raised on."""
    try:
        yield
    except InvalidSetting as error:
        _report_if_it_ends_the_crawl(error)
        raise


def _in_chain(exception: BaseException, cause: BaseException) -> bool:
    """Whether ``cause`` is ``exception`` or what it was raised from or while handling (a
    scheduler's error ends the crawl as Scrapy's "Engine slot not assigned")."""
    seen: set[int] = set()
    current: BaseException | None = exception
    while current is not None and id(current) not in seen:
        if current is cause:
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _report_if_it_ends_the_crawl(error: InvalidSetting) -> None:
    """Log ``error`` as one line if it ends the crawl being started.

    ``scrapy crawl`` starts each crawl as an asyncio task; an exception raised while its
    components are built ends the task, and asyncio logs it as "Task exception was never
    retrieved" followed by ~35 lines of traceback, the message last.  Retrieving the
    exception here, when the task is done, silences that; Scrapy still marks the start as
    failed (``bootstrap_failed``), so ``scrapy crawl`` exits with status 1.  Without a running
    task (a script driving ``CrawlerProcess`` through Deferreds) the caller gets the error.
    """
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running event loop
        return
    if task is None:
        return

    def report(done: asyncio.Task[Any]) -> None:
        if done.cancelled():
            return
        ended_by = done.exception()  # retrieved: asyncio no longer logs it, so it is logged here
        if ended_by is None:
            return
        if _in_chain(ended_by, error):
            logger.error("%s: %s", error.headline, error)
        else:
            logger.error("Crawl failed", exc_info=ended_by)

    task.add_done_callback(report)


@dataclass(frozen=True)
class ExtractionOptions:
    """Validated options for one extraction; hashable, so results can be cached per page."""

    algorithm: str
    threshold_coefficient: float
    params: tuple[tuple[str, Any], ...]
    min_text_length: int
    diagnostics: bool
    #: Render the cleaned HTML (only when an item field receives it).
    html: bool = True
    #: Render Markdown (only when an item field receives it).
    markdown: bool = False
    #: Read the article metadata (when ``title`` or a metadata output is written).
    metadata: bool = True
    #: Find the comment section (only when an item field receives it).
    comments: bool = False
    #: Ask htmldate for the publish date where the metadata's own sources find none.
    htmldate: bool = False
    #: Classify the page's type (for ``CETD_PAGE_TYPES`` or a ``page_type`` output).
    page_type: bool = True

    def keywords(self) -> dict[str, Any]:
        """Keyword arguments for :func:`scrapy_cetd.extract_tree`."""
        return {
            "algorithm": self.algorithm,
            "threshold_coefficient": self.threshold_coefficient,
            "diagnostics": self.diagnostics,
            "with_html": self.html,
            "with_markdown": self.markdown,
            "with_metadata": self.metadata,
            "with_comments": self.comments,
            "with_htmldate": self.htmldate,
            "with_page_type": self.page_type,
            **dict(self.params),
        }


def _htmldate(wanted: bool) -> bool:
    """``CETD_HTMLDATE``, checked: htmldate must be installed (the ``metadata`` extra)."""
    if wanted and importlib.util.find_spec("htmldate") is None:
        raise InvalidSetting("CETD_HTMLDATE: htmldate is not installed; pip install 'scrapy-cetd[metadata]'")
    return wanted


def _algorithm(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidSetting(f"{name}: expected an algorithm name, got {value!r}")
    try:
        get_algorithm(value)
    except ValueError as exc:
        raise InvalidSetting(f"{name}: {exc}") from None
    return value


def _resolve(
    algorithm: str, coefficient: Any, params: Any, coefficient_name: str, params_name: str
) -> tuple[float, tuple[tuple[str, Any], ...]]:
    spec = get_algorithm(algorithm)
    if coefficient is not None:
        if isinstance(coefficient, bool):
            raise InvalidSetting(f"{coefficient_name}: expected a number, got {coefficient!r}")
        try:
            coefficient = float(coefficient)
        except (TypeError, ValueError):
            raise InvalidSetting(f"{coefficient_name}: expected a number, got {coefficient!r}") from None
    try:
        resolved_coefficient, _ = spec.resolve(coefficient, {})
    except ValueError as exc:
        raise InvalidSetting(f"{coefficient_name}: {exc}") from None
    if not isinstance(params, Mapping):
        raise InvalidSetting(f"{params_name}: expected a dict of algorithm parameters, got {params!r}")
    try:
        _, resolved = spec.resolve(resolved_coefficient, dict(params))
    except ValueError as exc:
        raise InvalidSetting(f"{params_name}: {exc}") from None
    return resolved_coefficient, tuple(sorted(resolved.items()))


def count_setting(name: str, value: Any) -> int:
    """A whole number >= 0: an ``int`` as it is (past a float's range too), else a finite
    float or string of one ("1e3"); NaN and infinity refused with the rest."""
    if isinstance(value, bool):
        raise InvalidSetting(f"{name}: expected a whole number >= 0, got {value!r}")
    try:
        number = value if isinstance(value, int) else float(value)
    except (TypeError, ValueError):
        raise InvalidSetting(f"{name}: expected a whole number >= 0, got {value!r}") from None
    if not 0 <= number < math.inf or number != int(number):
        raise InvalidSetting(f"{name}: expected a whole number >= 0, got {value!r}")
    return int(number)


def _workers(value: Any) -> int:
    workers = count_setting("CETD_WORKERS", value)
    if workers > MAX_WORKERS:
        raise InvalidSetting(f"CETD_WORKERS: expected at most {MAX_WORKERS} worker processes, got {value!r}")
    return workers


def _timeout(value: Any) -> float | None:
    """``CETD_TIMEOUT``: seconds (> 0) per page in a worker; ``0`` or ``None``: no limit."""
    if value is None:
        return None
    return seconds_setting("CETD_TIMEOUT", value, zero="no limit") or None


def seconds_setting(name: str, value: Any, zero: str | None = "off") -> float:
    """A duration setting: seconds, a finite number >= 0 (``0`` means ``zero``; with ``zero``
    ``None``, a number > 0).  Infinity is refused: the waits that take these durations
    cannot (``wait(..., inf)`` raises ``OverflowError``)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not 0 <= number < math.inf or (zero is None and number == 0):
        expected = "a number > 0" if zero is None else f"a number >= 0, 0 for {zero}"
        raise InvalidSetting(f"{name}: expected seconds ({expected}), got {value!r}")
    return number


#: Crawlers whose settings :func:`check_crawl_settings` has looked at (once per crawl).
_checked_crawlers: weakref.WeakSet[Any] = weakref.WeakSet()


def check_crawl_settings(crawler: Any) -> None:
    """Once per crawl, at start: one warning per ``CETD_*`` name that is no setting (naming
    the closest one: Scrapy ignores unknown settings, so a misspelling would go unnoticed),
    and one if a distributed crawl would delete its shared frontier (``SCHEDULER_PERSIST``)."""
    if crawler in _checked_crawlers:
        return
    _checked_crawlers.add(crawler)
    settings = crawler.settings
    for name in sorted(key for key in settings if isinstance(key, str) and key.upper().startswith("CETD_")):
        if name in KNOWN_SETTINGS:
            continue
        # Compared without the prefix every name shares: a name like no setting gets no suggestion.
        close = difflib.get_close_matches(name.upper()[5:], sorted(known[5:] for known in KNOWN_SETTINGS), n=1)
        hint = f"did you mean CETD_{close[0]}?" if close else "the CETD_* settings are listed in docs/scrapy.md"
        logger.warning("Unknown setting %s (ignored): %s", name, hint)
    if uses_scrapy_redis(settings) and not settings.getbool("SCHEDULER_PERSIST"):
        logger.warning(
            "SCHEDULER_PERSIST is off: the first worker to finish deletes the Redis queue and seen requests "
            "that the other workers share; set SCHEDULER_PERSIST = True for a crawl with several workers"
        )


def uses_scrapy_redis(settings: Any) -> bool:
    """Whether the crawl's ``SCHEDULER`` is scrapy-redis's or derives from it (a
    distributed crawl; :class:`~scrapy_cetd.cluster.frontier.LeasingScheduler` does)."""
    scheduler = settings.get("SCHEDULER")
    if isinstance(scheduler, str):
        if scheduler.startswith("scrapy_redis."):
            return True
        from scrapy.utils.misc import load_object

        try:
            scheduler = load_object(scheduler)
        except (ImportError, NameError, ValueError):
            return False  # Scrapy reports a scheduler it cannot load
    try:
        from scrapy_redis.scheduler import Scheduler
    except ImportError:
        return False
    return isinstance(scheduler, type) and issubclass(scheduler, Scheduler)


def choice_setting(name: str, value: Any, choices: tuple[str, ...]) -> str:
    """One of ``choices``."""
    if value not in choices:
        raise InvalidSetting(f"{name}: expected one of {', '.join(map(repr, choices))}, got {value!r}")
    return str(value)


def _page_types(values: list[Any]) -> tuple[str, ...]:
    """``CETD_PAGE_TYPES``: page types of :data:`scrapy_cetd.metadata.page_type.PAGE_TYPES`."""
    from ..metadata.page_type import PAGE_TYPES

    for value in values:
        if value not in PAGE_TYPES:
            raise InvalidSetting(f"CETD_PAGE_TYPES: unknown page type {value!r}; choose from {', '.join(PAGE_TYPES)}")
    return tuple(dict.fromkeys(values))


def field_setting(name: str, value: Any) -> str | None:
    """An item field name; ``None`` or ``""`` switches the output off."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidSetting(f"{name}: expected an item field name (a string), got {value!r}")
    return value


def _distinct_fields(output_fields: Mapping[str, str], own_fields: Mapping[str, str | None]) -> None:
    """The flag and error fields are item fields of their own: one that an output also
    writes would be overwritten (``CETD_FLAG_FIELD = "text"`` gave ``{"text": "non_html"}``)."""
    taken = {field: f"CETD_OUTPUT_FIELDS[{output!r}]" for output, field in output_fields.items()}
    for name, field in own_fields.items():
        if field is None:
            continue
        if field in taken:
            raise InvalidSetting(f"{name}: {field!r} is already the item field of {taken[field]}")
        taken[field] = name


def _item_classes(values: list[Any]) -> tuple[type, ...]:
    """``CETD_ITEM_CLASSES``: classes, or their import paths (``"myproject.items.ArticleItem"``;
    ``"dict"`` for dict items)."""
    from scrapy.utils.misc import load_object

    classes = []
    for value in values:
        try:
            if value == "dict":  # plain dict items, the one class without an import path
                loaded = dict
            else:
                loaded = load_object(value) if isinstance(value, str) else value
        except (ImportError, NameError, ValueError) as exc:
            raise InvalidSetting(f"CETD_ITEM_CLASSES: cannot import {value!r}: {exc}") from None
        if not isinstance(loaded, type):
            raise InvalidSetting(f"CETD_ITEM_CLASSES: expected item classes or their import paths, got {value!r}")
        classes.append(loaded)
    return tuple(classes)


def read_setting(settings: Any, name: str, getter: str = "get") -> Any:
    """Read with a typed getter (its default from :data:`DEFAULTS`), renaming its error so it
    names the setting."""
    default = DEFAULTS[name]
    if settings.get(name) is None:
        return default
    try:
        return getattr(settings, getter)(name, default)
    except (TypeError, ValueError) as exc:
        raise InvalidSetting(f"{name}: {exc}") from None


def duplicate_settings(settings: Any) -> tuple[str, int, str]:
    """The duplicate-story settings, checked: ``CETD_ON_DUPLICATE``, ``CETD_DUPLICATE_DISTANCE``
    and the store (``CETD_DUPLICATES_STORE``, else Redis on a scrapy-redis crawl).  They are
    checked even while the policy is ``keep`` (their pipeline is then not built): a bad value
    is found before it is used."""
    policy = choice_setting("CETD_ON_DUPLICATE", read_setting(settings, "CETD_ON_DUPLICATE"), ("keep", "flag", "drop"))
    distance = count_setting("CETD_DUPLICATE_DISTANCE", read_setting(settings, "CETD_DUPLICATE_DISTANCE"))
    if distance > MAX_DISTANCE:
        raise InvalidSetting(f"CETD_DUPLICATE_DISTANCE: expected 0 to {MAX_DISTANCE}, got {distance}")
    store = settings.get("CETD_DUPLICATES_STORE") or ("redis" if uses_scrapy_redis(settings) else "memory")
    return policy, distance, choice_setting("CETD_DUPLICATES_STORE", store, ("memory", "redis"))


@dataclass(frozen=True)
class CetdConfig:
    """All ``CETD_*`` settings of a crawler, validated; see the module docstring for the table."""

    enabled: bool
    options: ExtractionOptions
    output_fields: Mapping[str, str]
    on_short_text: str
    on_error: str
    flag_field: str | None
    error_field: str | None
    source_field: str | None
    max_size: int
    workers: int
    timeout: float | None = DEFAULT_TIMEOUT
    max_elements: int = 0
    item_classes: tuple[type, ...] = ()
    #: The page types kept (``CETD_PAGE_TYPES``; empty: every type), and what becomes of
    #: an item of another type (``CETD_ON_OTHER_PAGE_TYPE``).
    page_types: tuple[str, ...] = ()
    on_other_page_type: str = "drop"

    def fills(self, item: Any) -> bool:
        """Whether ``item`` gets the page's content (``CETD_ITEM_CLASSES``; empty: every item)."""
        return not self.item_classes or isinstance(item, self.item_classes)

    @classmethod
    def from_crawler(cls, crawler: Any) -> CetdConfig:
        """:meth:`from_settings` for a component being built; an invalid setting that ends
        the crawl is logged as one line naming it (no traceback), and the crawl fails."""
        with invalid_setting_reported():
            config = cls.from_settings(crawler.settings)
        check_crawl_settings(crawler)
        return config

    @classmethod
    def from_settings(cls, settings: Any) -> CetdConfig:
        """Validate a Scrapy :class:`~scrapy.settings.Settings` object (typed getters only)."""
        enabled = read_setting(settings, "CETD_ENABLED", "getbool")
        algorithm = _algorithm("CETD_ALGORITHM", read_setting(settings, "CETD_ALGORITHM"))
        coefficient, params = _resolve(
            algorithm,
            settings.get("CETD_THRESHOLD_COEFFICIENT"),
            read_setting(settings, "CETD_PARAMS", "getdict"),
            "CETD_THRESHOLD_COEFFICIENT",
            "CETD_PARAMS",
        )
        raw_fields = settings.get("CETD_OUTPUT_FIELDS")
        if isinstance(raw_fields, str):  # JSON from the command line
            with contextlib.suppress(ValueError):
                raw_fields = json.loads(raw_fields)
        if raw_fields is not None and not isinstance(raw_fields, (Mapping, str)):
            cls._output_fields(raw_fields)  # not a dict: raises, saying what the setting expects
        try:
            output_fields = cls._output_fields(read_setting(settings, "CETD_OUTPUT_FIELDS", "getdict"))
        except InvalidSetting as exc:
            if "expected a dict" in str(exc):
                raise
            raise InvalidSetting(f"{exc}; expected a dict of output -> item field, e.g. {_FIELDS_EXAMPLE}") from None
        min_text_length = count_setting("CETD_MIN_TEXT_LENGTH", read_setting(settings, "CETD_MIN_TEXT_LENGTH"))
        flag_field = field_setting("CETD_FLAG_FIELD", read_setting(settings, "CETD_FLAG_FIELD"))
        error_field = field_setting("CETD_ERROR_FIELD", read_setting(settings, "CETD_ERROR_FIELD"))
        _distinct_fields(output_fields, {"CETD_FLAG_FIELD": flag_field, "CETD_ERROR_FIELD": error_field})
        duplicate_settings(settings)
        page_types = _page_types(read_setting(settings, "CETD_PAGE_TYPES", "getlist"))
        return cls(
            enabled=enabled,
            options=ExtractionOptions(
                algorithm,
                coefficient,
                params,
                min_text_length,
                diagnostics="diagnostics" in output_fields,
                html="html" in output_fields,
                markdown="markdown" in output_fields,
                metadata=bool(page_types) or any(o == "title" or o in METADATA_OUTPUTS for o in output_fields),
                comments="comments" in output_fields,
                htmldate=_htmldate(read_setting(settings, "CETD_HTMLDATE", "getbool")),
                page_type=bool(page_types) or "page_type" in output_fields,
            ),
            output_fields=output_fields,
            on_short_text=choice_setting(
                "CETD_ON_SHORT_TEXT", read_setting(settings, "CETD_ON_SHORT_TEXT"), ("flag", "drop")
            ),
            on_error=choice_setting("CETD_ON_ERROR", read_setting(settings, "CETD_ON_ERROR"), ("keep", "drop")),
            flag_field=flag_field,
            error_field=error_field,
            source_field=field_setting("CETD_SOURCE_FIELD", read_setting(settings, "CETD_SOURCE_FIELD")),
            max_size=count_setting("CETD_MAX_SIZE", read_setting(settings, "CETD_MAX_SIZE")),
            workers=_workers(
                DEFAULT_WORKERS if settings.get("CETD_WORKERS") is None else read_setting(settings, "CETD_WORKERS")
            ),
            timeout=_timeout(read_setting(settings, "CETD_TIMEOUT")),
            max_elements=count_setting("CETD_MAX_ELEMENTS", read_setting(settings, "CETD_MAX_ELEMENTS")),
            item_classes=_item_classes(read_setting(settings, "CETD_ITEM_CLASSES", "getlist")),
            page_types=page_types,
            on_other_page_type=choice_setting(
                "CETD_ON_OTHER_PAGE_TYPE", read_setting(settings, "CETD_ON_OTHER_PAGE_TYPE"), ("keep", "flag", "drop")
            ),
        )

    @staticmethod
    def _output_fields(value: Any) -> dict[str, str]:
        if not isinstance(value, Mapping):
            raise InvalidSetting(
                f"CETD_OUTPUT_FIELDS: expected a dict of output -> item field, e.g. {_FIELDS_EXAMPLE}, got {value!r}"
            )
        fields: dict[str, str] = {}
        for output, field_name in value.items():
            if output not in OUTPUTS:
                raise InvalidSetting(
                    f"CETD_OUTPUT_FIELDS: unknown output {output!r}; choose from {', '.join(OUTPUTS)}"
                )
            name = field_setting(f"CETD_OUTPUT_FIELDS[{output!r}]", field_name)
            if name is None:
                continue
            if name in fields.values():
                raise InvalidSetting(f"CETD_OUTPUT_FIELDS: two outputs write to the item field {name!r}")
            fields[output] = name
        return fields

    def request_enabled(self, meta: Mapping[str, Any]) -> bool:
        """``cetd_enabled`` in a request's meta switches extraction off for that request."""
        value = meta.get("cetd_enabled", True)
        if not isinstance(value, bool):
            raise InvalidSetting(f"meta['cetd_enabled']: expected True or False, got {value!r}")
        return value

    def options_for(self, meta: Mapping[str, Any]) -> ExtractionOptions:
        """The options for one request: the settings, overridden by ``cetd_*`` meta keys.

        A request that switches ``cetd_algorithm`` starts from that algorithm's own default
        coefficient and parameters (``CETD_THRESHOLD_COEFFICIENT`` and ``CETD_PARAMS`` belong
        to ``CETD_ALGORITHM``) unless it also gives ``cetd_threshold_coefficient`` /
        ``cetd_params``; ``cetd_params`` replaces ``CETD_PARAMS`` rather than merging.
        """
        base = self.options
        if not any(key in meta for key in META_KEYS[1:]):
            return base
        algorithm = base.algorithm
        if "cetd_algorithm" in meta:
            algorithm = _algorithm("meta['cetd_algorithm']", meta["cetd_algorithm"])
        same = algorithm == base.algorithm
        coefficient = meta.get("cetd_threshold_coefficient", base.threshold_coefficient if same else None)
        params = meta.get("cetd_params", dict(base.params) if same else {})
        coefficient, resolved = _resolve(
            algorithm, coefficient, params, "meta['cetd_threshold_coefficient']", "meta['cetd_params']"
        )
        min_length = count_setting(
            "meta['cetd_min_text_length']", meta.get("cetd_min_text_length", base.min_text_length)
        )
        return ExtractionOptions(
            algorithm, coefficient, resolved, min_length, base.diagnostics, base.html,
            markdown=base.markdown, metadata=base.metadata, comments=base.comments, htmldate=base.htmldate,
            page_type=base.page_type,
        )
