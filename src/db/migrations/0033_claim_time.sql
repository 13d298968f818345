-- Time on every fact (docs/memory-graph.md, "Time on every fact"): besides `valid_from` (when a
-- claim became true, as its text dates it), when it stopped being true, as the text dates it
-- ("until March 1998") or as the insight pass closes it when a later value of a single-valued
-- fact replaced it; and that later claim. A closed claim is kept: it was true for its span, and
-- `recall --as-of` answers from it for a moment inside that span. Expand only: a worker of 0.1.0
-- writes neither column and keeps working.
ALTER TABLE claim ADD COLUMN IF NOT EXISTS valid_to text CHECK (length(valid_to) <= 60);
ALTER TABLE claim ADD COLUMN IF NOT EXISTS ended_by uuid REFERENCES claim (id) ON DELETE SET NULL;
CREATE INDEX IF NOT EXISTS claim_ended_by_idx ON claim (ended_by) WHERE ended_by IS NOT NULL;
