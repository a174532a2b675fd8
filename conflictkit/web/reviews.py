"""The review store: finished comparisons and reviewers' decisions, in one SQLite file.

Unlike the cache (:mod:`conflictkit.store`), this is the user's work, so a database that cannot
be opened is an error, never silently bypassed. A comparison is inserted in one statement once it
has finished, so a failed or interrupted run leaves no record; decisions are upserts.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from conflictkit.errors import UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS comparisons (
    id TEXT PRIMARY KEY,
    reference_name TEXT NOT NULL,
    input_name TEXT NOT NULL,
    reference_text TEXT NOT NULL,
    input_text TEXT NOT NULL,
    report TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
    finding_id TEXT NOT NULL,
    status TEXT CHECK (status IS NULL OR status IN ('accepted', 'dismissed')),
    note TEXT NOT NULL DEFAULT '',
    updated REAL NOT NULL,
    PRIMARY KEY (comparison_id, finding_id)
);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    batch_id TEXT,
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    config_key TEXT NOT NULL,
    reference_name TEXT NOT NULL,
    input_name TEXT NOT NULL,
    reference_data BLOB NOT NULL,
    input_data BLOB NOT NULL,
    error TEXT,
    comparison TEXT,
    interrupted INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    finished REAL
);
CREATE INDEX IF NOT EXISTS jobs_by_batch ON jobs (batch_id, created);
"""
JOB_FIELDS = ("id", "batch_id", "state", "config_key", "reference_name", "input_name", "error", "comparison",
              "interrupted", "created", "finished")

ID_PATTERN = re.compile(r"^[0-9a-f]{16}$")
STATUSES = ("accepted", "dismissed")
MAX_NOTE = 4000
MAX_TITLE = 200


@dataclass
class Comparison:
    """A stored comparison: the two texts and names, the report and the resolved config (YAML)."""

    id: str
    reference_name: str
    input_name: str
    reference_text: str
    input_text: str
    report: dict
    config: str
    created: float
    title: str | None = None

    @property
    def name(self) -> str:
        """What people call it: the name given on renaming, else ``reference -> input``."""
        return self.title or f"{self.reference_name} -> {self.input_name}"


@dataclass
class Summary:
    """A line of the past-comparisons list."""

    id: str
    reference_name: str
    input_name: str
    created: float
    counts: dict
    decided: int
    title: str | None = None

    @property
    def name(self) -> str:
        return self.title or f"{self.reference_name} -> {self.input_name}"


class ReviewStore:
    """Comparisons and decisions in the SQLite file at ``path`` (created on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as conn:
                conn.executescript(SCHEMA)
                columns = {row[1] for row in conn.execute("PRAGMA table_info(comparisons)")}
                if "title" not in columns:  # a database from before comparisons could be renamed
                    conn.execute("ALTER TABLE comparisons ADD COLUMN title TEXT")
        except (OSError, sqlite3.Error) as exc:
            raise UserError(f"cannot open the review database {self.path}: {exc}; choose another file with --db") from None

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A connection for one write; a full disk or a read-only file is a UserError naming the file."""
        try:
            with closing(self._connect()) as conn:
                yield conn
        except sqlite3.OperationalError as exc:
            raise UserError(f"cannot save to the review database {self.path}: {exc}; free some space, "
                            "or start the server with another --db") from None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def add(self, reference_name: str, input_name: str, reference_text: str, input_text: str, report: dict, config: str) -> str:
        """Store a finished comparison in one statement and return its new id."""
        cid = secrets.token_hex(8)
        with self._writing() as conn:
            conn.execute(
                "INSERT INTO comparisons (id, reference_name, input_name, reference_text, input_text, report, config, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (cid, reference_name, input_name, reference_text, input_text, json.dumps(report), config, time.time()),
            )
        return cid

    def get(self, cid: str) -> Comparison | None:
        """The comparison with this id, or None (also for anything that is not an id)."""
        if not ID_PATTERN.match(cid or ""):
            return None
        with closing(self._connect()) as conn:
            row = conn.execute(
                "SELECT id, reference_name, input_name, reference_text, input_text, report, config, created, title"
                " FROM comparisons WHERE id = ?", (cid,)).fetchone()
        if row is None:
            return None
        return Comparison(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], row[8])

    def rename(self, cid: str, title: str) -> str:
        """Give a comparison a name of its own; returns the name as stored."""
        title = " ".join(str(title).split())
        if not title:
            raise UserError("a name needs at least one character that is not a space")
        if len(title) > MAX_TITLE:
            raise UserError(f"a name holds at most {MAX_TITLE} characters")
        with closing(self._connect()) as conn:
            if conn.execute("UPDATE comparisons SET title = ? WHERE id = ?", (title, cid)).rowcount == 0:
                raise KeyError(cid)
        return title

    def delete(self, cid: str) -> bool:
        """Delete a comparison and its decisions; False when there was none with this id."""
        if not ID_PATTERN.match(cid or ""):
            return False
        with closing(self._connect()) as conn:
            return conn.execute("DELETE FROM comparisons WHERE id = ?", (cid,)).rowcount > 0

    def list(self, limit: int = 200) -> list[Summary]:
        """The most recent comparisons first, with finding counts and how many are decided."""
        with closing(self._connect()) as conn:
            rows = conn.execute(
                "SELECT c.id, c.reference_name, c.input_name, c.created, json_extract(c.report, '$.summary'),"
                " (SELECT count(*) FROM decisions d WHERE d.comparison_id = c.id AND d.status IS NOT NULL), c.title"
                " FROM comparisons c ORDER BY c.created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [Summary(r[0], r[1], r[2], r[3], json.loads(r[4] or "{}"), r[5], r[6]) for r in rows]

    def decisions(self, cid: str) -> dict[str, dict]:
        """``{finding_id: {"status", "note", "updated"}}`` for one comparison."""
        with closing(self._connect()) as conn:
            rows = conn.execute(
                "SELECT finding_id, status, note, updated FROM decisions WHERE comparison_id = ?", (cid,)
            ).fetchall()
        return {r[0]: {"status": r[1], "note": r[2], "updated": r[3]} for r in rows}

    def decide(self, cid: str, finding_id: str, status: str | None = None, note: str | None = None, *, set_status: bool = True) -> dict:
        """Record a decision; ``set_status=False`` keeps the status and changes the note only."""
        if status is not None and status not in STATUSES:
            raise UserError(f"status must be one of {', '.join(STATUSES)} or null, not {status!r}")
        if note is not None and len(note) > MAX_NOTE:
            raise UserError(f"a note holds at most {MAX_NOTE} characters")
        current = self.decisions(cid).get(finding_id, {"status": None, "note": ""})
        new = {
            "status": status if set_status else current["status"],
            "note": current["note"] if note is None else note,
            "updated": time.time(),
        }
        with self._writing() as conn:
            conn.execute(
                "INSERT INTO decisions VALUES (?, ?, ?, ?, ?) ON CONFLICT (comparison_id, finding_id)"
                " DO UPDATE SET status = excluded.status, note = excluded.note, updated = excluded.updated",
                (cid, finding_id, new["status"], new["note"], new["updated"]),
            )
        return new

    # -- the job queue: the documents and state of every comparison asked for, so a restart loses none --

    def add_job(self, job_id: str, batch_id: str | None, config_key: str, reference_name: str, input_name: str,
                reference_data: bytes, input_data: bytes) -> None:
        """Queue a comparison: the uploaded files' bytes are kept, so a resumed job reads them as the upload did."""
        with closing(self._connect()) as conn:
            conn.execute(
                "INSERT INTO jobs (id, batch_id, state, config_key, reference_name, input_name, reference_data,"
                " input_data, created) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?)",
                (job_id, batch_id, config_key, reference_name, input_name, reference_data, input_data, time.time()),
            )

    def update_job(self, job_id: str, **fields) -> None:
        unknown = set(fields) - {"state", "error", "comparison", "finished", "interrupted"}
        if unknown:
            raise ValueError(f"not job fields: {', '.join(sorted(unknown))}")
        assignments = ", ".join(f"{name} = ?" for name in fields)
        with closing(self._connect()) as conn:
            conn.execute(f"UPDATE jobs SET {assignments} WHERE id = ?", (*fields.values(), job_id))

    def finish_job(self, job_id: str, state: str, error: str | None, comparison: str | None, finished: float) -> None:
        """Record how a job ended and drop its uploaded bytes: a finished job is never run again."""
        with closing(self._connect()) as conn:
            conn.execute("UPDATE jobs SET state = ?, error = ?, comparison = ?, finished = ?, reference_data = x'',"
                         " input_data = x'' WHERE id = ?", (state, error, comparison, finished, job_id))

    def job(self, job_id: str) -> dict | None:
        """A job's state (no document texts), or None."""
        if not ID_PATTERN.match(job_id or ""):
            return None
        with closing(self._connect()) as conn:
            row = conn.execute(f"SELECT {', '.join(JOB_FIELDS)} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else dict(zip(JOB_FIELDS, row))

    def job_files(self, job_id: str) -> tuple[bytes, bytes]:
        """The bytes of a job's two uploaded files."""
        with closing(self._connect()) as conn:
            row = conn.execute("SELECT reference_data, input_data FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise UserError(f"job {job_id} is no longer in the review database")
        return bytes(row[0]), bytes(row[1])

    def batch_jobs(self, batch_id: str) -> list[dict]:
        if not ID_PATTERN.match(batch_id or ""):
            return []
        with closing(self._connect()) as conn:
            rows = conn.execute(f"SELECT {', '.join(JOB_FIELDS)} FROM jobs WHERE batch_id = ? ORDER BY created, rowid",
                                (batch_id,)).fetchall()
        return [dict(zip(JOB_FIELDS, r)) for r in rows]

    def resume_jobs(self) -> list[str]:
        """After a restart: running jobs were interrupted and go back to the queue; the ids to run, oldest first."""
        with closing(self._connect()) as conn:
            conn.execute("UPDATE jobs SET state = 'queued', interrupted = interrupted + 1 WHERE state = 'running'")
            rows = conn.execute("SELECT id FROM jobs WHERE state = 'queued' ORDER BY created, rowid").fetchall()
        return [r[0] for r in rows]
