-- The pick over many bound entrypoints, and cheaper live counts (docs/benchmarks.md, issue 15).
--
-- 1. aizk_pick reads every bound entrypoint in one statement per step instead of a loop of
--    statements per entrypoint, and locks only the rows it takes. 0011 locked up to a whole batch
--    in every entrypoint with a ready row and kept the best batch of them: a worker bound to 20
--    busy entrypoints locked 20 batches to pick one. The rules are 0011's (0004 walks through
--    them): same order, readiness, limits (advisory lock, then a fresh count), stale re-picks,
--    carried completions and log parity.
--      a. one statement finds the bound entrypoints with a ready row (one probe of
--         pgqueuer_ep_ea_idx each); the limited ones among them are locked in name order by a
--         second, and a third (a fresh snapshot) counts their picked rows;
--      b. one statement reads every such entrypoint's window in pick order WITHOUT locks and
--         keeps the best p_batch across them; one more locks exactly those (SKIP LOCKED, status
--         re-checked, so a row another worker took meanwhile is left out);
--      c. an entrypoint whose window held too few ready rows while it has rows not yet ready
--         (0004's not-ready rows in front) takes 0011's per-entrypoint path; so does every
--         entrypoint when another worker took one of the chosen rows first (contention), for
--         what is left of the batch. That path locks as 0011 did and skips the rows already held.
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
    v_eps   text[] := '{}';
    v_lims  int[] := '{}';
    v_caps  int[] := '{}';
    v_cand  bigint[] := '{}';
    v_short text[] := '{}';
    v_walk  text[] := '{}';
    v_got   bigint[] := '{}';
    v_tried bigint[] := '{}';
    v_contended boolean := false;
    v_gotp  int[] := '{}';
    v_gote  text[] := '{}';
    v_ids   bigint[] := '{}';
    v_prios int[] := '{}';
    v_selp  int[];
    v_final bigint[];
    v_small bigint[];
    v_sel   bigint[];
    v_left  int;
    v_cap   int;
    v_ep    text;
    v_n     int;
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

    IF v_left > 0 THEN
        -- a. Bound entrypoints with a ready row, in the callers' (name) order.
        SELECT coalesce(array_agg(e.ep ORDER BY e.ord), '{}'), coalesce(array_agg(coalesce(e.lim, 0) ORDER BY e.ord), '{}')
          INTO v_eps, v_lims
          FROM unnest(p_entrypoints, p_limits) WITH ORDINALITY AS e(ep, lim, ord)
         WHERE e.ep IS NOT NULL
           AND (SELECT q.execute_after FROM pgqueuer q
                 WHERE q.entrypoint = e.ep AND q.status = 'queued'
                 ORDER BY q.execute_after LIMIT 1) <= now();
        IF EXISTS (SELECT 1 FROM unnest(v_lims) AS l(lim) WHERE l.lim > 0) THEN
            PERFORM pg_advisory_xact_lock(1634300523, hashtext(l.ep))
               FROM (SELECT e.ep FROM unnest(v_eps, v_lims) WITH ORDINALITY AS e(ep, lim, ord)
                      WHERE e.lim > 0 ORDER BY e.ord) l;
            -- A statement of its own: its snapshot sees every pick committed before the locks.
            SELECT coalesce(array_agg(CASE WHEN e.lim > 0
                        THEN least(v_left, e.lim - (SELECT count(*) FROM pgqueuer q
                                                     WHERE q.entrypoint = e.ep AND q.status = 'picked'))::int
                        ELSE v_left END ORDER BY e.ord), '{}')
              INTO v_caps
              FROM unnest(v_eps, v_lims) WITH ORDINALITY AS e(ep, lim, ord);
        ELSE
            v_caps := array_fill(v_left, ARRAY[cardinality(v_eps)]);
        END IF;

        -- b. Every window in one read, no locks; the best of them across entrypoints; then lock
        -- exactly those. Rows another picker holds (its transaction still open) read as queued
        -- but do not lock: the next round reads past them, at most three rounds.
        FOR v_round IN 1 .. 3 LOOP
            WITH e AS (
                SELECT e.ep, e.ord,
                       least(e.cap - (SELECT count(*) FROM unnest(v_gote) AS g(ep) WHERE g.ep = e.ep)::int,
                             v_left - cardinality(v_got)) AS cap
                  FROM unnest(v_eps, v_caps) WITH ORDINALITY AS e(ep, cap, ord)
            ), w AS MATERIALIZED (
                SELECT e.ep, s.id, s.priority
                  FROM e
                 CROSS JOIN LATERAL (
                    SELECT r.id, r.priority FROM (
                        SELECT q.id, q.priority, q.execute_after FROM pgqueuer q
                         WHERE q.entrypoint = e.ep AND q.status = 'queued' AND q.id <> ALL (v_tried)
                         ORDER BY q.priority DESC, q.id
                         LIMIT greatest(e.cap, 0) * 4 + 64) r
                     WHERE r.execute_after <= now()
                     LIMIT greatest(e.cap, 0)) s
                 WHERE e.cap > 0
            ), counted AS (
                SELECT w.ep, count(*) AS n FROM w GROUP BY w.ep
            )
            SELECT (SELECT coalesce(array_agg(b.id), '{}') FROM (
                        SELECT w.id FROM w ORDER BY w.priority DESC, w.id LIMIT v_left - cardinality(v_got)) b),
                   (SELECT coalesce(array_agg(e.ep ORDER BY e.ord), '{}')
                      FROM e LEFT JOIN counted c ON c.ep = e.ep
                     WHERE e.cap > 0 AND coalesce(c.n, 0) < e.cap)
              INTO v_cand, v_short;
            EXIT WHEN cardinality(v_cand) = 0;
            SELECT v_got || coalesce(array_agg(k.id), '{}'), v_gotp || coalesce(array_agg(k.priority), '{}'),
                   v_gote || coalesce(array_agg(k.entrypoint), '{}'), count(*)
              INTO v_got, v_gotp, v_gote, v_n
              FROM (SELECT q.id, q.priority, q.entrypoint FROM pgqueuer q
                     WHERE q.id = ANY (v_cand) AND q.status = 'queued' AND q.execute_after <= now()
                       FOR UPDATE SKIP LOCKED) k;
            v_contended := v_n < cardinality(v_cand);
            EXIT WHEN NOT v_contended OR cardinality(v_got) >= v_left;
            v_tried := v_tried || v_cand;
        END LOOP;

        -- c. Who walks 0011's path: everyone while other pickers still hold what this one chose,
        -- else the short ones with rows not yet ready.
        IF v_contended AND cardinality(v_got) < v_left THEN
            v_walk := v_eps;
        ELSIF cardinality(v_short) > 0 AND cardinality(v_got) < v_left THEN
            SELECT coalesce(array_agg(s.ep ORDER BY s.ord), '{}') INTO v_walk
              FROM unnest(v_short) WITH ORDINALITY AS s(ep, ord)
             WHERE (SELECT q.execute_after FROM pgqueuer q
                     WHERE q.entrypoint = s.ep AND q.status = 'queued'
                     ORDER BY q.execute_after DESC LIMIT 1) > now();
        END IF;
        FOR i IN 1 .. cardinality(v_walk) LOOP
            v_ep := v_walk[i];
            v_cap := least(v_caps[array_position(v_eps, v_ep)] - (SELECT count(*) FROM unnest(v_gote) AS g(ep) WHERE g.ep = v_ep)::int,
                           v_left - cardinality(v_got));
            CONTINUE WHEN v_cap <= 0;
            v_sel := NULL;
            SELECT array_agg(w.id), array_agg(w.priority), count(*) INTO v_sel, v_selp, v_n FROM (
                SELECT s.id, s.priority FROM (
                    SELECT q.id, q.priority, q.execute_after FROM pgqueuer q
                     WHERE q.entrypoint = v_ep AND q.status = 'queued' AND q.id <> ALL (v_got || v_tried)
                     ORDER BY q.priority DESC, q.id
                     LIMIT v_cap * 4 + 64
                       FOR UPDATE SKIP LOCKED) s
                 WHERE s.execute_after <= now()
                 LIMIT v_cap) w;
            v_last := NULL;
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
                     LIMIT v_cap * 4 + 64 + cardinality(v_got) + cardinality(v_tried)) t;
                IF coalesce(v_total, 0) <= v_ready_max THEN
                    SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                        SELECT q.id, q.priority FROM pgqueuer q
                         WHERE q.id = ANY (v_small) AND q.status = 'queued' AND q.entrypoint = v_ep AND q.id <> ALL (v_got || v_tried)
                         ORDER BY q.priority DESC, q.id
                         LIMIT v_cap
                           FOR UPDATE SKIP LOCKED) c;
                ELSE
                    SELECT array_agg(c.id), array_agg(c.priority) INTO v_sel, v_selp FROM (
                        SELECT q.id, q.priority FROM pgqueuer q
                         WHERE q.entrypoint = v_ep AND q.status = 'queued' AND (q.execute_after <= now()) IS TRUE
                           AND q.id <> ALL (v_got || v_tried)
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
    END IF;

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
