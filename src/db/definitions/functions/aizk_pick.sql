-- aizk:requires functions/aizk_stale_pick
-- The pick (docs/job-lifecycle.md#pick): one call re-picks stale picks of owners proven dead
-- (aizk_stale_pick) and claims ready rows of the bound entrypoints in priority desc, id order,
-- within each entrypoint's limit, FOR UPDATE SKIP LOCKED.
--
-- For the entrypoints without a limit, when there are two or more of them:
--   a. one read without locks of the front of the queue in pick order (through
--      pgqueuer_priority_id_id1_idx) asks whether its first batch + 16 queued rows hold ready rows
--      of these entrypoints, and counts the rows it passed: fewer than it asked for means it saw
--      the whole queue, so the ready rows it found are every ready row of theirs;
--   b. if they are a batch, or the whole queue, one statement walks the front again with FOR
--      UPDATE SKIP LOCKED and takes them, locking only the rows it passes; a worker bound to 20
--      busy entrypoints then locks one batch, not 20 (docs/benchmarks.md);
--   c. otherwise each entrypoint is walked in turn for what is left of the batch.
-- One entrypoint alone, and every limited one, takes the walk of c: its own index range holds only
-- its rows, while the front of the whole queue also holds every other worker's rows and, until
-- VACUUM, the dead index entries of every finished job. A limited entrypoint's walk takes the
-- limit's advisory lock, then counts its picked rows afresh. The best batch of all is kept, in
-- priority desc, id order.
--
-- The walk of an entrypoint reads its queued rows in two parts (see the baseline's
-- aizk_ready_ep_prio_id_idx and aizk_delayed_ep_ea_idx): the rows ready since insert, in pick
-- order, and the delayed rows already due, in due order, merged; rows not due yet are never read.
-- When more than v_delayed_max delayed rows are due at once it walks every queued row in pick order
-- instead, so a pick reads at most v_delayed_max + 1 entries of the delayed index.
--
-- The walks that read an index in its own order run with sorting off (enable_sort, for those
-- statements only). Statistics that still describe an empty queue (a burst enqueued before
-- ANALYZE runs) estimate one row, and then reading pgqueuer_ep_ea_idx and sorting looks as cheap
-- as the ordered index: the pick would sort every queued row of the entrypoint, once per pick.
-- Statements whose plan needs a sort keep it on: a disabled sort's cost would call in JIT.
--
-- p_done is ignored: kept for 0.1.0 workers, which pass it empty; drop in 0.3.0. Completions are
-- written by aizk_complete alone.
CREATE OR REPLACE FUNCTION aizk_pick(p_batch integer, p_queue_manager_id uuid, p_entrypoints text[], p_limits integer[], p_stale_seconds double precision, p_done bigint[] DEFAULT '{}'::bigint[], p_foreign_stale_seconds double precision DEFAULT 0, p_log_picks boolean DEFAULT false)
 RETURNS TABLE(id bigint, priority integer, entrypoint text, payload bytea, headers jsonb, attempts integer, ready_at_ms double precision, recovered boolean)
 LANGUAGE plpgsql
AS $function$
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
    v_seen  int;
    v_whole boolean := false;
    v_first timestamptz;
    v_sort  text := current_setting('enable_sort');
    v_total bigint;
    v_dsel  bigint[];
    v_dselp int[];
    v_delayed_max constant int := 4096;
    v_own   boolean;
BEGIN
    -- Stale picks of owners proven dead (aizk_stale_pick), oldest heartbeat first.
    IF p_stale_seconds > 0 THEN
        SELECT coalesce(array_agg(s.id), '{}') INTO v_stale FROM (
            SELECT q.id FROM pgqueuer q
             WHERE q.status = 'picked'
               AND q.heartbeat < aizk_stale_pick_bound(p_stale_seconds, p_foreign_stale_seconds)
               AND q.entrypoint = ANY (p_entrypoints)
               AND aizk_stale_pick(q.heartbeat, q.queue_manager_id, p_stale_seconds, p_foreign_stale_seconds)
             ORDER BY q.heartbeat
             LIMIT p_batch
               FOR UPDATE OF q SKIP LOCKED) s;
    END IF;
    v_left := p_batch - cardinality(v_stale);

    -- a, b: the front of the queue, for the entrypoints without a limit. The read counts the
    -- rows it passed (v_seen): fewer than it asked for means it saw every queued row, so the
    -- ready rows of these entrypoints it found are all there are, and the locking walk of the
    -- front takes them even when they are fewer than a batch (v_whole).
    v_free := ARRAY(SELECT e.ep FROM unnest(p_entrypoints, p_limits) AS e(ep, lim)
                     WHERE e.ep IS NOT NULL AND coalesce(e.lim, 0) <= 0);
    IF v_left > 0 AND cardinality(v_free) > 1 THEN
        SELECT count(*), count(*) FILTER (WHERE f.entrypoint = ANY (v_free) AND f.execute_after <= now())
          INTO v_seen, v_n FROM (
            SELECT q.entrypoint, q.execute_after FROM pgqueuer q
             WHERE q.status = 'queued'
             ORDER BY q.priority DESC, q.id
             LIMIT v_left + 16) f;
        v_whole := v_seen < v_left + 16;
        IF v_n >= v_left OR (v_whole AND v_n > 0) THEN
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

    -- c. The walk per entrypoint: limited entrypoints always, the others for what the front did not give,
    -- unless the front was the whole queue (their walk would find nothing the front did not).
    FOR i IN 1 .. coalesce(array_length(p_entrypoints, 1), 0) LOOP
        EXIT WHEN v_left <= 0;
        v_ep := p_entrypoints[i];
        v_limit := coalesce(p_limits[i], 0);
        v_cap := CASE WHEN v_limit > 0 THEN v_left WHEN v_whole THEN 0 ELSE v_left - cardinality(v_got) END;
        CONTINUE WHEN v_cap <= 0;
        PERFORM set_config('enable_sort', 'off', true);
        SELECT q.execute_after INTO v_first FROM pgqueuer q
         WHERE q.entrypoint = v_ep AND q.status = 'queued'
         ORDER BY q.execute_after
         LIMIT 1;
        PERFORM set_config('enable_sort', v_sort, true);
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
            PERFORM set_config('enable_sort', 'off', true);
            SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                SELECT q.id, q.priority FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued' AND (q.execute_after <= now()) IS TRUE
                   AND q.id <> ALL (v_got)
                 ORDER BY q.priority DESC, q.id
                 LIMIT v_cap
                   FOR UPDATE SKIP LOCKED) c;
            PERFORM set_config('enable_sort', v_sort, true);
        ELSE
            -- Rows ready since insert, in pick order (aizk_ready_ep_prio_id_idx): no row of a
            -- later execute_after stands between them.
            PERFORM set_config('enable_sort', 'off', true);
            SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                SELECT q.id, q.priority FROM pgqueuer q
                 WHERE q.entrypoint = v_ep AND q.status = 'queued'
                   AND q.execute_after <= q.created AND q.execute_after <= now()
                   AND q.id <> ALL (v_got)
                 ORDER BY q.priority DESC, q.id
                 LIMIT v_cap
                   FOR UPDATE SKIP LOCKED) c;
            PERFORM set_config('enable_sort', v_sort, true);
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

    -- A registered worker's pick writes its own live-count delta (queued -1, picked +1 per row
    -- taken from the queue; a stale re-pick stays picked), and aizk_count_update skips the
    -- statement. An unregistered caller leaves it to the trigger, which also takes the advisory
    -- lock of a foreign pick.
    v_own := EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = p_queue_manager_id);
    IF v_own THEN
        PERFORM set_config('aizk.own_counts', 'on', true);
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
    ), counted AS (
        INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
        SELECT p.entrypoint, p.priority, s.status, s.sign * count(*)
          FROM picked p CROSS JOIN (VALUES ('queued'::pgqueuer_status, -1), ('picked'::pgqueuer_status, 1)) AS s(status, sign)
         WHERE v_own AND NOT p.was_stale
         GROUP BY p.entrypoint, p.priority, s.status, s.sign
    )
    SELECT p.id, p.priority, p.entrypoint, p.payload, p.headers, p.attempts, p.ready_ms, p.was_stale
      FROM picked p ORDER BY p.priority DESC, p.id;
    IF v_own THEN
        PERFORM set_config('aizk.own_counts', '', true);
    END IF;
END
$function$;
GRANT EXECUTE ON FUNCTION aizk_pick(p_batch integer, p_queue_manager_id uuid, p_entrypoints text[], p_limits integer[], p_stale_seconds double precision, p_done bigint[], p_foreign_stale_seconds double precision, p_log_picks boolean) TO {{app_role}};
