-- The first day of the period a claim's date names ("1996", "April 1996", "17 June 1996",
-- "June 17th, 1996", "1990s", "2001-04-15"), or with p_end the first day after it: a claim
-- dated "from April 1996 until December 1997" is true from 1996-04-01 up to, not including,
-- 1998-01-01. NULL when the text holds no year from 1800 to 2099. The same reading as
-- src/graph/time-span.ts (docs/memory-graph.md, "Time on every fact").
CREATE OR REPLACE FUNCTION aizk_time_bound(p_text text, p_end boolean)
    RETURNS date
    LANGUAGE plpgsql
    IMMUTABLE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    iso text[] := regexp_match(p_text, '\m(1[89]\d\d|20\d\d)-(\d\d)(?:-(\d\d))?\M');
    y int;
    m int;
    d int;
    decade boolean := false;
    first date;
    months text[] := ARRAY['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'];
    found text[];
BEGIN
    IF p_text IS NULL THEN
        RETURN NULL;
    END IF;
    IF iso IS NOT NULL AND iso[2]::int BETWEEN 1 AND 12 THEN
        y := iso[1]::int;
        m := iso[2]::int;
        d := CASE WHEN iso[3] IS NOT NULL AND iso[3]::int BETWEEN 1 AND 31 THEN iso[3]::int END;
    ELSE
        found := regexp_match(p_text, '\m(1[89]\d\d|20\d\d)(s?)\M');
        IF found IS NULL THEN
            RETURN NULL;
        END IF;
        y := found[1]::int;
        decade := found[2] = 's' AND y % 10 = 0;
        found := regexp_match(lower(p_text), '\m(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+([0-3]?\d)(?:st|nd|rd|th)?\M)?');
        IF found IS NOT NULL AND NOT decade THEN
            m := array_position(months, found[1]);
            d := found[2]::int;
            IF d IS NULL THEN
                found := regexp_match(lower(p_text), '\m([0-3]?\d)(?:st|nd|rd|th)?(?:\s+of)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)');
                d := found[1]::int;
            END IF;
            IF d IS NOT NULL AND (d < 1 OR d > 31) THEN
                d := NULL;
            END IF;
        END IF;
    END IF;
    IF d IS NOT NULL AND d > extract(day FROM (make_date(y, m, 1) + interval '1 month' - interval '1 day'))::int THEN
        d := NULL;
    END IF;
    first := make_date(y, coalesce(m, 1), coalesce(d, 1));
    IF NOT p_end THEN
        RETURN first;
    END IF;
    RETURN (first + CASE WHEN d IS NOT NULL THEN interval '1 day' WHEN m IS NOT NULL THEN interval '1 month'
                         WHEN decade THEN interval '10 years' ELSE interval '1 year' END)::date;
END $$;
GRANT EXECUTE ON FUNCTION aizk_time_bound(text, boolean) TO {{app_role}};
