-- The pick over many bound entrypoints, and cheaper live counts (docs/benchmarks.md, issue 15).
--
-- 1. aizk_pick takes a batch of a worker bound to many entrypoints as cheaply as one of a single
--    entrypoint. 0011 walked every bound entrypoint in turn, each walk a few statements that
--    locked up to a whole batch, and kept the best batch of them: a worker bound to 20 busy
--    entrypoints locked 20 batches to pick one. Now, for the entrypoints without a limit, when
--    there are two or more of them (one alone keeps 0011's walk: its own index range holds
--    only its rows, while the front of the whole queue also holds every other worker's rows
--    and, until VACUUM, the dead index entries of every finished job):
--      a. one read without locks of the front of the queue in pick order (through
--         pgqueuer_priority_id_id1_idx) asks whether the first batch + 16 queued rows hold a
--         batch of ready rows of these entrypoints (the front is this worker's, nearly whole);
--      b. if so, one statement walks the first 2 x batch + 16 rows of the front again with FOR
--         UPDATE SKIP LOCKED and takes the first batch of them, locking only the rows it passes
--         (rows other pickers hold are skipped and not counted, as before);
--      c. otherwise (the queue's front belongs to other entrypoints, or is not ready yet, or
--         holds less than a batch) 0011's walk runs for what is left of the batch, skipping the
--         rows already taken. Limited entrypoints always take 0011's walk (advisory lock, then a
--         fresh count). The best batch of all is kept, in priority desc, id order.
--    The rules are 0011's: order, readiness, limits, stale re-picks, carried completions, log
--    parity.
-- 2. aizk_count_update: the delta of a statement is the multiset difference of its old and new
--    rows, so no join of the transition tables: (entrypoint, priority, status) -1 per old row, +1
--    per new row, summed, zero sums dropped (a heartbeat writes nothing, as before). The advisory
--    lock a foreign pick takes (0007) is looked for only when a picked row belongs to a queue
--    manager that is not a registered aizk worker, so aizk's own picks never pay for that join.

CREATE OR REPLACE FUNCTION aizk_count_update() RETURNS TRIGGER AS $$
BEGIN
    INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
    SELECT c.entrypoint, c.priority, c.status, sum(c.n) FROM (
        SELECT o.entrypoint, o.priority, o.status, -1 AS n FROM aizk_old o
        UNION ALL
        SELECT n.entrypoint, n.priority, n.status, 1 FROM aizk_new n
    ) c GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0;
    IF EXISTS (SELECT 1 FROM (SELECT DISTINCT n.queue_manager_id FROM aizk_new n WHERE n.status = 'picked') m
                WHERE NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = m.queue_manager_id)) THEN
        PERFORM pg_advisory_xact_lock(1634300523, hashtext(f.entrypoint))
           FROM (SELECT DISTINCT n.entrypoint COLLATE "C" AS entrypoint
                   FROM aizk_old o JOIN aizk_new n USING (id)
                  WHERE o.status = 'queued' AND n.status = 'picked'
                    AND NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = n.queue_manager_id)
                  ORDER BY 1) f;
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION aizk_pick(
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
    v_free  text[];
    v_got   bigint[] := '{}';
    v_gotp  int[] := '{}';
    v_ids   bigint[] := '{}';
    v_prios int[] := '{}';
    v_selp  int[];
    v_final bigint[];
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
        PERFORM aizk_complete(p_done, p_queue_manager_id);
    END IF;

    -- Stale picks of owners proven dead: 0007's step, unchanged.
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

    -- a, b: the front of the queue, for the entrypoints without a limit.
    v_free := ARRAY(SELECT e.ep FROM unnest(p_entrypoints, p_limits) AS e(ep, lim)
                     WHERE e.ep IS NOT NULL AND coalesce(e.lim, 0) <= 0);
    IF v_left > 0 AND cardinality(v_free) > 1 THEN
        SELECT count(*) INTO v_n FROM (
            SELECT 1 FROM (
                SELECT q.entrypoint, q.execute_after FROM pgqueuer q
                 WHERE q.status = 'queued'
                 ORDER BY q.priority DESC, q.id
                 LIMIT v_left + 16) f
             WHERE f.entrypoint = ANY (v_free) AND f.execute_after <= now()
             LIMIT v_left) k;
        IF v_n >= v_left THEN
            SELECT coalesce(array_agg(w.id), '{}'), coalesce(array_agg(w.priority), '{}') INTO v_got, v_gotp FROM (
                SELECT f.id, f.priority FROM (
                    SELECT q.id, q.priority, q.entrypoint, q.execute_after FROM pgqueuer q
                     WHERE q.status = 'queued'
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_left * 2 + 16
                       FOR UPDATE SKIP LOCKED) f
                 WHERE f.entrypoint = ANY (v_free) AND f.execute_after <= now()
                 LIMIT v_left) w;
        END IF;
    END IF;

    -- c. 0011's walk: limited entrypoints always, the others for what the front did not give.
    FOR i IN 1 .. coalesce(array_length(p_entrypoints, 1), 0) LOOP
        EXIT WHEN v_left <= 0;
        v_ep := p_entrypoints[i];
        v_limit := coalesce(p_limits[i], 0);
        v_cap := CASE WHEN v_limit > 0 THEN v_left ELSE v_left - cardinality(v_got) END;
        CONTINUE WHEN v_cap <= 0;
        SELECT q.execute_after INTO v_first FROM pgqueuer q
         WHERE q.entrypoint = v_ep AND q.status = 'queued'
         ORDER BY q.execute_after
         LIMIT 1;
        CONTINUE WHEN v_first IS NULL OR v_first > now();
        v_last := NULL;
        IF v_limit > 0 THEN
            PERFORM pg_advisory_xact_lock(1634300523, hashtext(v_ep));
            SELECT least(v_limit - count(*), v_cap) INTO v_cap FROM pgqueuer q
             WHERE q.entrypoint = v_ep AND q.status = 'picked';
            CONTINUE WHEN v_cap <= 0;
        END IF;

        SELECT array_agg(w.id), array_agg(w.priority), count(*) INTO v_sel, v_selp, v_n FROM (
            SELECT s.id, s.priority FROM (
                SELECT q.id, q.priority, q.execute_after FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued' AND q.id <> ALL (v_got)
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
                 LIMIT v_cap * 4 + 64 + cardinality(v_got)) t;
            IF coalesce(v_total, 0) <= v_ready_max THEN
                SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                    SELECT q.id, q.priority FROM pgqueuer q
                     WHERE q.id = ANY (v_small) AND q.status = 'queued' AND q.entrypoint = v_ep AND q.id <> ALL (v_got)
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_cap
                       FOR UPDATE SKIP LOCKED) c;
            ELSE
                SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                    SELECT q.id, q.priority FROM pgqueuer q
                     WHERE q.entrypoint = v_ep AND q.status = 'queued' AND (q.execute_after <= now()) IS TRUE
                       AND q.id <> ALL (v_got)
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_cap
                       FOR UPDATE SKIP LOCKED) c;
            END IF;
        END IF;
        IF v_sel IS NOT NULL THEN
            v_ids := v_ids || v_sel;
            v_prios := v_prios || v_selp;
        END IF;
    END LOOP;

    IF cardinality(v_ids) > 0 THEN
        SELECT array_agg(u.id) INTO v_final FROM (
            SELECT c.id FROM unnest(v_got || v_ids, v_gotp || v_prios) AS c(id, prio)
             ORDER BY c.prio DESC, c.id
             LIMIT greatest(v_left, 0)) u;
    ELSE
        v_final := v_got;
    END IF;
    v_final := coalesce(v_final, '{}') || v_stale;
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
