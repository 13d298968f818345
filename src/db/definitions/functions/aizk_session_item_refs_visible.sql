-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
-- The ids a scoped session_item row names must be rows the caller can read, within the row's own
-- scopes. It runs BEFORE the row is written, so it answers before the foreign key's own check
-- (which reads past row security) could say whether an id exists at all: another set's id and an
-- id nobody has get the same error (docs/security.md).
CREATE OR REPLACE FUNCTION aizk_session_item_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
    IF NEW.document_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.document x WHERE x.id = NEW.document_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'session_item.document_id names document % outside the write set', NEW.document_id USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $function$;
