-- What aizk adds to PgQueuer's tables: the dedupe index that also covers held jobs, the worker
-- registry, exact live counts kept without a count(*) per refresh, and the app role.

-- A held (failed) job keeps its key: the same work is not enqueued again until it succeeds.
CREATE UNIQUE INDEX IF NOT EXISTS aizk_dedupe_key_live ON pgqueuer (dedupe_key)
    WHERE status IN ('queued', 'picked', 'failed') AND dedupe_key IS NOT NULL;
-- Requeue walks held rows oldest first, filtered by entrypoint inside the SQL.
CREATE INDEX IF NOT EXISTS aizk_failed_ep_id_idx ON pgqueuer (entrypoint, id) WHERE status = 'failed';
CREATE INDEX IF NOT EXISTS aizk_picked_heartbeat_idx ON pgqueuer (heartbeat) WHERE status = 'picked';

-- Each worker process registers here and heartbeats, so `aizk status` shows who is alive.
CREATE TABLE IF NOT EXISTS aizk_worker (
    queue_manager_id UUID PRIMARY KEY,
    host             TEXT        NOT NULL,
    pid              INT         NOT NULL,
    version          TEXT        NOT NULL,
    entrypoints      TEXT[]      NOT NULL,
    started          TIMESTAMPTZ NOT NULL DEFAULT NOW(),
    heartbeat        TIMESTAMPTZ NOT NULL DEFAULT NOW()
);

-- Live counts: statement triggers append one delta row per (entrypoint, priority, status) a
-- statement changes; compaction folds deltas into aizk_queue_count. Append-only deltas never
-- make two writers wait on one counter row, and a reader sums two small tables.
CREATE TABLE IF NOT EXISTS aizk_queue_count (
    entrypoint TEXT            NOT NULL,
    priority   INT             NOT NULL,
    status     pgqueuer_status NOT NULL,
    n          BIGINT          NOT NULL,
    PRIMARY KEY (entrypoint, priority, status)
);
CREATE TABLE IF NOT EXISTS aizk_queue_count_delta (
    entrypoint TEXT            NOT NULL,
    priority   INT             NOT NULL,
    status     pgqueuer_status NOT NULL,
    n          BIGINT          NOT NULL
);
-- Finished jobs per second (from the log), for throughput and sparklines.
CREATE TABLE IF NOT EXISTS aizk_throughput (
    second     TIMESTAMPTZ     NOT NULL,
    entrypoint TEXT            NOT NULL,
    status     pgqueuer_status NOT NULL,
    n          BIGINT          NOT NULL
);
CREATE INDEX IF NOT EXISTS aizk_throughput_second_idx ON aizk_throughput (second);

CREATE OR REPLACE FUNCTION aizk_count_insert() RETURNS TRIGGER AS $$
BEGIN
    INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
    SELECT entrypoint, priority, status, count(*) FROM aizk_new GROUP BY 1, 2, 3;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION aizk_count_delete() RETURNS TRIGGER AS $$
BEGIN
    INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
    SELECT entrypoint, priority, status, -count(*) FROM aizk_old GROUP BY 1, 2, 3;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION aizk_count_update() RETURNS TRIGGER AS $$
BEGIN
    INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
    SELECT entrypoint, priority, status, sum(n) FROM (
        SELECT o.entrypoint, o.priority, o.status, -1 AS n
          FROM aizk_old o JOIN aizk_new n USING (id)
         WHERE (o.status, o.priority, o.entrypoint) IS DISTINCT FROM (n.status, n.priority, n.entrypoint)
        UNION ALL
        SELECT n.entrypoint, n.priority, n.status, 1
          FROM aizk_old o JOIN aizk_new n USING (id)
         WHERE (o.status, o.priority, o.entrypoint) IS DISTINCT FROM (n.status, n.priority, n.entrypoint)
    ) changed GROUP BY 1, 2, 3;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION aizk_count_truncate() RETURNS TRIGGER AS $$
BEGIN
    DELETE FROM aizk_queue_count_delta;
    DELETE FROM aizk_queue_count;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION aizk_throughput_insert() RETURNS TRIGGER AS $$
BEGIN
    INSERT INTO aizk_throughput (second, entrypoint, status, n)
    SELECT date_trunc('second', created), entrypoint, status, count(*) FROM aizk_new GROUP BY 1, 2, 3;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS aizk_count_insert ON pgqueuer;
CREATE TRIGGER aizk_count_insert AFTER INSERT ON pgqueuer
    REFERENCING NEW TABLE AS aizk_new FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_insert();
DROP TRIGGER IF EXISTS aizk_count_delete ON pgqueuer;
CREATE TRIGGER aizk_count_delete AFTER DELETE ON pgqueuer
    REFERENCING OLD TABLE AS aizk_old FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_delete();
DROP TRIGGER IF EXISTS aizk_count_update ON pgqueuer;
CREATE TRIGGER aizk_count_update AFTER UPDATE ON pgqueuer
    REFERENCING OLD TABLE AS aizk_old NEW TABLE AS aizk_new FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_update();
DROP TRIGGER IF EXISTS aizk_count_truncate ON pgqueuer;
CREATE TRIGGER aizk_count_truncate AFTER TRUNCATE ON pgqueuer
    FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_truncate();
DROP TRIGGER IF EXISTS aizk_throughput_insert ON pgqueuer_log;
CREATE TRIGGER aizk_throughput_insert AFTER INSERT ON pgqueuer_log
    REFERENCING NEW TABLE AS aizk_new FOR EACH STATEMENT EXECUTE FUNCTION aizk_throughput_insert();

-- Rows that existed before the triggers (an adopted PgQueuer database) are counted once, with
-- writers held off so none slips between the count and the triggers.
LOCK TABLE pgqueuer IN SHARE MODE;
INSERT INTO aizk_queue_count (entrypoint, priority, status, n)
SELECT entrypoint, priority, status, count(*) FROM pgqueuer GROUP BY 1, 2, 3
ON CONFLICT (entrypoint, priority, status) DO UPDATE SET n = EXCLUDED.n;

-- The app role (docs/scope-sets.md#roles): owns nothing, cannot bypass row security, granted to the login.
-- Roles are cluster-wide: it may exist already, or another install may create it right now.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{{app_role_literal}}') THEN
    BEGIN
      CREATE ROLE {{app_role}} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE INHERIT;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
END $$;
DO $$
BEGIN
  IF NOT pg_has_role(current_user, '{{app_role_literal}}', 'MEMBER') THEN
    GRANT {{app_role}} TO CURRENT_USER;
  END IF;
EXCEPTION WHEN unique_violation THEN
  NULL;
END $$;

GRANT USAGE ON SCHEMA public TO {{app_role}};
GRANT SELECT, INSERT, UPDATE, DELETE ON pgqueuer TO {{app_role}};
GRANT SELECT, INSERT ON pgqueuer_log TO {{app_role}};
GRANT SELECT ON pgqueuer_statistics, pgqueuer_schedules, aizk_worker TO {{app_role}};
GRANT INSERT ON aizk_queue_count_delta, aizk_throughput TO {{app_role}};
GRANT USAGE ON SEQUENCE pgqueuer_id_seq TO {{app_role}};
