"""The result types: what an algorithm selects, and what users get back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .metadata import Metadata

__all__ = ["Extraction", "Selection"]


@dataclass
class Selection:
    """What an algorithm chose as content on a :class:`~scrapy_cetd.page.Page`.

    DOM algorithms name whole subtrees (``subtrees``: element indices) and/or single
    text runs (``runs``: run keys, see :mod:`scrapy_cetd.page`).  Line-based algorithms,
    which work on source lines rather than the DOM, give their text in ``lines`` and may
    leave the DOM selection empty.  ``dedupe_min_chars`` (opt-in, 0 = off) asks the
    renderer to leave out a stretch of lines repeating an earlier one line for line when
    it holds at least that many characters (``render._repeated_stretches``).
    ``explain``, if set, returns diagnostics too costly to build for every page; it is
    called only when diagnostics are requested.
    """

    threshold: float | None
    subtrees: set[int] = field(default_factory=set)
    runs: set[int] = field(default_factory=set)
    lines: list[str] | None = None
    title: str | None = None
    diagnostics: dict[str, Any] = field(default_factory=dict)
    dedupe_min_chars: int = 0
    explain: Callable[[], dict[str, Any]] | None = None
    #: The comment sections (element indices) kept out of the content, if the algorithm
    #: finds them; called only when the ``comments`` output is asked for.
    comments: Callable[[], set[int]] | None = None


@dataclass
class Extraction:
    """An extraction result.

    ``text`` is the main content, one block per line; ``html`` the cleaned page (content
    subtrees with their ancestors, original structure kept), empty when the algorithm
    cannot map its result to the DOM; ``reason`` says why a result is empty; ``markdown``
    the same content as Markdown (with ``with_markdown=True``, else empty).  ``title`` is
    the headline (``metadata.title``, the site name removed) when metadata was read,
    else the page's ``<title>``; ``metadata`` holds the article metadata
    (:class:`~scrapy_cetd.metadata.Metadata`), ``None`` when not asked for.
    """

    text: str
    html: str
    title: str | None
    algorithm: str
    threshold: float | None
    threshold_coefficient: float | None
    url: str | None = None
    reason: str | None = None
    diagnostics: dict[str, Any] | None = None
    markdown: str = ""
    metadata: Metadata | None = None
    #: The page's comment section, kept out of ``text`` (``with_comments``; ``cetd-plus``).
    comments: str = ""

    def __bool__(self) -> bool:
        return bool(self.text)

    def to_dict(self) -> dict[str, Any]:
        """A plain ``dict`` (JSON-serialisable) of all fields."""
        return asdict(self)
