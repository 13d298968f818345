-- aizk:requires functions/aizk_content_key
-- Existence probes (docs/security.md, "Existence probes").
--
-- Originals are kept once per scope set, not once for everyone: storing bytes then touches only
-- the caller's set's row (a new row, or its own old one), so neither the work done nor any
-- counter says whether another set stored the same bytes. Each set that has an artifact naming
-- stored bytes gets its own copy; bytes no artifact names (nothing can read them) are dropped.
ALTER TABLE aizk_content ADD COLUMN IF NOT EXISTS scopes uuid[];
ALTER TABLE aizk_content DROP CONSTRAINT IF EXISTS aizk_content_pkey;
INSERT INTO aizk_content (content_id, scopes, bytes, byte_size, created)
SELECT DISTINCT ON (c.content_id, a.scopes) c.content_id, a.scopes, c.bytes, c.byte_size, c.created
  FROM aizk_content c JOIN artifact a ON a.content_id = c.content_id AND a.storage = 'postgres'
 WHERE c.scopes IS NULL
 ORDER BY c.content_id, a.scopes;
DELETE FROM aizk_content WHERE scopes IS NULL;
ALTER TABLE aizk_content ALTER COLUMN scopes SET NOT NULL;
ALTER TABLE aizk_content ADD CONSTRAINT aizk_content_scopes_valid CHECK (aizk_scopes_valid(scopes));
-- Keyed by the set and the id together, through a function that is not leakproof (see
-- aizk_content_key): no index the app role's conditions reach leads with the content id.
CREATE UNIQUE INDEX IF NOT EXISTS aizk_content_key_idx ON aizk_content (aizk_content_key(scopes, content_id));
DROP INDEX IF EXISTS artifact_content_id_idx;
ALTER TABLE artifact DROP CONSTRAINT IF EXISTS artifact_content_scopes_key;
CREATE UNIQUE INDEX IF NOT EXISTS artifact_content_key_idx ON artifact (aizk_content_key(scopes, content_id));
-- Possession is now the set's own stored row (aizk_artifact_content_held).
DROP TABLE IF EXISTS aizk_content_held;

-- Large objects belong to the role that made them, and every tenant shares the app login, so a
-- large object one tenant made would be readable and writable by all of them, outside row
-- security. aizk uses none: nobody but a superuser may call the large-object functions in this
-- database. Only a superuser can revoke them (PostgreSQL owns them); docs/security.md gives the
-- statement for an administrator to run otherwise.
DO $$
DECLARE
    f regprocedure;
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
                  WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname ~ '^(lo_|loread$|lowrite$)' LOOP
            EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
        END LOOP;
    END IF;
END $$;
