-- What an extraction says beyond its triples (docs/memory-graph.md, "Descriptions and dates"):
-- an entity's description (the first sentence that said what it is), a claim's description (the
-- relation in a sentence, from a chat model) and the date it became true as the text gives it
-- ("1993", "April 2001"), which tells a value replaced at a known date (a supersession) from a
-- real contradiction.
ALTER TABLE entity ADD COLUMN IF NOT EXISTS description text CHECK (length(description) <= 2000);
ALTER TABLE claim ADD COLUMN IF NOT EXISTS description text CHECK (length(description) <= 2000);
ALTER TABLE claim ADD COLUMN IF NOT EXISTS valid_from text CHECK (length(valid_from) <= 60);
