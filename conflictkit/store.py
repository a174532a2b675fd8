"""The embedded cache: one SQLite file under the user cache directory.

Keys live in namespaces (``index``, ``report``, ``isaacus.embeddings``...). The file's schema is
checked once when it is opened: one of an earlier layout is migrated in place, one this code
cannot read (another program's tables, a newer conflictkit's layout) is moved aside, kept, and a
fresh one started, each with one warning, so no run after it warns again. Writes are atomic
(one transaction each) and safe with two processes (WAL, a short busy timeout). The cache is never
fatal: a file SQLite reports as damaged (at open or on any later read or write) is checked with
``PRAGMA quick_check`` and, when damaged, moved aside once and recreated; a write that another
process's lock holds up gives up after ``timeout`` (0.1 s) and that entry stays uncached (later
writes do not wait at all until one succeeds again); a corrupt entry reads as a miss. Each with a
warning on stderr.

``CONFLICTKIT_CACHE_DIR`` overrides the directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

if TYPE_CHECKING:
    import numpy as np

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
SCHEMA_VERSION = 1  # PRAGMA user_version of a file this code wrote (0: written before it was set)
COLUMNS = ("namespace", "key", "value", "checksum", "created")


OPEN_WAIT = 2.0  # seconds opening or reading may wait for another process's lock


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
    """A namespaced key-value store of bytes, or a no-op store when ``path`` is None.

    ``timeout`` is how long a write waits for another process's lock before it gives up.
    """

    def __init__(self, path: Path | None, timeout: float = 0.1) -> None:
        self.path = path
        self.timeout = timeout
        self._local = threading.local()
        self._lock = threading.Lock()
        self._generation = 0  # bumped when the file is replaced: every thread reconnects
        self._healed = False
        self._lock_warned = False
        self._writes_blocked = False  # the last write met a lock: the next ones do not wait
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
        if conn is not None and self._local.generation != self._generation:
            conn.close()
            conn = None
        if conn is None:
            assert self.path is not None
            # opening and reading may wait for a moment (two runs starting together); writes do not (put)
            conn = sqlite3.connect(self.path, timeout=OPEN_WAIT, isolation_level=None, check_same_thread=False)
            self._local.conn, self._local.generation = conn, self._generation
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            if not conn.execute("SELECT 1 FROM sqlite_master WHERE name='entries'").fetchone():
                self._settle_schema(conn)  # the file was replaced or removed since it was opened: a fresh one
        return conn

    def _open_or_recover(self) -> None:
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._connect()
            if self._settle_schema(conn) == "foreign":
                self._move_aside("holds tables this version cannot use", "foreign")
                conn = self._connect()
                self._settle_schema(conn)
            conn.execute("SELECT count(*) FROM entries LIMIT 1").fetchone()
        except sqlite3.DatabaseError as exc:
            if _is_lock(exc):
                _warn(f"cache {self.path} is locked by another process ({exc}); running without the cache")
                self._disabled = True
            else:
                self._heal(exc)
        except OSError as exc:
            _warn(f"cannot create cache directory {self.path.parent} ({exc}); running without the cache")
            self._disabled = True

    def _settle_schema(self, conn: sqlite3.Connection) -> str:
        """``"current"`` (created fresh, or already this layout), ``"migrated"`` (an earlier layout of
        ours brought up to date) or ``"foreign"`` (tables or a layout this code does not know)."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")}
        if not tables:
            with conn:
                conn.execute(SCHEMA)
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            return "current"
        columns = {row[1] for row in conn.execute("PRAGMA table_info(entries)")}
        if tables != {"entries"} or version > SCHEMA_VERSION or not {"namespace", "key", "value"} <= columns \
                or not columns <= set(COLUMNS):
            return "foreign"
        if columns == set(COLUMNS) and version == SCHEMA_VERSION:
            return "current"
        self._migrate(conn, columns)
        return "migrated"

    def _migrate(self, conn: sqlite3.Connection, columns: set[str]) -> None:
        """An earlier layout of ours (no checksum or creation time, or no version set) brought up to date, in one transaction."""
        if columns == set(COLUMNS):  # the layout is this one: only the version was never written
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            return
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("ALTER TABLE entries RENAME TO entries_before_migration")
            conn.execute(SCHEMA)
            now = time.time()
            rows = conn.execute("SELECT namespace, key, value FROM entries_before_migration").fetchall()
            conn.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)",
                             [(ns, key, bytes(value), hashlib.sha256(bytes(value)).hexdigest(), now)
                              for ns, key, value in rows if isinstance(value, (bytes, memoryview))])
            conn.execute("DROP TABLE entries_before_migration")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        _warn(f"cache {self.path} had an earlier layout; migrated it")

    def _move_aside(self, why: str, tag: str) -> None:
        """Rename the file (kept, never deleted) and start a fresh one in its place; connections reopen."""
        assert self.path is not None
        self.close()
        self._generation += 1
        aside = self.path.with_name(f"{self.path.name}.{tag}-{int(time.time())}")
        _warn(f"cache {self.path} {why}; moved it to {aside.name} and starting a fresh one")
        os.replace(self.path, aside)
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def _heal(self, exc: sqlite3.DatabaseError) -> str:
        """After an error that may mean a damaged file: check it, and if damaged move it aside once.

        Returns ``"sound"`` (the file checks out: the error was something else), ``"healed"``
        (moved aside, a fresh file in its place) or ``"disabled"`` (running without the cache);
        the last two have already warned.
        """
        assert self.path is not None
        with self._lock:
            if self._disabled:
                return "disabled"
            self._generation += 1  # drop connections that may still point at a replaced file
            damage = _damage(self.path)
            if damage is None:
                return "sound"
            if self._healed:  # moved aside once already: a second damaged file means something else is wrong
                _warn(f"cache {self.path} is damaged again ({damage}); running without the cache")
                self._disabled = True
                return "disabled"
            self._healed = True
            try:
                self._move_aside(f"is corrupt ({damage})", "corrupt")
                conn = self._connect()
                self._settle_schema(conn)
                conn.execute("SELECT count(*) FROM entries LIMIT 1").fetchone()
            except (OSError, sqlite3.DatabaseError) as exc2:
                _warn(f"cannot recreate cache {self.path} ({exc2}); running without the cache")
                self._disabled = True
                return "disabled"
            return "healed"

    def _failed(self, exc: sqlite3.Error, doing: str) -> None:
        if isinstance(exc, sqlite3.DatabaseError) and not _is_lock(exc) and self._heal(exc) != "sound":
            return
        _warn(f"cache {doing} failed ({exc}); {'recomputing' if doing == 'read' else 'continuing without caching this result'}")

    def get(self, namespace: str, key: str) -> bytes | None:
        """The stored value, or None on a miss, a corrupt entry or an unusable store."""
        if self._disabled:
            return None
        try:
            row = self._connect().execute(
                "SELECT value, checksum FROM entries WHERE namespace=? AND key=?", (namespace, key)
            ).fetchone()
        except sqlite3.Error as exc:
            self._failed(exc, "read")
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
        """Store ``value``; a failure is a warning, never an error, and a lock is not waited out."""
        self.put_many(namespace, [(key, value)])

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
            self._failed(exc, "read")
            return {}
        if corrupt:
            _warn(f"{len(corrupt)} corrupt cache entries in {namespace}; recomputing them")
            for key in corrupt:
                self.delete(namespace, key)
        return found

    def put_many(self, namespace: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Store many values in one transaction; a failure is a warning, never an error, and a lock is not waited out."""
        if self._disabled or not items:
            return
        now = time.time()
        rows = [(namespace, key, value, hashlib.sha256(value).hexdigest(), now) for key, value in items]
        try:
            conn = self._connect()
            conn.execute(f"PRAGMA busy_timeout={0 if self._writes_blocked else int(self.timeout * 1000)}")
            try:
                with conn:  # one transaction: 100k rows in one commit, not 100k
                    conn.execute("BEGIN")
                    conn.executemany(
                        "INSERT OR REPLACE INTO entries (namespace, key, value, checksum, created) VALUES (?, ?, ?, ?, ?)", rows
                    )
            finally:
                conn.execute(f"PRAGMA busy_timeout={int(OPEN_WAIT * 1000)}")
            self._writes_blocked = False
        except sqlite3.Error as exc:
            if _is_lock(exc):
                self._writes_blocked = True
                if not self._lock_warned:
                    self._lock_warned = True
                    _warn(f"cache {self.path} is locked by another process; results are not cached while it is")
                return
            self._failed(exc, "write")

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
    import numpy as np  # here, not at the top: a run served from the store whole needs no numpy

    return np.asarray(vector, dtype=np.float32).tobytes()


def vector_from(raw: bytes) -> np.ndarray:
    """The inverse of :func:`vector_bytes`; a length that is not whole float32s is a ValueError."""
    if len(raw) % 4:
        raise ValueError("not a float32 vector")
    import numpy as np

    return np.frombuffer(raw, dtype=np.float32).copy()


def cached_values(
    store: Store | None,
    namespace: str,
    keys: Sequence[str],
    compute: Callable[[list[int], Callable[[int, Any], None]], list[Any]],
    encode: Callable[[Any], bytes],
    decode: Callable[[bytes], Any],
) -> tuple[list[Any], int]:
    """The value of each key: from the store where present, else from ``compute(positions, save)``.

    The store is read in one batched lookup. ``compute`` gets the positions of the first
    occurrence of each missing key (so a text asked twice is computed once) and returns their
    values in that order; it may call ``save(position, value)`` as each value arrives (a remote
    API: what was answered stays cached when a later request fails). Values it did not save are
    written together in one transaction when it returns. Returns the values and the number of
    distinct keys served from the store.
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
        saved: set[int] = set()

        def save(i: int, value: Any) -> None:
            if usable:
                store.put(namespace, keys[i], encode(value))
            saved.add(i)

        computed = compute(missing, save)
        if len(computed) != len(missing):
            raise ValueError(f"computed {len(computed)} values for {len(missing)} keys")
        for i, value in zip(missing, computed):
            values[i] = value
        if usable:
            store.put_many(namespace, [(keys[i], encode(values[i])) for i in missing if i not in saved])
    for i, key in enumerate(keys):
        if values[i] is None:
            values[i] = values[first[key]]
    return values, hits


def _is_lock(exc: sqlite3.Error) -> bool:
    text = str(exc)
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _damage(path: Path) -> str | None:
    """What ``PRAGMA quick_check`` finds wrong with the file at ``path``, or None when it is sound."""
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=1.0)) as conn:
            rows = conn.execute("PRAGMA quick_check(3)").fetchall()
            conn.execute("SELECT count(*) FROM entries").fetchone()
    except sqlite3.DatabaseError as exc:
        if _is_lock(exc):
            return None  # cannot tell while another process writes; the entry is just recomputed
        return str(exc)
    problems = [" ".join(str(row[0]).split()) for row in rows if row[0] != "ok"]
    return "; ".join(problems)[:200] if problems else None


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
