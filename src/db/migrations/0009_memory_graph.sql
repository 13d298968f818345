-- The memory graph, part one (docs/memory-graph.md): entities, claims with their evidence,
-- mentions and profiles, plus what session promotion needs on document, chunk and session_item.
-- Every table here carries `scopes` and lives under the same four policies as `chunk`: read by
-- containment, written by equality, so a pass for {A,B} can only ever write {A,B} rows.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Promotion: a session's items become one document per part; its chunks point back at it.
ALTER TABLE document ADD COLUMN IF NOT EXISTS session_id text;
ALTER TABLE document ADD COLUMN IF NOT EXISTS part int;
CREATE UNIQUE INDEX IF NOT EXISTS document_session_part_key ON document (scopes, session_id, part)
    WHERE session_id IS NOT NULL;
ALTER TABLE session_item ADD COLUMN IF NOT EXISTS promoted_at timestamptz;
ALTER TABLE session_item ADD COLUMN IF NOT EXISTS document_id uuid REFERENCES document (id) ON DELETE SET NULL;
CREATE INDEX IF NOT EXISTS session_item_document_idx ON session_item (document_id) WHERE document_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS session_item_unpromoted_idx ON session_item (scopes, session_id, created)
    WHERE promoted_at IS NULL;
ALTER TABLE chunk ADD COLUMN IF NOT EXISTS document_id uuid REFERENCES document (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX IF NOT EXISTS chunk_document_ordinal_key ON chunk (document_id, ordinal) WHERE document_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS entity (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes          uuid[]      NOT NULL CONSTRAINT entity_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    name            text        NOT NULL,
    normalized_name text        NOT NULL CHECK (normalized_name <> ''),
    kind            text        NOT NULL,
    -- Set by dedup; always points at a live entity (dedup repoints older chains when it merges).
    merged_into     uuid        REFERENCES entity (id) ON DELETE SET NULL,
    first_seen      timestamptz NOT NULL DEFAULT now(),
    last_seen       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT entity_scopes_kind_name_key UNIQUE (scopes, kind, normalized_name)
);
CREATE INDEX IF NOT EXISTS entity_live_name_idx ON entity (scopes, normalized_name) WHERE merged_into IS NULL;
CREATE INDEX IF NOT EXISTS entity_name_trgm_idx ON entity USING gin (normalized_name gin_trgm_ops) WHERE merged_into IS NULL;
CREATE INDEX IF NOT EXISTS entity_merged_into_idx ON entity (merged_into) WHERE merged_into IS NOT NULL;

-- The placeholder of 0003 becomes the real claim: subject entity, predicate, and an object
-- that is an entity or literal text. `object_key` is the object's identity for the unique key
-- (the entity id, or 'text:' and the normalized literal), so re-observing reinforces.
ALTER TABLE claim ALTER COLUMN subject DROP NOT NULL;
ALTER TABLE claim ALTER COLUMN object DROP NOT NULL;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS subject_id uuid REFERENCES entity (id) ON DELETE CASCADE;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS object_id uuid REFERENCES entity (id) ON DELETE CASCADE;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS object_text text;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS object_key text;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS source_chunk_id uuid REFERENCES chunk (id) ON DELETE SET NULL;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS weight double precision NOT NULL DEFAULT 1;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS last_reinforced timestamptz NOT NULL DEFAULT now();
ALTER TABLE claim ADD COLUMN IF NOT EXISTS last_decayed timestamptz NOT NULL DEFAULT now();
ALTER TABLE claim ADD COLUMN IF NOT EXISTS superseded_by uuid REFERENCES claim (id) ON DELETE SET NULL;
ALTER TABLE claim ADD COLUMN IF NOT EXISTS faded boolean NOT NULL DEFAULT false;
ALTER TABLE claim DROP CONSTRAINT IF EXISTS claim_object_shape;
ALTER TABLE claim ADD CONSTRAINT claim_object_shape CHECK (
    subject_id IS NULL OR (object_key IS NOT NULL AND (object_id IS NOT NULL) <> (object_text IS NOT NULL)));
CREATE UNIQUE INDEX IF NOT EXISTS claim_identity_key ON claim (scopes, subject_id, predicate, object_key)
    WHERE subject_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS claim_scopes_id_idx ON claim (scopes, id);
CREATE INDEX IF NOT EXISTS claim_subject_idx ON claim (subject_id);
CREATE INDEX IF NOT EXISTS claim_object_idx ON claim (object_id) WHERE object_id IS NOT NULL;
-- Foreign keys' ON DELETE lookups: deleting a folded claim or a chunk must not scan every claim.
CREATE INDEX IF NOT EXISTS claim_superseded_by_idx ON claim (superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX IF NOT EXISTS claim_source_chunk_id_idx ON claim (source_chunk_id) WHERE source_chunk_id IS NOT NULL;
-- Decay rewrites weight and last_decayed: leave room on each page so those updates stay HOT.
ALTER TABLE claim SET (fillfactor = 80);

-- Evidence: which chunk observed which claim. Re-projecting a chunk replaces its rows here.
CREATE TABLE IF NOT EXISTS claim_source (
    claim_id  uuid        NOT NULL REFERENCES claim (id) ON DELETE CASCADE,
    chunk_id  uuid        NOT NULL REFERENCES chunk (id) ON DELETE CASCADE,
    scopes    uuid[]      NOT NULL CONSTRAINT claim_source_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    observed  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (claim_id, chunk_id)
);
CREATE INDEX IF NOT EXISTS claim_source_chunk_idx ON claim_source (chunk_id);

CREATE TABLE IF NOT EXISTS mention (
    entity_id uuid        NOT NULL REFERENCES entity (id) ON DELETE CASCADE,
    chunk_id  uuid        NOT NULL REFERENCES chunk (id) ON DELETE CASCADE,
    scopes    uuid[]      NOT NULL CONSTRAINT mention_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    count     int         NOT NULL DEFAULT 1 CHECK (count > 0),
    created   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (chunk_id, entity_id)
);
CREATE INDEX IF NOT EXISTS mention_entity_idx ON mention (entity_id);

CREATE TABLE IF NOT EXISTS profile (
    entity_id    uuid        PRIMARY KEY REFERENCES entity (id) ON DELETE CASCADE,
    scopes       uuid[]      NOT NULL CONSTRAINT profile_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    summary      text,
    claim_ids    uuid[]      NOT NULL DEFAULT '{}',
    dirty        boolean     NOT NULL DEFAULT true,
    refreshed_at timestamptz
);
CREATE INDEX IF NOT EXISTS profile_dirty_idx ON profile (scopes) WHERE dirty;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['entity', 'claim_source', 'mention', 'profile'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_insert ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_update ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_delete ON %I', t);
        EXECUTE format('CREATE POLICY rls_select ON %I FOR SELECT TO %s USING (scopes <@ (SELECT aizk_read_scopes()))',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_insert ON %I FOR INSERT TO %s WITH CHECK (scopes = (SELECT aizk_write_scopes()))',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_update ON %I FOR UPDATE TO %s USING (scopes <@ (SELECT aizk_read_scopes())) '
                       'WITH CHECK (scopes = (SELECT aizk_write_scopes()))', t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_delete ON %I FOR DELETE TO %s USING (scopes = (SELECT aizk_write_scopes()))',
                       t, '{{app_role}}');
    END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON entity, claim_source, mention, profile TO {{app_role}};
