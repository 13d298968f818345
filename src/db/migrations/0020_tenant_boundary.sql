-- What the app role may name and write past row security (docs/security.md, "Attacks and answers").
--
-- 1. The queue: the app role no longer inserts queue rows, log rows or count deltas. It enqueues
--    through one function, aizk_app_enqueue, which takes only entrypoints listed in
--    aizk_app_entrypoint, checks each row's dedupe key and payload against the caller's proven
--    write set, bounds execute_after and leaves priority and headers to the system; the log and
--    the counts are written by the system's own triggers and statement, as the owner.
-- 2. aizk_drop_queued_jobs drops only queued jobs of those entrypoints whose payload carries
--    exactly the caller's write set.
-- 3. An artifact stored in PostgreSQL may name content only when the caller proved it holds the
--    bytes: they were stored by aizk_store_content in this transaction, or an artifact the caller
--    can see already names them.
-- 4. A scoped write that names another row by id (a foreign key) must name a row whose scopes
--    are within the writing row's (= the caller's write set): foreign-key checks bypass row
--    security, so this is checked explicitly. aizk_write_projection checks its chunk and its set
--    itself, then writes as the owner.

-- 1. The queue ----------------------------------------------------------------------------------
-- The entrypoints scoped work may enqueue, with how each one's dedupe key is tied to the caller:
--   chunk     the key is a chunk id in the caller's write set, and the payload's chunkId;
--   content   the key is the content id of the payload's artifact, which is in the write set;
--   artifact  the key is key_prefix || the payload's artifactId, an artifact in the write set;
--   scope_set the key is key_prefix || the write set (comma-joined), optionally ':' and more;
--   any       any key (first come, first served while live; the payload is still checked).
-- The owner may add an application's own jobs here.
CREATE TABLE IF NOT EXISTS aizk_app_entrypoint (
    entrypoint TEXT PRIMARY KEY,
    priority   INT  NOT NULL,
    key_rule   TEXT NOT NULL CHECK (key_rule IN ('chunk', 'content', 'artifact', 'scope_set', 'any')),
    key_prefix TEXT NOT NULL DEFAULT ''
);
REVOKE ALL ON aizk_app_entrypoint FROM PUBLIC;
GRANT SELECT ON aizk_app_entrypoint TO {{app_role}};
INSERT INTO aizk_app_entrypoint (entrypoint, priority, key_rule, key_prefix) VALUES
    ('aizk_build_graph_chunk', 50, 'chunk', ''),
    ('aizk_convert_artifact', 75, 'content', ''),
    ('aizk_reindex_artifact', 75, 'artifact', 'reindex:'),
    ('aizk_task_raptor', 10, 'scope_set', 'raptor:'),
    ('aizk_task_session_promote', 10, 'scope_set', 'session_promote:'),
    ('aizk_usage_event', 0, 'any', '')
ON CONFLICT (entrypoint) DO NOTHING;

-- A payload's "scopes" as a set, or NULL when the payload is not a JSON object carrying them (a
-- foreign producer's bytes, say): such a payload never matches a write set.
CREATE OR REPLACE FUNCTION aizk_payload_scopes(payload bytea) RETURNS uuid[]
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    doc jsonb;
BEGIN
    doc := convert_from(payload, 'UTF8')::jsonb;
    IF jsonb_typeof(doc) <> 'object' OR jsonb_typeof(doc -> 'scopes') <> 'array' THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(SELECT DISTINCT s::uuid FROM jsonb_array_elements_text(doc -> 'scopes') AS s ORDER BY 1);
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION aizk_payload_scopes(bytea) FROM PUBLIC;

-- Why one row may not be enqueued by the caller with write set w, or NULL when it may.
CREATE OR REPLACE FUNCTION aizk_app_enqueue_refusal(
    w uuid[], p_priority int, p_entrypoint text, p_payload bytea, p_key text, p_execute_after timestamptz, p_headers jsonb)
    RETURNS text LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    e public.aizk_app_entrypoint;
    doc jsonb;
    payload_scopes uuid[] := public.aizk_payload_scopes(p_payload);
    set_text text := array_to_string(w, ',');
    ref uuid;
BEGIN
    SELECT * INTO e FROM public.aizk_app_entrypoint WHERE entrypoint = p_entrypoint;
    IF NOT FOUND THEN
        RETURN format('entrypoint %s is not one scoped work may enqueue (aizk_app_entrypoint)', p_entrypoint);
    END IF;
    IF p_priority IS DISTINCT FROM e.priority THEN
        RETURN format('%s jobs are enqueued at priority %s, not %s', p_entrypoint, e.priority, p_priority);
    END IF;
    IF p_headers IS NOT NULL THEN
        RETURN 'headers are written by the system, not by scoped work';
    END IF;
    IF p_execute_after IS NOT NULL AND NOT (p_execute_after <= now() + interval '7 days') THEN
        RETURN format('execute_after %s is more than 7 days ahead', p_execute_after);
    END IF;
    IF payload_scopes IS NULL OR NOT (payload_scopes @> w AND payload_scopes <@ w) THEN
        RETURN 'the payload''s scopes must be exactly the transaction''s write set';
    END IF;
    doc := convert_from(p_payload, 'UTF8')::jsonb;
    IF e.key_rule = 'any' THEN
        RETURN NULL;
    END IF;
    IF p_key IS NULL THEN
        RETURN format('%s jobs need a dedupe key', p_entrypoint);
    END IF;
    IF e.key_rule = 'scope_set' THEN
        IF p_key = e.key_prefix || set_text OR starts_with(p_key, e.key_prefix || set_text || ':') THEN
            RETURN NULL;
        END IF;
        RETURN format('the dedupe key of %s must be %s followed by the write set', p_entrypoint, e.key_prefix);
    END IF;
    IF e.key_rule = 'chunk' THEN
        IF doc ->> 'chunkId' IS DISTINCT FROM p_key OR p_key !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
            RETURN format('the dedupe key of %s must be its payload''s chunkId', p_entrypoint);
        END IF;
        IF NOT EXISTS (SELECT 1 FROM public.chunk c WHERE c.id = p_key::uuid AND c.scopes = w) THEN
            RETURN format('chunk %s is not in the write set', p_key);
        END IF;
        RETURN NULL;
    END IF;
    -- content and artifact: the payload names an artifact of the write set.
    IF coalesce(doc ->> 'artifactId', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        RETURN format('%s jobs name an artifact (artifactId)', p_entrypoint);
    END IF;
    ref := (doc ->> 'artifactId')::uuid;
    IF e.key_rule = 'content' THEN
        IF NOT EXISTS (SELECT 1 FROM public.artifact a WHERE a.id = ref AND a.scopes = w AND a.content_id = p_key) THEN
            RETURN format('the dedupe key of %s must be the content id of an artifact in the write set', p_entrypoint);
        END IF;
        RETURN NULL;
    END IF;
    IF p_key IS DISTINCT FROM e.key_prefix || ref::text OR NOT EXISTS (SELECT 1 FROM public.artifact a WHERE a.id = ref AND a.scopes = w) THEN
        RETURN format('the dedupe key of %s must be %s followed by an artifact id of the write set', p_entrypoint, e.key_prefix);
    END IF;
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION aizk_app_enqueue_refusal(uuid[], int, text, bytea, text, timestamptz, jsonb) FROM PUBLIC;

-- The one door: every row checked, then all inserted in order as the owner (the count and
-- notify triggers run as the system), `queued` log rows with AIZK_QUEUE_LOG_PARITY. Returns the
-- rows inserted, in order; a row whose key is live is skipped, as enqueue's ON CONFLICT does.
CREATE OR REPLACE FUNCTION aizk_app_enqueue(
    p_priority int[], p_entrypoint text[], p_payload bytea[], p_dedupe_key text[], p_execute_after timestamptz[],
    p_headers jsonb[], p_log boolean)
    RETURNS TABLE (job_id bigint, job_key text)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    w uuid[] := public.aizk_write_scopes();
    refusal text;
BEGIN
    IF cardinality(w) = 0 THEN
        RAISE EXCEPTION 'enqueue refused: this transaction has no proven write set'
            USING ERRCODE = '42501', HINT = 'enqueue inside User.system(scopes).transaction(...)';
    END IF;
    SELECT r.why INTO refusal
      FROM (SELECT t.ord, public.aizk_app_enqueue_refusal(w, t.p, t.e, t.b, t.k, t.ea, t.h) AS why
              FROM ROWS FROM (unnest(p_priority), unnest(p_entrypoint), unnest(p_payload), unnest(p_dedupe_key),
                              unnest(p_execute_after), unnest(p_headers)) WITH ORDINALITY AS t(p, e, b, k, ea, h, ord)
            OFFSET 0) r
     WHERE r.why IS NOT NULL
     ORDER BY r.ord LIMIT 1;
    IF refusal IS NOT NULL THEN
        RAISE EXCEPTION 'enqueue refused: %', refusal
            USING ERRCODE = '42501', HINT = 'scoped work enqueues only its own set''s jobs (docs/security.md)';
    END IF;
    RETURN QUERY
    WITH written AS (
        INSERT INTO public.pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
        SELECT t.p, t.e, t.b, 'queued', t.k, coalesce(t.ea, now()), NULL
          FROM ROWS FROM (unnest(p_priority), unnest(p_entrypoint), unnest(p_payload), unnest(p_dedupe_key),
                          unnest(p_execute_after)) WITH ORDINALITY AS t(p, e, b, k, ea, ord)
         ORDER BY t.ord
        ON CONFLICT DO NOTHING
        RETURNING id, dedupe_key, priority, entrypoint),
    logged AS (
        INSERT INTO public.pgqueuer_log (job_id, status, priority, entrypoint)
        SELECT x.id, 'queued', x.priority, x.entrypoint FROM written x WHERE p_log)
    SELECT x.id, x.dedupe_key FROM written x;
END $$;
REVOKE ALL ON FUNCTION aizk_app_enqueue(int[], text[], bytea[], text[], timestamptz[], jsonb[], boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_app_enqueue(int[], text[], bytea[], text[], timestamptz[], jsonb[], boolean) TO {{app_role}};

DROP POLICY IF EXISTS app_enqueue ON pgqueuer;
DROP POLICY IF EXISTS app_read_own_insert ON pgqueuer;
REVOKE ALL ON pgqueuer FROM {{app_role}};
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON pgqueuer_log FROM {{app_role}};
REVOKE ALL ON aizk_queue_count_delta, aizk_queue_count, aizk_throughput FROM {{app_role}};
REVOKE ALL ON SEQUENCE pgqueuer_id_seq FROM {{app_role}};

-- 2. Dropping queued jobs -----------------------------------------------------------------------
CREATE OR REPLACE FUNCTION aizk_drop_queued_jobs(entry text, keys text[]) RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    w uuid[] := public.aizk_write_scopes();
    n bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.aizk_app_entrypoint e WHERE e.entrypoint = entry) THEN
        RAISE EXCEPTION 'drop refused: entrypoint % is not one scoped work may enqueue (aizk_app_entrypoint)', entry
            USING ERRCODE = '42501';
    END IF;
    IF cardinality(w) = 0 THEN
        RETURN 0;
    END IF;
    WITH gone AS (
        DELETE FROM public.pgqueuer q
         WHERE q.entrypoint = entry AND q.status = 'queued' AND q.dedupe_key = ANY(keys)
           AND public.aizk_payload_scopes(q.payload) = w
        RETURNING 1)
    SELECT count(*) INTO n FROM gone;
    RETURN n;
END $$;
REVOKE ALL ON FUNCTION aizk_drop_queued_jobs(text, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_drop_queued_jobs(text, text[]) TO {{app_role}};

-- 3. Content possession -------------------------------------------------------------------------
-- Which content each transaction stored: rows of finished transactions are purged as new ones
-- come (rows another purge holds are skipped, so two stores never wait on each other).
CREATE TABLE IF NOT EXISTS aizk_content_held (
    xact       xid8 NOT NULL,
    content_id TEXT NOT NULL,
    PRIMARY KEY (xact, content_id)
);
REVOKE ALL ON aizk_content_held FROM PUBLIC;
REVOKE ALL ON aizk_content_held FROM {{app_role}};

CREATE OR REPLACE FUNCTION aizk_store_content(content bytea) RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    id text := encode(sha256(content), 'hex');
BEGIN
    INSERT INTO public.aizk_content (content_id, bytes, byte_size)
    VALUES (id, content, octet_length(content))
    ON CONFLICT (content_id) DO NOTHING;
    DELETE FROM public.aizk_content_held h
     WHERE h.ctid = ANY(ARRAY(SELECT o.ctid FROM public.aizk_content_held o
                               WHERE o.xact < pg_snapshot_xmin(pg_current_snapshot()) FOR UPDATE SKIP LOCKED));
    INSERT INTO public.aizk_content_held (xact, content_id) VALUES (pg_current_xact_id(), id)
    ON CONFLICT DO NOTHING;
    RETURN id;
END $$;

-- After the row passed row security (so NEW.scopes is the caller's write set), and at commit,
-- so the bytes may be stored before or after the artifact is written. A trigger function cannot
-- be called on its own, so it answers nobody's question about other sets.
CREATE OR REPLACE FUNCTION aizk_artifact_content_held() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF NEW.storage = 'postgres'
       AND NOT EXISTS (SELECT 1 FROM public.aizk_content_held h
                        WHERE h.xact = pg_current_xact_id_if_assigned() AND h.content_id = NEW.content_id)
       AND NOT EXISTS (SELECT 1 FROM public.artifact a
                        WHERE a.content_id = NEW.content_id AND a.id <> NEW.id AND a.scopes <@ NEW.scopes) THEN
        RAISE EXCEPTION 'artifact % names content % that this transaction did not store', NEW.id, NEW.content_id
            USING ERRCODE = '42501', HINT = 'store the bytes first (aizk_store_content) in the same transaction';
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS aizk_artifact_content_held_insert ON artifact;
CREATE CONSTRAINT TRIGGER aizk_artifact_content_held_insert AFTER INSERT ON artifact
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (row_security_active('public.artifact'::regclass))
    EXECUTE FUNCTION aizk_artifact_content_held();
DROP TRIGGER IF EXISTS aizk_artifact_content_held_update ON artifact;
CREATE CONSTRAINT TRIGGER aizk_artifact_content_held_update AFTER UPDATE OF content_id, storage ON artifact
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (row_security_active('public.artifact'::regclass)
                       AND (NEW.content_id, NEW.storage) IS DISTINCT FROM (OLD.content_id, OLD.storage))
    EXECUTE FUNCTION aizk_artifact_content_held();

-- 4. Ids a scoped write names -------------------------------------------------------------------
-- For every foreign key between two scoped tables: a row the app role writes may reference only
-- a row whose scopes are within its own (which row security has just made the caller's write
-- set). One trigger function per table, its check written out from pg_constraint here, run after
-- the row (insert, or update that changes a referencing column) and only under row security.
DO $$
DECLARE
    t record;
    fk record;
    checks text;
    cols text;
    changed text;
BEGIN
    FOR t IN
        SELECT c.conrelid::regclass AS tbl, c.conrelid::regclass::text AS name
          FROM pg_constraint c
         WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
           AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attname = 'scopes' AND NOT a.attisdropped)
           AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.confrelid AND a.attname = 'scopes' AND NOT a.attisdropped)
         GROUP BY c.conrelid
         ORDER BY 2
    LOOP
        checks := '';
        cols := '';
        changed := '';
        FOR fk IN
            SELECT a.attname AS col, c.confrelid::regclass::text AS target, r.attname AS target_col
              FROM pg_constraint c
              JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
              JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1]
             WHERE c.contype = 'f' AND c.conrelid = t.tbl AND cardinality(c.conkey) = 1
               AND EXISTS (SELECT 1 FROM pg_attribute s WHERE s.attrelid = c.confrelid AND s.attname = 'scopes' AND NOT s.attisdropped)
             ORDER BY 1
        LOOP
            checks := checks || format(
                '    IF NEW.%1$I IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.%2$I x WHERE x.%3$I = NEW.%1$I AND x.scopes <@ NEW.scopes) THEN' || chr(10) ||
                '        RAISE EXCEPTION ''%4$s.%1$s names %2$s %% outside the write set'', NEW.%1$I USING ERRCODE = ''42501'';' || chr(10) ||
                '    END IF;' || chr(10),
                fk.col, fk.target, fk.target_col, t.name);
            cols := cols || CASE WHEN cols = '' THEN '' ELSE ', ' END || quote_ident(fk.col);
            changed := changed || CASE WHEN changed = '' THEN '' ELSE ' OR ' END
                       || format('NEW.%1$I IS DISTINCT FROM OLD.%1$I', fk.col);
        END LOOP;
        EXECUTE format(
            'CREATE OR REPLACE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER '
            'SET search_path = pg_catalog, public, pg_temp AS $f$' || chr(10) || 'BEGIN' || chr(10) || '%2$s    RETURN NULL;' || chr(10) || 'END $f$',
            'aizk_' || t.name || '_refs_visible', checks);
        EXECUTE format('DROP TRIGGER IF EXISTS %1$I ON %2$I', 'aizk_' || t.name || '_refs_insert', t.name);
        EXECUTE format(
            'CREATE TRIGGER %1$I AFTER INSERT ON %2$I FOR EACH ROW WHEN (row_security_active(%3$L::regclass)) EXECUTE FUNCTION %4$I()',
            'aizk_' || t.name || '_refs_insert', t.name, 'public.' || t.name, 'aizk_' || t.name || '_refs_visible');
        EXECUTE format('DROP TRIGGER IF EXISTS %1$I ON %2$I', 'aizk_' || t.name || '_refs_update', t.name);
        EXECUTE format(
            'CREATE TRIGGER %1$I AFTER UPDATE OF %2$s ON %3$I FOR EACH ROW WHEN (row_security_active(%4$L::regclass) AND (%5$s)) EXECUTE FUNCTION %6$I()',
            'aizk_' || t.name || '_refs_update', cols, t.name, 'public.' || t.name, changed, 'aizk_' || t.name || '_refs_visible');
    END LOOP;
END $$;

-- The projection's write: its chunk must be in the caller's write set, and the set it writes
-- must be that write set; then it writes as the owner (its statements already name rows only by
-- that set), so the checks above and the policies' scope checks do not run per statement.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'aizk_write_projection_as_owner') THEN
        ALTER FUNCTION aizk_write_projection(uuid[], uuid, float8, text[], text[], text[], int[], text[], text[], text[], text[], text[], boolean[], text[])
            RENAME TO aizk_write_projection_as_owner;
    END IF;
END $$;
REVOKE ALL ON FUNCTION aizk_write_projection_as_owner(uuid[], uuid, float8, text[], text[], text[], int[], text[], text[], text[], text[], text[], boolean[], text[])
    FROM PUBLIC, {{app_role}};
CREATE OR REPLACE FUNCTION aizk_write_projection(
    p_scopes uuid[], p_chunk uuid, p_half_life float8,
    e_name text[], e_norm text[], e_kind text[], e_mentions int[],
    c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[],
    c_object_is_entity boolean[], c_text_key text[],
    OUT entities int, OUT claims int, OUT mentions int)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    w uuid[] := public.aizk_write_scopes();
BEGIN
    IF cardinality(w) = 0 OR p_scopes IS DISTINCT FROM w THEN
        RAISE EXCEPTION 'projection refused: it writes {%}, the transaction''s write set is {%}',
            array_to_string(p_scopes, ','), array_to_string(w, ',') USING ERRCODE = '42501';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.chunk c WHERE c.id = p_chunk AND c.scopes = w) THEN
        RAISE EXCEPTION 'projection refused: chunk % is not in the write set', p_chunk USING ERRCODE = '42501';
    END IF;
    SELECT x.entities, x.claims, x.mentions INTO entities, claims, mentions
      FROM public.aizk_write_projection_as_owner(p_scopes, p_chunk, p_half_life, e_name, e_norm, e_kind, e_mentions,
             c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key) x;
END $$;
REVOKE ALL ON FUNCTION aizk_write_projection(uuid[], uuid, float8, text[], text[], text[], int[], text[], text[], text[], text[], text[], boolean[], text[])
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_write_projection(uuid[], uuid, float8, text[], text[], text[], int[], text[], text[], text[], text[], text[], boolean[], text[])
    TO {{app_role}};

-- Temporary objects: the app role keeps TEMP (its dedup and trend passes build ON COMMIT DROP
-- tables); what a transaction leaves on a connection is wiped before the pool hands it on, and
-- scoped transactions put the temporary schema last in their search_path (src/db/session-reset.ts).
-- Nor may it create anything in the public schema, where a table would come before pg_temp:
-- PostgreSQL 15 grants no CREATE there to PUBLIC; an older default is revoked where this login
-- owns the schema (or is a superuser), and docs/security.md says to revoke it otherwise.
DO $$
BEGIN
    IF has_schema_privilege('{{app_role_literal}}', 'public', 'CREATE')
       AND (pg_has_role(current_user, (SELECT nspowner FROM pg_namespace WHERE nspname = 'public'), 'USAGE')
            OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)) THEN
        REVOKE CREATE ON SCHEMA public FROM PUBLIC;
        REVOKE CREATE ON SCHEMA public FROM {{app_role}};
    END IF;
END $$;
