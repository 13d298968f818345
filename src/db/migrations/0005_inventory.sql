-- The inventory's own tables: the content store (originals keyed by content id, bytes stored
-- once) and usage accounting (events keyed by capture key, rolled up per scope set and day).

-- Originals in PostgreSQL: every host shares them and a database backup covers them. The app
-- role may add bytes (knowing a hash reveals nothing) and read only the bytes of an artifact
-- it can see: the policy's subquery runs under artifact's own row security.
CREATE TABLE IF NOT EXISTS aizk_content (
    content_id text        PRIMARY KEY CONSTRAINT aizk_content_id_sha256 CHECK (content_id ~ '^[0-9a-f]{64}$'),
    bytes      bytea       NOT NULL,
    byte_size  bigint      NOT NULL CONSTRAINT aizk_content_size_matches CHECK (byte_size = octet_length(bytes)),
    created    timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE aizk_content ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS rls_select ON aizk_content;
DROP POLICY IF EXISTS rls_insert ON aizk_content;
CREATE POLICY rls_select ON aizk_content FOR SELECT TO {{app_role}}
    USING (EXISTS (SELECT 1 FROM artifact a WHERE a.content_id = aizk_content.content_id));
CREATE POLICY rls_insert ON aizk_content FOR INSERT TO {{app_role}} WITH CHECK (true);
GRANT SELECT, INSERT ON aizk_content TO {{app_role}};

-- The integrity pass walks originals least recently verified first.
CREATE INDEX IF NOT EXISTS artifact_verified_idx ON artifact (verified_at NULLS FIRST, created);
CREATE INDEX IF NOT EXISTS artifact_content_id_idx ON artifact (content_id);
-- Failed re-verifications, counted by `aizk status` and the metrics every refresh.
CREATE INDEX IF NOT EXISTS artifact_integrity_failed_idx ON artifact (integrity_status)
    WHERE integrity_status IN ('mismatch', 'missing');

-- Usage: one row per captured event (the capture key makes a replay count once), and the
-- rollup per exact scope set, day and kind that the event's first arrival adds to.
CREATE TABLE IF NOT EXISTS aizk_usage_event (
    capture_key text        PRIMARY KEY,
    scopes      uuid[]      NOT NULL CONSTRAINT aizk_usage_event_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    kind        text        NOT NULL,
    quantity    numeric     NOT NULL DEFAULT 1,
    occurred_at timestamptz NOT NULL,
    created     timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS aizk_usage_daily (
    scopes   uuid[]      NOT NULL CONSTRAINT aizk_usage_daily_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    day      date        NOT NULL,
    kind     text        NOT NULL,
    quantity numeric     NOT NULL,
    events   bigint      NOT NULL,
    updated  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scopes, day, kind)
);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['aizk_usage_event', 'aizk_usage_daily'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_insert ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_update ON %I', t);
        EXECUTE format('CREATE POLICY rls_select ON %I FOR SELECT TO %s USING (scopes <@ aizk_read_scopes())',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_insert ON %I FOR INSERT TO %s WITH CHECK (scopes = aizk_write_scopes())',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_update ON %I FOR UPDATE TO %s USING (scopes <@ aizk_read_scopes()) '
                       'WITH CHECK (scopes = aizk_write_scopes())', t, '{{app_role}}');
    END LOOP;
END $$;
GRANT SELECT, INSERT ON aizk_usage_event TO {{app_role}};
GRANT SELECT, INSERT, UPDATE ON aizk_usage_daily TO {{app_role}};
