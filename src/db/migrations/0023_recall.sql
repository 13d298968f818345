-- Reading the graph (docs/memory-graph.md, "Reading the graph"): the text indexes recall searches
-- (its candidate functions are in definitions/functions/aizk_recall_*.sql).
--
-- Every index leads with `scopes` (GIN array_ops), so one index scan intersects the reader's scope
-- elements with the query's words or trigrams: the work follows the reader's own rows that match,
-- not the whole table and not the number of tenants.
CREATE INDEX IF NOT EXISTS chunk_recall_text_idx ON chunk USING gin (scopes, to_tsvector('english', text));
CREATE INDEX IF NOT EXISTS entity_recall_text_idx ON entity USING gin (scopes, to_tsvector('english', name));
CREATE INDEX IF NOT EXISTS entity_recall_trgm_idx ON entity USING gin (scopes, normalized_name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS profile_recall_text_idx ON profile USING gin (scopes, to_tsvector('english', coalesce(summary, '')));
CREATE INDEX IF NOT EXISTS claim_recall_text_idx ON claim USING gin (scopes, to_tsvector('english', predicate || ' ' || coalesce(object_text, '')))
    WHERE subject_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS community_recall_text_idx ON community USING gin (scopes, to_tsvector('english', title || ' ' || summary));
