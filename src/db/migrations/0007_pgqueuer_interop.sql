-- Sharing a database with a running Python PgQueuer 1.3.2 (docs/pgqueuer-interop.md):
--  * statistics and schedules ids are BIGINT, as PgQueuer 1.3.2 creates them;
--  * throughput counts finished jobs only (PgQueuer also logs `queued` and `picked`);
--  * aizk_pick re-picks a stale row only when its owner is proven dead: an aizk worker's row
--    by aizk's heartbeat timeout, a row of a queue manager aizk does not know (a PgQueuer
--    worker) only after a separate, longer timeout; it can also log `picked` rows;
--  * a pick by a foreign queue manager takes the entrypoint's advisory lock before it commits,
--    so aizk's limit count waits for it instead of missing it.

-- 1. BIGINT ids (a rewrite of two small tables; a no-op where they are BIGINT already).
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['pgqueuer_statistics', 'pgqueuer_schedules'] LOOP
        IF (SELECT data_type FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = t AND column_name = 'id') = 'integer' THEN
            EXECUTE format('ALTER TABLE %I ALTER COLUMN id TYPE BIGINT', t);
        END IF;
        IF pg_get_serial_sequence(t, 'id') IS NOT NULL THEN
            EXECUTE format('ALTER SEQUENCE %s AS BIGINT', pg_get_serial_sequence(t, 'id'));
        END IF;
    END LOOP;
END $$;

-- 2. Throughput: finished jobs only. Rows already counted for queued/picked log rows go.
CREATE OR REPLACE FUNCTION aizk_throughput_insert() RETURNS TRIGGER AS $$
BEGIN
    INSERT INTO aizk_throughput (second, entrypoint, status, n)
    SELECT date_trunc('second', created), entrypoint, status, count(*) FROM aizk_new
     WHERE status NOT IN ('queued', 'picked')
     GROUP BY 1, 2, 3;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
DELETE FROM aizk_throughput WHERE status IN ('queued', 'picked');

-- 3. A foreign pick (queued -> picked by a queue manager that is not a registered aizk worker)
-- takes the advisory lock aizk_pick takes for the entrypoint, in the same order (by name,
-- byte order), and holds it to commit: an aizk pick counting that entrypoint's picked rows
-- waits for the foreign pick to commit and counts it. PgQueuer's own count is not changed.
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
    PERFORM pg_advisory_xact_lock(1634300523, hashtext(f.entrypoint))
       FROM (SELECT DISTINCT n.entrypoint COLLATE "C" AS entrypoint
               FROM aizk_old o JOIN aizk_new n USING (id)
              WHERE o.status = 'queued' AND n.status = 'picked'
                AND NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = n.queue_manager_id)
              ORDER BY 1) f;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

-- 4. aizk_pick with proven-dead recovery and optional `picked` log rows. The body is 0004's
-- with step 1 and the final UPDATE changed; see 0004 for the walk through the candidates.
DROP FUNCTION IF EXISTS aizk_pick(int, uuid, text[], int[], double precision, bigint[]);
CREATE FUNCTION aizk_pick(
    p_batch                 int,
    p_queue_manager_id      uuid,
    p_entrypoints           text[],
    p_limits                int[],
    p_stale_seconds         double precision,
    p_done                  bigint[] DEFAULT '{}',
    p_foreign_stale_seconds double precision DEFAULT 0,
    p_log_picks             boolean DEFAULT false
) RETURNS TABLE (
    id            bigint,
    priority      int,
    entrypoint    text,
    payload       bytea,
    headers       jsonb,
    attempts      int,
    ready_at_ms   double precision,
    recovered     boolean
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
    v_stale bigint[] := '{}';
    v_ids   bigint[] := '{}';
    v_prios int[] := '{}';
    v_selp  int[];
    v_final bigint[];
    v_eps   int := 0;
    v_small bigint[];
    v_sel   bigint[];
    v_left  int;
    v_cap   int;
    v_ep    text;
    v_limit int;
    v_n     int;
    v_first timestamptz;
    v_last  timestamptz;
    v_total bigint;
    v_oldest double precision;
    v_ready_max constant int := 65536;
BEGIN
    IF cardinality(p_done) > 0 THEN
        WITH done AS (
            DELETE FROM pgqueuer q
             WHERE q.id = ANY (p_done) AND q.queue_manager_id = p_queue_manager_id AND q.status = 'picked'
            RETURNING q.id, q.priority, q.entrypoint)
        INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
        SELECT done.id, 'successful', done.priority, done.entrypoint FROM done;
    END IF;

    -- 1. Stale picks, only of owners proven dead. A registered aizk worker heartbeats every
    -- pick it holds, so a pick older than p_stale_seconds is dead. Any other owner (a PgQueuer
    -- worker, or none) heartbeats on its own schedule: only p_foreign_stale_seconds (0 = never)
    -- proves it dead. The heartbeat bound of the smaller timeout keeps the index probe.
    IF p_stale_seconds > 0 THEN
        v_oldest := CASE WHEN p_foreign_stale_seconds > 0 THEN least(p_stale_seconds, p_foreign_stale_seconds) ELSE p_stale_seconds END;
        SELECT coalesce(array_agg(s.id), '{}') INTO v_stale FROM (
            SELECT q.id FROM pgqueuer q
             WHERE q.status = 'picked'
               AND q.heartbeat < now() - make_interval(secs => v_oldest)
               AND q.entrypoint = ANY (p_entrypoints)
               AND CASE WHEN EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = q.queue_manager_id)
                        THEN q.heartbeat < now() - make_interval(secs => p_stale_seconds)
                        ELSE p_foreign_stale_seconds > 0
                             AND q.heartbeat < now() - make_interval(secs => p_foreign_stale_seconds)
                   END
             ORDER BY q.heartbeat
             LIMIT p_batch
               FOR UPDATE OF q SKIP LOCKED) s;
    END IF;
    v_left := p_batch - cardinality(v_stale);

    FOR i IN 1 .. coalesce(array_length(p_entrypoints, 1), 0) LOOP
        EXIT WHEN v_left <= 0;
        v_ep := p_entrypoints[i];
        v_limit := coalesce(p_limits[i], 0);
        SELECT q.execute_after INTO v_first FROM pgqueuer q
         WHERE q.entrypoint = v_ep AND q.status = 'queued'
         ORDER BY q.execute_after
         LIMIT 1;
        CONTINUE WHEN v_first IS NULL OR v_first > now();
        v_cap := v_left;
        v_last := NULL;
        IF v_limit > 0 THEN
            PERFORM pg_advisory_xact_lock(1634300523, hashtext(v_ep));
            SELECT v_limit - count(*) INTO v_cap FROM pgqueuer q
             WHERE q.entrypoint = v_ep AND q.status = 'picked';
            v_cap := least(v_cap, v_left);
            CONTINUE WHEN v_cap <= 0;
        END IF;

        SELECT array_agg(w.id), array_agg(w.priority), count(*) INTO v_sel, v_selp, v_n FROM (
            SELECT s.id, s.priority FROM (
                SELECT q.id, q.priority, q.execute_after FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued'
                 ORDER BY q.priority DESC, q.id
                 LIMIT v_cap * 4 + 64
                   FOR UPDATE SKIP LOCKED) s
             WHERE s.execute_after <= now()
             LIMIT v_cap) w;
        IF v_n < v_cap THEN
            SELECT q.execute_after INTO v_last FROM pgqueuer q
             WHERE q.entrypoint = v_ep AND q.status = 'queued'
             ORDER BY q.execute_after DESC
             LIMIT 1;
        END IF;
        IF v_n < v_cap AND v_last > now() THEN
            SELECT array_agg(t.id), max(t.total) INTO v_small, v_total FROM (
                SELECT r.id, count(*) OVER () AS total FROM (
                    SELECT q.id, q.priority FROM pgqueuer q
                     WHERE q.entrypoint = v_ep AND q.status = 'queued' AND q.execute_after <= now()
                     ORDER BY q.execute_after
                     LIMIT v_ready_max + 1) r
                 ORDER BY r.priority DESC, r.id
                 LIMIT v_cap * 4 + 64) t;
            IF coalesce(v_total, 0) <= v_ready_max THEN
                SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                    SELECT q.id, q.priority FROM pgqueuer q
                     WHERE q.id = ANY (v_small) AND q.status = 'queued' AND q.entrypoint = v_ep
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_cap
                       FOR UPDATE SKIP LOCKED) c;
            ELSE
                SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                    SELECT q.id, q.priority FROM pgqueuer q
                     WHERE q.entrypoint = v_ep AND q.status = 'queued' AND (q.execute_after <= now()) IS TRUE
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_cap
                       FOR UPDATE SKIP LOCKED) c;
            END IF;
        END IF;
        IF v_sel IS NOT NULL THEN
            v_ids := v_ids || v_sel;
            v_prios := v_prios || v_selp;
            v_eps := v_eps + 1;
        END IF;
    END LOOP;

    IF v_eps > 1 THEN
        SELECT array_agg(u.id) INTO v_final FROM (
            SELECT c.id FROM unnest(v_ids, v_prios) AS c(id, prio)
             ORDER BY c.prio DESC, c.id
             LIMIT greatest(v_left, 0)) u;
    ELSE
        v_final := v_ids;
    END IF;
    v_final := v_final || v_stale;
    IF cardinality(v_final) = 0 THEN
        RETURN;
    END IF;

    RETURN QUERY
    WITH picked AS (
        UPDATE pgqueuer q
           SET status = 'picked',
               queue_manager_id = p_queue_manager_id,
               heartbeat = now(),
               updated = now(),
               attempts = q.attempts + CASE WHEN q.status = 'picked' THEN 1 ELSE 0 END
          FROM unnest(v_final) AS f(id)
         WHERE q.id = f.id
        RETURNING q.id, q.priority, q.entrypoint, q.payload, q.headers, q.attempts,
                  extract(epoch FROM greatest(q.created, q.execute_after))::float8 * 1000 AS ready_ms,
                  q.id = ANY (v_stale) AS was_stale
    ), logged AS (
        -- PgQueuer's own dequeue logs every pick; with p_log_picks aizk does too (parity).
        INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
        SELECT p.id, 'picked', p.priority, p.entrypoint FROM picked p WHERE p_log_picks
    )
    SELECT p.id, p.priority, p.entrypoint, p.payload, p.headers, p.attempts, p.ready_ms, p.was_stale
      FROM picked p ORDER BY p.priority DESC, p.id;
END
$$;

GRANT EXECUTE ON FUNCTION aizk_pick(int, uuid, text[], int[], double precision, bigint[], double precision, boolean) TO {{app_role}};
