"""The module paths users wrote before the Scrapy layer moved to ``scrapy_cetd.crawl`` and the
scrapy-redis tools to ``scrapy_cetd.cluster`` keep working (:mod:`scrapy_cetd._deprecated`),
each name read from them with a ``DeprecationWarning`` naming the new path;
``scrapy_cetd.Addon`` stays, without one."""

from __future__ import annotations

import importlib
import warnings

import pytest
from scrapy.utils.misc import load_object

#: Old path -> new path of each moved name, as written in settings and imports.
SCRAPY_LAYER = {
    "scrapy_cetd.addon.Addon": "scrapy_cetd.crawl.addon.Addon",
    "scrapy_cetd.middlewares.ContentAnnotationMiddleware": "scrapy_cetd.crawl.middlewares.ContentAnnotationMiddleware",
    "scrapy_cetd.middlewares.ContentSpiderMiddleware": "scrapy_cetd.crawl.middlewares.ContentSpiderMiddleware",
    "scrapy_cetd.middlewares.get_page": "scrapy_cetd.crawl.middlewares.get_page",
    "scrapy_cetd.pipelines.ContentExtractionPipeline": "scrapy_cetd.crawl.pipelines.ContentExtractionPipeline",
    "scrapy_cetd.settings.CetdConfig": "scrapy_cetd.crawl.settings.CetdConfig",
    "scrapy_cetd.exporters.ParquetItemExporter": "scrapy_cetd.crawl.exporters.ParquetItemExporter",
    "scrapy_cetd.exporters.XmlItemExporter": "scrapy_cetd.crawl.exporters.XmlItemExporter",
    "scrapy_cetd.exporters.ItemByItemFileFeedStorage": "scrapy_cetd.crawl.exporters.ItemByItemFileFeedStorage",
    "scrapy_cetd.duplicates.DuplicateStoryPipeline": "scrapy_cetd.crawl.duplicates.DuplicateStoryPipeline",
    "scrapy_cetd.logformatter.ShortItemLogFormatter": "scrapy_cetd.crawl.logformatter.ShortItemLogFormatter",
    "scrapy_cetd.warc.archive.WarcArchiveMiddleware": "scrapy_cetd.crawl.archive.WarcArchiveMiddleware",
}
CLUSTER = {
    "scrapy_cetd.redis_frontier.LeasingScheduler": "scrapy_cetd.cluster.frontier.LeasingScheduler",
    "scrapy_cetd.redis_spider.RedisSpider": "scrapy_cetd.cluster.spider.RedisSpider",
    "scrapy_cetd.redis_watch.RedisWatch": "scrapy_cetd.cluster.watch.RedisWatch",
}


def _load_old(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=rf"^{old} is deprecated, use {new} \(the module moved\)$"):
        assert load_object(old) is load_object(new)


@pytest.mark.parametrize(("old", "new"), SCRAPY_LAYER.items())
def test_the_scrapy_layers_old_paths_warn_and_give_the_new_object(old: str, new: str) -> None:
    _load_old(old, new)


@pytest.mark.parametrize(("old", "new"), CLUSTER.items())
def test_the_cluster_tools_old_paths_warn_and_give_the_new_object(old: str, new: str) -> None:
    pytest.importorskip("scrapy_redis")
    _load_old(old, new)


def test_an_old_import_statement_warns_once_per_name() -> None:
    with pytest.warns(DeprecationWarning) as caught:
        from scrapy_cetd.pipelines import ContentExtractionPipeline  # noqa: F401
        from scrapy_cetd.settings import DEFAULTS, InvalidSetting  # noqa: F401
    assert [str(w.message).split(" ")[0] for w in caught] == [
        "scrapy_cetd.pipelines.ContentExtractionPipeline",
        "scrapy_cetd.settings.DEFAULTS",
        "scrapy_cetd.settings.InvalidSetting",
    ]


def test_a_name_the_new_module_lacks_is_an_attribute_error_without_a_warning() -> None:
    old = importlib.import_module("scrapy_cetd.middlewares")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="module 'scrapy_cetd.middlewares' has no attribute 'Nothing'"):
            old.Nothing  # noqa: B018
        # what tools that scan sys.modules read (hypothesis reads __file__): the alias's own, no warning
        assert getattr(old, "__file__", None) is None and not hasattr(old, "__path__")


def test_the_package_still_exports_the_addon_without_a_warning() -> None:
    import scrapy_cetd
    from scrapy_cetd.crawl.addon import Addon

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert scrapy_cetd.Addon is Addon
        assert load_object("scrapy_cetd.Addon") is Addon


def test_the_old_paths_are_no_files_and_a_subprocess_imports_them() -> None:
    import subprocess
    import sys
    from pathlib import Path

    import scrapy_cetd
    from scrapy_cetd._deprecated import MOVED

    package = Path(scrapy_cetd.__file__).parent.parent
    assert not [old for old in MOVED if (package / (old.replace(".", "/") + ".py")).exists()]
    code = "import warnings; warnings.simplefilter('error'); from scrapy_cetd.redis_watch import FINISH_REASON"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    assert "DeprecationWarning: scrapy_cetd.redis_watch.FINISH_REASON is deprecated" in run.stderr
