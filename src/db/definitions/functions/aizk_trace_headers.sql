-- Whether headers a scoped enqueue passes are exactly a W3C trace context, as aizk's tracer
-- writes it (src/tracing/carrier.ts): {"otel": {"traceparent": "00-<32 hex>-<16 hex>-<2 hex>"}}
-- with an optional printable "tracestate" of at most 512 characters, and nothing else. With
-- tracing on, every enqueue carries one; any other header stays the system's to write.
CREATE OR REPLACE FUNCTION aizk_trace_headers(h jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    -- CASE guards the key reads (jsonb_object_keys fails on a non-object); never NULL.
    SELECT CASE WHEN coalesce(jsonb_typeof(h), '') <> 'object' OR coalesce(jsonb_typeof(h -> 'otel'), '') <> 'object' THEN false
    ELSE coalesce(
           (SELECT array_agg(k) FROM jsonb_object_keys(h) k) = ARRAY['otel']
       AND (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(h -> 'otel') k) IN (ARRAY['traceparent'], ARRAY['traceparent', 'tracestate'])
       AND jsonb_typeof(h -> 'otel' -> 'traceparent') = 'string'
       AND (h -> 'otel' ->> 'traceparent') ~ '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$'
       AND substr(h -> 'otel' ->> 'traceparent', 4, 32) <> repeat('0', 32)
       AND substr(h -> 'otel' ->> 'traceparent', 37, 16) <> repeat('0', 16)
       AND (NOT (h -> 'otel' ? 'tracestate')
            OR (jsonb_typeof(h -> 'otel' -> 'tracestate') = 'string'
                AND length(h -> 'otel' ->> 'tracestate') <= 512
                AND (h -> 'otel' ->> 'tracestate') ~ '^[\x20-\x7e]*$')),
         false)
    END
$function$;
REVOKE ALL ON FUNCTION aizk_trace_headers(h jsonb) FROM PUBLIC;
