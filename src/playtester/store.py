"""The findings store: one SQLite database per output folder (``DIR/playtester.sqlite``).

Written as findings happen: every new bug (and every repeat of a known one) is committed at once, and
each finished episode commits its row, the coverage it added, and a point of the coverage timeline in
one transaction (WAL journal). A campaign killed with SIGKILL therefore loses at most the episode in
flight, and ``--resume`` continues from what is stored. A write that fails (disk full, folder not
writable) raises `StoreError`, which says what happened; what was committed before stays.

Schema version 1; tables: meta, campaigns, episodes, bugs, timeline, states, positions, code_lines.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playtester.errors import ConfigError, PlaytesterError, UsageError
from playtester.findings import Bug, Finding, Trace

SCHEMA_VERSION = 1
DB_NAME = "playtester.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL, agent TEXT NOT NULL,
    space TEXT NOT NULL, budget TEXT NOT NULL, workers INTEGER NOT NULL, seed INTEGER NOT NULL,
    abstraction TEXT NOT NULL, started_at REAL NOT NULL, updated_at REAL NOT NULL,
    status TEXT NOT NULL,            -- running | finished | failed
    steps INTEGER NOT NULL DEFAULT 0, episodes INTEGER NOT NULL DEFAULT 0,
    elapsed_s REAL NOT NULL DEFAULT 0, next_seed INTEGER NOT NULL, code_total INTEGER NOT NULL DEFAULT 0,
    agent_state BLOB
);
CREATE TABLE IF NOT EXISTS episodes (
    id INTEGER PRIMARY KEY, campaign_id INTEGER NOT NULL REFERENCES campaigns(id), worker INTEGER NOT NULL,
    seed INTEGER NOT NULL, steps INTEGER NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL,
    ended_s REAL NOT NULL, actions TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bugs (
    id INTEGER PRIMARY KEY, campaign_id INTEGER NOT NULL REFERENCES campaigns(id), game TEXT NOT NULL,
    signature TEXT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, location TEXT NOT NULL,
    count INTEGER NOT NULL, first_found_s REAL NOT NULL, first_found_at REAL NOT NULL,
    first_step INTEGER NOT NULL, trace TEXT, min_trace TEXT, flaky INTEGER, replay TEXT,
    details TEXT NOT NULL, UNIQUE (campaign_id, signature)
);
CREATE TABLE IF NOT EXISTS timeline (
    campaign_id INTEGER NOT NULL, t_s REAL NOT NULL, steps INTEGER NOT NULL, episodes INTEGER NOT NULL,
    states INTEGER NOT NULL, code_covered INTEGER NOT NULL, code_total INTEGER NOT NULL,
    bugs INTEGER NOT NULL, steps_per_s REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS states (
    campaign_id INTEGER NOT NULL, key TEXT NOT NULL, visits INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, key)
);
CREATE TABLE IF NOT EXISTS positions (
    campaign_id INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, visits INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, x, y)
);
CREATE TABLE IF NOT EXISTS code_lines (
    campaign_id INTEGER NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, file, line)
);
"""


class StoreError(PlaytesterError):
    """The store could not be opened or written (exit code 3). Committed data is kept."""


@dataclass
class Campaign:
    """A campaign row."""

    id: int
    game: str
    config: dict[str, Any]
    agent: str
    space: dict[str, Any]
    budget: str
    workers: int
    seed: int
    abstraction: str
    started_at: float
    status: str
    steps: int
    episodes: int
    elapsed_s: float
    next_seed: int
    code_total: int
    agent_state: bytes | None


class Store:
    """The SQLite store of one output folder."""

    def __init__(self, folder: str | Path, create: bool = True, max_mb: float | None = None) -> None:
        self.folder = Path(folder)
        self.path = self.folder / DB_NAME
        self._known: dict[tuple[int, str], int] = {}  # (campaign, signature) -> bug id, of bugs seen here
        self._pending: dict[int, int] = {}  # bug id -> times found again, not written yet
        if not create and not self.path.is_file():
            raise UsageError(f"no playtester store in {self.folder} (expected {self.path}); name the folder "
                             "'playtester explore GAME --out DIR' wrote")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            if max_mb is not None:  # a size limit: past it every write fails as on a full disk
                page = self.db.execute("PRAGMA page_size").fetchone()[0]
                self.db.execute(f"PRAGMA max_page_count={max(1, int(max_mb * 2**20 / page))}")
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {row[0]}; this playtester reads version "
                                 f"{SCHEMA_VERSION}; use another --out folder")
        except sqlite3.DatabaseError as e:
            if "not a database" in str(e) or "malformed" in str(e):
                raise UsageError(f"{self.path} is damaged or not a playtester store ({e}); move it away and use "
                                 "another --out folder (explore's report.html and bugs/ beside it are still there)"
                                 ) from None
            raise StoreError(f"cannot open the store {self.path}: {e}; check that the folder is writable "
                             "and the disk has space") from None
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"cannot open the store {self.path}: {e}; check that the folder is writable "
                             "and the disk has space") from None

    def close(self) -> None:
        try:
            self.flush_counts()
        finally:
            self.db.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction; a failed write becomes a `StoreError` and nothing of it is kept."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield self.db
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            full = "full" in str(e).lower()
            raise StoreError(f"writing the store {self.path} failed: {e}"
                             + ("; free some disk space, then continue with --resume" if full else
                                "; check the folder is writable, then continue with --resume")
                             + " (everything committed before is kept)") from None

    # ---- campaigns
    def new_campaign(self, game: str, config: dict[str, Any], agent: str, space: dict[str, Any], budget: str,
                     workers: int, seed: int, abstraction: str) -> int:
        now = time.time()
        with self.tx() as db:
            cur = db.execute(
                "INSERT INTO campaigns (game, config, agent, space, budget, workers, seed, abstraction, "
                "started_at, updated_at, status, next_seed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (game, json.dumps(config), agent, json.dumps(space), budget, workers, seed, abstraction, now, now,
                 "running", seed))
            return int(cur.lastrowid)

    def campaign(self, campaign_id: int | None = None) -> Campaign | None:
        """A campaign by id, or the latest one."""
        q = "SELECT * FROM campaigns " + ("WHERE id=?" if campaign_id else "ORDER BY id DESC LIMIT 1")
        row = self.db.execute(q, (campaign_id,) if campaign_id else ()).fetchone()
        if row is None:
            return None
        (cid, game, config, agent, space, budget, workers, seed, abstraction, started, _upd, status, steps,
         episodes, elapsed, next_seed, code_total, agent_state) = row
        return Campaign(cid, game, json.loads(config), agent, json.loads(space), budget, workers, seed,
                        abstraction, started, status, steps, episodes, elapsed, next_seed, code_total, agent_state)

    def campaigns(self) -> list[Campaign]:
        ids = [r[0] for r in self.db.execute("SELECT id FROM campaigns ORDER BY id")]
        return [c for c in (self.campaign(i) for i in ids) if c]

    def update_campaign(self, campaign_id: int, **fields: Any) -> None:
        allowed = {"status", "steps", "episodes", "elapsed_s", "next_seed", "code_total", "agent_state"}
        assert set(fields) <= allowed, set(fields) - allowed
        sets = ", ".join(f"{k}=?" for k in fields)
        with self.tx() as db:
            db.execute(f"UPDATE campaigns SET {sets}, updated_at=? WHERE id=?",
                       (*fields.values(), time.time(), campaign_id))

    # ---- bugs
    def record_finding(self, campaign_id: int, game: str, finding: Finding, trace: Trace | None,
                       found_s: float) -> tuple[int, bool]:
        """Store a finding as a new bug or one more count of a known one. Returns (bug id, is new).

        A bug this store wrote or found in this process is counted in memory (no transaction) and its counts
        are added at `flush_counts` (a campaign calls it at each episode's end; reading bugs and closing the
        store do too): a bug found again every few steps cost a transaction each time. A new bug is written
        at once, with its trace."""
        known = self._known.get((campaign_id, finding.signature))
        if known is not None:
            self._pending[known] = self._pending.get(known, 0) + 1
            return known, False
        with self.tx() as db:
            row = db.execute("SELECT id FROM bugs WHERE campaign_id=? AND signature=?",
                             (campaign_id, finding.signature)).fetchone()
            if row:
                db.execute("UPDATE bugs SET count = count + 1 WHERE id=?", (row[0],))
                self._known[(campaign_id, finding.signature)] = int(row[0])
                return int(row[0]), False
            cur = db.execute(
                "INSERT INTO bugs (campaign_id, game, signature, kind, message, location, count, first_found_s, "
                "first_found_at, first_step, trace, details) VALUES (?,?,?,?,?,?,1,?,?,?,?,?)",
                (campaign_id, game, finding.signature, finding.kind, finding.message, finding.location, found_s,
                 time.time(), finding.step, trace.to_json() if trace else None, json.dumps(finding.details)))
            self._known[(campaign_id, finding.signature)] = int(cur.lastrowid)
            return int(cur.lastrowid), True

    def flush_counts(self) -> None:
        """Add the counts of bugs found again since the last flush (see `record_finding`), in one transaction."""
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        with self.tx() as db:
            db.executemany("UPDATE bugs SET count = count + ? WHERE id=?", [(n, bid) for bid, n in pending.items()])

    def _bug(self, row: tuple[Any, ...]) -> Bug:
        (bid, _cid, _game, sig, kind, msg, loc, count, first_s, _at, first_step, trace, min_trace, flaky,
         _replay, details) = row
        try:
            traces = [Trace.from_json(t) if t else None for t in (trace, min_trace)]
        except ConfigError as e:
            raise ConfigError(f"bug {bid} in {self.path}: its stored trace cannot be replayed: {e}; the trace was "
                              "edited or damaged: run the campaign again, or fix the trace in bugs/"
                              f"{bid}/trace.json") from None
        return Bug(bid, kind, sig, msg, loc, count, first_s, first_step, traces[0], traces[1],
                   None if flaky is None else bool(flaky), json.loads(details))

    def bugs(self, campaign_id: int | None = None) -> list[Bug]:
        self.flush_counts()
        if campaign_id is None:
            rows = self.db.execute("SELECT * FROM bugs ORDER BY id").fetchall()
        else:
            rows = self.db.execute("SELECT * FROM bugs WHERE campaign_id=? ORDER BY id", (campaign_id,)).fetchall()
        return [self._bug(r) for r in rows]

    def bug_count(self, campaign_id: int) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM bugs WHERE campaign_id=?", (campaign_id,)).fetchone()[0])

    def bug(self, bug_id: int) -> Bug:
        self.flush_counts()
        row = self.db.execute("SELECT * FROM bugs WHERE id=?", (bug_id,)).fetchone()
        if row is None:
            ids = [r[0] for r in self.db.execute("SELECT id FROM bugs ORDER BY id")]
            raise UsageError(f"no bug {bug_id} in {self.path}" + (f"; its bugs are {ids}" if ids else "; it has none")
                             + " (the ids are the numbers under bugs/ and in the report)")
        return self._bug(row)

    def bug_replay(self, bug_id: int) -> str | None:
        row = self.db.execute("SELECT replay FROM bugs WHERE id=?", (bug_id,)).fetchone()
        return row[0] if row else None

    def set_bug(self, bug_id: int, *, min_trace: Trace | None = None, flaky: bool | None = None,
                replay: str | None = None) -> None:
        with self.tx() as db:
            if min_trace is not None:
                db.execute("UPDATE bugs SET min_trace=? WHERE id=?", (min_trace.to_json(), bug_id))
            if flaky is not None:
                db.execute("UPDATE bugs SET flaky=? WHERE id=?", (int(flaky), bug_id))
            if replay is not None:
                db.execute("UPDATE bugs SET replay=? WHERE id=?", (replay, bug_id))

    def known_failures(self, game: str) -> list[Bug]:
        """Bugs of earlier campaigns on this game, shortest trace first (replayed first, as Hypothesis does)."""
        rows = self.db.execute("SELECT * FROM bugs WHERE game=? AND trace IS NOT NULL ORDER BY id", (game,)).fetchall()
        seen, out = set(), []
        for bug in (self._bug(r) for r in rows):
            if bug.signature not in seen:
                seen.add(bug.signature)
                out.append(bug)
        return sorted(out, key=lambda b: len((b.min_trace or b.trace).actions))  # type: ignore[union-attr]

    # ---- episodes and coverage
    def record_episode(self, campaign_id: int, *, worker: int, seed: int, steps: int, outcome: str, reason: str,
                       ended_s: float, actions: list[int], new_states: dict[str, int],
                       positions: dict[tuple[int, int], int], code_lines: dict[str, Iterable[int]],
                       totals: dict[str, Any]) -> None:
        """One finished episode with the coverage it added and a timeline point, in one transaction."""
        with self.tx() as db:
            db.execute("INSERT INTO episodes (campaign_id, worker, seed, steps, outcome, reason, ended_s, actions) "
                       "VALUES (?,?,?,?,?,?,?,?)", (campaign_id, worker, seed, steps, outcome, reason, ended_s,
                                                    json.dumps(actions)))
            db.executemany("INSERT INTO states VALUES (?,?,?) ON CONFLICT(campaign_id, key) DO UPDATE SET "
                           "visits = visits + excluded.visits", [(campaign_id, k, v) for k, v in new_states.items()])
            db.executemany("INSERT INTO positions VALUES (?,?,?,?) ON CONFLICT(campaign_id, x, y) DO UPDATE SET "
                           "visits = visits + excluded.visits",
                           [(campaign_id, x, y, v) for (x, y), v in positions.items()])
            db.executemany("INSERT OR IGNORE INTO code_lines VALUES (?,?,?)",
                           [(campaign_id, f, int(n)) for f, lines in code_lines.items() for n in lines])
            db.execute("INSERT INTO timeline VALUES (?,?,?,?,?,?,?,?,?)",
                       (campaign_id, totals["t_s"], totals["steps"], totals["episodes"], totals["states"],
                        totals["code_covered"], totals["code_total"], totals["bugs"], totals["steps_per_s"]))
            db.execute("UPDATE campaigns SET steps=?, episodes=?, elapsed_s=?, next_seed=?, code_total=?, "
                       "updated_at=? WHERE id=?", (totals["steps"], totals["episodes"], totals["t_s"],
                                                   totals["next_seed"], totals["code_total"], time.time(),
                                                   campaign_id))

    def episodes(self, campaign_id: int) -> list[dict[str, Any]]:
        cols = ["id", "worker", "seed", "steps", "outcome", "reason", "ended_s"]
        rows = self.db.execute(f"SELECT {', '.join(cols)} FROM episodes WHERE campaign_id=? ORDER BY id",
                               (campaign_id,))
        return [dict(zip(cols, r, strict=True)) for r in rows]

    def timeline(self, campaign_id: int) -> list[dict[str, Any]]:
        cols = ["t_s", "steps", "episodes", "states", "code_covered", "code_total", "bugs", "steps_per_s"]
        rows = self.db.execute(f"SELECT {', '.join(cols)} FROM timeline WHERE campaign_id=? ORDER BY t_s",
                               (campaign_id,))
        return [dict(zip(cols, r, strict=True)) for r in rows]

    def states(self, campaign_id: int) -> dict[str, int]:
        return dict(self.db.execute("SELECT key, visits FROM states WHERE campaign_id=?", (campaign_id,)))

    def positions(self, campaign_id: int) -> dict[tuple[int, int], int]:
        return {(x, y): v for x, y, v in self.db.execute("SELECT x, y, visits FROM positions WHERE campaign_id=?",
                                                         (campaign_id,))}

    def code_lines(self, campaign_id: int) -> dict[str, set[int]]:
        out: dict[str, set[int]] = {}
        for f, n in self.db.execute("SELECT file, line FROM code_lines WHERE campaign_id=?", (campaign_id,)):
            out.setdefault(f, set()).add(n)
        return out
