-- aizk:requires functions/aizk_payload_scopes
-- aizk:requires functions/aizk_payload_shape_refusal
-- aizk:requires functions/aizk_trace_headers
-- Why one row may not be enqueued by the caller with write set w, or NULL when it may.
CREATE OR REPLACE FUNCTION aizk_app_enqueue_refusal(w uuid[], p_priority integer, p_entrypoint text, p_payload bytea, p_key text, p_execute_after timestamp with time zone, p_headers jsonb)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    e public.aizk_app_entrypoint;
    doc jsonb;
    payload_scopes uuid[];
    max_bytes integer;
    shape_refusal text;
    set_text text := array_to_string(w, ',');
    ref uuid;
BEGIN
    SELECT * INTO e FROM public.aizk_app_entrypoint WHERE entrypoint = p_entrypoint;
    IF NOT FOUND THEN
        RETURN format('entrypoint %s is not one scoped work may enqueue (aizk_app_entrypoint)', p_entrypoint);
    END IF;
    IF p_priority IS DISTINCT FROM e.priority THEN
        RETURN format('%s jobs are enqueued at priority %s, not %s', p_entrypoint, e.priority, p_priority);
    END IF;
    IF p_headers IS NOT NULL AND NOT public.aizk_trace_headers(p_headers) THEN
        RETURN 'headers are written by the system, not by scoped work (only a trace context, {"otel": {"traceparent": ...}}, is carried)';
    END IF;
    IF p_execute_after IS NOT NULL AND NOT isfinite(p_execute_after) THEN
        RETURN format('execute_after must be a finite time, not %s', p_execute_after);
    END IF;
    IF p_execute_after IS NOT NULL AND NOT (p_execute_after <= now() + interval '7 days') THEN
        RETURN format('execute_after %s is more than 7 days ahead', p_execute_after);
    END IF;
    -- Before anything reads the payload: a 20 MB one is refused unparsed.
    SELECT l.max_payload_bytes INTO max_bytes FROM public.aizk_enqueue_limit l;
    IF octet_length(p_payload) > coalesce(max_bytes, 262144) THEN
        RETURN format('the payload is %s bytes, more than the %s the door accepts (AIZK_ENQUEUE_MAX_PAYLOAD_BYTES, set by aizk install)',
                      octet_length(p_payload), coalesce(max_bytes, 262144));
    END IF;
    payload_scopes := public.aizk_payload_scopes(p_payload);
    IF payload_scopes IS NULL OR NOT (payload_scopes @> w AND payload_scopes <@ w) THEN
        RETURN 'the payload''s scopes must be exactly the transaction''s write set';
    END IF;
    doc := convert_from(p_payload, 'UTF8')::jsonb;
    IF e.payload_schema IS NOT NULL THEN
        shape_refusal := public.aizk_payload_shape_refusal(doc, e.payload_schema, 'payload');
        IF shape_refusal IS NOT NULL THEN
            RETURN format('%s: %s, which its handler would refuse', p_entrypoint, shape_refusal);
        END IF;
    END IF;
    -- Every key the door accepts is tied to the write set, so none can block another set's job.
    IF e.key_rule = 'any' THEN
        IF p_key IS NULL OR starts_with(p_key, e.key_prefix || set_text || ':') THEN
            RETURN NULL;
        END IF;
        RETURN format('the dedupe key of %s must start with %s followed by the write set and '':''', p_entrypoint, e.key_prefix);
    END IF;
    IF p_key IS NULL THEN
        RETURN format('%s jobs need a dedupe key', p_entrypoint);
    END IF;
    IF e.key_rule = 'scope_set' THEN
        IF p_key = e.key_prefix || set_text OR starts_with(p_key, e.key_prefix || set_text || ':') THEN
            RETURN NULL;
        END IF;
        RETURN format('the dedupe key of %s must be %s followed by the write set', p_entrypoint, e.key_prefix);
    END IF;
    IF e.key_rule = 'chunk' THEN
        IF doc ->> 'chunkId' IS DISTINCT FROM p_key OR p_key !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
            RETURN format('the dedupe key of %s must be its payload''s chunkId', p_entrypoint);
        END IF;
        IF NOT EXISTS (SELECT 1 FROM public.chunk c WHERE c.id = p_key::uuid AND c.scopes = w) THEN
            RETURN format('chunk %s is not in the write set', p_key);
        END IF;
        RETURN NULL;
    END IF;
    -- content and artifact: the payload names an artifact of the write set.
    IF coalesce(doc ->> 'artifactId', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        RETURN format('%s jobs name an artifact (artifactId)', p_entrypoint);
    END IF;
    ref := (doc ->> 'artifactId')::uuid;
    IF e.key_rule = 'content' THEN
        IF NOT EXISTS (SELECT 1 FROM public.artifact a WHERE a.id = ref AND a.scopes = w AND a.content_id = p_key) THEN
            RETURN format('the dedupe key of %s must be the content id of an artifact in the write set', p_entrypoint);
        END IF;
        RETURN NULL;
    END IF;
    IF p_key IS DISTINCT FROM e.key_prefix || ref::text OR NOT EXISTS (SELECT 1 FROM public.artifact a WHERE a.id = ref AND a.scopes = w) THEN
        RETURN format('the dedupe key of %s must be %s followed by an artifact id of the write set', p_entrypoint, e.key_prefix);
    END IF;
    RETURN NULL;
END $function$;
REVOKE ALL ON FUNCTION aizk_app_enqueue_refusal(w uuid[], p_priority integer, p_entrypoint text, p_payload bytea, p_key text, p_execute_after timestamp with time zone, p_headers jsonb) FROM PUBLIC;
