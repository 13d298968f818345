-- Tenant isolation without holes (docs/security.md).
--
-- 1. Stored content is addressed by the SHA-256 of its own bytes, checked by the database for
--    every row whoever writes it. The app role no longer inserts into aizk_content at all: it
--    calls aizk_store_content(bytes), which computes the id itself and answers the same whether
--    the bytes were stored before or not, so a tenant learns nothing about other tenants' files.
-- 2. The scope sets a transaction runs under carry a proof: an HMAC of (read set, write set,
--    backend pid, transaction start) under a key the app role cannot read. Only the owner can
--    compute one (aizk_scope_proof); the policies accept the sets only when the proof matches,
--    so set_config() issued inside a scoped transaction widens nothing.
-- 3. The app role may enqueue, and may read back only the queue rows its own transaction wrote
--    (what INSERT ... RETURNING needs); other tenants' payloads stay hidden. The owner, which
--    the worker and the operator commands use, is not subject to these policies.

-- 1. Content ------------------------------------------------------------------------------------
-- A row whose bytes do not hash to its id was forged or corrupted: it cannot be trusted and is
-- removed, so the constraint below holds for every row. Artifacts pointing at it are reported
-- missing by the integrity pass, and ingesting the file again stores the true bytes.
DELETE FROM aizk_content WHERE content_id <> encode(sha256(bytes), 'hex');
ALTER TABLE aizk_content DROP CONSTRAINT IF EXISTS aizk_content_id_is_hash_of_bytes;
ALTER TABLE aizk_content ADD CONSTRAINT aizk_content_id_is_hash_of_bytes
    CHECK (content_id = encode(sha256(bytes), 'hex'));

DROP POLICY IF EXISTS rls_insert ON aizk_content;
REVOKE INSERT, UPDATE, DELETE ON aizk_content FROM {{app_role}};

CREATE OR REPLACE FUNCTION aizk_store_content(content bytea) RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    id text := encode(sha256(content), 'hex');
BEGIN
    INSERT INTO public.aizk_content (content_id, bytes, byte_size)
    VALUES (id, content, octet_length(content))
    ON CONFLICT (content_id) DO NOTHING;
    RETURN id;
END $$;
REVOKE ALL ON FUNCTION aizk_store_content(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_store_content(bytea) TO {{app_role}};

-- 2. Scope proofs -------------------------------------------------------------------------------
-- One HMAC-SHA256 key per database, made here from the server's random generator, with its
-- inner and outer padded forms kept ready (HMAC's ipad/opad), so a proof is two sha256() calls.
CREATE TABLE IF NOT EXISTS aizk_scope_key (
    one   boolean PRIMARY KEY DEFAULT true CHECK (one),
    ipad  bytea   NOT NULL CHECK (octet_length(ipad) = 64),
    opad  bytea   NOT NULL CHECK (octet_length(opad) = 64)
);
REVOKE ALL ON aizk_scope_key FROM PUBLIC;
REVOKE ALL ON aizk_scope_key FROM {{app_role}};

DO $$
DECLARE
    k bytea := uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())
            || uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid());
    i bytea := k;
    o bytea := k;
BEGIN
    IF EXISTS (SELECT 1 FROM aizk_scope_key) THEN RETURN; END IF;
    FOR n IN 0..63 LOOP
        i := set_byte(i, n, get_byte(k, n) # 54);  -- 0x36
        o := set_byte(o, n, get_byte(k, n) # 92);  -- 0x5c
    END LOOP;
    INSERT INTO aizk_scope_key (ipad, opad) VALUES (i, o);
END $$;

-- The proof for one transaction's sets. Owner only: the app role has no EXECUTE on it.
CREATE OR REPLACE FUNCTION aizk_scope_proof(read_set uuid[], write_set uuid[], backend int, started timestamptz)
    RETURNS text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT encode(sha256(k.opad || sha256(k.ipad || convert_to(
               read_set::text || '|' || write_set::text || '|' || backend::text || '|'
               || extract(epoch FROM started)::text, 'UTF8'))), 'hex')
      FROM public.aizk_scope_key k
$$;
REVOKE ALL ON FUNCTION aizk_scope_proof(uuid[], uuid[], int, timestamptz) FROM PUBLIC;

-- True when this transaction's settings carry the owner's proof for exactly these sets, on this
-- backend, in this transaction. Anything else (a forged set_config, a proof copied from another
-- transaction or connection) is false, and the sets read as empty.
CREATE OR REPLACE FUNCTION aizk_scopes_proven(read_set uuid[], write_set uuid[]) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT coalesce(current_setting('aizk.scope_proof', true) =
                    public.aizk_scope_proof(read_set, write_set, pg_backend_pid(), transaction_timestamp()), false)
$$;
REVOKE ALL ON FUNCTION aizk_scopes_proven(uuid[], uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_scopes_proven(uuid[], uuid[]) TO {{app_role}};

-- search_path pinned on each: a caller's own search_path must not pick what these resolve to.
CREATE OR REPLACE FUNCTION aizk_setting_scopes(name text) RETURNS uuid[]
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT coalesce(nullif(current_setting(name, true), ''), '{}')::uuid[]
$$;

CREATE OR REPLACE FUNCTION aizk_read_scopes() RETURNS uuid[]
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT CASE WHEN public.aizk_scopes_proven(public.aizk_setting_scopes('aizk.read_scopes'), public.aizk_setting_scopes('aizk.write_scopes'))
                THEN public.aizk_setting_scopes('aizk.read_scopes') ELSE '{}'::uuid[] END
$$;

CREATE OR REPLACE FUNCTION aizk_write_scopes() RETURNS uuid[]
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT CASE WHEN public.aizk_scopes_proven(public.aizk_setting_scopes('aizk.read_scopes'), public.aizk_setting_scopes('aizk.write_scopes'))
                THEN public.aizk_setting_scopes('aizk.write_scopes') ELSE '{}'::uuid[] END
$$;
GRANT EXECUTE ON FUNCTION aizk_setting_scopes(text) TO {{app_role}};

-- The policies again, with the sets read once per statement ((SELECT ...) is an init plan), not
-- once per row: checking a proof costs two hashes.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['document', 'session_item', 'artifact', 'chunk', 'claim', 'aizk_watermark',
                             'aizk_usage_event', 'aizk_usage_daily'] LOOP
        EXECUTE format('DROP POLICY IF EXISTS rls_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_insert ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_update ON %I', t);
        EXECUTE format('CREATE POLICY rls_select ON %I FOR SELECT TO %s USING (scopes <@ (SELECT aizk_read_scopes()))',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_insert ON %I FOR INSERT TO %s WITH CHECK (scopes = (SELECT aizk_write_scopes()))',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_update ON %I FOR UPDATE TO %s USING (scopes <@ (SELECT aizk_read_scopes())) '
                       'WITH CHECK (scopes = (SELECT aizk_write_scopes()))', t, '{{app_role}}');
    END LOOP;
    FOREACH t IN ARRAY ARRAY['document', 'session_item', 'artifact', 'chunk', 'claim', 'aizk_watermark'] LOOP
        EXECUTE format('DROP POLICY IF EXISTS rls_delete ON %I', t);
        EXECUTE format('CREATE POLICY rls_delete ON %I FOR DELETE TO %s USING (scopes = (SELECT aizk_write_scopes()))',
                       t, '{{app_role}}');
    END LOOP;
END $$;

-- 3. The queue ----------------------------------------------------------------------------------
-- Row security on pgqueuer binds every role but the owner (and BYPASSRLS roles): a PgQueuer
-- worker sharing this database must connect as the owner, as aizk's own worker does.
ALTER TABLE pgqueuer ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS app_enqueue ON pgqueuer;
DROP POLICY IF EXISTS app_read_own_insert ON pgqueuer;
CREATE POLICY app_enqueue ON pgqueuer FOR INSERT TO {{app_role}} WITH CHECK (status = 'queued');
-- Read back only rows written by a transaction that began at this very instant: in practice
-- the current transaction's own inserts (`created` defaults to now(), the transaction's start),
-- which INSERT ... RETURNING needs. xmin cannot serve: a new row's check runs before it has one.
CREATE POLICY app_read_own_insert ON pgqueuer FOR SELECT TO {{app_role}}
    USING (created = transaction_timestamp());
REVOKE UPDATE, DELETE ON pgqueuer FROM {{app_role}};

-- What scoped passes still need of other rows, answered without showing them: whether a dedupe
-- key has a live job (the dispatch sweeps), and dropping the queued projections of chunks the
-- caller has just replaced (chunk ids are random uuids the caller held).
CREATE OR REPLACE FUNCTION aizk_job_key_live(key text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM public.pgqueuer WHERE dedupe_key = key AND status IN ('queued', 'picked', 'failed'))
$$;
REVOKE ALL ON FUNCTION aizk_job_key_live(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_job_key_live(text) TO {{app_role}};

CREATE OR REPLACE FUNCTION aizk_drop_queued_jobs(entry text, keys text[]) RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    WITH gone AS (DELETE FROM public.pgqueuer WHERE entrypoint = entry AND status = 'queued' AND dedupe_key = ANY(keys) RETURNING 1)
    SELECT count(*) FROM gone
$$;
REVOKE ALL ON FUNCTION aizk_drop_queued_jobs(text, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_drop_queued_jobs(text, text[]) TO {{app_role}};
