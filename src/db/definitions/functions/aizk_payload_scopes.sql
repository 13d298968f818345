-- A payload's "scopes" as a set, or NULL when the payload is not a JSON object carrying them (a
-- foreign producer's bytes, say): such a payload never matches a write set.
CREATE OR REPLACE FUNCTION aizk_payload_scopes(payload bytea)
 RETURNS uuid[]
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    doc jsonb;
BEGIN
    doc := convert_from(payload, 'UTF8')::jsonb;
    IF jsonb_typeof(doc) <> 'object' OR jsonb_typeof(doc -> 'scopes') <> 'array' THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(SELECT DISTINCT s::uuid FROM jsonb_array_elements_text(doc -> 'scopes') AS s ORDER BY 1);
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END $function$;
REVOKE ALL ON FUNCTION aizk_payload_scopes(payload bytea) FROM PUBLIC;
