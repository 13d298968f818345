-- Keeps `updated` current on every row update.
CREATE OR REPLACE FUNCTION aizk_touch_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    NEW.updated := now();
    RETURN NEW;
END $function$;
