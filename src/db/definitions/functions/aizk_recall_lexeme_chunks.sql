-- aizk:requires functions/aizk_read_scopes
-- How many of the reader's chunks hold each of the question's lexemes, counted up to p_cap: the
-- weights of recall's relevance floor (docs/memory-graph.md, "Recall that knows when it doesn't
-- know"). A lexeme no chunk of the set holds weighs most, so a question about something the set
-- never mentions finds no item that supports it.
-- SECURITY DEFINER for the reason aizk_recall_candidates gives: `@@` is not leakproof, so as the
-- app role the count could not use chunk_recall_text_idx. Counts only, within the proven read set.
CREATE OR REPLACE FUNCTION aizk_recall_lexeme_chunks(p_lexemes text[], p_cap int)
    RETURNS TABLE (lexeme text, chunks int)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT l, (SELECT count(*) FROM (
                 SELECT 1 FROM public.chunk c
                  WHERE c.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0
                    AND to_tsvector('english', c.text) @@ quote_literal(l)::tsquery
                  LIMIT p_cap) AS x)::int
      FROM unnest(p_lexemes) AS l
$$;
REVOKE ALL ON FUNCTION aizk_recall_lexeme_chunks(text[], int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_recall_lexeme_chunks(text[], int) TO {{app_role}};
