-- Limits kept apart from workers, and worker rows that expire (docs/pgqueuer-interop.md#concurrency-limits).
--
-- aizk_entrypoint_limit: the global limit an entrypoint declares, written by every aizk worker
-- that registers it (the latest registration wins; one that binds it without a limit removes
-- it) and kept after the last worker exits, so a PgQueuer worker's picks are held to it before
-- the first aizk worker of a deploy registers and while every aizk worker restarts.
CREATE TABLE IF NOT EXISTS aizk_entrypoint_limit (
    entrypoint        TEXT        PRIMARY KEY,
    concurrency_limit INT         NOT NULL CHECK (concurrency_limit > 0),
    queue_manager_id  UUID        NOT NULL,
    version           TEXT        NOT NULL,
    declared_at       TIMESTAMPTZ NOT NULL DEFAULT NOW()
);

-- Each worker's own heartbeat timeout: past it the row is dead for the limit trigger and the
-- cleanup pass, which read it without knowing any process's settings.
ALTER TABLE aizk_worker ADD COLUMN IF NOT EXISTS heartbeat_timeout_seconds DOUBLE PRECISION NOT NULL DEFAULT 30;

-- What the rows present declare, as the rule would have stored it: for each entrypoint, the most
-- recently started worker that binds it.
INSERT INTO aizk_entrypoint_limit (entrypoint, concurrency_limit, queue_manager_id, version, declared_at)
SELECT d.entrypoint, d.lim, d.queue_manager_id, d.version, d.started
  FROM (SELECT DISTINCT ON (e.entrypoint) e.entrypoint, (w.limits ->> e.entrypoint)::int AS lim,
               w.queue_manager_id, w.version, w.started
          FROM aizk_worker w, unnest(w.entrypoints) AS e(entrypoint)
         ORDER BY e.entrypoint, w.started DESC, w.queue_manager_id) d
 WHERE d.lim > 0
ON CONFLICT (entrypoint) DO NOTHING;

GRANT SELECT ON aizk_entrypoint_limit TO {{app_role}};
