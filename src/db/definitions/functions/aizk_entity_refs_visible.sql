CREATE OR REPLACE FUNCTION aizk_entity_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
    IF NEW.merged_into IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.entity x WHERE x.id = NEW.merged_into AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'entity.merged_into names entity % outside the write set', NEW.merged_into USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $function$;
