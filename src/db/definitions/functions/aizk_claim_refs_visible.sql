-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
-- The ids a scoped claim row names must be rows the caller can read, within the row's own
-- scopes. It runs BEFORE the row is written, so it answers before the foreign key's own check
-- (which reads past row security) could say whether an id exists at all: another set's id and an
-- id nobody has get the same error (docs/security.md).
CREATE OR REPLACE FUNCTION aizk_claim_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
    IF NEW.object_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.entity x WHERE x.id = NEW.object_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'claim.object_id names entity % outside the write set', NEW.object_id USING ERRCODE = '42501';
    END IF;
    IF NEW.source_chunk_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.chunk x WHERE x.id = NEW.source_chunk_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'claim.source_chunk_id names chunk % outside the write set', NEW.source_chunk_id USING ERRCODE = '42501';
    END IF;
    IF NEW.subject_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.entity x WHERE x.id = NEW.subject_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'claim.subject_id names entity % outside the write set', NEW.subject_id USING ERRCODE = '42501';
    END IF;
    IF NEW.superseded_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.claim x WHERE x.id = NEW.superseded_by AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'claim.superseded_by names claim % outside the write set', NEW.superseded_by USING ERRCODE = '42501';
    END IF;
    IF NEW.ended_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.claim x WHERE x.id = NEW.ended_by AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'claim.ended_by names claim % outside the write set', NEW.ended_by USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $function$;
