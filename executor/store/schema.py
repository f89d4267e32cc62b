"""The run store's file name, SQLite schema and migrations (executor/store/checkpoint_store.py uses them)."""

#: The run store's file in the runs folder (app/wiring.py opens it there; the doctor checks it).
STORE_FILENAME = "waypost.sqlite3"
SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, plan_id TEXT NOT NULL, trace_id TEXT NOT NULL, task TEXT NOT NULL,
    exec_mode TEXT NOT NULL, status TEXT NOT NULL, budget_json TEXT NOT NULL,
    last_url TEXT, pending_json TEXT, checkpoint_ref TEXT,
    last_checkpoint INTEGER NOT NULL DEFAULT 0, run_dir TEXT, bundle_json TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, step_seq INTEGER NOT NULL DEFAULT 0,
    legs INTEGER NOT NULL DEFAULT 1);
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at);
-- The plan lives apart from the run row: that row is rewritten on every step, and SQLite rewrites a
-- whole row on update, so a large plan inside it made each save cost O(plan size).
CREATE TABLE IF NOT EXISTS plans (
    run_id TEXT PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE, data TEXT NOT NULL);
-- Append-only: a step saved twice (paused, then finished) has two rows; the newest up to a
-- checkpoint's seq is the step as that checkpoint saw it.
CREATE TABLE IF NOT EXISTS step_runs (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    step_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, seq));
CREATE INDEX IF NOT EXISTS step_runs_by_step ON step_runs (run_id, step_id, seq);
CREATE TABLE IF NOT EXISTS evidence (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, evidence_id TEXT NOT NULL,
    data TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, evidence_id));
CREATE TABLE IF NOT EXISTS approvals (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, gate_id TEXT NOT NULL,
    step_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, gate_id, step_id));
CREATE TABLE IF NOT EXISTS checkpoints (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, n INTEGER NOT NULL,
    data TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (run_id, n));
"""

#: Each step's newest row up to a seq, in the order steps were first saved. The newest seq per step
#: comes from the covering index alone, then each row is fetched by its key (CROSS JOIN keeps that
#: order): rows superseded by a later save of their step are never read, so a load grows with the
#: steps, not with every save (an act step saves each action in flight twice).
STEPS_SQL = """SELECT s.data FROM (
    SELECT MAX(seq) AS last, MIN(seq) AS first FROM step_runs
    WHERE run_id = ? AND seq <= ? GROUP BY step_id) g
  CROSS JOIN step_runs s ON s.run_id = ? AND s.seq = g.last ORDER BY g.first"""
#: In the order the evidence was saved (seq, then insertion), read along its index without a sort.
EVIDENCE_SQL = "SELECT data FROM evidence WHERE run_id = ? AND seq <= ? ORDER BY seq, rowid"
#: Added to files of either schema on open (IF NOT EXISTS): it changes no data, only how loads read.
INDEXES = "CREATE INDEX IF NOT EXISTS evidence_by_seq ON evidence (run_id, seq)"
#: Added to files of either schema on open, like INDEXES: the plan as the run first opened with it
#: (the one the person approved). A replan replaces `plans.data`, never this row, so a resumed run
#: binds its secrets from what was approved (docs/architecture.md, "Security model").
APPROVED_PLANS = """CREATE TABLE IF NOT EXISTS approved_plans (
    run_id TEXT PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE, data TEXT NOT NULL)"""
#: History lines, newest first, each with the page the run was given (`page`): the task's first
#: address, else the URL given beside the task (the window's URL field, `--url`), else the first
#: step's start URL; NULL for a run that names no page (a web search). Read from the plan row with
#: SQLite's JSON functions, so the list never loads whole plans; a plan row that is not JSON gives NULL.
LIST_RUNS_SQL = """SELECT r.run_id, r.plan_id, r.trace_id, r.task, r.exec_mode, r.status, r.created_at,
    r.updated_at, r.checkpoint_ref, r.run_dir, r.pending_json AS pending,
    (SELECT COALESCE(
        (SELECT json_extract(e.value, '$.value') FROM json_each(p.data, '$.task.entities') e
         WHERE json_extract(e.value, '$.kind') = 'url' LIMIT 1),
        json_extract(p.data, '$.context.active_tab.url'),
        (SELECT json_extract(s.value, '$.inputs.url') FROM json_each(p.data, '$.steps') s
         WHERE json_type(s.value, '$.inputs.url') = 'text' LIMIT 1))
     FROM plans p WHERE p.run_id = r.run_id AND json_valid(p.data)) AS page
FROM runs r ORDER BY r.created_at DESC, r.rowid DESC LIMIT ?"""
#: Schema 1 kept one row per step, rewritten in place, and whole snapshots in checkpoints.
MIGRATE_1_TO_2 = """
ALTER TABLE step_runs RENAME TO step_runs_v1;
ALTER TABLE runs ADD COLUMN step_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE TABLE step_runs (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    step_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, seq));
CREATE INDEX step_runs_by_step ON step_runs (run_id, step_id, seq);
INSERT INTO step_runs (run_id, seq, step_id, data)
    SELECT run_id, ROW_NUMBER() OVER (PARTITION BY run_id ORDER BY rowid), step_id, data FROM step_runs_v1;
UPDATE runs SET step_seq = (SELECT COUNT(*) FROM step_runs WHERE step_runs.run_id = runs.run_id);
DROP TABLE step_runs_v1;
"""
#: Schema 2 did not count a run's legs (its start and each resume), which gate answers name.
MIGRATE_2_TO_3 = "ALTER TABLE runs ADD COLUMN legs INTEGER NOT NULL DEFAULT 1"
#: What brings a file of each older version up to SCHEMA_VERSION (0: a new file).
MIGRATIONS = {0: SCHEMA, 1: MIGRATE_1_TO_2 + ";\n" + MIGRATE_2_TO_3, 2: MIGRATE_2_TO_3}
