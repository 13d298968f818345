-- aizk:requires functions/aizk_content_key
-- After the row passed row security (so NEW.scopes is the caller's write set), and at commit,
-- so the bytes may be stored before or after the artifact is written: an artifact may name
-- content only when its own set stored those bytes (aizk_store_content writes the write set's
-- row, and only a transaction proven for that set can). One lookup of the exact (set, id) key:
-- the answer and the work do not depend on any other set's rows. A trigger function cannot be
-- called on its own, so it answers nobody's question about other sets.
CREATE OR REPLACE FUNCTION aizk_artifact_content_held()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NEW.storage = 'postgres'
       AND NOT EXISTS (SELECT 1 FROM public.aizk_content c
                        WHERE aizk_content_key(c.scopes, c.content_id) = aizk_content_key(NEW.scopes, NEW.content_id)) THEN
        RAISE EXCEPTION 'artifact % names content % that its scope set did not store', NEW.id, NEW.content_id
            USING ERRCODE = '42501', HINT = 'store the bytes first (aizk_store_content) in the same scope set';
    END IF;
    RETURN NULL;
END $function$;
