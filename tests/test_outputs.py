"""The Markdown output where users meet it: the CLI, the Scrapy settings, and its scoring
against the gold ``main_content_markdown`` (``evaluate --markdown``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from scrapy.settings import Settings

from scrapy_cetd import extract
from scrapy_cetd.cli import main
from scrapy_cetd.crawl.settings import CetdConfig
from scrapy_cetd.evaluation.markdown import structure_lines

PAGE = (
    "<html lang='en'><head><title>Race</title></head><body><nav><a href='/'>Home</a></nav><article>"
    "<h1>Busch wins at Bristol</h1>"
    "<p>Kyle Busch won the <a href='/races/bristol'>night race</a> on Saturday, holding off a late charge "
    "from Denny Hamlin over the final ten laps, and took the lead in the standings.</p>"
    "<h2>Results</h2><table><tr><th>Pos</th><th>Driver</th></tr><tr><td>1</td><td>Kyle Busch</td></tr>"
    "<tr><td>2</td><td>Denny Hamlin</td></tr></table>"
    "<p>The series moves on to Talladega next weekend, where Busch has won twice before in his career.</p>"
    "</article></body></html>"
)
URL = "https://news.example.com/2026/race.html"


def test_cli_extract_prints_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "race.html"
    path.write_text(PAGE, encoding="utf-8")
    assert main(["extract", "-f", "markdown", "--url", URL, str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Busch wins at Bristol\n\n")
    assert "[night race](https://news.example.com/races/bristol)" in out
    assert "| Pos | Driver |\n| --- | --- |\n| 1 | Kyle Busch |\n| 2 | Denny Hamlin |" in out
    assert main(["extract", "-f", "text", str(path)]) == 0
    assert "1 | Kyle Busch\n" in capsys.readouterr().out  # a table row is one line of text


def test_markdown_is_an_output_field() -> None:
    config = CetdConfig.from_settings(Settings({"CETD_OUTPUT_FIELDS": {"text": "text", "markdown": "md"}}))
    assert config.options.markdown and not config.options.html
    assert config.options.keywords()["with_markdown"] is True
    assert not CetdConfig.from_settings(Settings()).options.markdown  # rendered only when written


def test_structure_lines_reads_headings_list_items_and_table_rows() -> None:
    markdown = "\n".join(
        [
            "## A [linked](https://x.org) *heading* ##",
            "Plain paragraph | with a pipe",
            "- item one",
            "  1. nested \\*item\\*",
            "> - quoted item",
            "| a | b |",
            "| --- | --- |",
            "| 1 | 2 |",
            "x | y",
            "3 | 4",
            "```",
            "# not a heading in code",
            "```",
        ]
    )
    assert structure_lines(markdown) == {
        ("heading", "a linked heading"): 1,
        ("list item", "item one"): 1,
        ("list item", "nested item"): 1,
        ("list item", "quoted item"): 1,
        ("table row", "a b"): 1,
        ("table row", "1 2"): 1,
        ("table row", "x y"): 1,
        ("table row", "3 4"): 1,
    }


def test_evaluate_markdown_scores_structure_against_the_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = extract(PAGE, url=URL, with_markdown=True).markdown
    golds = {
        "0001": ours,  # everything found
        "0002": ours + "\n\n## A heading we miss\n\n- an item we miss",
    }
    (tmp_path / "html").mkdir()
    (tmp_path / "ground-truth").mkdir()
    for page_id, gold in golds.items():
        (tmp_path / "html" / f"{page_id}.html.gz").write_bytes(gzip.compress(PAGE.encode()))
        record = {
            "url": URL,
            "ground_truth": {"main_content": "", "main_content_markdown": gold},
            "_internal": {"page_type": {"primary": "article"}},
        }
        (tmp_path / "ground-truth" / f"{page_id}.json").write_text(json.dumps(record), encoding="utf-8")
    out_json = tmp_path / "scores.json"
    assert main(["evaluate", str(tmp_path), "--markdown", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "Markdown structure on 2 pages" in out
    scores = json.loads(out_json.read_text(encoding="utf-8"))[0]
    assert scores["found"] == {"heading": 4, "list item": 0, "table row": 6}
    assert scores["gold"] == {"heading": 5, "list item": 1, "table row": 6}
    assert scores["heading"]["precision"] == 1.0 and scores["heading"]["recall"] == 0.8
    assert scores["list item"]["recall"] == 0.0 and scores["all"]["precision"] == 1.0
    assert "| cetd-plus | 1.000 | 0.800 | - | 0.000 | 1.000 | 1.000 |" in out
