CREATE OR REPLACE FUNCTION aizk_profile_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
    IF NEW.entity_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.entity x WHERE x.id = NEW.entity_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'profile.entity_id names entity % outside the write set', NEW.entity_id USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $function$;
