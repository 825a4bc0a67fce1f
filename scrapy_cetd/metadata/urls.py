"""The page's URLs as the outputs write them: absolute and escaped (:func:`_absolute`, the
canonical URL and the image), and the site's name in the host (:func:`_host_name`)."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from w3lib.url import safe_url_string

from ..page import Page
from ..parsing import url_has_host

__all__ = [
    "_absolute",
    "_host_name",
    "_PLAIN_HOST",
]

#: An ``http(s)`` URL with a plain host (letters, digits, dots, hyphens: no user, port or
#: IPv6 literal), the host read without ``urlsplit``.
_PLAIN_HOST = re.compile(r"https?://([A-Za-z0-9.-]+)(?:[/?#]|\Z)")


#: ... and with a path only (no query, fragment, parameters or whitespace): a URL that
#: ``urljoin`` returns unchanged against any base that parses.  The two spare the URL
#: parser's Python code on most pages: on the first dev half, the metadata's median time
#: 0.388x -> 0.364x lxml's parse (``benchmarks/metadata_identity.py``, both versions in one run).
_PLAIN_ABSOLUTE = re.compile(r"https?://[A-Za-z0-9.-]+(?:/[^?#;\s]*)?")


def _absolute(url: str | None, base: str | Page | None) -> str | None:
    """``url`` made absolute against ``base``, and escaped as a URL must be (a space as
    ``%20``, as a browser sends it: ``.../Facebook Link Photo.png`` on a dev page);
    ``None`` when it cannot be made absolute (a relative URL, and no base).  ``base`` may
    be the page, whose base URL (:attr:`~scrapy_cetd.page.Page.base_url`, which parses its
    URL) is then read only for a URL that is not absolute already: on the first dev half,
    reading it on every page took 5% of the metadata's time."""
    if not url:
        return None
    url = url.strip()
    if _PLAIN_ABSOLUTE.fullmatch(url) and url.isascii():
        return url
    if isinstance(base, Page):
        base = base.base_url
    url = _EXTRA_SLASHES.sub(r"\1//", url, count=1)
    try:
        url = urljoin(base, url) if base else url
        if _UNSAFE_IN_URL.search(url):  # w3lib's escaping costs as much as the join: only where needed
            url = safe_url_string(url)
    except ValueError:
        return None
    # w3lib writes a host IDNA can encode in ASCII and leaves one it cannot as it was
    return url if url_has_host(url) and url.isascii() else None


#: What a URL cannot hold as it is: whitespace, controls, characters beyond ASCII, and
#: ``"<>\^`{|}``.
_UNSAFE_IN_URL = re.compile(r'[^\x21-\x7e]|["<>\\^`{|}]')


#: ``https:////host/...``: a browser reads the host after any number of slashes (WHATWG
#: URL, "special authority ignore slashes state"); ``urljoin`` finds no host there.
_EXTRA_SLASHES = re.compile(r"^(https?:)/{3,}", re.IGNORECASE)


def _host_name(url: str | None) -> str | None:
    """The site's name in the URL's host (``www.riverside-courier.com``: ``riverside-courier``),
    ``None`` for a URL with no such host or that does not parse."""
    if not url:
        return None
    plain = _PLAIN_HOST.match(url)
    try:
        host = plain[1].lower() if plain else urlsplit(url).hostname or ""
    except ValueError:
        return None
    parts = [p for p in host.split(".") if p not in ("www", "m", "amp")]
    return parts[-2] if len(parts) >= 2 else None
