-- The memory graph's write path at size (docs/memory-graph.md, "Performance under row security").

-- 1. Indexes the graph's passes can use under row security. Array equality (`scopes = $1`) is
-- not leakproof, so for the app role the planner never makes it an index condition: an index that leads with `scopes` is scanned whole
-- or not at all. The projection's entity lookup by (kind, normalized name) was a sequential
-- scan of every entity, once per chunk; the profile pass's search for dirty profiles likewise.
CREATE INDEX IF NOT EXISTS entity_name_kind_idx ON entity (normalized_name, kind);
CREATE INDEX IF NOT EXISTS profile_dirty_entity_idx ON profile (entity_id) WHERE dirty;

-- 2. The scope checks every row-security policy runs (once per statement, as init plans) in
-- PL/pgSQL: same logic, same owners and grants, but as SQL functions that cannot be inlined (they
-- pin search_path) each call planned its body again, six plans per check: about a quarter of a
-- millisecond per statement, several milliseconds per projected chunk. PL/pgSQL keeps its plans.
CREATE OR REPLACE FUNCTION aizk_scope_proof(read_set uuid[], write_set uuid[], backend int, started timestamptz)
    RETURNS text LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN (SELECT encode(sha256(k.opad || sha256(k.ipad || convert_to(
               read_set::text || '|' || write_set::text || '|' || backend::text || '|'
               || extract(epoch FROM started)::text, 'UTF8'))), 'hex')
              FROM public.aizk_scope_key k);
END $$;
CREATE OR REPLACE FUNCTION aizk_scopes_proven(read_set uuid[], write_set uuid[]) RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN coalesce(current_setting('aizk.scope_proof', true) =
                    public.aizk_scope_proof(read_set, write_set, pg_backend_pid(), transaction_timestamp()), false);
END $$;
CREATE OR REPLACE FUNCTION aizk_setting_scopes(name text) RETURNS uuid[]
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN coalesce(nullif(current_setting(name, true), ''), '{}')::uuid[];
END $$;
CREATE OR REPLACE FUNCTION aizk_read_scopes() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    r uuid[] := public.aizk_setting_scopes('aizk.read_scopes');
BEGIN
    IF public.aizk_scopes_proven(r, public.aizk_setting_scopes('aizk.write_scopes')) THEN RETURN r; END IF;
    RETURN '{}';
END $$;
CREATE OR REPLACE FUNCTION aizk_write_scopes() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    w uuid[] := public.aizk_setting_scopes('aizk.write_scopes');
BEGIN
    IF public.aizk_scopes_proven(public.aizk_setting_scopes('aizk.read_scopes'), w) THEN RETURN w; END IF;
    RETURN '{}';
END $$;

-- 3. ChunkProjectionJob's write, in one call: the same statements the projection made one round trip
-- each (about fifteen), run here with their plans cached. Under load each round trip waited for
-- the CPU twice, and the projection's four job slots spent most of their time waiting on them
-- rather than extracting. Runs as the caller (row security applies); every statement names the set.
CREATE OR REPLACE FUNCTION aizk_write_projection(
    p_scopes uuid[], p_chunk uuid, p_half_life float8,
    -- entities: name as first seen, normalized name, kind, mentions in this chunk
    e_name text[], e_norm text[], e_kind text[], e_mentions int[],
    -- claims: subject (normalized name, kind), predicate, object (normalized name and kind when an
    -- entity, else the literal with its key 'text:' + lower case, made by the caller)
    c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[],
    c_object_is_entity boolean[], c_text_key text[],
    OUT entities int, OUT claims int, OUT mentions int)
    -- Planned with each call's values: a plan cached while the set's graph was small (sequential
    -- scans of a nearly empty claim table, once per row) would be kept as it grows.
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp SET plan_cache_mode = force_custom_plan AS $$
DECLARE
    id_norm text[];
    id_kind text[];
    id_id uuid[];
    ent_ids uuid[];
    ent_counts int[];
    all_ids uuid[];
    fresh_ids uuid[];
    gone uuid[];
    touched uuid[] := '{}';
BEGIN
    -- The projection can be recomputed from its chunk, and the job is marked done only by a later
    -- durable commit, which flushes this one's WAL too: no need to wait for the disk here.
    PERFORM set_config('synchronous_commit', 'off', true);
    -- Entities: create the missing ones (in the caller's order, so projections take keys in one
    -- order), then read every id, a merged entity answering with its survivor. Existing rows are
    -- read, not upserted: an upsert would lock a common entity ("Python") until commit.
    INSERT INTO entity (scopes, name, normalized_name, kind)
    SELECT p_scopes, u.name, u.norm, u.kind
      FROM unnest(e_name, e_norm, e_kind) WITH ORDINALITY AS u(name, norm, kind, n)
     ORDER BY u.n
    ON CONFLICT (scopes, kind, normalized_name) DO NOTHING;
    SELECT array_agg(e.normalized_name), array_agg(e.kind), array_agg(coalesce(e.merged_into, e.id))
      INTO id_norm, id_kind, id_id
      FROM unnest(e_norm, e_kind) AS u(norm, kind)
      JOIN entity e ON e.scopes = p_scopes AND e.kind = u.kind AND e.normalized_name = u.norm;
    id_norm := coalesce(id_norm, '{}');
    id_kind := coalesce(id_kind, '{}');
    id_id := coalesce(id_id, '{}');
    -- last_seen moves at most once a minute per entity, for the same reason.
    UPDATE entity SET last_seen = now() WHERE id = ANY(id_id) AND last_seen < now() - interval '1 minute';
    SELECT array_agg(x.id ORDER BY x.id), array_agg(x.c ORDER BY x.id) INTO ent_ids, ent_counts
      FROM (SELECT i.id, sum(u.m)::int AS c
              FROM unnest(e_norm, e_kind, e_mentions) AS u(norm, kind, m)
              JOIN unnest(id_norm, id_kind, id_id) AS i(norm, kind, id) ON i.norm = u.norm AND i.kind = u.kind
             GROUP BY i.id) x;
    ent_ids := coalesce(ent_ids, '{}');
    ent_counts := coalesce(ent_counts, '{}');
    entities := cardinality(ent_ids);

    -- Claims: observe each (subject, predicate, object) once; an existing claim this chunk had not
    -- observed yet is decayed to now and reinforced by one; evidence is one row per (claim, chunk).
    WITH resolved AS (
        SELECT s.id AS sid, u.p, o.id AS oid, CASE WHEN u.is_entity THEN NULL ELSE u.obj END AS otext,
               CASE WHEN u.is_entity THEN 'entity:' || o.id::text ELSE u.tkey END AS okey, u.n
          FROM unnest(c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key)
                 WITH ORDINALITY AS u(subj, skind, p, obj, okind, is_entity, tkey, n)
          JOIN unnest(id_norm, id_kind, id_id) AS s(norm, kind, id) ON s.norm = u.subj AND s.kind = u.skind
          LEFT JOIN unnest(id_norm, id_kind, id_id) AS o(norm, kind, id) ON u.is_entity AND o.norm = u.obj AND o.kind = u.okind
         WHERE NOT u.is_entity OR o.id IS NOT NULL),
    wanted AS (SELECT DISTINCT ON (sid, p, okey) sid, p, oid, otext, okey FROM resolved ORDER BY sid, p, okey, n DESC),
    upserted AS (
        INSERT INTO claim AS c (scopes, subject_id, predicate, object_id, object_text, object_key, source_chunk_id)
        SELECT p_scopes, w.sid, w.p, w.oid, w.otext, w.okey, p_chunk FROM wanted w ORDER BY w.sid, w.p, w.okey
        ON CONFLICT (scopes, subject_id, predicate, object_key) WHERE subject_id IS NOT NULL DO UPDATE SET
          weight = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = p_chunk) THEN c.weight
                        ELSE c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / (p_half_life * 86400)) + 1 END,
          last_decayed = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = p_chunk) THEN c.last_decayed ELSE now() END,
          last_reinforced = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = p_chunk) THEN c.last_reinforced ELSE now() END,
          faded = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = p_chunk) THEN c.faded ELSE false END
        RETURNING c.id),
    evidence AS (
        INSERT INTO claim_source (claim_id, chunk_id, scopes)
        SELECT id, p_chunk, p_scopes FROM upserted
        ON CONFLICT (claim_id, chunk_id) DO NOTHING
        RETURNING claim_id)
    SELECT coalesce(array_agg(u.id), '{}'), coalesce(array_agg(u.id) FILTER (WHERE e.claim_id IS NOT NULL), '{}')
      INTO all_ids, fresh_ids
      FROM upserted u LEFT JOIN evidence e ON e.claim_id = u.id;
    claims := cardinality(all_ids);

    -- A newly observed claim supersedes the live claim of opposite polarity on the same subject
    -- and object; observing the superseded side again revives it and supersedes the other.
    IF cardinality(fresh_ids) > 0 THEN
        UPDATE claim SET superseded_by = NULL WHERE id = ANY(fresh_ids) AND superseded_by IS NOT NULL AND scopes = p_scopes;
        UPDATE claim old SET superseded_by = n.id
          FROM claim n
         WHERE n.id = ANY(fresh_ids) AND old.scopes = p_scopes AND n.scopes = p_scopes
           AND old.subject_id = n.subject_id AND old.object_key = n.object_key AND old.id <> n.id
           AND old.predicate = CASE WHEN n.predicate LIKE 'not %' THEN substr(n.predicate, 5) ELSE 'not ' || n.predicate END
           AND old.superseded_by IS DISTINCT FROM n.id;
    END IF;

    -- Withdraw this chunk's evidence from the claims it no longer makes: each loses the one it
    -- added (never below zero); a claim left with no evidence at all is deleted.
    WITH d AS (
        DELETE FROM claim_source WHERE chunk_id = p_chunk AND scopes = p_scopes AND NOT (claim_id = ANY(all_ids))
        RETURNING claim_id)
    SELECT coalesce(array_agg(claim_id), '{}') INTO gone FROM d;
    IF cardinality(gone) > 0 THEN
        WITH t AS (
            UPDATE claim SET weight = greatest(weight - 1, 0),
                   source_chunk_id = CASE WHEN source_chunk_id = p_chunk THEN
                     (SELECT cs.chunk_id FROM claim_source cs WHERE cs.claim_id = claim.id ORDER BY cs.observed LIMIT 1) ELSE source_chunk_id END
             WHERE id = ANY(gone)
            RETURNING subject_id, object_id)
        SELECT coalesce(array_agg(v.x), '{}') INTO touched
          FROM t CROSS JOIN LATERAL (VALUES (t.subject_id), (t.object_id)) AS v(x) WHERE v.x IS NOT NULL;
        DELETE FROM claim c WHERE c.id = ANY(gone) AND NOT EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id);
    END IF;

    -- Mentions: replaced by this chunk's.
    DELETE FROM mention WHERE chunk_id = p_chunk AND scopes = p_scopes;
    INSERT INTO mention (entity_id, chunk_id, scopes, count)
    SELECT u.e, p_chunk, p_scopes, u.c FROM unnest(ent_ids, ent_counts) AS u(e, c) ORDER BY u.e;
    GET DIAGNOSTICS mentions = ROW_COUNT;

    -- Profiles of every entity named or withdrawn from: dirty, created when missing. One already
    -- dirty is left alone and unlocked, so projections naming a common entity do not queue on it.
    touched := ARRAY(SELECT DISTINCT x FROM unnest(ent_ids || touched) AS x ORDER BY x);
    IF cardinality(touched) > 0 THEN
        INSERT INTO profile (entity_id, scopes, dirty) SELECT e, p_scopes, true FROM unnest(touched) AS e
        ON CONFLICT (entity_id) DO NOTHING;
        UPDATE profile SET dirty = true WHERE entity_id = ANY(touched) AND scopes = p_scopes AND NOT dirty;
    END IF;

    UPDATE chunk SET projection_status = 'projected' WHERE id = p_chunk;
END $$;
GRANT EXECUTE ON FUNCTION aizk_write_projection(uuid[], uuid, float8, text[], text[], text[], int[], text[], text[], text[], text[], text[], boolean[], text[])
    TO {{app_role}};
