"""The settings reference (docs/scrapy.md) against the code: every ``CETD_*`` setting the code
reads is documented with the default the code uses, and each default is written once, in
:data:`scrapy_cetd.crawl.settings.DEFAULTS`."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import scrapy_cetd
from scrapy_cetd.crawl.settings import DEFAULTS, KNOWN_SETTINGS

PACKAGE = Path(scrapy_cetd.__file__).parent
REFERENCE = PACKAGE.parent / "docs" / "scrapy.md"
_ROW = re.compile(r"^\| `(CETD_[A-Z_]+)` \| (.*?) \|", re.MULTILINE)
#: Scrapy's typed getters: a default given to one beside ``DEFAULTS`` would be a second one.
_GETTERS = {"get", "getbool", "getint", "getfloat", "getlist", "getdict", "getdictorlist", "getwithbase"}


def _sources() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}


def _documented() -> dict[str, str]:
    """Setting -> its default's cell in the reference's table."""
    return dict(_ROW.findall(REFERENCE.read_text(encoding="utf-8")))


def _value(cell: str) -> Any:
    """The first ```...``` of a default's cell: a Python literal, or a ``scrapy_cetd`` name."""
    literal = re.search(r"`([^`]+)`", cell)
    assert literal, f"no default in {cell!r}"
    text = literal.group(1)
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        module, _, name = text.rpartition(".")
        assert module.startswith("scrapy_cetd"), f"{text!r} is no literal and no scrapy_cetd name"
        return getattr(importlib.import_module(module), name)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _named_settings() -> set[str]:
    """Every ``"CETD_..."`` string of the code but the keys of ``DEFAULTS`` itself."""
    named = set()
    for tree in _sources().values():
        stack: list[ast.AST] = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and "DEFAULTS" in {
                getattr(target, "id", None) for target in getattr(node, "targets", [getattr(node, "target", None)])
            }:
                continue
            if isinstance(node, ast.Constant) and re.fullmatch(r"CETD_[A-Z_]+", str(node.value)):
                named.add(str(node.value))
            stack.extend(ast.iter_child_nodes(node))
    return named


def test_the_settings_the_code_names_are_the_known_ones() -> None:
    named = _named_settings()
    assert named - {"CETD_"} <= KNOWN_SETTINGS == set(DEFAULTS)
    assert named >= KNOWN_SETTINGS, f"in DEFAULTS, read nowhere: {sorted(KNOWN_SETTINGS - named)}"


def test_no_setting_is_read_with_a_default_of_its_own() -> None:
    second = []
    for path, tree in _sources().items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _GETTERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).startswith("CETD_")
                and (len(node.args) > 1 or node.keywords)
            ):
                second.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {ast.unparse(node)}")
    assert not second, "defaults written beside DEFAULTS (use read_setting): " + "; ".join(second)


def test_every_setting_is_documented_once() -> None:
    rows = _ROW.findall(REFERENCE.read_text(encoding="utf-8"))
    names = [name for name, _ in rows]
    assert sorted(names) == sorted(DEFAULTS)


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_the_documented_default_is_the_codes(name: str) -> None:
    assert _plain(_value(_documented()[name])) == _plain(DEFAULTS[name])


def test_a_wrong_documented_default_is_caught() -> None:
    assert _plain(_value("`16777215` (16 MiB)")) != _plain(DEFAULTS["CETD_MAX_SIZE"])
    assert _value("`scrapy_cetd.DEFAULT_ALGORITHM` (`\"cetd-plus\"`)") == DEFAULTS["CETD_ALGORITHM"]


def test_the_workers_default_is_one_on_a_single_core(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy.settings import Settings

    from scrapy_cetd.crawl import settings

    assert settings.CetdConfig.from_settings(Settings()).workers == settings.DEFAULT_WORKERS
    monkeypatch.setattr(settings, "DEFAULT_WORKERS", 1)  # as on a machine with one core
    assert settings.CetdConfig.from_settings(Settings()).workers == 1
    assert settings.CetdConfig.from_settings(Settings({"CETD_WORKERS": 3})).workers == 3
