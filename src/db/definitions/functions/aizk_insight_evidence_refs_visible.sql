-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
-- The ids a scoped insight_evidence row names must be rows the caller can read, within the row's own
-- scopes. It runs BEFORE the row is written, so it answers before the foreign key's own check
-- (which reads past row security) could say whether an id exists at all: another set's id and an
-- id nobody has get the same error (docs/security.md).
CREATE OR REPLACE FUNCTION aizk_insight_evidence_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
    IF NEW.claim_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.claim x WHERE x.id = NEW.claim_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'insight_evidence.claim_id names claim % outside the write set', NEW.claim_id USING ERRCODE = '42501';
    END IF;
    IF NEW.insight_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.insight x WHERE x.id = NEW.insight_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'insight_evidence.insight_id names insight % outside the write set', NEW.insight_id USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $function$;
