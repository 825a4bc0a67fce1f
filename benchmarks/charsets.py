"""Charset detectors compared on pages that declare no charset and are not UTF-8.

    python benchmarks/charsets.py [--benchmarks ../shared/benchmarks] [--detectors a,b,...]

Three groups of pages, each without a declared charset (no BOM, no ``<meta>`` charset, no
HTTP header):

- ``dev as fetched``: the dev pages that declare none and are not valid UTF-8 (one page of
  trafilatura-eval; every wcxb-dev and readability-pages page is UTF-8);
- ``dev re-encoded``: every dev page of the three sets whose text (outside tags) is in a
  script with legacy encodings, in the encodings of that script (Han and kana over 30% of
  the letters, kana 5% of those: Shift_JIS and EUC-JP, else GBK, and Big5 where it holds 95%
  of the Han characters; Hangul or Cyrillic over 30%: EUC-KR, or windows-1251 and KOI8-R;
  Latin letters beyond ASCII over 0.5%: ISO-8859-2 with more than three letters of it that
  windows-1252 lacks, else windows-1252),
  its ``<meta>`` charset removed, at most ``--per-encoding`` pages each, encoded with
  characters the encoding lacks as character references (as legacy pages write them);
- ``written``: short texts written for this benchmark (a paragraph in each language) in a
  small page, in the same encodings.

A detection is right when the page's text outside tags, scripts and styles (the
``sample`` below, what the extraction reads) decodes with it as with the true encoding (so
windows-1252 for ISO-8859-1 text is right; a script's bytes are not judged).  Labels go through w3lib's
``resolve_encoding``, as the library reads them (GB2312 is read as GB18030, as browsers do).
Cost: the median time of one detection over all pages, as a ratio to lxml's parse of the
same bytes in the same run.  Detectors are tried on the whole page and on
``scrapy_cetd.parsing.detection_sample`` (``sample``: the texts outside tags, scripts and
styles that hold bytes beyond ASCII, some ASCII text after them, at most 16 kB); the last
row is what the library runs (``scrapy_cetd.parsing.detected_encoding``), the three before
it the same with another sample size or all of chardet's encoding eras.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from lxml import etree
from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding

from scrapy_cetd.parsing import detected_encoding, detection_sample

WRITTEN = {
    "zh-hans": "今天上午，市政府召开新闻发布会，介绍了今年城市交通建设的最新进展。"
    "新建的地铁线路预计将在明年春节前开通，届时从火车站到机场只需要二十五分钟。"
    "市民普遍表示欢迎，但也有人担心施工期间道路拥堵的问题。",
    "zh-hant": "這家小書店開在老街的轉角，已經經營了三十多年。老闆說，現在買書的人越來越少，"
    "但每到週末，還是有不少學生和退休的老人來這裡看書、聊天。他希望書店能一直開下去。",
    "ja": "昨日の午後、東京都内の小学校で防災訓練が行われました。子どもたちは先生の指示に従って、"
    "落ち着いて校庭に避難しました。校長先生は「日ごろの準備が大切です」と話していました。",
    "ko": "올해 여름은 예년보다 비가 많이 내릴 것으로 예상됩니다. 기상청은 다음 주부터 장마가 시작되며, "
    "특히 남부 지방에 많은 비가 내릴 수 있다고 밝혔습니다. 시민들은 외출할 때 우산을 꼭 챙기시기 바랍니다.",
    "ru": "В субботу в городском парке прошёл традиционный осенний фестиваль. Жители района "
    "приносили домашние пироги, варенье и мёд, а дети участвовали в конкурсах и играх. "
    "Организаторы обещают, что в следующем году праздник станет ещё больше.",
    "cs": "Ve čtvrtek večer se v městské knihovně konalo setkání se spisovatelkou, která představila "
    "svůj nový román. Čtenáři se ptali na postavy, na místa, kde se příběh odehrává, a také na to, "
    "jak dlouho knihu psala. Příští setkání bude v prosinci.",
    "pl": "W niedzielę na rynku odbył się jarmark świąteczny. Sprzedawcy oferowali pierniki, "
    "ręcznie robione ozdoby i grzane wino, a dzieci mogły spotkać się ze świętym Mikołajem. "
    "Organizatorzy szacują, że przyszło ponad dziesięć tysięcy osób.",
    "de": "Am Wochenende öffnete das Stadtmuseum seine neue Ausstellung über die Geschichte der "
    "Flößerei. Besucher können dort alte Werkzeuge, Fotografien und ein über hundert Jahre altes "
    "Floß bestaunen. Der Eintritt für Schüler ist frei.",
    "fr": "Après trois années de travaux, la médiathèque du quartier rouvre ses portes mercredi. "
    "Les habitants découvriront une salle de lecture agrandie, un espace consacré aux jeux vidéo "
    "et un café associatif géré par des bénévoles.",
}
#: The encodings each written text is tried in.
WRITTEN_ENCODINGS = {
    "zh-hans": ("gbk",),
    "zh-hant": ("big5",),
    "ja": ("shift_jis", "euc_jp"),
    "ko": ("euc_kr",),
    "ru": ("cp1251", "koi8_r"),
    "cs": ("iso8859_2",),
    "pl": ("iso8859_2",),
    "de": ("cp1252",),
    "fr": ("cp1252",),
}
TEMPLATE = (
    "<!DOCTYPE html><html><head><title>{title}</title></head><body>"
    '<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>'
    "<article><h1>{title}</h1><p>{text}</p></article><footer>(c) 2026</footer></body></html>"
)

_META_CHARSET = re.compile(
    r"<meta[^>]*?(charset\s*=|http-equiv\s*=\s*[\"']?content-type)[^>]*>", re.IGNORECASE
)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN2_ONLY = re.compile("[ěščřžůďťňĺľŕłąęćńśźżőűĚŠČŘŽŮĎŤŇŁĄĘĆŃŚŹŻŐŰ]")
_LATIN_BEYOND_ASCII = re.compile(r"[\u00c0-\u017f]")


def legacy_encodings(text: str) -> list[str]:
    """The legacy encodings a page is tried in, from the script of its text (outside tags):
    see the module's docstring; none for a page in another script or mostly ASCII."""
    letters = sum(map(str.isalpha, text)) or 1
    han, kana = len(_HAN.findall(text)), len(_KANA.findall(text))
    if (han + kana) / letters > 0.3:
        if kana > 0.05 * (han + kana):
            return ["shift_jis", "euc_jp"]
        used = set(_HAN.findall(text))
        return ["gbk", "big5"] if sum(_encodes(char, "big5") for char in used) >= 0.95 * len(used) else ["gbk"]
    if len(_HANGUL.findall(text)) / letters > 0.3:
        return ["euc_kr"]
    if len(_CYRILLIC.findall(text)) / letters > 0.3:
        return ["cp1251", "koi8_r"]
    if len(_LATIN_BEYOND_ASCII.findall(text)) / letters > 0.005:
        return ["iso8859_2"] if len(_LATIN2_ONLY.findall(text)) > 3 else ["cp1252"]
    return []


def visible_text(page: str) -> str:
    """The text of a page outside tags, scripts and styles."""
    root = etree.fromstring(page.encode("utf-8"), etree.HTMLParser(encoding="utf-8", remove_comments=True))
    if root is None:
        return ""
    etree.strip_elements(root, "script", "style", with_tail=False)
    return " ".join(root.itertext())


def _encodes(char: str, encoding: str) -> bool:
    try:
        char.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def _undeclared(data: bytes) -> bool:
    return read_bom(data)[0] is None and html_body_declared_encoding(data) is None


def dev_pages(root: Path) -> list[Path]:
    return sorted(root.glob("wcxb-dev/html/*.gz")) + sorted(root.glob("trafilatura-eval/html/*.gz")) + sorted(
        root.glob("readability-pages/*/source.html.gz")
    )


def cases(root: Path, per_encoding: int) -> list[tuple[str, str, bytes]]:
    """``(group, true encoding, bytes)`` of every page of the three groups."""
    found: list[tuple[str, str, bytes]] = []
    counts: dict[str, int] = defaultdict(int)
    for path in dev_pages(root):
        data = gzip.open(path).read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if _undeclared(data):
                truth = "cp1252"  # the one such page; its text checked by hand: German, windows-1252
                found.append(("dev as fetched", truth, data))
            continue
        for encoding in legacy_encodings(visible_text(text)):
            if counts[encoding] >= per_encoding:
                continue
            encoded = _META_CHARSET.sub("", text).encode(encoding, "xmlcharrefreplace")
            if _undeclared(encoded):
                counts[encoding] += 1
                found.append(("dev re-encoded", encoding, encoded))
    for language, text in WRITTEN.items():
        page = TEMPLATE.format(title=text[:12], text=text)
        for encoding in WRITTEN_ENCODINGS[language]:
            found.append(("written", encoding, page.encode(encoding)))
    return found


def _charset_normalizer(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    match = from_bytes(data).best()
    return match.encoding if match else None


def _chardet(data: bytes) -> str | None:
    import chardet

    return chardet.detect(data)["encoding"]


def _cchardet(data: bytes) -> str | None:
    import cchardet

    return cchardet.detect(data)["encoding"]


DETECTORS: dict[str, Callable[[bytes], str | None]] = {
    "charset-normalizer": _charset_normalizer,
    "chardet": _chardet,
    "cchardet": _cchardet,
}


def _decodes_as(data: bytes, detected: str | None, truth: str) -> bool:
    if not detected:
        detected = "cp1252"
    try:
        text = detection_sample(data)
        return text.decode(resolve_encoding(detected) or detected, "replace") == text.decode(truth, "replace")
    except LookupError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmarks", type=Path, default=Path("../shared/benchmarks"))
    parser.add_argument("--detectors", default=",".join(DETECTORS))
    parser.add_argument("--per-encoding", type=int, default=25)
    args = parser.parse_args()
    pages = cases(args.benchmarks, args.per_encoding)
    lxml_ms = []
    for _, _, data in pages:
        start = time.perf_counter()
        etree.fromstring(data, etree.HTMLParser())
        lxml_ms.append((time.perf_counter() - start) * 1000)
    groups = sorted({group for group, _, _ in pages})
    encodings = sorted({encoding for _, encoding, _ in pages})
    columns = [
        ("windows-1252 (no detection)", lambda data: "cp1252"),
        *(
            (f"{name} ({mode})", _sampled(DETECTORS[name], mode))
            for name in args.detectors.split(",")
            for mode in ("page", "sample")
        ),
        *(
            (f"chardet, {eras} eras, first {size // 1024} kB of the sample", _chardet_variant(size, eras))
            for size, eras in ((2048, "web and ISO"), (16384, "web and ISO"), (4096, "all"))
        ),
        ("scrapy_cetd: chardet, web and ISO eras, first 4 kB of the sample", detected_encoding),
    ]
    print(f"{len(pages)} pages: " + ", ".join(f"{g} {sum(p[0] == g for p in pages)}" for g in groups))
    header = ["detector (input)", *groups, *encodings, "all", "median ms", "x lxml parse"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, detect in columns:
        right: dict[str, list[bool]] = defaultdict(list)
        ratios, times = [], []
        for (group, truth, data), reference in zip(pages, lxml_ms):
            start = time.perf_counter()
            detected = detect(data)
            elapsed = (time.perf_counter() - start) * 1000
            times.append(elapsed)
            ratios.append(elapsed / reference)
            ok = _decodes_as(data, detected, truth)
            right[group].append(ok)
            right[truth].append(ok)
            right["all"].append(ok)
        cells = [f"{sum(right[key])}/{len(right[key])}" for key in (*groups, *encodings, "all")]
        cells += [f"{statistics.median(times):.2f}", f"{statistics.median(ratios):.2f}"]
        print(f"| {label} | " + " | ".join(cells) + " |")


def _chardet_variant(size: int, eras: str) -> Callable[[bytes], str | None]:
    """:func:`scrapy_cetd.parsing.detected_encoding` with another sample size or eras."""
    import chardet

    era = chardet.EncodingEra.ALL if eras == "all" else chardet.EncodingEra.MODERN_WEB | chardet.EncodingEra.LEGACY_ISO
    return lambda data: chardet.detect(detection_sample(data)[:size], encoding_era=era)["encoding"]


def _sampled(detect: Callable[[bytes], str | None], mode: str) -> Callable[[bytes], str | None]:
    if mode == "page":
        return detect
    return lambda data: detect(detection_sample(data))


if __name__ == "__main__":
    main()
