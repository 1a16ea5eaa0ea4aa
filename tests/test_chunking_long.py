"""A passage with a "sentence" longer than the model's window (a table, a fee schedule) is
cut at spaces exactly as before, without tokenizing the rest again for every piece (that
was quadratic: hours on a long appendix of a whole code)."""

from __future__ import annotations

import random
import time

import pytest

from assistant.retrieval.chunking import chunk_passage, split_long
from assistant.retrieval.embeddings import count_tokens
from assistant.types import Passage


def _reference(current: str, budget: int) -> tuple[list[str], str]:
    """The cut as it was: every piece re-tokenizes the whole rest."""
    groups = []
    while count_tokens(current) > budget:
        words = current.split(" ")
        cut = max(1, len(words) * budget // count_tokens(current) - 1)
        groups.append(" ".join(words[:cut]))
        current = " ".join(words[cut:])
    return groups, current


WORDS = ("fee $25.00 per-lot Sec. 12-4(b) ÉCOLE naïve 3,500 sq.ft. \t tab  double  spaces \n newline (a)(1) "
         "§12 ½ 100% electrician's license-fee 中文 x").split(" ")


@pytest.mark.parametrize("n,budget", [(300, 50), (2000, 200), (3000, 244)])
def test_the_cut_is_the_one_before(n, budget):
    rnd = random.Random(n)
    text = " ".join(rnd.choice(WORDS) for _ in range(n))
    pieces, rest = split_long(text, budget)
    assert (pieces, rest) == _reference(text, budget)
    assert pieces and " ".join(pieces + [rest]) == text


def test_a_long_unpunctuated_passage_is_chunked_in_linear_time():
    rnd = random.Random(7)
    text = " ".join(rnd.choice(WORDS) for _ in range(60_000))  # no sentence end: one "sentence"
    p = Passage(id="x:1:-:0", municipality="x", chapter="1", section="1", title="Fee schedule", text=text,
                start=0, end=len(text))
    t0 = time.perf_counter()
    chunks = chunk_passage(p)
    assert time.perf_counter() - t0 < 20  # the quadratic cut took minutes on this text
    assert len(chunks) > 100 and " ".join(" ".join(c.text for c in chunks).split()) == " ".join(text.split())


def test_a_context_longer_than_the_window_still_ends():
    """A heading path misread as hundreds of words left no budget for the text: the cut
    looped for ever (it had already, before the cut was made linear)."""
    rnd = random.Random(3)
    text = " ".join(rnd.choice(WORDS) for _ in range(600))
    p = Passage(id="x:1:-:1", municipality="x", chapter="1", section="1", title="Title " * 400, text=text,
                start=0, end=len(text))
    chunks = chunk_passage(p)
    assert 2 <= len(chunks) < 200 and all(c.text.strip() for c in chunks)
    assert split_long("a b c", 1) == (["a", "b", "c"], "")  # each word alone, then nothing left
