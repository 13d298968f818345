-- Memory tables under row security (docs/scope-sets.md). Every row carries `scopes`: a sorted, nonempty,
-- duplicate-free, null-free uuid[] that the database itself checks, whoever writes it. The app
-- role reads a row when its scopes are contained in the caller's read set and writes one only
-- when they equal the caller's write set. The sets live in transaction-local settings that only
-- src/scope/user.ts sets; unset, both are empty and the app role sees and writes nothing.

CREATE OR REPLACE FUNCTION aizk_scopes_valid(s uuid[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    -- coalesce: on '{}' array_ndims is NULL, and a CHECK that yields NULL passes.
    SELECT coalesce(
               cardinality(s) > 0
           AND array_ndims(s) = 1
           AND array_lower(s, 1) = 1
           AND array_position(s, NULL) IS NULL
           AND s = ARRAY(SELECT DISTINCT x FROM unnest(s) AS x ORDER BY x),
           false)
$$;

CREATE OR REPLACE FUNCTION aizk_read_scopes() RETURNS uuid[]
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(nullif(current_setting('aizk.read_scopes', true), ''), '{}')::uuid[]
$$;

CREATE OR REPLACE FUNCTION aizk_write_scopes() RETURNS uuid[]
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(nullif(current_setting('aizk.write_scopes', true), ''), '{}')::uuid[]
$$;

CREATE OR REPLACE FUNCTION aizk_touch_updated() RETURNS TRIGGER AS $$
BEGIN
    NEW.updated := now();
    RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TABLE IF NOT EXISTS document (
    id      uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes  uuid[]      NOT NULL CONSTRAINT document_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    title   text,
    body    text,
    created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS session_item (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes     uuid[]      NOT NULL CONSTRAINT session_item_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    session_id text,
    role       text,
    content    text,
    created    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS artifact (
    id                uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes            uuid[]      NOT NULL CONSTRAINT artifact_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    content_id        text        NOT NULL,
    filename          text,
    media_type        text,
    byte_size         bigint,
    storage           text        NOT NULL DEFAULT 'postgres' CHECK (storage IN ('postgres', 'folder')),
    location          text,
    conversion_status text        NOT NULL DEFAULT 'pending'
                                  CHECK (conversion_status IN ('pending', 'converting', 'converted', 'failed')),
    conversion_error  text,
    markdown          text,
    converted_at      timestamptz,
    integrity_status  text        NOT NULL DEFAULT 'unverified'
                                  CHECK (integrity_status IN ('unverified', 'ok', 'mismatch', 'missing')),
    verified_at       timestamptz,
    created           timestamptz NOT NULL DEFAULT now(),
    updated           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT artifact_content_scopes_key UNIQUE (content_id, scopes)
);

CREATE TABLE IF NOT EXISTS chunk (
    id                uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes            uuid[]      NOT NULL CONSTRAINT chunk_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    artifact_id       uuid        REFERENCES artifact (id) ON DELETE CASCADE,
    source            text        NOT NULL DEFAULT 'artifact',
    ordinal           int         NOT NULL,
    text              text        NOT NULL,
    heading           text,
    char_start        int,
    char_end          int,
    embedding         real[],
    projection_status text        NOT NULL DEFAULT 'pending'
                                  CHECK (projection_status IN ('pending', 'projected', 'failed')),
    created           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT chunk_artifact_ordinal_key UNIQUE (artifact_id, ordinal)
);

-- A minimal claims table: the growth gate counts a partition's facts here. The memory-passes
-- issue fills it out.
CREATE TABLE IF NOT EXISTS claim (
    id        uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes    uuid[]      NOT NULL CONSTRAINT claim_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    subject   text        NOT NULL,
    predicate text        NOT NULL,
    object    text        NOT NULL,
    created   timestamptz NOT NULL DEFAULT now()
);

-- The growth gate's memory: a partition's fact count when its job last ran.
CREATE TABLE IF NOT EXISTS aizk_watermark (
    job        text        NOT NULL,
    scopes     uuid[]      NOT NULL CONSTRAINT aizk_watermark_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    fact_count bigint      NOT NULL,
    updated    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job, scopes)
);

-- The roster reads DISTINCT scopes; a pass counts its partition with scopes = its set.
CREATE INDEX IF NOT EXISTS document_scopes_idx ON document (scopes);
CREATE INDEX IF NOT EXISTS session_item_scopes_idx ON session_item (scopes);
CREATE INDEX IF NOT EXISTS artifact_scopes_idx ON artifact (scopes);
CREATE INDEX IF NOT EXISTS chunk_scopes_idx ON chunk (scopes);
CREATE INDEX IF NOT EXISTS claim_scopes_idx ON claim (scopes);
-- Dispatch sweeps find pending work without scanning finished rows.
CREATE INDEX IF NOT EXISTS artifact_conversion_pending_idx ON artifact (created)
    WHERE conversion_status IN ('pending', 'converting');
CREATE INDEX IF NOT EXISTS chunk_projection_pending_idx ON chunk (created) WHERE projection_status = 'pending';
CREATE INDEX IF NOT EXISTS chunk_artifact_idx ON chunk (artifact_id);

DROP TRIGGER IF EXISTS artifact_touch_updated ON artifact;
CREATE TRIGGER artifact_touch_updated BEFORE UPDATE ON artifact
    FOR EACH ROW EXECUTE FUNCTION aizk_touch_updated();

-- Row security: the same four policies on every scoped table, for the app role only (the owner
-- bypasses them: that is the roster's read, and nothing else uses the owner on these tables).
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['document', 'session_item', 'artifact', 'chunk', 'claim', 'aizk_watermark'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_insert ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_update ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_delete ON %I', t);
        EXECUTE format('CREATE POLICY rls_select ON %I FOR SELECT TO %s USING (scopes <@ aizk_read_scopes())',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_insert ON %I FOR INSERT TO %s WITH CHECK (scopes = aizk_write_scopes())',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_update ON %I FOR UPDATE TO %s USING (scopes <@ aizk_read_scopes()) '
                       'WITH CHECK (scopes = aizk_write_scopes())', t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_delete ON %I FOR DELETE TO %s USING (scopes = aizk_write_scopes())',
                       t, '{{app_role}}');
    END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON document, session_item, artifact, chunk, claim, aizk_watermark TO {{app_role}};
GRANT EXECUTE ON FUNCTION aizk_scopes_valid(uuid[]), aizk_read_scopes(), aizk_write_scopes() TO {{app_role}};
