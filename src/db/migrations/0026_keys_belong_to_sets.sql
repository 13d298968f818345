-- Keys belong to sets (docs/security.md, "The enqueue door"): what the door accepts can never
-- block another scope set's job, and usage capture keys are unique per set.
--
-- Usage capture keys: one event per key and exact scope set. With the key alone unique, a tenant
-- could take a key another was about to use (its event never counted), and its insert's result
-- told it whether the other had used the key.
ALTER TABLE aizk_usage_event DROP CONSTRAINT IF EXISTS aizk_usage_event_pkey;
ALTER TABLE aizk_usage_event ADD CONSTRAINT aizk_usage_event_pkey PRIMARY KEY (scopes, capture_key);

-- The usage job's dedupe key is 'usage:' || its set || ':' || its capture key, like every other
-- door key tied to the write set (the rule `any` now means any key within the set's namespace).
UPDATE aizk_app_entrypoint SET key_rule = 'scope_set', key_prefix = 'usage:'
 WHERE entrypoint = 'aizk_usage_event' AND key_rule = 'any';

-- What each entrypoint's payload must look like, checked by the door so that a job its handler
-- would refuse is never queued (and held, keeping its key): a JSON Schema subset (type, required,
-- properties, items, minItems, maxItems, minLength, maxLength, format uuid / date-time), generated
-- from the job class's zod schema (test/queue/enqueue-door-shapes.test.ts keeps the two equal). NULL: not
-- checked (an application's own entrypoint, until the owner writes its schema).
ALTER TABLE aizk_app_entrypoint ADD COLUMN IF NOT EXISTS payload_schema jsonb;
UPDATE aizk_app_entrypoint SET payload_schema = s.schema::jsonb
  FROM (VALUES
    ('aizk_build_graph_chunk', '{"type": "object", "required": ["chunkId", "scopes"], "properties": {"chunkId": {"type": "string", "format": "uuid"}, "scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}}}}'),
    ('aizk_convert_artifact', '{"type": "object", "required": ["artifactId", "scopes"], "properties": {"artifactId": {"type": "string", "format": "uuid"}, "scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}}}}'),
    ('aizk_reindex_artifact', '{"type": "object", "required": ["artifactId", "scopes"], "properties": {"artifactId": {"type": "string", "format": "uuid"}, "scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}}}}'),
    ('aizk_task_raptor', '{"type": "object", "required": ["scopes"], "properties": {"scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}}}}'),
    ('aizk_task_session_promote', '{"type": "object", "required": ["scopes"], "properties": {"scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}}}}'),
    ('aizk_usage_event', '{"type": "object", "required": ["captureKey", "scopes", "kind", "occurredAt"], "properties": {"captureKey": {"type": "string", "minLength": 1, "maxLength": 500}, "scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}}, "kind": {"type": "string", "minLength": 1, "maxLength": 200}, "quantity": {"type": "number"}, "occurredAt": {"type": "string", "format": "date-time"}}}')
  ) AS s(entrypoint, schema)
 WHERE aizk_app_entrypoint.entrypoint = s.entrypoint AND aizk_app_entrypoint.payload_schema IS NULL;

-- The largest payload the door accepts, in bytes: one row, which `aizk install` sets from
-- AIZK_ENQUEUE_MAX_PAYLOAD_BYTES (default 256 KiB).
CREATE TABLE IF NOT EXISTS aizk_enqueue_limit (
    only_row          boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    max_payload_bytes integer NOT NULL CHECK (max_payload_bytes > 0)
);
INSERT INTO aizk_enqueue_limit (max_payload_bytes) VALUES (262144) ON CONFLICT DO NOTHING;
