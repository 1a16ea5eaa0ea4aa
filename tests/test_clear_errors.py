"""Small failures of issue 13 (item 7), each with a clear message instead of a wrong one."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.answering.assistant import Assistant
from assistant.answering.llm import LLMBackendUnavailable, LLMPlanner
from assistant.settings import Settings, SettingsProblem, load_settings

ROOT = Path(__file__).resolve().parent.parent


# -- a 100,000-character question -------------------------------------------------------------
class MustNotBeAsked:
    name = "llm:must-not-be-asked"

    def answer(self, *args, **kwargs):
        raise AssertionError("an over-long question reached the LLM backend")


@pytest.fixture(scope="module")
def small_assistant(tmp_path_factory):
    from assistant.retrieval.index import SearchIndex
    from tests.fake_embedder import FakeEmbedder

    settings = Settings(data_dir=tmp_path_factory.mktemp("data"))
    return Assistant(SearchIndex.open(settings=settings, embedder=FakeEmbedder()), settings)


@pytest.mark.parametrize("llm", [None, MustNotBeAsked()])
def test_a_100000_character_question_is_refused_as_too_long(small_assistant, llm):
    """It was 'I could not compose an answer': the number guard blocked the refusal, whose
    figures (the length, the limit) are in no source."""
    small_assistant.llm = llm
    try:
        ans = small_assistant.ask("How wide is a sidewalk? " * 4000 + "x" * 4000)
    finally:
        small_assistant.llm = None
    assert ans.status == "refused"
    assert ans.answer == ("I can't take that question: the question is too long (100,000 characters; "
                          "the limit is 1,000).")
    assert "could not compose" not in ans.answer


def test_a_question_at_the_limit_is_still_answered(small_assistant):
    q = "How wide must a commercial sidewalk be in Brandon?"
    ans = small_assistant.ask(q + " " * 10 + "x" * (1000 - len(q) - 11) + "?")
    assert ans.status != "refused" or "too long" not in ans.answer


# -- settings errors name the variable ---------------------------------------------------------
@pytest.mark.parametrize("env, words", [
    ({"ASSISTANT_CHROMA_PORT": "abc"}, "ASSISTANT_CHROMA_PORT: Input should be a valid integer"),
    ({"ASSISTANT_CHROMA_MODE": "cloud"}, "ASSISTANT_CHROMA_MODE: Input should be 'embedded' or 'server' (got 'cloud')"),
    ({"ASSISTANT_EXTRA_HOLIDAYS": "2025-12-24"}, "ASSISTANT_EXTRA_HOLIDAYS: write it as JSON"),
    ({"ASSISTANT_MAX_LINE_BYTES": "lots"}, "ASSISTANT_MAX_LINE_BYTES"),
])
def test_settings_errors_name_the_variable(monkeypatch, env, words):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(SettingsProblem) as exc:
        load_settings()
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_the_cli_and_the_app_print_one_line_naming_the_variable():
    env = {**os.environ, "ASSISTANT_CHROMA_PORT": "eight thousand", "HF_HUB_OFFLINE": "1"}
    for argv in ([sys.executable, "-m", "assistant", "toc"], [sys.executable, "app.py"]):
        r = subprocess.run(argv, capture_output=True, text=True, cwd=str(ROOT), env=env, timeout=120,
                           stdin=subprocess.DEVNULL)
        assert r.returncode != 0
        assert r.stderr.strip().splitlines() == [
            "error: invalid setting ASSISTANT_CHROMA_PORT: Input should be a valid integer, unable to parse "
            "string as an integer (got 'eight thousand')"], r.stderr


# -- the README's ollama example -----------------------------------------------------------------
def test_a_missing_provider_package_is_named(monkeypatch, tmp_path):
    import langchain.chat_models

    def init_without_the_package(model, **kwargs):  # what langchain raises without langchain-ollama
        raise ImportError("Initializing ChatOllama requires the langchain-ollama package. Please install it "
                          "with `pip install langchain-ollama`")

    monkeypatch.setattr(langchain.chat_models, "init_chat_model", init_without_the_package)
    with pytest.raises(LLMBackendUnavailable) as exc:
        LLMPlanner(index=None, settings=Settings(data_dir=tmp_path, llm_model="ollama:llama3.1"))
    assert str(exc.value) == ("ASSISTANT_LLM_MODEL='ollama:llama3.1' needs the package langchain-ollama, which is "
                              "not installed: pip install langchain-ollama (or unset ASSISTANT_LLM_MODEL to use the "
                              "embedded default)")


@pytest.mark.skipif(importlib.util.find_spec("langchain_ollama") is not None, reason="langchain-ollama is installed")
def test_the_readme_example_without_langchain_ollama(tmp_path):
    with pytest.raises(LLMBackendUnavailable, match="needs the package langchain-ollama"):
        LLMPlanner(index=None, settings=Settings(data_dir=tmp_path, llm_model="ollama:llama3.1"))
    with pytest.raises(LLMBackendUnavailable, match="cannot be used"):
        LLMPlanner(index=None, settings=Settings(data_dir=tmp_path, llm_model="nosuchprovider:model"))


def test_the_readme_names_the_package_and_pyproject_offers_it():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "ollama:llama3.1" in readme and "pip install langchain-ollama" in readme
    assert "langchain-ollama" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
