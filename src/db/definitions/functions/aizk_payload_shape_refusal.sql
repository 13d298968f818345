-- Why a JSON value does not have the shape a payload schema (aizk_app_entrypoint.payload_schema,
-- a JSON Schema subset) asks for, naming where (`at`), or NULL when it does. It accepts no more
-- than the job's zod schema: string lengths count UTF-16 code units as zod does, `uuid` is zod's
-- hex pattern, `date-time` an ISO time with a valid date and an offset. Keys it does not name are
-- left alone (zod strips them).
CREATE OR REPLACE FUNCTION aizk_payload_shape_refusal(v jsonb, shape jsonb, at text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    want text := shape ->> 'type';
    got text := jsonb_typeof(v);
    k text;
    n integer;
    s text;
    why text;
BEGIN
    IF want = 'integer' THEN
        IF got IS DISTINCT FROM 'number' OR v::numeric <> trunc(v::numeric) THEN
            RETURN format('%s must be a whole number', at);
        END IF;
    ELSIF want IS NOT NULL AND got IS DISTINCT FROM want THEN
        RETURN format('%s must be of type %s, not %s', at, want, coalesce(got, 'missing'));
    END IF;
    IF got = 'object' THEN
        FOR k IN SELECT jsonb_array_elements_text(coalesce(shape -> 'required', '[]')) LOOP
            IF NOT v ? k THEN
                RETURN format('%s.%s is missing', at, k);
            END IF;
        END LOOP;
        FOR k IN SELECT jsonb_object_keys(coalesce(shape -> 'properties', '{}')) LOOP
            IF v ? k THEN
                why := public.aizk_payload_shape_refusal(v -> k, shape -> 'properties' -> k, at || '.' || k);
                IF why IS NOT NULL THEN
                    RETURN why;
                END IF;
            END IF;
        END LOOP;
    ELSIF got = 'array' THEN
        n := jsonb_array_length(v);
        IF n < coalesce((shape ->> 'minItems')::integer, 0) THEN
            RETURN format('%s needs at least %s items', at, shape ->> 'minItems');
        END IF;
        IF n > coalesce((shape ->> 'maxItems')::integer, n) THEN
            RETURN format('%s holds at most %s items', at, shape ->> 'maxItems');
        END IF;
        IF shape ? 'items' THEN
            FOR i IN 0 .. n - 1 LOOP
                why := public.aizk_payload_shape_refusal(v -> i, shape -> 'items', format('%s[%s]', at, i));
                IF why IS NOT NULL THEN
                    RETURN why;
                END IF;
            END LOOP;
        END IF;
    ELSIF got = 'string' THEN
        s := v #>> '{}';
        -- UTF-16 code units: one per character, two for those outside the BMP.
        n := char_length(s) + char_length(regexp_replace(s, '[\u0001-\uffff]', '', 'g'));
        IF n < coalesce((shape ->> 'minLength')::integer, 0) THEN
            RETURN format('%s must be at least %s characters long', at, shape ->> 'minLength');
        END IF;
        IF n > coalesce((shape ->> 'maxLength')::integer, n) THEN
            RETURN format('%s must be at most %s characters long', at, shape ->> 'maxLength');
        END IF;
        IF shape ->> 'format' = 'uuid' AND s !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
            RETURN format('%s must be a uuid', at);
        END IF;
        IF shape ->> 'format' = 'date-time' THEN
            IF s !~ '^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$' THEN
                RETURN format('%s must be an ISO date-time with an offset (2026-01-31T12:00:00Z)', at);
            END IF;
            BEGIN
                PERFORM left(s, 10)::date;
            EXCEPTION WHEN OTHERS THEN
                RETURN format('%s names no such date', at);
            END;
        END IF;
    END IF;
    RETURN NULL;
END $function$;
REVOKE ALL ON FUNCTION aizk_payload_shape_refusal(v jsonb, shape jsonb, at text) FROM PUBLIC;
