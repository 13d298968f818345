-- Rows not ready yet cost the pick nothing (docs/job-lifecycle.md#pick, issue 15 target 7).
--
-- 0011's walk went through an entrypoint's queued rows in pick order (pgqueuer_ep_prio_id_idx);
-- when rows with a future execute_after stood in front of the ready ones (lower ids or higher
-- priority), it locked a window of them, found none ready, and read every ready row of the
-- entrypoint in execute_after order to sort them: 20,000 ready rows behind 500,000 due tomorrow
-- made each pick of 64 read 20,000 rows (docs/benchmarks.md, section f).
--
-- The queued rows of an entrypoint now split in two, by a comparison of two columns of the row
-- (immutable, so it can define a partial index), and every queued row is in exactly one part:
--   - ready since insert, execute_after <= created (enqueued without a delay, or with a time
--     already past): ready for good, kept in pick order by aizk_ready_ep_prio_id_idx;
--   - delayed, execute_after > created (a delayed enqueue, a retry's backoff, a requeue): kept
--     in due order by aizk_delayed_ep_ea_idx, so the pick reads only those already due.
-- Which writer set the columns (aizk's enqueue, retry, requeue, release, or PgQueuer's own
-- client) does not matter for correctness: a row is in one part or the other by its values.
-- The pick merges the two in priority desc, id order. When more than v_delayed_max delayed rows
-- are due at once, it walks every queued row in pick order instead (0011's walk), so a pick reads
-- at most v_delayed_max + 1 entries of the delayed index before its walk.
-- Each insert adds one entry to one of the two indexes (docs/benchmarks.md, section a).

CREATE INDEX IF NOT EXISTS aizk_ready_ep_prio_id_idx ON pgqueuer (entrypoint, priority DESC, id)
    WHERE status = 'queued' AND execute_after <= created;
CREATE INDEX IF NOT EXISTS aizk_delayed_ep_ea_idx ON pgqueuer (entrypoint, execute_after)
    WHERE status = 'queued' AND execute_after > created;

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
    v_total bigint;
    v_oldest double precision;
    v_dsel  bigint[];
    v_dselp int[];
    v_delayed_max constant int := 4096;
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
        IF v_limit > 0 THEN
            PERFORM pg_advisory_xact_lock(1634300523, hashtext(v_ep));
            SELECT least(v_limit - count(*), v_cap) INTO v_cap FROM pgqueuer q
             WHERE q.entrypoint = v_ep AND q.status = 'picked';
            CONTINUE WHEN v_cap <= 0;
        END IF;

        -- The delayed rows now due (aizk_delayed_ep_ea_idx, in due order), at most v_delayed_max.
        SELECT array_agg(t.id), max(t.total) INTO v_small, v_total FROM (
            SELECT r.id, count(*) OVER () AS total FROM (
                SELECT q.id, q.priority FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued'
                   AND q.execute_after > q.created AND q.execute_after <= now()
                 ORDER BY q.execute_after
                 LIMIT v_delayed_max + 1) r
             ORDER BY r.priority DESC, r.id
             LIMIT v_cap * 4 + 64 + cardinality(v_got)) t;
        IF coalesce(v_total, 0) > v_delayed_max THEN
            -- More came due at once than one pick reads: walk every queued row in pick order.
            -- "IS TRUE" keeps the planner off the execute_after index.
            SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                SELECT q.id, q.priority FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued' AND (q.execute_after <= now()) IS TRUE
                   AND q.id <> ALL (v_got)
                 ORDER BY q.priority DESC, q.id
                 LIMIT v_cap
                   FOR UPDATE SKIP LOCKED) c;
        ELSE
            -- Rows ready since insert, in pick order (aizk_ready_ep_prio_id_idx): no row of a
            -- later execute_after stands between them.
            SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                SELECT q.id, q.priority FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued'
                   AND q.execute_after <= q.created AND q.execute_after <= now()
                   AND q.id <> ALL (v_got)
                 ORDER BY q.priority DESC, q.id
                 LIMIT v_cap
                   FOR UPDATE SKIP LOCKED) c;
            IF v_small IS NOT NULL THEN
                -- The due delayed rows that beat the last ready row taken, merged in pick order.
                v_n := coalesce(cardinality(v_sel), 0);
                SELECT array_agg(c.id), array_agg(c.priority) INTO v_dsel, v_dselp FROM (
                    SELECT q.id, q.priority FROM pgqueuer q
                     WHERE q.id = ANY (v_small) AND q.entrypoint = v_ep AND q.status = 'queued'
                       AND q.execute_after > q.created AND q.execute_after <= now()
                       AND q.id <> ALL (v_got)
                       AND (v_n < v_cap OR q.priority > v_selp[v_n] OR (q.priority = v_selp[v_n] AND q.id < v_sel[v_n]))
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_cap
                       FOR UPDATE SKIP LOCKED) c;
                IF v_dsel IS NOT NULL THEN
                    SELECT array_agg(m.id), array_agg(m.prio) INTO v_sel, v_selp FROM (
                        SELECT u.id, u.prio FROM unnest(coalesce(v_sel, '{}') || v_dsel, coalesce(v_selp, '{}') || v_dselp) AS u(id, prio)
                         ORDER BY u.prio DESC, u.id
                         LIMIT v_cap) m;
                END IF;
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
