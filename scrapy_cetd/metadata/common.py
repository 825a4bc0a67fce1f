"""What every field's reader shares: how a found value is kept (:func:`_put`)."""

from __future__ import annotations

from typing import Any

__all__ = [
    "_put",
]


def _put(found: dict[str, Any], name: str, value: Any) -> None:
    """Keep ``value`` for ``name`` unless a more trusted source already gave one; author
    lists are all kept, in order of trust, and chosen at the end (:func:`.authors._authors`)."""
    if not value:
        return
    if name == "authors":
        found.setdefault("author_candidates", []).append(value)
    elif not found.get(name):
        found[name] = value
