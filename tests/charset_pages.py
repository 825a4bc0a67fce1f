"""Pages in legacy encodings that declare no charset (no BOM, no ``Content-Type`` charset, no
``<meta>``), for the library, crawl and WARC tests: each is ``(name, encoding, bytes,
a sentence of its text)``."""

from __future__ import annotations

_STORIES = {
    "gbk": (
        "城市地铁新线路明年开通",
        "今天上午，市政府召开新闻发布会，介绍了今年城市交通建设的最新进展。",
        "新建的地铁线路预计将在明年春节前开通，届时从火车站到机场只需要二十五分钟。"
        "市民普遍表示欢迎，但也有人担心施工期间道路拥堵的问题。",
    ),
    "shift_jis": (
        "小学校で防災訓練",
        "昨日の午後、東京都内の小学校で防災訓練が行われました。",
        "子どもたちは先生の指示に従って、落ち着いて校庭に避難しました。"
        "校長先生は「日ごろの準備が大切です」と話していました。",
    ),
    "windows-1251": (
        "Осенний фестиваль в парке",
        "В субботу в городском парке прошёл традиционный осенний фестиваль.",
        "Жители района приносили домашние пироги, варенье и мёд, а дети участвовали в конкурсах "
        "и играх. Организаторы обещают, что в следующем году праздник станет ещё больше.",
    ),
    "iso-8859-2": (
        "Jarmark świąteczny na rynku",
        "W niedzielę na rynku odbył się jarmark świąteczny.",
        "Sprzedawcy oferowali pierniki, ręcznie robione ozdoby i grzane wino, a dzieci mogły spotkać "
        "się ze świętym Mikołajem. Organizatorzy szacują, że przyszło ponad dziesięć tysięcy osób.",
    ),
}


def _page(title: str, first: str, second: str) -> str:
    return (
        f"<html><head><title>{title}</title></head><body>"
        '<nav><a href="/">Home</a> <a href="/news">News</a></nav>'
        f"<article><h1>{title}</h1><p>{first}</p><p>{second}</p></article>"
        "<footer>(c) 2026</footer></body></html>"
    )


UNDECLARED_PAGES: list[tuple[str, str, bytes, str]] = [
    (name, name, _page(*story).encode(name), story[1]) for name, story in _STORIES.items()
]
