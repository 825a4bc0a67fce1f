"""How a page's declared values read: dates, people's names, JSON-LD objects.

The core below both the metadata (:mod:`scrapy_cetd.metadata`, which finds these values
on a page) and cetd-plus (which reads a JSON-LD ``articleBody``, the declared types and a
byline line): it imports nothing of either.

- :mod:`.dates`: :func:`parse_date`, a date or datetime in ISO 8601 from the ways pages
  write one;
- :mod:`.names`: :func:`clean_author`, the people in an author value, and
  :func:`is_byline`;
- :mod:`.json_ld`: the values of JSON-LD objects (:func:`object_types`,
  :func:`article_body`);
- :mod:`.text`: text values as shown (entities, markup, the comparison key of a name);
- :mod:`.words`: the data: month names and the word lists names are told apart by.
"""

from .dates import parse_date
from .json_ld import article_body, object_types
from .names import clean_author, is_byline

__all__ = ["article_body", "clean_author", "is_byline", "object_types", "parse_date"]
