"""How a date reads: :func:`parse_date`, from ISO 8601, e-mail dates, numeric dates and
dates with month names in many languages (the names in :mod:`.words`)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

from .words import MONTHS

__all__ = [
    "parse_date",
    "valid_day",
]

_ISO = re.compile(
    r"(?P<y>(?:19|20)\d\d)-?(?P<m>[01]\d)-?(?P<d>[0-3]\d)"
    r"(?:[T ](?P<H>[0-2]\d):?(?P<M>[0-5]\d)(?::?(?P<S>[0-5]\d|60)(?:[.,]\d+)?)?\s*(?P<z>Z|[+-][0-2]\d(?::?[0-5]\d)?)?)?"
)


_MONTH_NAME = r"(?P<mon>[^\W\d_]{3,12})\.?"


_ORDINAL = r"(?:st|nd|rd|th|er)?"  # "4th", French "1er"


_TEXT_DATES = (
    # May 4, 2023 / May 4th 2023 / May 4,2023 / Dec-04-2023
    re.compile(
        _MONTH_NAME + r"(?:\s+|-)(?P<d>[0-3]?\d)" + _ORDINAL + r"(?:,\s*|\s+|-)(?P<y>(?:19|20)\d\d)\b",
        re.IGNORECASE,
    ),
    # 4 May 2023 / 4. Mai 2023 / 4 de mayo de 2023 / 19-Dec-2025 / 4th of May, 2023
    re.compile(
        r"\b(?P<d>[0-3]?\d)" + _ORDINAL + r"\.?(?:\s+of|\s+de)?(?:\s+|-)" + _MONTH_NAME
        + r"(?:[,،]?\s+(?:de\s+)?|-)(?P<y>(?:19|20)\d\d)\b",
        re.IGNORECASE,
    ),
    # 2023-May-04 / 2023. május 4. (Hungarian, the year first)
    re.compile(r"\b(?P<y>(?:19|20)\d\d)(?:-|\.?\s+)" + _MONTH_NAME + r"(?:-|\s+)(?P<d>[0-3]?\d)\b", re.IGNORECASE),
)


_NUMERIC_DATES = (
    re.compile(r"\b(?P<y>(?:19|20)\d\d)[/.](?P<m>[01]?\d)[/.](?P<d>[0-3]?\d)\b"),
    # 2025年12月20日 (Chinese, Japanese), 2025년 12월 20일 (Korean)
    re.compile(r"(?P<y>(?:19|20)\d\d)\s*[年년]\s*(?P<m>[01]?\d)\s*[月월]\s*(?P<d>[0-3]?\d)\s*[日일]"),
    # 04.05.2023, 4. 5. 2023 (Czech, Slovak)
    re.compile(r"\b(?P<d>[0-3]?\d)\.\s?(?P<m>[01]?\d)\.\s?(?P<y>(?:19|20)\d\d)\b"),
    # 4 tháng 5, 2023 / ngày 4 tháng 5 năm 2023 (Vietnamese)
    re.compile(r"\b(?P<d>[0-3]?\d)\s+tháng\s+(?P<m>[01]?\d)(?:,\s*|\s+năm\s+)(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
)


#: ``12/19/2025``, ``19/12/2025``, ``11-29-2024``: month and day in either order, read only
#: when the order shows (a number above 12, or both the same); ``03/04/2024`` is no date.
#: First dev half, two folds (with ``19-Dec-2025`` and the Spanish and Italian month
#: abbreviations): date 0.892 / 0.903 -> 0.901 / 0.903, false positives 38 / 41 -> 40 / 43.
_SLASHED_DATE = re.compile(r"\b(?P<a>[0-3]?\d)(?P<sep>[/-])(?P<b>[0-3]?\d)(?P=sep)(?P<y>(?:19|20)\d\d)\b")


_MIN_YEAR = 1995


#: The year every date pattern above holds.
_YEAR = re.compile(r"(?:19|20)\d\d")


#: Arabic-Indic and Persian digits as ASCII ones ("٢٣ مارس ٢٠٢١", "۲۳ مارس ۲۰۲۱").
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "0123456789" * 2)


def valid_day(year: int, month: int, day: int) -> date | None:
    try:
        value = date(year, month, day)
    except ValueError:
        return None
    today = date.today()  # a year ahead at most (compared as tuples: no 29 February to build)
    if year < _MIN_YEAR or (year, month, day) > (today.year + 1, today.month, today.day):
        return None
    return value


def parse_date(text: Any) -> str | None:
    """An ISO 8601 date (``YYYY-MM-DD``) or datetime with offset from ``text``; ``None``
    when it holds no valid date.  Reads ISO 8601 (basic or extended), ``YYYY/MM/DD``,
    ``DD.MM.YYYY``, ``YYYY年MM月DD日`` (and Korean ``년 월 일``) and dates with month names
    (English, French, German, Spanish, Italian, Portuguese, Dutch, the Scandinavian
    languages, Turkish, Romanian, Indonesian, Hungarian, and Polish, Russian, Ukrainian,
    Czech, Slovak, Finnish and Greek in the genitive: "20 grudnia 2025", "20 декабря
    2025", "20 Δεκεμβρίου 2025"), with ordinals ("5th of December", "1er décembre"), dashes
    ("Dec-05-2025", "2025-Dec-05"), the year first ("2025. december 5.") and Vietnamese
    numbers ("5 tháng 12, 2025")."""
    if not isinstance(text, str):
        return None
    text = text.strip()[:200]
    if not _YEAR.search(text):  # each pattern below has one: most text runs fail here at once
        if text.isascii():
            return None
        text = text.translate(_DIGITS)
        if not _YEAR.search(text):
            return None
    match = _ISO.search(text)
    if match:
        day = valid_day(int(match["y"]), int(match["m"]), int(match["d"]))
        if day is not None:
            if match["H"] is None:
                return day.isoformat()
            return _with_time(day, match)
    if _RFC_2822.match(text):
        try:
            stamp = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            pass  # not a valid date: read on as text
        else:
            if valid_day(stamp.year, stamp.month, stamp.day) is None:
                return None
            offset = stamp.utcoffset()
            if offset is not None and abs(offset) > _MAX_OFFSET:
                stamp = stamp.replace(tzinfo=None)
            return stamp.isoformat()
    for pattern in _TEXT_DATES:
        for match in pattern.finditer(text):
            month = MONTHS.get(match["mon"].lower())
            if month:
                day = valid_day(int(match["y"]), month, int(match["d"]))
                if day is not None:
                    return day.isoformat()
    for pattern in _NUMERIC_DATES:
        match = pattern.search(text)
        if match:
            day = valid_day(int(match["y"]), int(match["m"]), int(match["d"]))
            if day is not None:
                return day.isoformat()
    match = _SLASHED_DATE.search(text)
    if match:
        a, b = int(match["a"]), int(match["b"])
        if a == b or max(a, b) > 12:
            day = valid_day(int(match["y"]), min(a, b), max(a, b))
            if day is not None:
                return day.isoformat()
    return None


#: An e-mail or HTTP date with its time ("Wed, 01 May 2024 09:30:00 GMT"), as some
#: ``<meta>`` dates and feeds write them.
_RFC_2822 = re.compile(r"(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+(?:19|20)\d\d\s+\d{1,2}:\d{2}")


#: The largest UTC offset in use (UTC+14, Kiribati); a larger one is no zone.
_MAX_OFFSET = timedelta(hours=14)


def _with_time(day: date, match: re.Match[str]) -> str:
    """The datetime of an ISO match: a leap second (``:60``) read as ``:59``, an offset
    beyond :data:`_MAX_OFFSET` (``+29:59``) dropped."""
    hour, minute, second = int(match["H"]), int(match["M"]), min(int(match["S"] or 0), 59)
    if hour > 23:
        return day.isoformat()
    stamp = datetime(day.year, day.month, day.day, hour, minute, second).isoformat()
    zone = match["z"]
    if not zone:
        return stamp
    if zone == "Z":
        return stamp + "+00:00"
    digits = zone[1:].replace(":", "")
    hours, minutes = digits[:2], digits[2:4] or "00"
    if timedelta(hours=int(hours), minutes=int(minutes)) > _MAX_OFFSET:
        return stamp
    return f"{stamp}{zone[0]}{hours}:{minutes}"
