"""Other extractors ("peers") evaluated side by side with ours, each only if installed.

Each peer gets the page's bytes decoded by the decoder :func:`scrapy_cetd.extract` uses
(:func:`scrapy_cetd.parsing.decode_html`, w3lib's HTML charset detection), inside the
timed call, so decoding costs the same for every extractor; then it is called the way its
documentation shows, with default options, on that text, and returns plain text:

- ``trafilatura``: ``trafilatura.extract(html, url=url)``.
- ``readability``: ``readability.Document(html).summary(html_partial=True)``, turned into
  text with a line break at every block element.
- ``justext``: the paragraphs ``justext.justext(html, get_stoplist("English"))`` does not
  classify as boilerplate.
- ``resiliparse``: ``extract_plain_text(html, main_content=True)``.

(Given bytes, trafilatura runs its own charset detection, which doubled its time on WCXB
pages in our measurements; the text API is what a Scrapy user calls with ``response.text``.)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from ..parsing import decode_html
from .datasets import html_text

__all__ = ["PEERS", "Peer", "available_peers", "run_peer"]


@dataclass(frozen=True)
class Peer:
    """An optional third-party extractor: the module that must import, its distribution."""

    name: str
    module: str
    distribution: str
    extract: Callable[[str, str | None], str]

    def version(self) -> str | None:
        try:
            return metadata.version(self.distribution)
        except metadata.PackageNotFoundError:
            return None


def _trafilatura(html: str, url: str | None) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url) or ""


def _readability(html: str, url: str | None) -> str:
    from readability import Document

    return html_text(Document(html, url=url).summary(html_partial=True))


def _justext(html: str, url: str | None) -> str:
    import justext

    paragraphs = justext.justext(html, justext.get_stoplist("English"))
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


def _resiliparse(html: str, url: str | None) -> str:
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(html, main_content=True)


PEERS: dict[str, Peer] = {
    peer.name: peer
    for peer in (
        Peer("trafilatura", "trafilatura", "trafilatura", _trafilatura),
        Peer("readability", "readability", "readability-lxml", _readability),
        Peer("justext", "justext", "jusText", _justext),
        Peer("resiliparse", "resiliparse.extract.html2text", "resiliparse", _resiliparse),
    )
}


def available_peers() -> list[str]:
    """The names of the peers whose module imports here, in :data:`PEERS` order."""
    names = []
    for name, peer in PEERS.items():
        try:
            importlib.import_module(peer.module)
        except ImportError:
            continue
        names.append(name)
    return names


def run_peer(name: str, html: bytes, url: str | None = None) -> str:
    """Decode a page's bytes and run one peer on the text; its text (empty when it found nothing)."""
    return PEERS[name].extract(decode_html(html)[1], url)
