-- Completion in one place. Success is the finished picks of one worker leaving pgqueuer, each
-- with one `successful` log row; both src/queue/complete.ts and aizk_pick (the completions a pick
-- carries) call this function, so the statement exists once. Only rows the worker still owns are
-- completed: a row re-picked after a stale heartbeat belongs to its new worker.
CREATE OR REPLACE FUNCTION aizk_complete(p_ids bigint[], p_queue_manager_id uuid) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_n bigint;
BEGIN
    WITH done AS (
        DELETE FROM pgqueuer q
         WHERE q.id = ANY (p_ids) AND q.queue_manager_id = p_queue_manager_id AND q.status = 'picked'
        RETURNING q.id, q.priority, q.entrypoint)
    INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
    SELECT done.id, 'successful', done.priority, done.entrypoint FROM done;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END
$$;

GRANT EXECUTE ON FUNCTION aizk_complete(bigint[], uuid) TO {{app_role}};

-- aizk_pick as 0007 defined it (0008 left it alone), its carried completions now through
-- aizk_complete; every other line is unchanged (0004 walks through the candidates).
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
        PERFORM aizk_complete(p_done, p_queue_manager_id);
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
