"""The embedded cache: one SQLite file under the user cache directory.

Keys live in namespaces (``index``, ``report``, ``isaacus.embeddings``...). Writes are atomic
(one transaction each) and safe with two processes (WAL, busy timeout). The cache is never fatal:
a corrupt file is moved aside and recreated, a locked one is bypassed, and a corrupt entry reads
as a miss, each with one warning on stderr.

``CONFLICTKIT_CACHE_DIR`` overrides the directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value BLOB NOT NULL,
    checksum TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (namespace, key)
)
"""


def cache_dir() -> Path:
    """Where the store lives: ``$CONFLICTKIT_CACHE_DIR`` or the platform's user cache dir."""
    override = os.environ.get("CONFLICTKIT_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir("conflictkit"))


def key_of(*parts: Any) -> str:
    """A stable hash key of JSON-serializable parts."""
    payload = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


_KEYS_PER_QUERY = 500  # well under SQLite's bound-parameter limit on every build


def _warn(message: str) -> None:
    print(f"conflictkit: warning: {message}", file=sys.stderr)


class Store:
    """A namespaced key-value store of bytes, or a no-op store when ``path`` is None."""

    def __init__(self, path: Path | None, timeout: float = 5.0) -> None:
        self.path = path
        self.timeout = timeout
        self._local = threading.local()
        self._disabled = path is None
        if path is not None:
            self._open_or_recover()

    @classmethod
    def disabled(cls) -> Store:
        return cls(None)

    @property
    def enabled(self) -> bool:
        return not self._disabled

    def _connect(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            assert self.path is not None
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(SCHEMA)
            self._local.conn = conn
        return conn

    def _open_or_recover(self) -> None:
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._connect()
            conn.execute("SELECT count(*) FROM entries LIMIT 1").fetchone()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                _warn(f"cache {self.path} is locked by another process ({exc}); running without the cache")
            else:
                _warn(f"cache {self.path} cannot be used ({exc}); running without the cache")
            self._disabled = True
        except sqlite3.DatabaseError as exc:
            self._local.conn = None
            aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
            _warn(f"cache {self.path} is corrupt ({exc}); moved it to {aside.name} and starting a fresh one")
            try:
                os.replace(self.path, aside)
                for suffix in ("-wal", "-shm"):
                    Path(f"{self.path}{suffix}").unlink(missing_ok=True)
                self._connect()
            except (OSError, sqlite3.DatabaseError) as exc2:
                _warn(f"cannot recreate cache {self.path} ({exc2}); running without the cache")
                self._disabled = True
        except OSError as exc:
            _warn(f"cannot create cache directory {self.path.parent} ({exc}); running without the cache")
            self._disabled = True

    def get(self, namespace: str, key: str) -> bytes | None:
        """The stored value, or None on a miss, a corrupt entry or an unusable store."""
        if self._disabled:
            return None
        try:
            row = self._connect().execute(
                "SELECT value, checksum FROM entries WHERE namespace=? AND key=?", (namespace, key)
            ).fetchone()
        except sqlite3.Error as exc:
            _warn(f"cache read failed ({exc}); recomputing")
            return None
        if row is None:
            return None
        value, checksum = row
        if hashlib.sha256(value).hexdigest() != checksum:
            _warn(f"corrupt cache entry {namespace}/{key[:12]}; recomputing it")
            self.delete(namespace, key)
            return None
        return bytes(value)

    def put(self, namespace: str, key: str, value: bytes) -> None:
        """Store ``value``; a failure is a warning, never an error."""
        if self._disabled:
            return
        try:
            self._connect().execute(
                "INSERT OR REPLACE INTO entries (namespace, key, value, checksum, created) VALUES (?, ?, ?, ?, ?)",
                (namespace, key, value, hashlib.sha256(value).hexdigest(), time.time()),
            )
        except sqlite3.Error as exc:
            _warn(f"cache write failed ({exc}); continuing without caching this result")

    def get_many(self, namespace: str, keys: Sequence[str]) -> dict[str, bytes]:
        """The stored values of those ``keys`` that are present, in a few queries however many keys.

        Corrupt entries read as misses (and are deleted), as with :meth:`get`.
        """
        found: dict[str, bytes] = {}
        if self._disabled or not keys:
            return found
        unique = list(dict.fromkeys(keys))
        corrupt = []
        try:
            conn = self._connect()
            for start in range(0, len(unique), _KEYS_PER_QUERY):
                chunk = unique[start : start + _KEYS_PER_QUERY]
                rows = conn.execute(
                    f"SELECT key, value, checksum FROM entries WHERE namespace=? AND key IN ({','.join('?' * len(chunk))})",
                    (namespace, *chunk),
                ).fetchall()
                for key, value, checksum in rows:
                    if hashlib.sha256(value).hexdigest() == checksum:
                        found[key] = bytes(value)
                    else:
                        corrupt.append(key)
        except sqlite3.Error as exc:
            _warn(f"cache read failed ({exc}); recomputing")
            return {}
        if corrupt:
            _warn(f"{len(corrupt)} corrupt cache entries in {namespace}; recomputing them")
            for key in corrupt:
                self.delete(namespace, key)
        return found

    def put_many(self, namespace: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Store many values in one transaction; a failure is a warning, never an error."""
        if self._disabled or not items:
            return
        now = time.time()
        rows = [(namespace, key, value, hashlib.sha256(value).hexdigest(), now) for key, value in items]
        try:
            conn = self._connect()
            with conn:  # one transaction: 100k rows in one commit, not 100k
                conn.execute("BEGIN")
                conn.executemany(
                    "INSERT OR REPLACE INTO entries (namespace, key, value, checksum, created) VALUES (?, ?, ?, ?, ?)", rows
                )
        except sqlite3.Error as exc:
            _warn(f"cache write failed ({exc}); continuing without caching these results")

    def delete(self, namespace: str, key: str) -> None:
        if self._disabled:
            return
        try:
            self._connect().execute("DELETE FROM entries WHERE namespace=? AND key=?", (namespace, key))
        except sqlite3.Error:
            pass

    def get_json(self, namespace: str, key: str) -> Any | None:
        raw = self.get(namespace, key)
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            _warn(f"corrupt cache entry {namespace}/{key[:12]}; recomputing it")
            self.delete(namespace, key)
            return None

    def put_json(self, namespace: str, key: str, value: Any) -> None:
        self.put(namespace, key, json.dumps(value, separators=(",", ":")).encode())

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def vector_bytes(vector: Any) -> bytes:
    """One vector as raw float32 bytes (the per-text vector caches)."""
    return np.asarray(vector, dtype=np.float32).tobytes()


def vector_from(raw: bytes) -> np.ndarray:
    """The inverse of :func:`vector_bytes`; a length that is not whole float32s is a ValueError."""
    if len(raw) % 4:
        raise ValueError("not a float32 vector")
    return np.frombuffer(raw, dtype=np.float32).copy()


def cached_values(
    store: Store | None,
    namespace: str,
    keys: Sequence[str],
    compute: Callable[[list[int]], list[Any]],
    encode: Callable[[Any], bytes],
    decode: Callable[[bytes], Any],
) -> tuple[list[Any], int]:
    """The value of each key: from the store where present, else from ``compute(positions)``.

    The store is read in one batched lookup and written in one transaction. ``compute`` gets
    the positions of the first occurrence of each missing key (so a text asked twice is computed
    once) and returns their values in that order. Returns the values and the number of distinct
    keys served from the store.
    """
    first: dict[str, int] = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    usable = store is not None and store.enabled
    stored = store.get_many(namespace, list(first)) if usable else {}
    values: list[Any] = [None] * len(keys)
    hits = 0
    for key, raw in stored.items():
        try:
            values[first[key]] = decode(raw)
            hits += 1
        except (ValueError, TypeError):
            pass  # an undecodable entry is a miss, recomputed below
    missing = [i for i in first.values() if values[i] is None]
    if missing:
        computed = compute(missing)
        if len(computed) != len(missing):
            raise ValueError(f"computed {len(computed)} values for {len(missing)} keys")
        for i, value in zip(missing, computed):
            values[i] = value
        if usable:
            store.put_many(namespace, [(keys[i], encode(values[i])) for i in missing])
    for i, key in enumerate(keys):
        if values[i] is None:
            values[i] = values[first[key]]
    return values, hits


_DEFAULT: Store | None = None


def get_store(enabled: bool = True) -> Store:
    """The process-wide store (``cache.sqlite`` in :func:`cache_dir`), or a disabled one."""
    global _DEFAULT
    if not enabled:
        return Store.disabled()
    path = cache_dir() / "cache.sqlite"
    if _DEFAULT is None or _DEFAULT.path != path:
        _DEFAULT = Store(path)
    return _DEFAULT
