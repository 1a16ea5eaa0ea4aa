"""A generation's files read back and checked, and what a new build may take over from
the previous generation: an unchanged municipality's chunks, vectors and collection."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import shutil
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, TypeAdapter

from assistant.retrieval.chunking import CHUNKER_VERSION, Chunk
from assistant.retrieval.generations import GenerationInfo, Generations
from assistant.types import Passage

log = logging.getLogger("assistant.index")


class IndexDamaged(RuntimeError):
    """A generation's stores cannot be read (or disagree with its description)."""


def corpus_fingerprint(passages: list[Passage], embedder_id: str) -> str:
    """Hash of every passage (all fields: the store keeps them), the chunker and the model."""
    h = hashlib.sha256()
    h.update(CHUNKER_VERSION.encode())
    h.update(embedder_id.encode())
    for p in passages:
        h.update(p.model_dump_json().encode())
    return h.hexdigest()


def unit_fingerprints(passages: list[Passage], embedder_id: str) -> dict[str, str]:
    """One fingerprint per municipality: the unit whose vectors are reused when unchanged."""
    by_unit: dict[str, list[Passage]] = {}
    for p in passages:
        by_unit.setdefault(p.municipality, []).append(p)
    return {m: corpus_fingerprint(ps, embedder_id) for m, ps in by_unit.items()}


def by_unit(chunks: list[Chunk]) -> dict[str, list[Chunk]]:
    out: dict[str, list[Chunk]] = {}
    for c in chunks:
        out.setdefault(c.municipality, []).append(c)
    return out


CHECK_BLOCK = 1 << 22  # bytes of a vector file read at a time to check its values


def read_vectors(path: Path, rows: int) -> np.ndarray:
    """A unit's float32 vectors, memory-mapped read-only: the file is written once and never
    changed, and a serving process touches few of its rows (the vector store answers the
    searches), so they stay on disk instead of in the process's memory. Checked whole
    (shape, type, finite values) by reading the file in blocks, not through the mapping."""
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:  # shorter than its header says, or not a .npy file
        raise IndexDamaged(f"{path.name} is unreadable ({exc})") from exc
    if arr.ndim != 2 or arr.shape[0] != rows or arr.dtype != np.float32:
        raise IndexDamaged(f"{path.name} holds {arr.shape} {arr.dtype}, expected {rows} finite float32 rows")
    if arr.size:
        with open(path, "rb") as f:
            f.seek(arr.offset)
            left = arr.nbytes
            while left > 0:
                block = f.read(min(CHECK_BLOCK, left))
                if not block or len(block) % 4 or not np.isfinite(np.frombuffer(block, dtype=np.float32)).all():
                    raise IndexDamaged(f"{path.name} holds values that are not finite float32")
                left -= len(block)
    return arr


def save_vectors(path: Path, arr: np.ndarray, source: Path | None = None) -> None:
    """Write a unit's vector file; a reused unit's file (``source``, never changed once written)
    is linked where the file system allows, else copied: not read through memory."""
    if source is not None:
        try:
            os.link(source, path)
            return
        except OSError:
            try:
                shutil.copyfile(source, path)
                return
            except OSError:
                pass
    np.save(path, np.ascontiguousarray(arr, dtype=np.float32))


def readable_previous(gens: Generations) -> tuple[str, GenerationInfo] | None:
    gid = gens.current()
    if gid is None:
        return None
    try:
        return gid, gens.info(gid)
    except Exception:
        return None


def reusable(gens: Generations, previous, municipality: str, fingerprint: str):
    """(chunks, vectors, collection) of an unchanged municipality in the previous generation,
    if they read back sound; None to chunk and embed it again."""
    if previous is None:
        return None
    gid, info = previous
    unit = info.units.get(municipality)
    if unit is None or unit.fingerprint != fingerprint:
        return None
    try:
        chunks = [c for c in read_chunks(gens.path(gid)) if c.municipality == municipality]
        if len(chunks) != unit.chunks:
            raise IndexDamaged(f"{len(chunks)} chunks stored, {unit.chunks} expected")
        return chunks, read_vectors(gens.path(gid) / unit.vectors, unit.chunks), unit.collection
    except Exception as exc:
        log.warning("the stored chunks or vectors of %s in generation %s are unusable (%s); embedding again",
                    municipality, gid, one_line(exc))
        return None


_CHUNKS = TypeAdapter(list[Chunk])
_PASSAGES = TypeAdapter(list[Passage])


def load_chunks(path: Path) -> list[Chunk]:
    """A chunk store, validated straight from the JSON bytes (no list of dicts in between:
    a store of 300k chunks would hold both at once)."""
    return _CHUNKS.validate_json(Path(path).read_bytes())


def load_passages(path: Path) -> list[Passage]:
    return _PASSAGES.validate_json(Path(path).read_bytes())


class _PassageId(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str


_PASSAGE_IDS = TypeAdapter(list[_PassageId])


def check_passages(path: Path, passages: list[Passage]) -> None:
    """The passage store holds these passages, in this order (read for their ids only: the
    parsed corpus serves, not a second copy); IndexDamaged if not."""
    try:
        ids = [x.id for x in _PASSAGE_IDS.validate_json(Path(path).read_bytes())]
    except Exception as exc:  # noqa: BLE001 - unreadable is damage
        raise IndexDamaged(f"{Path(path).name} is unreadable ({one_line(exc)})") from exc
    if ids != [p.id for p in passages]:
        raise IndexDamaged(f"{Path(path).name} holds {len(ids)} passages, not the corpus's {len(passages)}")


def dump_chunks(chunks: list[Chunk]) -> bytes:
    return _CHUNKS.dump_json(chunks)


def dump_passages(passages: list[Passage]) -> bytes:
    return _PASSAGES.dump_json(passages)


@functools.lru_cache(maxsize=2)
def _read_chunks_cached(path: str, mtime_ns: int) -> tuple[Chunk, ...]:
    return tuple(load_chunks(Path(path)))


def read_chunks(gen_path: Path) -> list[Chunk]:
    f = gen_path / "chunks.json"
    return list(_read_chunks_cached(str(f), f.stat().st_mtime_ns))


_KIND_ORDER = {"passage": 0, "sentence": 1, "heading": 2}


def in_chunker_order(unit_chunks: dict[str, list[Chunk]], passages: list[Passage]) -> list[Chunk]:
    """The chunks of every unit in the order ``chunk_passages`` gives for the whole corpus
    (passage chunks, then sentences, then headings, each in passage order): ties in BM25 and
    in sentence similarity are broken by this order, so a reused unit changes no result."""
    at = {p.id: i for i, p in enumerate(passages)}
    every = [c for cs in unit_chunks.values() for c in cs]
    return sorted(every, key=lambda c: (_KIND_ORDER.get(c.kind, 3), at.get(c.passage_id, len(at))))


def named_collections(gens: Generations, but: str | None = None) -> set[str]:
    """The collections the generations on disk name (a generation being abandoned excepted)."""
    names: set[str] = set()
    for gid in gens.all_ids():
        if gid == but:
            continue
        try:
            names |= {u.collection for u in gens.info(gid).units.values()}
        except Exception:  # unfinished or damaged: it names nothing anyone can load
            continue
    return names


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
