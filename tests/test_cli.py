"""The ``scrapy-cetd`` command line, called as ``main([...])`` and once as a real process."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_cetd import DEFAULT_ALGORITHM, algorithm_names, get_algorithm
from scrapy_cetd.cli import main
from tests.charset_pages import UNDECLARED_PAGES

TINY_WCXB = Path(__file__).parent / "fixtures" / "tiny-wcxb"
ARTICLE_GZ = TINY_WCXB / "html" / "0001.html.gz"
HEADLINE = "Otters return to the river"
FIRST_PARAGRAPH = "Otters have returned to the river after an absence of forty years, volunteers said on Monday."


@pytest.fixture
def article(tmp_path: Path) -> Path:
    path = tmp_path / "article.html"
    path.write_bytes(gzip.decompress(ARTICLE_GZ.read_bytes()))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_extract_text_from_plain_and_gzip_files(capsys: pytest.CaptureFixture[str], article: Path) -> None:
    for path in (article, ARTICLE_GZ):
        status, out, err = run(capsys, "extract", str(path))
        assert status == 0 and err == ""
        lines = out.splitlines()
        assert lines[0] == FIRST_PARAGRAPH and HEADLINE not in lines  # the headline is the title's
        assert "Privacy" not in out and "Home" not in out


def test_files_in_legacy_encodings_that_declare_none_are_read_in_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, _, page, sentence in UNDECLARED_PAGES:
        path = tmp_path / f"{name}.html"
        path.write_bytes(page)
        status, out, err = run(capsys, "extract", str(path))
        assert status == 0 and err == "" and sentence in out


def test_extract_html_and_json(capsys: pytest.CaptureFixture[str], article: Path) -> None:
    status, out, _ = run(capsys, "extract", "--format", "html", str(article))
    assert status == 0
    assert f"<p>{FIRST_PARAGRAPH}</p>" in out and 'href="/privacy"' not in out
    status, out, _ = run(capsys, "extract", "-f", "json", "--url", "https://news.example/otters", str(article))
    record = json.loads(out)
    assert record["file"] == str(article)
    assert record["algorithm"] == DEFAULT_ALGORITHM and record["url"] == "https://news.example/otters"
    assert record["text"].splitlines()[0] == FIRST_PARAGRAPH and record["reason"] is None


def test_files_may_follow_the_options(capsys: pytest.CaptureFixture[str], article: Path) -> None:
    status, out, err = run(capsys, "extract", str(article), "--format", "json", str(ARTICLE_GZ))
    assert status == 0 and err == ""
    assert [json.loads(line)["file"] for line in out.splitlines()] == [str(article), str(ARTICLE_GZ)]
    status, out, err = run(capsys, "extract", str(article), "--format", "json", str(ARTICLE_GZ), "--bogus")
    assert status == 2 and out == "" and "unrecognized arguments: " in err and "--bogus" in err
    status, _, err = run(capsys, "algorithms", "extra")
    assert status == 2 and "unrecognized arguments: extra" in err


def test_extract_options_reach_the_api(capsys: pytest.CaptureFixture[str], article: Path) -> None:
    status, out, _ = run(capsys, "extract", "--threshold-coefficient", "0", str(article))
    assert status == 0 and out.splitlines()[0] == "Home News Sport Weather About us"
    status, out, _ = run(capsys, "extract", "-a", "cetd-ds", "-f", "json", "--diagnostics", str(article))
    record = json.loads(out)
    assert record["algorithm"] == "cetd-ds" and record["threshold_coefficient"] == 1.0
    assert any(row["selected"] for row in record["diagnostics"]["nodes"])


def test_extract_algorithm_parameters(capsys: pytest.CaptureFixture[str], article: Path) -> None:
    with_params = [n for n in algorithm_names() if get_algorithm(n).params]
    if not with_params:
        pytest.skip("no registered algorithm has parameters")
    name = with_params[0]
    param, spec = next(iter(get_algorithm(name).params.items()))
    default = run(capsys, "extract", "-a", name, str(article))
    explicit = run(capsys, "extract", "-a", name, "--param", f"{param}={spec.default:g}", str(article))
    assert explicit == default
    status, out, err = run(capsys, "extract", "-a", name, "--param", f"{param}=1e99", str(article))
    assert status == 2 and out == "" and "out of range" in err


def test_extract_usage_errors(capsys: pytest.CaptureFixture[str], article: Path) -> None:
    status, _, err = run(capsys, "extract", "-a", "no-such-algorithm", str(article))
    assert status == 2 and "unknown algorithm 'no-such-algorithm'; choose one of: " in err and "cectd-ds" in err
    status, _, err = run(capsys, "extract", "--param", "nonsense=1", str(article))
    assert status == 2 and "unknown parameter(s) nonsense" in err
    status, _, err = run(capsys, "extract", "--param", "beta", str(article))
    assert status == 2 and "expected name=value" in err
    status, _, err = run(capsys, "extract", "--param", "beta=high", str(article))
    assert status == 2 and "not a number" in err
    assert main(["extract"]) == 2  # argparse: FILE is required
    assert main(["--help"]) == 0
    capsys.readouterr()


def test_bad_files_are_reported_and_the_others_processed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, article: Path
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    broken = tmp_path / "broken.html.gz"
    broken.write_bytes(gzip.compress(b"<html><body><p>cut short</p></body></html>")[:20])
    pdf = tmp_path / "paper.html"
    pdf.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    missing = tmp_path / "missing.html"
    status, out, err = run(capsys, "extract", str(empty), str(article), str(broken), str(pdf), str(missing))
    assert status == 1
    assert out.splitlines()[:2] == [f"==> {article} <==", FIRST_PARAGRAPH]
    assert f"==> {empty} <==" not in out
    errors = err.splitlines()
    assert errors == [
        f"scrapy-cetd: error: {empty}: no HTML to extract from (empty)",
        f"scrapy-cetd: error: {broken}: broken gzip data "
        "(Compressed file ended before the end-of-stream marker was reached)",
        f"scrapy-cetd: error: {pdf}: no HTML to extract from (binary:pdf)",
        f"scrapy-cetd: error: {missing}: No such file or directory",
    ]


def test_a_page_without_text_says_why_on_stderr_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, article: Path
) -> None:
    blank = tmp_path / "blank.html"
    blank.write_text("<html><head><title>Blank</title></head><body><div></div></body></html>")
    head_only = tmp_path / "head.html"
    head_only.write_text("<html><head><title>Only a head</title><meta charset=utf-8></head></html>")
    frames = tmp_path / "frames.html"
    frames.write_text('<html><frameset><frame src="a.html"></frameset></html>')
    status, out, err = run(capsys, "extract", str(blank), str(article), str(head_only), str(frames))
    assert status == 1
    assert out.splitlines()[:2] == [f"==> {article} <==", FIRST_PARAGRAPH]
    assert f"==> {blank} <==" not in out
    errors = err.splitlines()
    assert len(errors) == 3
    assert errors[0].startswith(f"scrapy-cetd: {blank}: nothing extracted (no-text): the page's <body> holds no text")
    assert errors[1].startswith(f"scrapy-cetd: {head_only}: nothing extracted (no-text): ")
    assert errors[2].startswith(f"scrapy-cetd: {frames}: nothing extracted (frameset): a frameset page")


def test_json_output_keeps_the_record_of_a_page_without_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "blank.html"
    page.write_text("<html><head><title>Blank</title></head><body><div></div></body></html>")
    status, out, err = run(capsys, "extract", "-f", "json", str(page))
    assert status == 1 and err.startswith(f"scrapy-cetd: {page}: nothing extracted (no-text)")
    record = json.loads(out)
    assert record["text"] == "" and record["reason"] == "no-text" and record["title"] == "Blank"


def test_json_output_has_a_record_for_every_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, article: Path
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    binary = tmp_path / "doc.html"
    binary.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    broken = tmp_path / "broken.html.gz"
    broken.write_bytes(gzip.compress(b"<p>cut</p>")[:12])
    missing = tmp_path / "missing.html"
    files = [empty, binary, missing, broken, article]
    status, out, err = run(capsys, "extract", "-f", "json", "--url", "https://news.example/a", *map(str, files))
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and [r["file"] for r in records] == list(map(str, files))
    assert [r["reason"] for r in records] == ["empty", "binary:pdf", "unreadable", "unreadable", None]
    assert [r.get("error") for r in records] == [
        None, None, "No such file or directory", records[3]["error"], None
    ] and records[3]["error"].startswith("broken gzip data")
    assert all(r["text"] == "" and r["url"] == "https://news.example/a" for r in records[:4])
    assert records[4]["text"].splitlines()[0] == FIRST_PARAGRAPH
    assert {r["algorithm"] for r in records} == {DEFAULT_ALGORITHM}
    assert {r["threshold_coefficient"] for r in records} == {get_algorithm(DEFAULT_ALGORITHM).default_coefficient}
    assert len(err.splitlines()) == 4  # a line on stderr for each input without text, as before


def test_json_record_has_markdown_comments_and_diagnostics_on_request(
    capsys: pytest.CaptureFixture[str], article: Path
) -> None:
    status, out, _ = run(capsys, "extract", "-f", "json", str(article))
    record = json.loads(out)
    assert status == 0 and not {"markdown", "comments", "diagnostics"} & set(record)
    assert {"file", "text", "html", "title", "url", "reason", "metadata"} <= set(record)
    status, out, _ = run(capsys, "extract", "-f", "json", "--with-markdown", "--with-comments", str(article))
    record = json.loads(out)
    _, markdown, _ = run(capsys, "extract", "-f", "markdown", str(article))
    assert status == 0 and record["markdown"] + "\n" == markdown and FIRST_PARAGRAPH in record["markdown"]
    assert record["comments"] == "" and "diagnostics" not in record  # the page has no comment section
    status, out, err = run(capsys, "extract", "--with-markdown", str(article))
    assert status == 2 and out == "" and "--with-markdown and --with-comments add fields to --format json" in err


def test_help_has_examples_and_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:\n  scrapy-cetd extract page.html " in out
    assert "exit status of extract:\n  0  every file gave text\n  1  " in out
    assert f"The default algorithm is {DEFAULT_ALGORITHM}." in out
    assert main(["extract", "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "exit status of extract:" in out


def test_extract_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE_GZ.read_bytes())))
    status, out, _ = run(capsys, "extract", "-")
    assert status == 0 and out.splitlines()[0] == FIRST_PARAGRAPH


def test_python_dash_m_runs_the_command_line(article: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scrapy_cetd", "extract", str(article), str(article.with_name("nope.html"))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[1] == FIRST_PARAGRAPH
    assert done.stderr.strip() == f"scrapy-cetd: error: {article.with_name('nope.html')}: No such file or directory"


def test_algorithms_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "algorithms")
    assert status == 0
    listed = [line.split(":")[0].removesuffix(" (default)") for line in out.splitlines() if not line.startswith(" ")]
    assert listed == algorithm_names()
    assert [line for line in out.splitlines() if " (default): " in line] == [
        f"{DEFAULT_ALGORITHM} (default): {get_algorithm(DEFAULT_ALGORITHM).summary}"
    ]
    papers = [line for line in out.splitlines() if line.startswith("    paper: ")]
    assert len(papers) == len(algorithm_names()) and not [p for p in papers if "seed" in p]
    assert "    paper: Sun, Song, Liao: CETD: Content Extraction via Text Density, SIGIR 2011" in papers


def test_evaluate_prints_the_table_and_writes_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_json = tmp_path / "out.json"
    status, out, _ = run(
        capsys, "evaluate", str(TINY_WCXB), "-a", "cectd-ds,cetd-ds", "--split", "first-half", "--json", str(out_json)
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("tiny-wcxb: 2 pages (article 1, forum 1)")
    assert [line.split("|")[1].strip() for line in lines[4:]] == [
        "cectd-ds", "cetd-ds", "lxml parse alone (reference)"
    ]
    f1 = (112 / 117 + 84 / 86) / 2
    assert lines[4].split("|")[2].strip() == f"{f1:.3f}"
    assert "text output" in lines[0]
    data = json.loads(out_json.read_text())
    assert data["selection"] == {"split": "first-half"}
    assert [p["id"] for p in data["per_page"]] == ["0001", "0002"]
    assert data["extractors"][0]["with_html"] is False


def test_evaluate_can_time_the_cleaned_html_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_json = tmp_path / "out.json"
    status, out, _ = run(capsys, "evaluate", str(TINY_WCXB), "-a", "cectd-ds", "--with-html", "--json", str(out_json))
    assert status == 0 and "algorithms with their cleaned HTML" in out.splitlines()[0]
    assert json.loads(out_json.read_text())["extractors"][0]["with_html"] is True


def test_evaluate_all_picks_up_every_registered_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "evaluate", str(TINY_WCXB), "--algorithm", "all", "--limit", "1")
    assert status == 0
    rows = [line.split("|")[1].strip() for line in out.splitlines()[4:]]
    assert rows == algorithm_names() + ["lxml parse alone (reference)"]


def test_evaluate_parameters_per_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "evaluate", str(TINY_WCXB), "-a", "cectd-ds", "-c", "0", "--page-type", "article")
    assert status == 0
    row = out.splitlines()[4].split("|")
    assert row[1].strip() == "cectd-ds (coefficient=0)" and row[2].strip() == f"{112 / 126:.3f}"
    status, _, err = run(capsys, "evaluate", str(TINY_WCXB), "-a", "cectd-ds", "--param", "nonsense=2")
    assert status == 2 and "no evaluated algorithm has a parameter 'nonsense'" in err
    status, _, err = run(capsys, "evaluate", str(TINY_WCXB), "-a", "cectd-ds", "--param", "cetd-ds:x=2")
    assert status == 2 and "'cetd-ds' is not among the evaluated algorithms" in err


def test_evaluate_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "evaluate", str(tmp_path))
    assert status == 2 and "not a dataset" in err
    status, _, err = run(capsys, "evaluate", str(TINY_WCXB), "--ids-from", "9000")
    assert status == 2 and "no pages selected" in err
    status, _, err = run(capsys, "evaluate", str(TINY_WCXB), "--peer", "lynx")
    assert status == 2 and "unknown peer(s) lynx" in err


def test_tradeoff_writes_a_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "tradeoff.png"
    status, out, _ = run(capsys, "tradeoff", str(TINY_WCXB), "--out", str(plot), "--coefficients", "0,1")
    assert status == 0 and plot.read_bytes().startswith(b"\x89PNG")
    # Page 0001 at coefficient 1: its 56 words, the headline (5 words) in the title only.
    assert out.splitlines()[-1] == f"| 1 | {(1 + 42 / 44 + 0 + 1) / 4:.3f} | {(2 + 45 / 49) / 4:.3f} | " + (
        f"{(1 + 84 / 86 + 90 / 94) / 4:.3f} |"
    )


def test_tradeoff_without_matplotlib(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    status, _, err = run(capsys, "tradeoff", str(TINY_WCXB), "--out", str(tmp_path / "p.png"))
    assert status == 2
    assert err.strip() == (
        "scrapy-cetd: error: the tradeoff plot needs matplotlib: "
        "pip install 'scrapy-cetd[plot]' (or pip install matplotlib)"
    )
    assert not (tmp_path / "p.png").exists()


def test_tradeoff_refuses_coefficients_out_of_range(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    status, _, err = run(capsys, "tradeoff", str(TINY_WCXB), "-o", str(tmp_path / "p.png"), "--coefficients", "-1")
    assert status == 2 and "out of range" in err


def test_tradeoff_checks_its_arguments_before_the_sweep(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    status, _, err = run(capsys, "tradeoff", str(TINY_WCXB), "-o", str(tmp_path / "plot.xyz"))
    assert status == 2 and "unknown image format" in err and "png" in err
    status, _, err = run(capsys, "tradeoff", str(TINY_WCXB), "-o", str(tmp_path / "no" / "plot.png"))
    assert status == 2 and "no such directory" in err
    status, _, err = run(capsys, "tradeoff", str(TINY_WCXB), "-o", str(tmp_path / "p.png"), "-a", "all")
    assert status == 2 and "unknown algorithm 'all'" in err and "tradeoff takes one algorithm" in err
    status, _, err = run(capsys, "tradeoff", str(TINY_WCXB), "-o", str(tmp_path / "p.png"), "--coefficients", "0,x")
    assert status == 2 and "--coefficients: 'x' is not a number" in err


def test_evaluate_reports_a_broken_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "p1.html.gz").write_bytes(gzip.compress(b"<html><body><p>x</p></body></html>")[:15])
    (tmp_path / "ground-truth.json").write_text(json.dumps({"p1": {"articleBody": "x", "url": None}}))
    status, out, err = run(capsys, "evaluate", str(tmp_path))
    assert status == 2 and out == ""
    assert err.startswith(f"scrapy-cetd: error: {tmp_path / 'html' / 'p1.html.gz'}: cannot read the page (")


def test_inputs_past_the_size_limit_are_too_large_and_not_read_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, article: Path
) -> None:
    big = tmp_path / "big.html"
    big.write_bytes(article.read_bytes().ljust(1001)[:1001])
    exact = tmp_path / "exact.html"
    exact.write_bytes(b"<html><body><p>" + b"Some words of text. " * 40 + b"</p></body></html>")
    assert len(exact.read_bytes()) <= 1000
    bomb = tmp_path / "bomb.html.gz"
    bomb.write_bytes(gzip.compress(b"<p>" + b" " * 2000))
    status, out, err = run(capsys, "extract", "--max-size", "1000", str(big), str(bomb), str(exact))
    assert status == 1
    assert err.splitlines() == [  # the message names the limit that applies: the option's
        f"scrapy-cetd: error: {big}: larger than 1,000 bytes (--max-size 1000)",
        f"scrapy-cetd: error: {bomb}: gzip data expands to more than 1,000 bytes (--max-size 1000)",
    ]
    assert "Some words of text." in out  # the next file is read
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"<p>" + b"x" * 2000)))
    status, _, err = run(capsys, "extract", "-", "--max-size", "1k")
    assert status == 1 and err == "scrapy-cetd: error: <stdin>: larger than 1,024 bytes (--max-size 1024)\n"
    if Path("/dev/zero").exists():  # endless: read up to the limit only
        status, _, err = run(capsys, "extract", "/dev/zero", "--max-size", "1000")
        assert status == 1 and "/dev/zero: larger than 1,000 bytes" in err


def test_the_size_limit_defaults_to_the_crawls_and_0_lifts_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from scrapy_cetd.limits import DEFAULT_MAX_SIZE

    big = tmp_path / "big.html"
    big.write_bytes(b"<html><body><p>Some words of text.</p>" + b" " * DEFAULT_MAX_SIZE + b"</body></html>")
    status, out, err = run(capsys, "extract", str(big))
    assert status == 1 and out == ""
    assert err == f"scrapy-cetd: error: {big}: larger than {DEFAULT_MAX_SIZE:,} bytes (--max-size {DEFAULT_MAX_SIZE})\n"
    status, out, err = run(capsys, "extract", str(big), "--max-size", "0")
    assert (status, out, err) == (0, "Some words of text.\n", "")
    status, out, err = run(capsys, "extract", str(big), "--max-size", "-1")
    assert status == 2 and "'-1' must be at least 0" in err


def test_a_page_whose_extraction_raises_is_an_error_and_the_next_file_is_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, article: Path
) -> None:
    from scrapy_cetd.cli import extract as extract_command

    real = extract_command.extract

    def raising(data: bytes, **kwargs: object) -> object:  # e.g. a charset Python cannot decode text with
        if b"boom" in data:
            raise LookupError("'hex' is not a text encoding")
        return real(data, **kwargs)

    monkeypatch.setattr(extract_command, "extract", raising)
    boom = tmp_path / "boom.html"
    boom.write_bytes(b"<html><head><meta charset='hex'></head><body><p>boom</p></body></html>")
    status, out, err = run(capsys, "extract", str(boom), str(article))
    assert status == 1
    assert err == f"scrapy-cetd: error: {boom}: extraction failed (LookupError: 'hex' is not a text encoding)\n"
    assert FIRST_PARAGRAPH in out
    status, out, err = run(capsys, "extract", str(boom), str(article), "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["file"], r["reason"], r.get("error")) for r in records] == [
        (str(boom), "error", "extraction failed (LookupError: 'hex' is not a text encoding)"),
        (str(article), None, None),
    ]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_file_name_that_is_not_utf8_is_written_as_utf8(
    monkeypatch: pytest.MonkeyPatch, article: Path, fmt: str
) -> None:
    """A name's undecodable bytes (Python holds them as lone surrogates) are U+FFFD in the
    output, as in every output of a page: a UTF-8 stdout raised UnicodeEncodeError (a
    traceback, the next files never read), and JSON Lines under a C locale held a raw \\xff."""
    odd = article.with_name(os.fsdecode(b"caf\xe9.html"))
    odd.write_bytes(article.read_bytes())
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdout", stdout)
    status = main(["extract", "-f", fmt, str(odd), str(article)])
    stdout.flush()
    out = stdout.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
    assert status == 0
    shown = str(odd.with_name("caf\ufffd.html"))
    if fmt == "json":
        records = [json.loads(line) for line in out.splitlines()]
        assert [r["file"] for r in records] == [shown, str(article)]
        assert records[0]["text"] == records[1]["text"]
    else:
        assert f"==> {shown} <==" in out and f"==> {article} <==" in out


def test_a_closed_stdin_is_unreadable_and_the_next_file_is_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, article: Path
) -> None:
    # `scrapy-cetd extract - <&-`: Python's sys.stdin is None, and reading it raised
    # AttributeError (a traceback, the files after it never read).
    monkeypatch.setattr(sys, "stdin", None)
    status, out, err = run(capsys, "extract", "-", str(article))
    assert status == 1
    assert err.strip() == "scrapy-cetd: error: <stdin>: no standard input (it is closed)"
    assert out.splitlines()[:2] == [f"==> {article} <==", FIRST_PARAGRAPH]
