"""BM25 (bm25s) over the chunks, with a municipality filter (a weight mask)."""

from __future__ import annotations

import re

import bm25s
import numpy as np
import Stemmer

from assistant.retrieval.chunking import Chunk

_stemmer = Stemmer.Stemmer("english")
TOKEN_RE = r"(?u)\b\w+\b"


def tokenize(texts: list[str]):
    return bm25s.tokenize(
        [_normalize(t) for t in texts], stopwords="en", stemmer=_stemmer, show_progress=False,
        token_pattern=TOKEN_RE,
    )


def _normalize(text: str) -> str:
    # "404-7" stays one token; "1/2" too; "right-of-way" -> "right of way"
    text = re.sub(r"(\d)-(\d)", r"\1_\2", text)
    text = re.sub(r"(\d)/(\d)", r"\1_\2", text)
    return text.replace("-", " ")


def stem_sequence(text: str) -> list[str]:
    """Stems of the content words, in order (for phrase matching)."""
    words = re.findall(TOKEN_RE, _normalize(text).lower())
    return [_stemmer.stemWord(w) for w in words if w not in bm25s.stopwords.STOPWORDS_EN]


def stems(text: str) -> set[str]:
    words = re.findall(TOKEN_RE, _normalize(text).lower())
    return {_stemmer.stemWord(w) for w in words if w not in bm25s.stopwords.STOPWORDS_EN}


class LexicalIndex:
    def __init__(self, chunks: list[Chunk]):
        self.chunks = chunks
        self.retriever = bm25s.BM25()
        self.retriever.index(tokenize([c.embed_text for c in chunks]), show_progress=False)
        self._masks: dict[str | None, np.ndarray] = {}

    def _mask(self, municipality: str | None) -> np.ndarray | None:
        if municipality is None:
            return None
        if municipality not in self._masks:
            self._masks[municipality] = np.array(
                [1.0 if c.municipality == municipality else 0.0 for c in self.chunks], dtype=np.float32
            )
        return self._masks[municipality]

    def search(self, query: str, municipality: str | None = None, k: int = 20) -> list[tuple[Chunk, float]]:
        """Top k chunks by BM25, best first (scored directly: bm25s' ``retrieve`` sets up
        progress bars and a tokenizer vocabulary per call, which costs more than the scoring)."""
        vocab = self.retriever.vocab_dict
        ids = [vocab[t] for t in query_tokens(query) if t in vocab]
        if not ids:
            return []
        scores = self.retriever.get_scores(ids, weight_mask=self._mask(municipality))
        k = min(k, len(self.chunks))
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        top = sorted(top, key=lambda i: (-scores[i], i))
        return [(self.chunks[int(i)], float(scores[i])) for i in top if scores[i] > 0]


def query_tokens(query: str) -> list[str]:
    """The query's terms as the index holds them (same normalisation, stopwords and stemmer)."""
    words = re.findall(TOKEN_RE, _normalize(query).lower())
    return [_stemmer.stemWord(w) for w in words if w not in bm25s.stopwords.STOPWORDS_EN]
