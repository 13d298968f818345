/** Usage events and their daily rollup. */

export const RECORD_USAGE = `WITH ev AS (
       INSERT INTO aizk_usage_event (capture_key, scopes, kind, quantity, occurred_at)
       VALUES ($1, $2::uuid[], $3, $4, $5)
       ON CONFLICT (scopes, capture_key) DO NOTHING
       RETURNING scopes, kind, quantity, (occurred_at AT TIME ZONE 'UTC')::date AS day
     ), rolled AS (
       INSERT INTO aizk_usage_daily AS d (scopes, day, kind, quantity, events)
       SELECT scopes, day, kind, quantity, 1 FROM ev
       ON CONFLICT (scopes, day, kind) DO UPDATE
         SET quantity = d.quantity + EXCLUDED.quantity, events = d.events + 1, updated = now()
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM rolled) AS counted`

export const READ_USAGE_DAILY = `SELECT scopes::text[] AS scopes, to_char(day, 'YYYY-MM-DD') AS day, kind, quantity::text, events::text
       FROM aizk_usage_daily WHERE scopes = $1::uuid[] ORDER BY day, kind`
