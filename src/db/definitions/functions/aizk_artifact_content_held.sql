-- aizk:requires functions/aizk_store_content
-- After the row passed row security (so NEW.scopes is the caller's write set), and at commit,
-- so the bytes may be stored before or after the artifact is written. A trigger function cannot
-- be called on its own, so it answers nobody's question about other sets.
CREATE OR REPLACE FUNCTION aizk_artifact_content_held()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NEW.storage = 'postgres'
       AND NOT EXISTS (SELECT 1 FROM public.aizk_content_held h
                        WHERE h.xact = pg_current_xact_id_if_assigned() AND h.content_id = NEW.content_id)
       AND NOT EXISTS (SELECT 1 FROM public.artifact a
                        WHERE a.content_id = NEW.content_id AND a.id <> NEW.id AND a.scopes <@ NEW.scopes) THEN
        RAISE EXCEPTION 'artifact % names content % that this transaction did not store', NEW.id, NEW.content_id
            USING ERRCODE = '42501', HINT = 'store the bytes first (aizk_store_content) in the same transaction';
    END IF;
    RETURN NULL;
END $function$;
