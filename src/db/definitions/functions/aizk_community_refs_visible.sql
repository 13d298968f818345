CREATE OR REPLACE FUNCTION aizk_community_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
    IF NEW.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.community x WHERE x.id = NEW.parent_id AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN
        RAISE EXCEPTION 'community.parent_id names community % outside the write set', NEW.parent_id USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $function$;
