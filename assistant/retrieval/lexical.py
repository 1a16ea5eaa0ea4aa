"""BM25 (bm25s), one index per municipality (the unit the vectors are reused by)."""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path

import bm25s
import numpy as np
import Stemmer

from assistant.retrieval.chunking import Chunk

_stemmer = Stemmer.Stemmer("english")
TOKEN_RE = r"(?u)\b\w+\b"
LEXICAL_VERSION = "1"  # the tokenizer: a saved unit built by another one is rebuilt


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


class UnitLexicalIndex:
    """One municipality's BM25 (bm25s): its own term statistics, so a search filtered to
    it ranks the same whatever other municipalities are loaded, and adding, removing or
    replacing another municipality never touches it."""

    def __init__(self, chunks: list[Chunk], retriever: bm25s.BM25 | None = None):
        self.chunks = chunks
        if retriever is None:
            retriever = bm25s.BM25()
            if chunks:
                retriever.index(tokenize([c.embed_text for c in chunks]), show_progress=False)
        self.retriever = retriever
        self.vocab: dict[str, int] = (retriever.vocab_dict or {}) if chunks else {}
        s = retriever.scores if chunks else {}
        self._data = np.asarray(s.get("data", np.zeros(0, np.float32)))
        self._indices = np.asarray(s.get("indices", np.zeros(0, np.int32)))
        self._indptr = np.asarray(s.get("indptr", np.zeros(1, np.int64)))

    def df(self, token: str) -> int:
        """How many of this municipality's chunks hold the term."""
        tid = self.vocab.get(token)
        return 0 if tid is None else int(self._indptr[tid + 1] - self._indptr[tid])

    def scores(self, tokens: list[str], weights: dict[str, float] | None = None) -> np.ndarray:
        """BM25 of every chunk for the query terms (a repeated term counts again, as in
        bm25s); ``weights`` rescales a term's contribution (the corpus-wide rarity of an
        unfiltered search)."""
        out = np.zeros(len(self.chunks), dtype=np.float32)
        for t in tokens:
            tid = self.vocab.get(t)
            if tid is None:
                continue
            a, b = self._indptr[tid], self._indptr[tid + 1]
            vals = self._data[a:b]
            if weights is not None:
                vals = vals * np.float32(weights.get(t, 1.0))
            out[self._indices[a:b]] += vals  # a term's column names each chunk once
        return out

    def save(self, folder: Path) -> None:
        """The bm25s files and a note of what they were built from (read back by ``load``)."""
        folder.mkdir(parents=True, exist_ok=True)
        if self.chunks:
            self.retriever.save(str(folder), show_progress=False)
        (folder / "unit.json").write_text(json.dumps(
            {"lexical": LEXICAL_VERSION, "chunks": len(self.chunks), "ids": _ids_hash(self.chunks)}), "utf-8")

    @classmethod
    def load(cls, folder: Path, chunks: list[Chunk]) -> "UnitLexicalIndex":
        """The saved index of these chunks; ValueError when it was built from others (or
        with another tokenizer) or cannot be read."""
        meta = json.loads((folder / "unit.json").read_text("utf-8"))
        if meta != {"lexical": LEXICAL_VERSION, "chunks": len(chunks), "ids": _ids_hash(chunks)}:
            raise ValueError(f"{folder.name}: the saved BM25 was built from other chunks or another tokenizer")
        if not chunks:
            return cls(chunks)
        retriever = bm25s.BM25.load(str(folder), load_vocab=True, show_progress=False)
        if retriever.scores.get("num_docs") != len(chunks):
            raise ValueError(f"{folder.name}: the saved BM25 holds {retriever.scores.get('num_docs')} chunks")
        return cls(chunks, retriever)


def _ids_hash(chunks: list[Chunk]) -> str:
    h = hashlib.sha256()
    for c in chunks:
        h.update(c.id.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _idf(df: int, n: int) -> float:
    """bm25s' default (Lucene) inverse document frequency."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


class LexicalIndex:
    """BM25 per municipality. A filtered search scores and ranks that municipality's chunks
    alone. A search across municipalities scores each municipality's chunks with the term
    rarity of all of them together (the document frequencies summed: what one index over
    everything would give, so a small sample chapter and a whole code compete on the same
    scale) and ranks them by score, ties in chunk order: one score array over every
    municipality's chunks, each term's postings of every municipality added at once (the
    same float32 sums, term by term, as scoring each municipality apart and merging its top k,
    without a top k and a list per municipality: that grew with their number)."""

    def __init__(self, chunks: list[Chunk] | None = None, units: dict[str, UnitLexicalIndex] | None = None):
        if units is None:
            grouped: dict[str, list[Chunk]] = {}
            for c in chunks or []:
                grouped.setdefault(c.municipality, []).append(c)
            units = {m: UnitLexicalIndex(cs) for m, cs in grouped.items()}
        self.units = units
        self.chunks = [c for u in units.values() for c in u.chunks] if chunks is None else chunks
        self._order = {c.id: i for i, c in enumerate(self.chunks)}
        self._units = list(units.values())
        self._bases = np.cumsum([0] + [len(u.chunks) for u in self._units])
        self._flat = [c for u in self._units for c in u.chunks]  # every unit's chunks, one after another
        self._rank = np.asarray([self._order.get(c.id, 0) for c in self._flat], dtype=np.int64)

    def search(self, query: str, municipality: str | None = None, k: int = 20) -> list[tuple[Chunk, float]]:
        """Top k chunks by BM25, best first."""
        tokens = query_tokens(query)
        if not tokens or k <= 0:
            return []
        if municipality is not None:
            unit = self.units.get(municipality)
            return [] if unit is None else self._top(unit, unit.scores(tokens), k)
        return self._search_all(tokens, k)

    def _search_all(self, tokens: list[str], k: int) -> list[tuple[Chunk, float]]:
        n = int(self._bases[-1])
        # per term: (unit number, its first and last posting) in every unit that holds it
        postings = {t: [(i, int(u._indptr[tid]), int(u._indptr[tid + 1])) for i, u in enumerate(self._units)
                        if (tid := u.vocab.get(t)) is not None] for t in set(tokens)}
        df = {t: sum(b - a for _, a, b in ps) for t, ps in postings.items()}
        out = np.zeros(n, dtype=np.float32)
        for t in tokens:  # a repeated term counts again, as in bm25s
            parts = [(i, a, b) for i, a, b in postings[t] if b > a]
            if not parts:
                continue
            rows = np.concatenate([self._units[i]._indices[a:b] + self._bases[i] for i, a, b in parts])
            vals = np.concatenate([self._units[i]._data[a:b] * np.float32(
                _idf(df[t], n) / _idf(b - a, len(self._units[i].chunks))) for i, a, b in parts])
            out[rows] += vals  # a term's postings name each chunk once
        hit = np.flatnonzero(out > 0)
        if len(hit) > k:  # those scoring at least the k-th best (ties kept for the order below)
            kth = np.partition(out[hit], len(hit) - k)[len(hit) - k]
            hit = hit[out[hit] >= kth]
        best = hit[np.lexsort((self._rank[hit], -out[hit]))][:k]
        return [(self._flat[int(i)], float(out[i])) for i in best]

    def _top(self, unit: UnitLexicalIndex, scores: np.ndarray, k: int) -> list[tuple[Chunk, float]]:
        k = min(k, len(scores))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        top = sorted(top, key=lambda i: (-scores[i], i))
        return [(unit.chunks[int(i)], float(scores[i])) for i in top if scores[i] > 0]


def query_tokens(query: str) -> list[str]:
    """The query's terms as the index holds them (same normalisation, stopwords and stemmer)."""
    words = re.findall(TOKEN_RE, _normalize(query).lower())
    return [_stemmer.stemWord(w) for w in words if w not in bm25s.stopwords.STOPWORDS_EN]
