"""Index generations on disk: each build writes a new generation folder and publishes it
by replacing one pointer file; readers hold a lease on the generation they use; a
generation that is neither published nor leased is removed.

Layout of the data directory::

    CURRENT                  {"generation": "<id>"}, replaced atomically (write + rename)
    generations.lock         held for milliseconds: read the pointer + take a lease / collect
    generations/<id>/
        generation.json      what the generation holds (written last: without it, unfinished)
        passages.json        the passage store
        chunks.json          the chunks, in the order of the vector files
        vectors/<unit>.npy   each municipality's chunk vectors (float32), for refilling a
                             Chroma server and reusing an unchanged municipality's vectors
        chroma/              the embedded Chroma store (embedded mode only)
        lease                readers hold a shared flock on it while they use the generation

A lease is an ``fcntl.flock(LOCK_SH)`` on the generation's ``lease`` file. The kernel drops it
when the holder's file is closed or the process dies (SIGKILL included), so there are no stale
pid files to clean up; the collector removes a generation only if it can take the lock
exclusively (no reader left). Compared with filelock's ``ReadWriteLock`` (SQLite, a hold is
bound to the thread that took it: a web app releases on another thread) and pid lease files
(need liveness checks, pids are reused), flock is the smallest thing that is right.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
import time
from pathlib import Path

from filelock import FileLock
from pydantic import BaseModel, ConfigDict, Field

try:  # POSIX; elsewhere leases are no-ops and the collector keeps the previous generation
    import fcntl
except ImportError:  # pragma: no cover - not on the machines we run on
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("assistant.index")

POINTER = "CURRENT"
GENERATIONS = "generations"
INFO_FILE = "generation.json"
META_LOCK_TIMEOUT_S = 30


class UnitInfo(BaseModel):
    """One independently rebuilt part of a generation (today: a municipality)."""

    model_config = ConfigDict(extra="forbid")

    fingerprint: str = Field(description="Hash of the unit's passages, the chunker and the embedding model.")
    chunks: int = Field(description="Chunks (and vectors) of the unit.")
    vectors: str = Field(description="The unit's vector file, relative to the generation folder.")
    collection: str = Field(description="The Chroma collection holding the unit's vectors.")
    reused_from: str | None = Field(default=None, description="Generation whose vectors were reused (not re-embedded).")
    lexical: str | None = Field(default=None, description="The unit's BM25 folder, relative to the generation folder "
                                "(None in generations written before it was saved: built when opened).")


class GenerationInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    fingerprint: str = Field(description="Hash of the whole corpus, the chunker and the embedding model.")
    chunker: str
    model: str
    passages: int
    chunks: int
    build_s: float
    built_at: str
    chroma_mode: str = Field(description="Where the vectors are served from: 'embedded' or 'server'.")
    units: dict[str, UnitInfo] = Field(description="Per municipality: fingerprint, chunk count, vector file.")


class Lease:
    """A shared hold on one generation; ``release`` (or process exit) lets it be collected."""

    def __init__(self, path: Path):
        self.path = path
        self._file = open(path, "a+b")  # noqa: SIM115 - the open file IS the lease
        if fcntl is not None:
            try:
                fcntl.flock(self._file.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:  # a collector holds it for the instant it checks: wait for it
                fcntl.flock(self._file.fileno(), fcntl.LOCK_SH)

    @property
    def held(self) -> bool:
        return not self._file.closed

    def release(self) -> None:
        if not self._file.closed:
            self._file.close()  # closing drops the flock


def new_generation_id() -> str:
    """Sortable by build time, unique, and valid in a Chroma collection name."""
    now = time.time()
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(now)) + f"{int(now * 1000) % 1000:03d}-{secrets.token_hex(2)}"


_ID_RE = re.compile(r"^[0-9]{17}-[0-9a-f]{4}$")


class Generations:
    """The generations of one data directory."""

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.root = self.data_dir / GENERATIONS
        self.pointer = self.data_dir / POINTER
        self.meta_lock = FileLock(str(self.data_dir / "generations.lock"))

    # -- the pointer ---------------------------------------------------------------
    def stamp(self) -> tuple[int, int, int] | None:
        """A cheap fingerprint of the pointer file (one stat): changes when a build publishes."""
        try:
            st = os.stat(self.pointer)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def current(self) -> str | None:
        try:
            gid = json.loads(self.pointer.read_text(encoding="utf-8")).get("generation")
        except (FileNotFoundError, ValueError, AttributeError):
            return None
        return gid if isinstance(gid, str) and _ID_RE.match(gid) else None

    def publish(self, gid: str) -> None:
        """Point readers at ``gid``: write a temporary file, fsync, rename over the pointer."""
        tmp = self.data_dir / f".{POINTER}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps({"generation": gid}))
            f.flush()
            os.fsync(f.fileno())
        with self.meta_lock.acquire(timeout=META_LOCK_TIMEOUT_S):
            os.replace(tmp, self.pointer)
        _fsync_dir(self.data_dir)

    # -- generation folders ----------------------------------------------------------
    def path(self, gid: str) -> Path:
        return self.root / gid

    def create(self) -> tuple[str, Path]:
        self.root.mkdir(parents=True, exist_ok=True)
        while True:
            gid = new_generation_id()
            path = self.path(gid)
            try:
                path.mkdir()
            except FileExistsError:
                continue
            return gid, path

    def info(self, gid: str) -> GenerationInfo:
        return GenerationInfo.model_validate_json((self.path(gid) / INFO_FILE).read_text(encoding="utf-8"))

    def all_ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and _ID_RE.match(p.name))

    def pointer_problem(self) -> str | None:
        """What is wrong with the pointer file, if it exists and names no generation on disk."""
        if not self.pointer.exists():
            return None
        gid = self.current()
        if gid is None:
            return f"the index pointer {self.pointer} is unreadable"
        if not (self.path(gid) / INFO_FILE).is_file():
            return f"the index pointer names generation {gid}, which is not on disk"
        return None

    def lease(self, gid: str) -> Lease:
        return Lease(self.path(gid) / "lease")

    def lease_current(self) -> tuple[str, Lease] | None:
        """The published generation with a lease on it, taken under the meta lock so the
        collector cannot remove it between reading the pointer and taking the lease."""
        with self.meta_lock.acquire(timeout=META_LOCK_TIMEOUT_S):
            gid = self.current()
            if gid is None or not self.path(gid).is_dir():
                return None
            return gid, self.lease(gid)

    def collect(self, keep: tuple[str, ...] = ()) -> list[str]:
        """Remove every generation that is not published, not in ``keep`` and not leased.
        The caller holds the build lock (no generation is being written). Returns the ids
        removed."""
        removed: list[str] = []
        with self.meta_lock.acquire(timeout=META_LOCK_TIMEOUT_S):
            current = self.current()
            for gid in self.all_ids():
                if gid == current or gid in keep:
                    continue
                if fcntl is None:  # no leases here: keep one generation back for running readers
                    older = [g for g in self.all_ids() if current and g < current]
                    if older and gid == older[-1]:
                        continue
                elif not _unleased(self.path(gid) / "lease"):
                    continue
                shutil.rmtree(self.path(gid), ignore_errors=True)
                if self.path(gid).exists():  # something in it could not be removed: try later
                    log.warning("could not remove old index generation %s", gid)
                    continue
                removed.append(gid)
        return removed

    def remove_legacy(self) -> list[str]:
        """The single-store layout of earlier versions (data/chroma): gone once generations exist."""
        gone = []
        legacy = self.data_dir / "chroma"
        if legacy.is_dir():
            shutil.rmtree(legacy, ignore_errors=True)
            gone.append(str(legacy))
        return gone


def _unleased(lease_file: Path) -> bool:
    """True when no process holds the generation (we could lock its lease file exclusively)."""
    try:
        f = open(lease_file, "a+b")  # noqa: SIM115
    except FileNotFoundError:
        return True  # a generation that never had a reader (e.g. an unfinished build)
    except OSError:
        return False
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        f.close()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_json_atomically(path: Path, data: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(data, encoding="utf-8")
    os.replace(tmp, path)
