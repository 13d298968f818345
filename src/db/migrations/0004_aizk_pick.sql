-- The pick (docs/job-lifecycle.md#pick): one call claims a batch for one worker. It lives in the database
-- because a global concurrency limit needs a fresh snapshot AFTER the limit's lock is taken:
-- every statement of a volatile plpgsql function gets one, a single SQL statement cannot.
--
--  0. jobs this worker finished since its last pick (p_done) are completed first, in the same
--     transaction: deleted, one `successful` log row each (as src/queue/complete.ts does), so a
--     busy worker pays one commit per batch, not two;
--  1. stale picks (heartbeat older than p_stale_seconds; 0 skips the step) of bound entrypoints
--     are re-picked as a new attempt (attempts + 1): the worker that held them is dead;
--  2. for each bound entrypoint with a ready row (one probe of pgqueuer_ep_ea_idx), a limited
--     one takes a transaction advisory lock, counts its picked rows (a fresh snapshot that sees
--     every committed pick, Python PgQueuer's included) and takes at most limit - picked;
--  3. candidates come in pick order through (entrypoint, priority desc, id), reading a window
--     of a few times the batch; ready rows found there are exactly the best ones. Only when the
--     window holds too few (not-ready rows in front, or the tail of a backlog) is the ready set
--     read through (entrypoint, execute_after): whole, keeping the best in pick order, when it
--     is at most 65,536 rows, else by an unbounded walk in pick order. So rows that are not ready behind the ready ones
--     (future execute_after, other entrypoints) cost nothing, and an idle poll is one probe;
--     not-ready rows IN FRONT (same entrypoint, higher priority or lower id) cost a read of the
--     ready set per pick (cheap while it is small) or, past 65,536 ready rows, a walk past them;
--  4. the best p_batch of them by priority desc, id are flipped to picked in one UPDATE.
-- Callers pass entrypoints sorted by name, so advisory locks are always taken in one order.
CREATE OR REPLACE FUNCTION aizk_pick(
    p_batch           int,
    p_queue_manager_id uuid,
    p_entrypoints     text[],
    p_limits          int[],
    p_stale_seconds   double precision,
    p_done            bigint[] DEFAULT '{}'
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
    v_last  timestamptz;  -- null unless probed
    v_total bigint;
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

    IF p_stale_seconds > 0 THEN
        SELECT coalesce(array_agg(s.id), '{}') INTO v_stale FROM (
            SELECT q.id FROM pgqueuer q
             WHERE q.status = 'picked'
               AND q.heartbeat < now() - make_interval(secs => p_stale_seconds)
               AND q.entrypoint = ANY (p_entrypoints)
             ORDER BY q.heartbeat
             LIMIT p_batch
               FOR UPDATE SKIP LOCKED) s;
    END IF;
    v_left := p_batch - cardinality(v_stale);

    FOR i IN 1 .. coalesce(array_length(p_entrypoints, 1), 0) LOOP
        EXIT WHEN v_left <= 0;
        v_ep := p_entrypoints[i];
        v_limit := coalesce(p_limits[i], 0);
        -- The earliest execute_after of the entrypoint: one probe of pgqueuer_ep_ea_idx.
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
            -- Short because of locks or the end of the backlog, not because rows that are not
            -- ready stood in front: nothing better exists (one probe, the index's other end).
            SELECT q.execute_after INTO v_last FROM pgqueuer q
             WHERE q.entrypoint = v_ep AND q.status = 'queued'
             ORDER BY q.execute_after DESC
             LIMIT 1;
        END IF;
        IF v_n < v_cap AND v_last > now() THEN
            -- Not-ready rows stand in front. Read the ready set through (entrypoint,
            -- execute_after), at most v_ready_max rows, keeping the best few in pick order; only
            -- a larger ready set walks the pick order past the not-ready rows.
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
                -- "IS TRUE" keeps the planner off the execute_after index: walk in pick order.
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

    -- Candidates of one entrypoint are already in pick order and within the batch; several
    -- are merged by priority desc, id. No table access either way.
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
                  extract(epoch FROM greatest(q.created, q.execute_after))::float8 * 1000,
                  q.id = ANY (v_stale)
    )
    SELECT * FROM picked p ORDER BY p.priority DESC, p.id;
END
$$;

GRANT EXECUTE ON FUNCTION aizk_pick(int, uuid, text[], int[], double precision, bigint[]) TO {{app_role}};
