-- Whether a dedupe key has a live job, for the dispatch sweeps of scoped passes, answered without
-- showing the job.
CREATE OR REPLACE FUNCTION aizk_job_key_live(key text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT EXISTS (SELECT 1 FROM public.pgqueuer WHERE dedupe_key = key AND status IN ('queued', 'picked', 'failed'))
$function$;
REVOKE ALL ON FUNCTION aizk_job_key_live(key text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_job_key_live(key text) TO {{app_role}};
