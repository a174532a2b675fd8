import os
import random
import sqlite3
import time

from conflictkit.store import Store, get_store, key_of


def test_round_trip_and_namespaces(tmp_path):
    store = Store(tmp_path / "c.sqlite")
    store.put("a", "k", b"one")
    store.put_json("b", "k", {"x": [1, 2]})
    assert store.get("a", "k") == b"one"
    assert store.get_json("b", "k") == {"x": [1, 2]}
    assert store.get("a", "missing") is None
    # a second process (connection) sees the same data
    assert Store(tmp_path / "c.sqlite").get("a", "k") == b"one"


def test_corrupt_file_is_moved_aside(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    store = Store(path)
    assert store.enabled
    store.put("a", "k", b"v")
    assert store.get("a", "k") == b"v"
    assert "corrupt" in capsys.readouterr().err
    assert any(p.name.startswith("c.sqlite.corrupt-") for p in tmp_path.iterdir())


def test_corrupt_entry_is_a_miss(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    store = Store(path)
    store.put("a", "k", b"value")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE entries SET value = ? WHERE key = 'k'", (b"tampered",))
    conn.commit()
    conn.close()
    assert store.get("a", "k") is None
    assert "corrupt cache entry" in capsys.readouterr().err


def test_locked_store_is_bypassed(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    first = Store(path)
    first.put("a", "k", b"v")
    first.close()
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        store = Store(path, timeout=0.1)
        store.put("a", "k2", b"v2")  # a write that cannot get the lock warns, never raises
        assert store.get("a", "k2") is None
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert "cache" in capsys.readouterr().err


def test_unwritable_directory_disables(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = Store(blocker / "sub" / "c.sqlite")
    assert not store.enabled
    assert store.get("a", "k") is None
    assert "running without the cache" in capsys.readouterr().err


def test_env_override(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFLICTKIT_CACHE_DIR", str(tmp_path / "cache"))
    store = get_store()
    assert store.path == tmp_path / "cache" / "cache.sqlite"
    assert not get_store(enabled=False).enabled


def test_key_of_is_stable():
    assert key_of("a", 1, {"b": 2}) == key_of("a", 1, {"b": 2})
    assert key_of("a", 1) != key_of("a", 2)


def test_many_keys_are_read_and_written_in_batches(tmp_path):
    store = Store(tmp_path / "c.sqlite")
    items = [(f"k{i}", f"v{i}".encode()) for i in range(1234)]  # more keys than one query takes
    store.put_many("a", items)
    found = store.get_many("a", [k for k, _ in items] + ["absent", "k0"])
    assert found == dict(items)
    assert Store(tmp_path / "c.sqlite").get_many("a", ["k7"]) == {"k7": b"v7"}  # committed: another connection sees it
    assert store.get_many("b", ["k1"]) == {}


def test_a_corrupt_entry_among_many_is_a_miss(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    store = Store(path)
    store.put_many("a", [("k1", b"one"), ("k2", b"two")])
    conn = sqlite3.connect(path)
    conn.execute("UPDATE entries SET value = ? WHERE key = 'k2'", (b"tampered",))
    conn.commit()
    conn.close()
    assert store.get_many("a", ["k1", "k2"]) == {"k1": b"one"}
    assert "corrupt cache entries" in capsys.readouterr().err
    assert store.get("a", "k2") is None


def test_cached_values_computes_each_missing_key_once(tmp_path):
    from conflictkit.store import cached_values

    store = Store(tmp_path / "c.sqlite")
    asked = []

    def compute(positions, save):
        asked.append(list(positions))
        return [f"value of {keys[i]}".encode() for i in positions]

    keys = ["x", "y", "x", "z", "y"]
    values, hits = cached_values(store, "ns", keys, compute, bytes, bytes)
    assert asked == [[0, 1, 3]] and hits == 0
    assert values == [b"value of x", b"value of y", b"value of x", b"value of z", b"value of y"]
    keys = ["z", "w", "x"]
    values, hits = cached_values(store, "ns", keys, compute, bytes, bytes)
    assert asked[-1] == [1] and hits == 2
    assert values == [b"value of z", b"value of w", b"value of x"]


def _filled(path, n=400):
    store = Store(path)
    for i in range(n):
        store.put("ns", f"k{i}", os.urandom(1000))
    store.close()


def _scramble_middle(path, size=65536):
    middle = path.stat().st_size // 2 - size // 2
    with open(path, "r+b") as handle:
        handle.seek(middle)
        handle.write(random.Random(7).randbytes(size))


def test_damage_in_the_middle_is_moved_aside_once(tmp_path, capsys):
    """The header is intact, so opening works: the damage shows only on a later read."""
    path = tmp_path / "c.sqlite"
    _filled(path)
    _scramble_middle(path)
    store = Store(path)
    found = [store.get("ns", f"k{i}") for i in range(400)]
    err = capsys.readouterr().err
    assert err.count("is corrupt") == 1 and "moved it to c.sqlite.corrupt-" in err
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("c.sqlite.corrupt-")]) == 1
    assert found.count(None) > 0
    store.put("ns", "fresh", b"v")  # the fresh file caches again
    assert store.get("ns", "fresh") == b"v"
    store.close()
    again = Store(path)  # a later run: no warning, the entry is there
    assert again.get("ns", "fresh") == b"v"
    assert capsys.readouterr().err == ""


def test_write_under_another_process_lock_gives_up_quickly(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    _filled(path, 1)
    store = Store(path)
    store.get("ns", "k0")
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        for i in range(5):
            store.put("ns", f"late{i}", b"v")
        elapsed = time.monotonic() - started
        assert store.get("ns", "k0") is not None  # reads go on under a writer's lock (WAL)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert elapsed < 2.5, f"5 locked writes took {elapsed:.1f} s"  # 5 s each before: 25 s
    assert capsys.readouterr().err.count("locked by another process") == 1
    store.put("ns", "after", b"v")  # the lock gone, writes work again
    assert store.get("ns", "after") == b"v"


def _file_with(path, *statements, rows=()):
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)
        for row in rows:
            conn.execute(f"INSERT INTO {row[0]} VALUES ({','.join('?' * (len(row) - 1))})", row[1:])


def test_an_earlier_layout_is_migrated_once_and_keeps_its_entries(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    _file_with(path, "CREATE TABLE entries (namespace TEXT, key TEXT, value BLOB, PRIMARY KEY (namespace, key))",
               rows=[("entries", "a", "k", b"old value")])
    store = Store(path)
    assert store.get("a", "k") == b"old value"
    store.put("a", "k2", b"new")
    assert capsys.readouterr().err.count("had an earlier layout; migrated it") == 1
    again = Store(path)
    assert again.get("a", "k2") == b"new" and capsys.readouterr().err == ""  # the next run is silent


def test_a_file_of_the_current_layout_without_a_version_is_used_silently(tmp_path, capsys):
    path = tmp_path / "c.sqlite"
    Store(path).put("a", "k", b"v")
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version=0")  # as every release before the version was written
    assert Store(path).get("a", "k") == b"v" and capsys.readouterr().err == ""


def test_a_foreign_or_newer_file_is_moved_aside_once_and_kept(tmp_path, capsys):
    """Another program's tables (or a newer conflictkit's layout) used to warn on every run, forever."""
    for n, statements in enumerate([
        ("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", "INSERT INTO notes (body) VALUES ('keep me')"),
        ("CREATE TABLE entries (id INTEGER PRIMARY KEY, body TEXT)", "INSERT INTO entries (body) VALUES ('keep me')"),
        ("CREATE TABLE entries (namespace TEXT, key TEXT, value BLOB, checksum TEXT, created REAL)",
         "PRAGMA user_version=99"),
    ]):
        folder = tmp_path / str(n)
        folder.mkdir()
        _file_with(folder / "c.sqlite", *statements)
        store = Store(folder / "c.sqlite")
        store.put("a", "k", b"v")
        assert store.get("a", "k") == b"v"
        err = capsys.readouterr().err
        assert err.count("warning") == 1 and "moved it to c.sqlite.foreign-" in err
        (aside,) = [p for p in folder.iterdir() if ".foreign-" in p.name]
        with sqlite3.connect(aside) as conn:  # nothing of it was lost
            assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] >= 1
        assert Store(folder / "c.sqlite").get("a", "k") == b"v" and capsys.readouterr().err == ""
