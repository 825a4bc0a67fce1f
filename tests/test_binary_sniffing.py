"""Binary input is recognised by its share of control bytes; a page in any charset is not."""

from __future__ import annotations

import random

import pytest

from scrapy_cetd import extract
from scrapy_cetd.parsing import sniff_binary

STORIES = {
    "gbk": "北京市政府周二宣布，将在明年春天开放三座新的城市公园，供市民休闲使用。",
    "shift_jis": "東京都は火曜日、来年の春に三つの新しい公園を開くと発表しました。",
    "windows-1251": "Городской совет во вторник объявил об открытии трёх новых парков весной.",
    "utf-16-le": "Der Stadtrat kündigte am Dienstag drei neue Parks für den Frühling an.",
    "utf-16-be": "Le conseil municipal a annoncé mardi l'ouverture de trois nouveaux parcs.",
    "utf-16": "Ο δήμος ανακοίνωσε την Τρίτη τρία νέα πάρκα για την άνοιξη στην πόλη.",  # with a BOM
}


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("size", [300, 1024, 20_000])
def test_random_bytes_are_binary(seed: int, size: int) -> None:
    data = random.Random(seed).randbytes(size)
    assert sniff_binary(data) == "binary"
    result = extract(data)
    assert (result.text, result.reason) == ("", "binary:binary")


@pytest.mark.parametrize("encoding", STORIES)
def test_a_page_in_any_charset_is_text(encoding: str) -> None:
    story = STORIES[encoding]
    declared = "" if encoding.startswith("utf-16") else f'<meta charset="{encoding}">'
    html = f"<html><head>{declared}<title>Parks</title></head><body><article>" + f"<p>{story}</p>" * 4
    data = (html + "</article></body></html>").encode(encoding)
    assert sniff_binary(data) is None
    assert story in extract(data).text
