-- Entity resolution that can be undone, and readable output made outside transactions
-- (docs/memory-graph.md, "Resolution" and "Readable output").
--
-- entity_merge: one row per entity folded into another by the dedup pass, with the rule that
-- matched them and everything the fold changed (`undo`), so `aizk graph unmerge` restores it.
CREATE TABLE IF NOT EXISTS entity_merge (
    id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scopes        uuid[]      NOT NULL CONSTRAINT entity_merge_scopes_valid CHECK (aizk_scopes_valid(scopes)),
    merged_id     uuid        NOT NULL REFERENCES entity (id) ON DELETE CASCADE,
    into_id       uuid        NOT NULL REFERENCES entity (id) ON DELETE CASCADE,
    rule          text        NOT NULL CHECK (rule IN ('same-name', 'similar-name', 'acronym', 'designator', 'partial-name', 'embedding')),
    score         double precision NOT NULL,
    merged_name   text        NOT NULL,
    into_name     text        NOT NULL,
    kept_name     text        NOT NULL,
    undo          jsonb       NOT NULL,
    merged_at     timestamptz NOT NULL DEFAULT now(),
    undone_at     timestamptz
);
CREATE INDEX IF NOT EXISTS entity_merge_scopes_idx ON entity_merge (scopes, merged_at DESC);
CREATE INDEX IF NOT EXISTS entity_merge_merged_idx ON entity_merge (merged_id);
CREATE INDEX IF NOT EXISTS entity_merge_into_idx ON entity_merge (into_id);

-- A profile taken for a rebuild outside a transaction: dirty is cleared when it is taken and
-- claimed_at set, so a projection that dirties it meanwhile is kept; a claim older than the
-- rebuild could take is taken again.
ALTER TABLE profile ADD COLUMN IF NOT EXISTS claimed_at timestamptz;

-- A community's model-written report (GraphRAG's title, summary and findings), made after the
-- rebuild in batches that commit as they go; reported_at is null until the model has written it.
ALTER TABLE community ADD COLUMN IF NOT EXISTS findings jsonb NOT NULL DEFAULT '[]';
ALTER TABLE community ADD COLUMN IF NOT EXISTS reported_at timestamptz;

ALTER TABLE entity_merge ENABLE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON entity_merge TO {{app_role}};
