"""The evaluation harness on the tiny committed datasets, with scores counted by hand.

``tests/fixtures/tiny-wcxb`` (word-bag metric), words per page:

- 0001 article: gold = 3 paragraphs, 16 + 20 + 20 = 56 words; cectd-ds extracts the
  5-word headline and the paragraphs (61 words): P 56/61, R 1.  At coefficient 0 the
  whole body: 6 menu + 61 + 3 footer = 70 words, P 56/70.
- 0002 forum: gold = 2 posts, 21 + 21 = 42 words; extraction adds the two user names
  (44 words): P 42/44, R 1.  At coefficient 0: 7 menu + 44 + 3 footer = 54 words.
- 0003 product: no ``main_content`` (empty gold), a non-empty extraction: all 0.
- 0004 service: extraction = 2 paragraphs, 23 + 22 = 45 words; gold adds a 4-word
  sentence the page lacks (49 words): P 1, R 45/49.  At coefficient 0: 4 + 45 + 2 = 51.

The LCS scores equal the word-bag ones on these pages (the extraction keeps gold order).

``tests/fixtures/tiny-aeb`` (4-gram shingles, case kept):

- alpha: the 0001 page, gold 56 tokens (53 shingles), extraction 61 tokens (58
  shingles): tp 53, fp 5, fn 0.
- beta: an empty page, gold "Short note." (one shingle): tp 0, fp 0, fn 1, left out of
  the precision mean.
- gamma: the 0003 page, extraction "Blue kettle A quiet ..." 20 tokens (17 shingles),
  gold "a quiet ..." 18 tokens (15 shingles) whose first shingle has "a" not "A":
  tp 14, fp 3, fn 1.
"""

from __future__ import annotations

import gzip
import io
import json
import statistics
import sys
from pathlib import Path

import pytest

from scrapy_cetd import algorithm_names, get_algorithm
from scrapy_cetd.cli import main
from scrapy_cetd.evaluation import peers
from scrapy_cetd.evaluation.datasets import DatasetError, gold_text, load_dataset, select_pages
from scrapy_cetd.evaluation.metrics import SnippetCounts, snippet_counts, snippet_scores
from scrapy_cetd.evaluation.progress import Progress
from scrapy_cetd.evaluation.report import markdown_report, write_json
from scrapy_cetd.evaluation.runner import Extractor, run_evaluation
from scrapy_cetd.evaluation.tradeoff import plot_tradeoff, sweep

FIXTURES = Path(__file__).parent / "fixtures"
TINY_WCXB = FIXTURES / "tiny-wcxb"
TINY_AEB = FIXTURES / "tiny-aeb"

# Per-page (P, R) of cectd-ds on tiny-wcxb, in id order, counted by hand (module docstring).
WCXB_PR = [(56 / 61, 1.0), (42 / 44, 1.0), (0.0, 0.0), (1.0, 45 / 49)]
WCXB_F1 = [112 / 117, 84 / 86, 0.0, 90 / 94]
AEB_PRECISION = (53 / 58 + 14 / 17) / 2
AEB_RECALL = (1.0 + 0.0 + 14 / 15) / 3


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def evaluate_tiny(path: Path, *extractors: Extractor, jobs: int = 1):  # type: ignore[no-untyped-def]
    dataset = load_dataset(path)
    return run_evaluation(
        dataset.pages, list(extractors), metric=dataset.metric, dataset=str(path), layout=dataset.layout, jobs=jobs
    )


def test_layouts_are_detected() -> None:
    wcxb = load_dataset(TINY_WCXB)
    assert (wcxb.layout, wcxb.metric) == ("wcxb", "word")
    assert [p.page_id for p in wcxb.pages] == ["0001", "0002", "0003", "0004"]
    assert [p.page_type for p in wcxb.pages] == ["article", "forum", "product", "service"]
    assert wcxb.pages[2].gold == ""  # main_content missing: empty gold
    aeb = load_dataset(TINY_AEB)
    assert (aeb.layout, aeb.metric) == ("aeb", "shingle")
    assert [p.page_id for p in aeb.pages] == ["alpha", "beta", "gamma"]
    assert aeb.pages[1].gold == "Short note." and aeb.pages[0].page_type is None


def test_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="not a dataset"):
        load_dataset(tmp_path)


def test_pages_without_html_are_listed(tmp_path: Path) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "ground-truth.json").write_text(json.dumps({"x1": {"articleBody": "a", "url": None}}))
    dataset = load_dataset(tmp_path)
    assert dataset.pages == [] and dataset.missing_html == ["x1"]


def test_page_selection_by_sorted_id() -> None:
    pages = load_dataset(TINY_WCXB).pages
    ids = lambda selected: [p.page_id for p in selected]  # noqa: E731
    assert ids(select_pages(pages, split="first-half")) == ["0001", "0002"]
    assert ids(select_pages(pages, split="second-half")) == ["0003", "0004"]
    assert ids(select_pages(pages, ids_from="2", ids_to="0003")) == ["0002", "0003"]
    assert ids(select_pages(pages, ids_from="0002", split="first-half")) == ["0002", "0003"]
    assert ids(select_pages(pages, page_types=["forum", "service"])) == ["0002", "0004"]
    # The halves are the dataset's, whatever the page types: no held-out page in the first.
    assert ids(select_pages(pages, page_types=["product", "service"], split="first-half")) == []
    assert ids(select_pages(pages, limit=3, split="second-half")) == ["0003", "0004"]
    aeb = load_dataset(TINY_AEB).pages
    assert ids(select_pages(aeb, split="first-half")) == ["alpha", "beta"]  # ceil(3 / 2)
    assert ids(select_pages(aeb, split="second-half")) == ["gamma"]
    assert ids(select_pages(aeb, ids_from="b")) == ["beta", "gamma"]
    with pytest.raises(ValueError, match="numbers"):
        select_pages(pages, ids_from="abc")


def test_evaluate_wcxb_layout() -> None:
    run = evaluate_tiny(TINY_WCXB, Extractor.algorithm("cectd-ds"))
    (summary,) = run.summaries
    assert summary.scores.precision == pytest.approx(mean([p for p, _ in WCXB_PR]))
    assert summary.scores.recall == pytest.approx(mean([r for _, r in WCXB_PR]))
    assert summary.scores.f1 == pytest.approx(mean(WCXB_F1))
    assert summary.lcs.precision == pytest.approx(mean([p for p, _ in WCXB_PR]))
    assert summary.lcs.recall == pytest.approx(mean([r for _, r in WCXB_PR]))
    assert summary.lcs.f1 == pytest.approx(mean(WCXB_F1))
    assert summary.by_type == pytest.approx(dict(zip(["article", "forum", "product", "service"], WCXB_F1)))
    assert summary.errors == 0
    first = run.results[0].outcomes["cectd-ds"]
    assert (first["precision"], first["recall"]) == pytest.approx(WCXB_PR[0])


@pytest.mark.parametrize("timer", ["cpu", "wall"])
def test_timing_is_per_page_and_relative_to_lxml(timer: str) -> None:
    dataset = load_dataset(TINY_WCXB)
    extractors = [Extractor.algorithm("cectd-ds"), Extractor.algorithm("cetd-ds")]
    run = run_evaluation(dataset.pages, extractors, metric="word", timer=timer)
    assert all(r.lxml_ms["cpu"] > 0 and r.lxml_ms["wall"] > 0 for r in run.results)
    assert run.lxml_median_ms == pytest.approx(statistics.median(r.lxml_ms[timer] for r in run.results))
    for summary in run.summaries:
        times = [r.outcomes[summary.label][f"{timer}_ms"] for r in run.results]
        assert all(t > 0 for t in times)
        assert summary.median_ms == pytest.approx(statistics.median(times))
        assert summary.total_ms == pytest.approx(sum(times))
        # Each extractor against the lxml parse timed just before it on the same page.
        references = [r.outcomes[summary.label][f"lxml_{timer}_ms"] for r in run.results]
        assert all(t > 0 for t in references)
        assert summary.ratio_to_lxml == pytest.approx(summary.median_ms / statistics.median(references))


def test_evaluate_article_benchmark_layout() -> None:
    run = evaluate_tiny(TINY_AEB, Extractor.algorithm("cectd-ds"))
    (summary,) = run.summaries
    assert summary.scores.precision == pytest.approx(AEB_PRECISION)
    assert summary.scores.recall == pytest.approx(AEB_RECALL)
    assert summary.scores.f1 == pytest.approx(2 * AEB_PRECISION * AEB_RECALL / (AEB_PRECISION + AEB_RECALL))
    counts = [(o["tp"], o["fp"], o["fn"]) for o in (r.outcomes["cectd-ds"] for r in run.results)]
    assert counts == [(53, 5, 0), (0, 0, 1), (14, 3, 1)]
    # LCS on lower-case words: alpha 56/61, beta nothing extracted (0), gamma 18 of 20 words
    assert summary.lcs.precision == pytest.approx((56 / 61 + 0 + 18 / 20) / 3)
    assert summary.lcs.recall == pytest.approx((1 + 0 + 1) / 3)
    assert summary.by_type == {}


def test_worker_processes_give_the_same_scores() -> None:
    extractor = Extractor.algorithm("cectd-ds")
    alone = evaluate_tiny(TINY_WCXB, extractor)
    pooled = evaluate_tiny(TINY_WCXB, extractor, jobs=2)
    assert [r.page_id for r in pooled.results] == ["0001", "0002", "0003", "0004"]
    for a, b in zip(alone.results, pooled.results):
        assert a.outcomes["cectd-ds"]["f1"] == b.outcomes["cectd-ds"]["f1"]
        assert b.lxml_ms["cpu"] > 0 and b.outcomes["cectd-ds"]["cpu_ms"] > 0


def test_algorithm_options_are_validated_and_labelled() -> None:
    with pytest.raises(ValueError, match="unknown algorithm"):
        Extractor.algorithm("no-such-algorithm")
    with pytest.raises(ValueError, match="unknown parameter"):
        Extractor.algorithm("cectd-ds", params={"nonsense": 1})
    extractor = Extractor.algorithm("cectd-ds", threshold_coefficient=0)
    assert extractor.label == "cectd-ds (coefficient=0)"
    run = evaluate_tiny(TINY_WCXB, extractor)
    assert run.summaries[0].scores.f1 == pytest.approx(mean([112 / 126, 84 / 96, 0.0, 90 / 100]))


def test_markdown_and_json_reports(tmp_path: Path) -> None:
    run = evaluate_tiny(TINY_WCXB, Extractor.algorithm("cectd-ds"), Extractor.algorithm("cetd-ds"))
    table = markdown_report(run).splitlines()
    assert table[0].startswith("tiny-wcxb: 4 pages (article 1, forum 1, product 1, service 1)")
    header = [cell.strip() for cell in table[2].strip("|").split("|")]
    assert header == [
        "extractor", "F1", "P", "R", "LCS P", "LCS R", "LCS F1",
        "article F1", "forum F1", "product F1", "service F1", "median ms/page", "total s", "x lxml",
    ]
    row = [cell.strip() for cell in table[4].strip("|").split("|")]
    assert row[:2] == ["cectd-ds", f"{mean(WCXB_F1):.3f}"]
    assert row[7:11] == [f"{f:.3f}" for f in WCXB_F1]
    assert table[-1].startswith("| lxml parse alone (reference) |")
    out = tmp_path / "run.json"
    write_json(run, out)
    data = json.loads(out.read_text())
    assert data["pages"] == 4 and data["layout"] == "wcxb" and data["metric"] == "word"
    assert [e["name"] for e in data["extractors"]] == ["cectd-ds", "cetd-ds"]
    assert data["per_page"][3]["extractors"]["cectd-ds"]["recall"] == pytest.approx(45 / 49)
    assert data["summary"][0]["f1_by_page_type"]["service"] == pytest.approx(90 / 94)


def test_a_failing_extractor_scores_empty_with_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(html: str, url: str | None) -> str:
        raise RuntimeError("boom")

    monkeypatch.setitem(peers.PEERS, "trafilatura", peers.Peer("trafilatura", "json", "no-such-dist", broken))
    run = evaluate_tiny(TINY_WCXB, Extractor.peer("trafilatura"))
    (summary,) = run.summaries
    assert summary.errors == 4
    assert run.results[0].outcomes["trafilatura"]["error"] == "RuntimeError: boom"
    assert summary.scores.f1 == pytest.approx(0.25)  # only the empty-gold page scores (1)
    assert "| errors |" in markdown_report(run)


def test_absent_peers_are_skipped(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for peer in peers.PEERS.values():
        monkeypatch.setitem(sys.modules, peer.module, None)  # import fails as if not installed
    assert peers.available_peers() == []
    assert main(["evaluate", str(TINY_WCXB), "--algorithm", "cectd-ds", "--peers"]) == 0
    captured = capsys.readouterr()
    rows = [line for line in captured.out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split("|")[1].strip() for row in rows] == ["extractor", "cectd-ds", "lxml parse alone (reference)"]
    assert "peer trafilatura is not installed; skipped" in captured.err
    assert "peer resiliparse is not installed; skipped" in captured.err
    assert main(["evaluate", str(TINY_WCXB), "--peer", "justext", "--peer", "justext"]) == 0
    assert capsys.readouterr().err == "scrapy-cetd: note: peer justext is not installed; skipped\n"


def test_one_absent_peer_leaves_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "trafilatura", None)
    assert "trafilatura" not in peers.available_peers()


@pytest.mark.parametrize("name", list(peers.PEERS))
def test_installed_peers_run_side_by_side(name: str) -> None:
    peer = peers.PEERS[name]
    pytest.importorskip(peer.module)
    run = evaluate_tiny(TINY_WCXB, Extractor.algorithm("cectd-ds"), Extractor.peer(name))
    labels = [s.label for s in run.summaries]
    assert labels[0] == "cectd-ds" and labels[1].startswith(name)
    assert run.summaries[1].errors == 0
    assert all(r.outcomes[labels[1]]["wall_ms"] > 0 for r in run.results)


def test_tradeoff_sweep_matches_the_evaluation() -> None:
    pages = load_dataset(TINY_WCXB).pages
    points = sweep(pages, "cectd-ds", [0.0, 1.0], metric="word")
    assert [p.coefficient for p in points] == [0.0, 1.0]
    assert points[0].scores.f1 == pytest.approx(mean([112 / 126, 84 / 96, 0.0, 90 / 100]))
    assert points[0].scores.precision == pytest.approx(mean([56 / 70, 42 / 54, 0.0, 45 / 51]))
    assert points[1].scores.f1 == pytest.approx(mean(WCXB_F1))
    lcs_points = sweep(pages, "cectd-ds", [1.0], metric="word", use_lcs=True)
    assert lcs_points[0].scores.recall == pytest.approx(mean([1.0, 1.0, 0.0, 45 / 49]))


def test_tradeoff_plot_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    points = sweep(load_dataset(TINY_WCXB).pages, "cectd-ds", [0.0, 0.5, 1.0], metric="word")
    out = tmp_path / "plot.png"
    plot_tradeoff(points, out, title="cectd-ds on tiny-wcxb", default_coefficient=1.0)
    assert out.read_bytes().startswith(b"\x89PNG")


def test_progress_is_quiet_unless_on_a_terminal() -> None:
    quiet = io.StringIO()
    with Progress(3, "evaluate", stream=quiet) as bar:
        bar.update(3)
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    with Progress(4, "evaluate", stream=shown, enabled=True) as bar:
        bar.update(4)
    assert shown.getvalue().startswith("\revaluate [" + "#" * 30 + "] 4/4 ")
    assert shown.getvalue().endswith("\n") and shown.getvalue().count("\r") == 1


@pytest.mark.parametrize("name", algorithm_names())
def test_tradeoff_reuses_one_parse_without_changing_results(name: str) -> None:
    """The sweep runs an algorithm many times on one Page: results must equal ``extract``'s."""
    pages = load_dataset(TINY_WCXB).pages
    default = get_algorithm(name).default_coefficient
    points = sweep(pages, name, [default, 0.0, default], metric="word")
    assert points[0].scores == points[2].scores
    run = evaluate_tiny(TINY_WCXB, Extractor.algorithm(name))
    assert points[0].scores.f1 == pytest.approx(run.summaries[0].scores.f1)


@pytest.mark.parametrize("metadata", [False, True])
def test_ctrl_c_stops_a_run_with_jobs_at_once(tmp_path: Path, metadata: bool) -> None:
    """Two Ctrl-C (SIGINT to the process group, as a terminal sends it) during evaluate
    --jobs 2: the workers ignore it and are stopped by the command, which exits 130 at
    once without a traceback (the pool waited on workers that had caught it too: the
    command hung, over 120 s, with a KeyboardInterrupt traceback from threading's exit)."""
    import os
    import signal
    import subprocess
    import time

    tiny = Path(__file__).parent / "fixtures" / "tiny-wcxb"
    (tmp_path / "html").mkdir()
    (tmp_path / "ground-truth").mkdir()
    # Pages of half a megabyte each: the run takes minutes on any machine (with tiny pages
    # a fast machine finished it before the interrupt), and is stopped after a few seconds.
    paragraphs = "".join(f"<p>Paragraph {i} of the story, <a href='/l{i}'>a link</a> in it.</p>" for i in range(6000))
    page = gzip.compress(f"<html><head><title>Big</title></head><body>{paragraphs}</body></html>".encode())
    gold = (tiny / "ground-truth" / "0001.json").read_bytes()
    for n in range(1, 801):
        (tmp_path / "html" / f"{n:04d}.html.gz").write_bytes(page)
        (tmp_path / "ground-truth" / f"{n:04d}.json").write_bytes(gold)
    argv = [sys.executable, "-m", "scrapy_cetd", "evaluate", str(tmp_path), "--jobs", "2"]
    argv += ["--metadata"] if metadata else ["-a", "all"]
    process = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's shell leaves it
    )
    try:
        time.sleep(6)  # the workers have started and work
        assert process.poll() is None, "the run ended before the interrupt"
        for _ in range(2):
            os.killpg(process.pid, signal.SIGINT)
            time.sleep(0.3)
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("the run did not stop within 30 s of two Ctrl-C")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()  # the pipe closed whatever happened
    # 130, or killed by the second SIGINT once Python, exiting, has restored its default
    # action (a shell shows 130 for both)
    assert process.returncode in (130, -signal.SIGINT) and "Traceback" not in err, err[-2000:]


# ``tests/fixtures/tiny-trafilatura`` (trafilatura's snippet metric), counted by hand: page
# one.example.alpha's text holds its whole paragraph: "Alpha  beta" found (white space is
# normalized on both sides), "missing words" not, "gamma delta" found (a false positive),
# "not there" not: tp 1, fn 1, fp 1, tn 1; two.example.empty gives no text: its one
# snippet is missed, fn 1.  Totals tp 1, fp 1, fn 2, tn 1.
TINY_TRAFILATURA = FIXTURES / "tiny-trafilatura"
# ``tests/fixtures/tiny-readability``: one case whose expected.html is the article's two
# paragraphs, which every algorithm keeps whole (the byline is a separate label).
TINY_READABILITY = FIXTURES / "tiny-readability"


def test_trafilatura_and_readability_layouts_are_detected() -> None:
    snippets = load_dataset(TINY_TRAFILATURA)
    assert (snippets.layout, snippets.metric, snippets.name) == ("trafilatura", "snippet", "tiny-trafilatura")
    alpha, empty = snippets.pages
    assert alpha.page_id == "one.example.alpha" and alpha.url == "https://one.example/alpha"
    assert alpha.without_snippets == ("gamma delta", "not there")
    # a list of authors is one label; trafilatura's "date" is the publish date
    assert alpha.labels == {"title": "Alpha", "author": "Ann Example; Bo Example", "publish_date": "2020-01-02"}
    assert empty.labels == {"title": None, "author": None, "publish_date": None}
    readability = load_dataset(TINY_READABILITY)
    assert (readability.layout, readability.metric) == ("readability", "word")
    (otters,) = readability.pages
    assert otters.labels == {"title": "Otters return", "author": "By Jo Brook"}  # no date label at all
    assert gold_text(otters).split() == (
        "Otters have returned to the river after an absence of forty years, volunteers said on Monday. "
        "The animals were seen near the old mill, where the water is now clean enough for fish."
    ).split()


def test_snippet_counts_normalize_white_space() -> None:
    counts = snippet_counts("Alpha\n beta  gamma", ["alpha beta", "Alpha beta", "beta\tgamma"], ["gamma", "delta"])
    assert counts == SnippetCounts(tp=2, fp=1, fn=1, tn=1)  # case is kept: "alpha beta" is missed
    scores, accuracy = snippet_scores([counts, SnippetCounts(0, 0, 3, 0)])
    assert (scores.precision, scores.recall, accuracy) == (2 / 3, 2 / 6, 3 / 8)


def test_the_snippet_metric_sums_counts_over_pages() -> None:
    run = evaluate_tiny(TINY_TRAFILATURA, Extractor.algorithm("cetd-plus"), Extractor.algorithm("cectd-ds"))
    for summary in run.summaries:
        assert (summary.scores.precision, summary.scores.recall) == (0.5, pytest.approx(1 / 3))
        assert summary.scores.f1 == pytest.approx(0.4) and summary.accuracy == pytest.approx(2 / 5)
        assert summary.lcs is None
        # language: <html lang="de-DE"> on the first page, none on the second
        assert summary.by_language == {"de": 0.5}  # tp 1, fp 1, fn 1
    report = markdown_report(run)
    assert "| accuracy |" in report and "LCS" not in report
    assert "0.400" in report


def test_readability_pages_are_scored_against_the_expected_html() -> None:
    run = evaluate_tiny(TINY_READABILITY, Extractor.algorithm("cetd-plus"))
    (summary,) = run.summaries
    assert summary.scores.f1 == 1.0 and summary.by_language == {"en": 1.0}  # the set's "lang": "en-GB"
    assert run.language_counts() == {"en": 1}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_evaluate_several_sets_in_one_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_json = tmp_path / "scores.json"
    status, out, _ = run(
        capsys, "evaluate", str(TINY_WCXB), str(TINY_TRAFILATURA), str(TINY_READABILITY), "-a", "cetd-plus",
        "--json", str(out_json),
    )
    assert status == 0
    table = out[out.index("All sets") :]
    assert "| tiny-wcxb F1 | tiny-trafilatura F1 | tiny-readability F1 |" in table
    row = next(line for line in table.splitlines() if line.startswith("| cetd-plus"))
    assert row.split(" | ")[2:4] == ["0.400", "1.000"]
    written = {path.name for path in tmp_path.iterdir()}
    assert written == {"scores.tiny-wcxb.json", "scores.tiny-trafilatura.json", "scores.tiny-readability.json"}
    saved = json.loads((tmp_path / "scores.tiny-trafilatura.json").read_text())
    assert saved["metric"] == "snippet" and saved["per_page"][0]["language"] == "de"


def test_metadata_of_sets_that_label_some_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "evaluate", str(TINY_READABILITY), str(TINY_TRAFILATURA), "--metadata")
    assert status == 0
    readability, trafilatura = out.split("Metadata on ")[1:]
    ours = next(line for line in readability.splitlines() if line.startswith("| scrapy_cetd"))
    # Readability labels title and byline only: no date accuracy and no date false positives
    assert ours.split(" | ")[1:7] == ["1.00", "1.00", "1.00", "0", "-", "-"]
    ours = next(line for line in trafilatura.splitlines() if line.startswith("| scrapy_cetd"))
    assert ours.split(" | ")[1] == "1.00"  # the title "Alpha" of "Alpha | Site"
