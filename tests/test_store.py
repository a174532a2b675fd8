import sqlite3

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
