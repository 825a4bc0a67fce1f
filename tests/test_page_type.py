"""Page types, learned: the shipped model's inference, the features, and training's steps."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

import scrapy_cetd
from scrapy_cetd.metadata import features_of_page
from scrapy_cetd.metadata.page_type import (
    FEATURE_NAMES,
    PAGE_TYPES,
    PageTypeModel,
    classify_page,
    declared_types,
    load_model,
)
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.training import Samples, class_scores, save_arrays, site_of

STORY = " ".join(["The council voted on Tuesday to reopen the old library as a reading garden."] * 6)
ARTICLE = f"""<html lang="en"><head><title>Library reopens as a reading garden | The Courier</title>
<meta property="og:type" content="article">
<script type="application/ld+json">{{"@type": "NewsArticle", "headline": "Library reopens",
 "datePublished": "2026-11-02", "author": {{"@type": "Person", "name": "Ann Smith"}}}}</script></head>
<body><nav><a href="/">Home</a> <a href="/local">Local</a> <a href="/sport">Sport</a></nav>
<article><h1>Library reopens as a reading garden</h1><p class="byline">By Ann Smith</p>
{"".join(f"<p>{STORY}</p>" for _ in range(8))}</article>
<footer><a href="/about">About</a> <a href="/contact">Contact</a></footer></body></html>"""
TEASERS = "".join(
    f'<li><h3><a href="/2026/11/story-{k}.html">Story number {k} of the week</a></h3><p>A short teaser.</p></li>'
    for k in range(30)
)
SECTION = f"""<html><head><title>Local news | The Courier</title></head><body>
<nav><a href="/">Home</a> <a href="/local">Local</a></nav><h1>Local news</h1><ul>{TEASERS}</ul></body></html>"""


def page_of(html: str, url: str | None) -> Page:
    return Page(parse_html(html), url)


def test_the_shipped_model_loads_and_matches_the_features() -> None:
    model = load_model()
    assert model.classes == PAGE_TYPES
    assert model.feature_names == FEATURE_NAMES
    assert model.weights.shape == (len(FEATURE_NAMES), len(PAGE_TYPES))
    assert np.isfinite(model.weights).all() and (model.scale > 0).all()


def test_page_type_is_classified_and_the_declared_type_kept_apart() -> None:
    article = scrapy_cetd.extract(ARTICLE, url="https://courier.test/2026/11/library-reopens-as-a-reading-garden")
    assert article.metadata.page_type == "article"
    assert article.metadata.declared_page_type == "NewsArticle"
    section = scrapy_cetd.extract(SECTION, url="https://courier.test/local/")
    assert section.metadata.page_type == "listing"
    assert section.metadata.declared_page_type is None
    assert "declared_page_type" in section.metadata.to_dict()


def test_the_page_type_is_classified_only_when_asked() -> None:
    """``with_page_type=False`` (the crawl's default outputs, which hold no page type) leaves
    ``page_type`` unclassified and every other field as it was."""
    url = "https://courier.test/2026/11/library-reopens-as-a-reading-garden"
    asked = scrapy_cetd.extract(ARTICLE, url=url).metadata.to_dict()
    skipped = scrapy_cetd.extract(ARTICLE, url=url, with_page_type=False).metadata.to_dict()
    assert asked["page_type"] == "article" and skipped["page_type"] is None
    assert {**skipped, "page_type": "article"} == asked


def test_a_declared_type_is_one_feature_among_others() -> None:
    """A teaser list that declares itself an article stays a listing."""
    declaring = SECTION.replace("<head>", '<head><meta property="og:type" content="article">')
    result = scrapy_cetd.extract(declaring, url="https://courier.test/local/")
    assert result.metadata.declared_page_type == "article"
    assert result.metadata.page_type != "article"


def test_inference_is_deterministic() -> None:
    url = "https://courier.test/2026/11/library-reopens"
    features = [features_of_page(page_of(ARTICLE, url)) for _ in range(3)]
    assert all(np.array_equal(features[0], f) for f in features[1:])
    assert len(features[0]) == len(FEATURE_NAMES)
    kinds = {scrapy_cetd.extract(ARTICLE, url=url).metadata.page_type for _ in range(3)}
    assert len(kinds) == 1


@pytest.mark.parametrize(
    "html, url",
    [
        ("<html><body></body></html>", None),
        ("<html><head><title>t</title></head><body><div></div></body></html>", "http://[broken"),
        ("<frameset><frame src='a.html'></frameset>", "https://x.test/"),
        ("<p>" + "<div>" * 5000 + "deep" + "</div>" * 5000, "https://x.test/a/b/c/d/e/f/g/h/i/j?q=1"),
        ("<body>\x00\x01 \ud800 text</body>", "https://x.test/2026-11-02/text.html"),
        ("<script type='application/ld+json'>{\"@type\": [1, null, {}]}</script><p>x</p>", ""),
    ],
)
def test_odd_pages_get_a_type(html: str, url: str | None) -> None:
    result = scrapy_cetd.extract(html, url=url)
    assert result.metadata is not None and result.metadata.page_type in PAGE_TYPES
    features = features_of_page(page_of(html, url))
    assert features.shape == (len(FEATURE_NAMES),)
    unknown = {name for name, value in zip(FEATURE_NAMES, features) if not np.isfinite(value)}
    assert unknown <= {name for name in FEATURE_NAMES if name.startswith("url_")}  # no URL: NaN, read as the mean


def test_a_page_without_url_reads_its_canonical_url_or_none() -> None:
    html = ARTICLE.replace("<head>", '<head><link rel="canonical" href="https://courier.test/2026/11/library">')
    with_canonical = features_of_page(page_of(html, None))
    assert np.isfinite(with_canonical).all()
    without = features_of_page(page_of(ARTICLE, None))
    url_columns = [k for k, name in enumerate(FEATURE_NAMES) if name.startswith("url_")]
    assert np.isnan(without[url_columns]).all()
    model = load_model()
    assert np.array_equal(model.scores(without), model.scores(np.where(np.isnan(without), model.mean, without)))


def test_declared_types_read_json_ld_and_og_type() -> None:
    objects = [{"@type": ["NewsArticle", "http://schema.org/Report"]}, {"@type": 3}]
    assert declared_types(objects, {"og:type": ["Article ", " "]}) == ["newsarticle", "report", "og:article"]


def test_classify_page_weighs_the_evidence_with_the_model() -> None:
    page = page_of(ARTICLE, "https://courier.test/2026/11/library-reopens")
    result = scrapy_cetd.extract_tree(page_of(ARTICLE, "https://courier.test/2026/11/library-reopens"))
    assert classify_page(page, result.metadata, declared_types(page.declared_objects(), {})) in PAGE_TYPES


def test_site_of_groups_by_domain_or_host() -> None:
    assert site_of("https://www.example.com/a", None) == "example.com"
    assert site_of("https://news.example.com/a", "Example.com") == "example.com"
    assert site_of("http://[broken", None) == "http://[broken"


def test_class_scores() -> None:
    scores = class_scores(["a", "a", "b", "b"], ["a", "b", "b", "b"], ["a", "b"])
    assert scores["a"] == {"precision": 1.0, "recall": 0.5, "f1": pytest.approx(2 / 3), "support": 2}
    assert scores["b"]["precision"] == pytest.approx(2 / 3) and scores["b"]["recall"] == 1.0


def test_training_on_a_synthetic_set_runs(tmp_path) -> None:
    pytest.importorskip("sklearn", reason="training needs scikit-learn (the optional extra 'train')")
    from scrapy_cetd.training import fit_logistic, grouped_cross_validation, predict_logistic

    rng = np.random.default_rng(0)
    labels = [PAGE_TYPES[k % 3] for k in range(120)]
    features = rng.normal(size=(120, len(FEATURE_NAMES)))
    for k, label in enumerate(labels):  # one informative feature per class
        features[k, PAGE_TYPES.index(label)] += 4.0
    samples = Samples(features, labels, [f"site{k % 20}" for k in range(120)], [str(k) for k in range(120)])

    def fit(x: np.ndarray, y: list[str]) -> dict:
        return fit_logistic(x, y, PAGE_TYPES)

    predicted = grouped_cross_validation(samples, fit, predict_logistic, folds=4)
    accuracy = sum(p == g for p, g in zip(predicted, labels)) / len(labels)
    assert accuracy > 0.9
    arrays = fit(features, labels)
    arrays["feature_names"] = np.array(FEATURE_NAMES)
    path = tmp_path / "model.npz"
    save_arrays(path, arrays)
    with np.load(path, allow_pickle=False) as stored:
        model = PageTypeModel(dict(stored))
    assert model.predict(features) == predict_logistic(arrays, features)
    assert set(model.predict(features)) <= set(PAGE_TYPES[:3])  # a class without samples never wins


def test_training_command_reports_grouped_cross_validation(tmp_path, monkeypatch) -> None:
    pytest.importorskip("sklearn", reason="training needs scikit-learn (the optional extra 'train')")
    from scrapy_cetd import training

    rng = np.random.default_rng(1)
    labels = [PAGE_TYPES[k % 2] for k in range(40)]
    features = rng.normal(size=(40, len(FEATURE_NAMES)))
    features[:, 0] += [3.0 * (label == "article") for label in labels]
    samples = Samples(features, labels, [f"s{k % 10}" for k in range(40)], [str(k) for k in range(40)])
    monkeypatch.setattr(training, "page_type_samples", lambda dataset, jobs: samples)
    out = tmp_path / "page_types.npz"
    args = argparse.Namespace(dataset="synthetic", jobs=1, out=str(out), folds=5, c=0.1, check=[], drop=[])
    report = training.train_page_types(args)
    assert "40 pages, 10 sites; 5-fold cross-validation grouped by site" in report
    assert "| **article vs rest** | 20 |" in report and out.is_file()
    # an ablation: the cross-validation without the informative feature is reported, no model written
    ablated = tmp_path / "ablated.npz"
    args = argparse.Namespace(
        dataset="synthetic", jobs=1, out=str(ablated), folds=5, c=0.1, check=[], drop=[FEATURE_NAMES[0]]
    )
    report = training.train_page_types(args)
    assert f"Without {FEATURE_NAMES[0]}: no model written." in report and not ablated.exists()
    with pytest.raises(SystemExit):
        training.train_page_types(argparse.Namespace(**{**vars(args), "drop": ["no_such_feature"]}))


def test_structure_features_count_teasers_headings_and_currency_signs() -> None:
    """The block features on a hand-made listing: 30 linked teasers under one list, each
    with a linked heading, and the currency signs counted in ASCII and in other text."""
    priced = SECTION.replace("</ul>", "</ul><p>From $5, £4 or €3 a month; $9 a year.</p>")
    page = page_of(priced, "https://courier.test/local/")
    features = dict(zip(FEATURE_NAMES, features_of_page(page)))
    items = [i for i, tag in enumerate(page.tags) if tag == "li"]
    assert features["log_teasers"] == pytest.approx(np.log1p(30))
    assert features["teaser_char_share"] == pytest.approx(sum(page.chars[i] for i in items) / page.chars[0])
    assert features["linked_headings"] == pytest.approx(np.log1p(30))
    assert features["linked_heading_share"] == 1.0
    assert features["log_currency_signs"] == pytest.approx(np.log1p(4))
    ascii_only = dict(zip(FEATURE_NAMES, features_of_page(page_of(priced.replace("£4 or €3", "4"), None))))
    assert ascii_only["log_currency_signs"] == pytest.approx(np.log1p(2))
    assert ascii_only["url_known"] != ascii_only["url_known"]  # NaN: no URL
