/** The growth gate's watermarks (aizk_watermark) and the fact count it compares. */

export const RECORDED_FACT_COUNT = 'SELECT count(*) AS n FROM claim WHERE scopes = $1::uuid[]'

export const READ_WATERMARK = 'SELECT fact_count FROM aizk_watermark WHERE job = $1 AND scopes = $2::uuid[]'

export const WRITE_WATERMARK = `INSERT INTO aizk_watermark (job, scopes, fact_count, updated, decision, decided_at, observed_count)
     VALUES ($1, $2::uuid[], $3, now(), 'ran', now(), $3)
     ON CONFLICT (job, scopes) DO UPDATE SET fact_count = EXCLUDED.fact_count, updated = now(),
       decision = 'ran', decided_at = now(), observed_count = EXCLUDED.fact_count`

export const NOTE_SKIP = `UPDATE aizk_watermark SET decision = 'skipped', decided_at = now(), observed_count = $3
      WHERE job = $1 AND scopes = $2::uuid[]`
