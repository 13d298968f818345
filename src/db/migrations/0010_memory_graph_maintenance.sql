-- The memory graph, part two (docs/memory-graph-maintenance.md): communities by level with
-- their members, the RAPTOR tree over chunk embeddings, insights with their evidence claims,
-- the entity weights the insight pass compares against, and the growth gate's last decision.
-- Every table carries `scopes` under the same four policies as `chunk`: read by containment,
-- written by equality, so a pass for {A,B} only ever writes {A,B} rows.

-- A community of one set at one level: level 0 clusters the entity graph, level n+1 clusters
-- the graph of level n's communities. `lineage` survives rebuilds (a new community that keeps
-- most of an old one's members keeps its lineage); `novelty` says how this build relates to the
-- previous one: first (nothing to compare with), kept, new, or split (from `split_from`).
CREATE TABLE IF NOT EXISTS community (
    id         uuid             PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes     uuid[]           NOT NULL CONSTRAINT community_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    level      int              NOT NULL CHECK (level >= 0),
    parent_id  uuid             REFERENCES community (id) ON DELETE SET NULL,
    title      text             NOT NULL,
    summary    text             NOT NULL,
    size       int              NOT NULL CHECK (size > 0),
    weight     double precision NOT NULL DEFAULT 0,
    claim_ids  uuid[]           NOT NULL DEFAULT '{}',
    lineage    uuid             NOT NULL,
    novelty    text             NOT NULL CHECK (novelty IN ('first', 'kept', 'new', 'split')),
    split_from uuid,
    built_at   timestamptz      NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS community_scopes_level_idx ON community (scopes, level);
CREATE INDEX IF NOT EXISTS community_parent_idx ON community (parent_id) WHERE parent_id IS NOT NULL;

-- The entities of each level-0 community; a community above holds its descendants' entities
-- (through parent_id), so this table has one row per clustered entity, not one per level.
CREATE TABLE IF NOT EXISTS community_member (
    community_id uuid   NOT NULL REFERENCES community (id) ON DELETE CASCADE,
    entity_id    uuid   NOT NULL REFERENCES entity (id) ON DELETE CASCADE,
    scopes       uuid[] NOT NULL CONSTRAINT community_member_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    PRIMARY KEY (community_id, entity_id)
);
CREATE INDEX IF NOT EXISTS community_member_entity_idx ON community_member (entity_id);

-- RAPTOR: level 1 summarises clusters of chunks, level n+1 clusters of level n's nodes. A node
-- keeps its children (chunk ids at level 1, node ids above) and its vector as chunks do.
CREATE TABLE IF NOT EXISTS raptor_node (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes          uuid[]      NOT NULL CONSTRAINT raptor_node_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    level           int         NOT NULL CHECK (level >= 1),
    summary         text        NOT NULL,
    embedding       real[]      NOT NULL,
    child_chunk_ids uuid[]      NOT NULL DEFAULT '{}',
    child_node_ids  uuid[]      NOT NULL DEFAULT '{}',
    built_at        timestamptz NOT NULL DEFAULT now(),
    CHECK ((level = 1) = (cardinality(child_chunk_ids) > 0)),
    CHECK ((level > 1) = (cardinality(child_node_ids) > 0))
);
CREATE INDEX IF NOT EXISTS raptor_node_scopes_level_idx ON raptor_node (scopes, level);

-- A derived finding. `evidence_key` names the evidence (the sorted claim ids, with what the
-- kind needs): the same finding over the same evidence is never written twice.
CREATE TABLE IF NOT EXISTS insight (
    id           uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes       uuid[]      NOT NULL CONSTRAINT insight_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    kind         text        NOT NULL CHECK (kind IN ('contradiction', 'rising_entity', 'fading_entity', 'new_community', 'split_community')),
    title        text        NOT NULL,
    detail       jsonb       NOT NULL DEFAULT '{}',
    entity_id    uuid        REFERENCES entity (id) ON DELETE SET NULL,
    evidence_key text        NOT NULL,
    created      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT insight_evidence_key UNIQUE (scopes, kind, evidence_key)
);
CREATE INDEX IF NOT EXISTS insight_scopes_created_idx ON insight (scopes, created DESC);

CREATE TABLE IF NOT EXISTS insight_evidence (
    insight_id uuid   NOT NULL REFERENCES insight (id) ON DELETE CASCADE,
    claim_id   uuid   NOT NULL REFERENCES claim (id) ON DELETE CASCADE,
    scopes     uuid[] NOT NULL CONSTRAINT insight_evidence_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    PRIMARY KEY (insight_id, claim_id)
);
CREATE INDEX IF NOT EXISTS insight_evidence_claim_idx ON insight_evidence (claim_id);

-- Each entity's live claim weight when the insight pass last looked: the trend's baseline.
CREATE TABLE IF NOT EXISTS entity_trend (
    entity_id   uuid             PRIMARY KEY REFERENCES entity (id) ON DELETE CASCADE,
    scopes      uuid[]           NOT NULL CONSTRAINT entity_trend_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    weight      double precision NOT NULL,
    measured_at timestamptz      NOT NULL DEFAULT now()
);

-- The growth gate remembers its last decision per pass and set (shown by `aizk status`).
ALTER TABLE aizk_watermark ADD COLUMN IF NOT EXISTS decision text CHECK (decision IN ('ran', 'skipped'));
ALTER TABLE aizk_watermark ADD COLUMN IF NOT EXISTS decided_at timestamptz;
ALTER TABLE aizk_watermark ADD COLUMN IF NOT EXISTS observed_count bigint;

-- Chunks with a vector, for RAPTOR's read of a set.
CREATE INDEX IF NOT EXISTS chunk_scopes_embedded_idx ON chunk (scopes) WHERE embedding IS NOT NULL;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['community', 'community_member', 'raptor_node', 'insight', 'insight_evidence', 'entity_trend'] LOOP
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

GRANT SELECT, INSERT, UPDATE, DELETE ON community, community_member, raptor_node, insight, insight_evidence, entity_trend TO {{app_role}};
