/** Retry, hold and release of picked jobs. */

import { owned } from '../../db/sql/owned.js'
import { notifySql } from '../notify.js'
import type { OutcomeOptions } from '../retry.js'

export const objectHeaders = `CASE WHEN jsonb_typeof(q.headers) = 'object' THEN q.headers ELSE '{}'::jsonb END`

export const aizkHeaders = (info: string) =>
  `${objectHeaders} || jsonb_build_object('aizk', CASE WHEN jsonb_typeof(q.headers -> 'aizk') = 'object' THEN q.headers -> 'aizk' ELSE '{}'::jsonb END || ${info})`

export const slot = (o: OutcomeOptions) => (o.hasSlot ? ', slot = NULL' : '')

export function retrySql(o: OutcomeOptions) {
  return {
    name: `aizk_retry${o.hasSlot ? '_slot' : ''}`,
    text: `WITH r AS (
             UPDATE pgqueuer q
                SET status = 'queued', queue_manager_id = NULL${slot(o)}, attempts = q.attempts + 1, updated = now(),
                    execute_after = now() + t.delay_ms * interval '1 millisecond',
                    headers = ${aizkHeaders("jsonb_build_object('lastError', t.err)")}
               FROM unnest($1::bigint[], $2::float8[], $3::jsonb[]) AS t(id, delay_ms, err)
              WHERE q.id = t.id AND ${owned('q', '$4')}
             RETURNING q.id),
           n AS (SELECT ${notifySql('update')} FROM (SELECT 1 FROM r LIMIT 1) one)
           SELECT coalesce((SELECT array_agg(id::text) FROM r), '{}') AS ids, (SELECT count(*) FROM n)::int AS notified`,
  }
}

export function holdSql(o: OutcomeOptions) {
  return {
    name: `aizk_hold${o.hasSlot ? '_slot' : ''}`,
    text: `WITH h AS (
             UPDATE pgqueuer q
                SET status = 'failed', queue_manager_id = NULL${slot(o)}, attempts = q.attempts + t.bump, updated = now(),
                    headers = ${aizkHeaders("jsonb_build_object('lastError', t.err, 'heldAt', now())")}
               FROM unnest($1::bigint[], $2::int[], $3::jsonb[], $4::jsonb[]) AS t(id, bump, err, tb)
              WHERE q.id = t.id AND ${owned('q', '$5')}
             RETURNING q.id, q.priority, q.entrypoint, t.tb)
           INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
           SELECT id, 'failed', priority, entrypoint, tb FROM h
           RETURNING job_id::text AS id`,
  }
}

export function releaseSql(o: OutcomeOptions) {
  return {
    name: `aizk_release${o.hasSlot ? '_slot' : ''}`,
    text: `WITH r AS (
             UPDATE pgqueuer q SET status = 'queued', queue_manager_id = NULL${slot(o)}, updated = now()
              WHERE q.id = ANY ($1::bigint[]) AND ${owned('q', '$2')}
             RETURNING q.id),
           n AS (SELECT ${notifySql('update')} FROM (SELECT 1 FROM r LIMIT 1) one)
           SELECT (SELECT count(*) FROM r)::int AS n, (SELECT count(*) FROM n)::int AS notified`,
  }
}

export const HAS_SLOT_COLUMN = "SELECT 1 FROM pg_attribute WHERE attrelid = 'pgqueuer'::regclass AND attname = 'slot' AND NOT attisdropped"
