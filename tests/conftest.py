"""Shared fixtures. No test reaches the network or a model hub."""

from __future__ import annotations

import os
import socket

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

_LOOPBACK = ("127.", "::1", "localhost", "0.0.0.0")
_real_connect = socket.socket.connect


def _guarded_connect(self, address):
    host = address[0] if isinstance(address, tuple) else str(address)
    if isinstance(host, str) and not host.startswith(_LOOPBACK) and self.family in (
        socket.AF_INET,
        socket.AF_INET6,
    ):
        raise RuntimeError(f"test tried to reach the network: {address!r}")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Forbid any connection that is not to loopback (model hubs included)."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    yield


@pytest.fixture
def tmp_corpus(tmp_path, monkeypatch):
    """A copy of corpus/ (and an empty data folder) the settings point at, caches cleared
    before and after: for tests that add, remove or amend municipalities."""
    import shutil
    from pathlib import Path

    from assistant.corpus import reset_caches
    from assistant.settings import get_settings

    corpus = tmp_path / "corpus"
    shutil.copytree(Path(__file__).resolve().parents[1] / "corpus", corpus)
    monkeypatch.setenv("ASSISTANT_CORPUS_DIR", str(corpus))
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    reset_caches()
    yield corpus
    get_settings.cache_clear()
    reset_caches()


# the sample chapters a test adds through the clerk's command (folder's text, name, state)
SAMPLE_CODES = {
    "boston": ("boston-ma-16-12/text.txt", "City of Boston", "MA"),
    "chagrin-falls": ("chagrin-falls-oh-ch903/text.md", "Village of Chagrin Falls", "OH"),
    "crawfordville": ("crawfordville-ga-ch30/text.xml", "City of Crawfordville", "GA"),
    "somerville": ("somerville-ma-ch12/text.md", "City of Somerville", "MA"),
    "williams": ("williams-az-ch152/text.txt", "City of Williams", "AZ"),
}


@pytest.fixture
def with_samples(tmp_corpus, capsys):
    """Add sample chapters by id with `municipality add --no-index` (each must succeed) to a copy of the corpus, and
    load an assistant over it: ``a = with_samples("chagrin-falls", "boston")``."""
    from pathlib import Path

    from assistant.__main__ import main
    from assistant.answering.assistant import Assistant
    from assistant.settings import get_settings

    samples = Path(__file__).resolve().parents[2] / "shared" / "corpus-samples"

    def add(*ids: str):
        for mid in ids:
            folder, name, state = SAMPLE_CODES[mid]
            assert main(["municipality", "add", str(samples / folder), "--id", mid, "--name", name, "--state", state,
                         "--no-index"]) == 0
        capsys.readouterr()
        return Assistant.load(settings=get_settings())

    return add


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    """The assistant over the two chapters, one per test module (its index built in a fresh data folder)."""
    from assistant.answering.assistant import Assistant
    from assistant.settings import Settings

    return Assistant.load(settings=Settings(data_dir=tmp_path_factory.mktemp("data")))


@pytest.fixture
def today(monkeypatch):
    """Pin the assistant's today for one test: ``today("2029-05-17")``."""
    def set_(day: str) -> None:
        monkeypatch.setenv("ASSISTANT_TODAY", day)
    return set_
