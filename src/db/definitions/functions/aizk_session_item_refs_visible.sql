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
