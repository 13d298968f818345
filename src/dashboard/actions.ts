/**
 * The dashboard's actions, each the core call its command makes: requeue and discard of held
 * jobs (one or a selection, by id, or every job matching a filter, bounded), pause and resume of
 * an entrypoint. Every action is logged as one event line naming who asked, and answers with the
 * message the page shows after it.
 */

import { AizkError } from '../errors.js'
import { checkEntrypointName } from '../operator/entrypoints.js'
import { jobId } from '../operator/numbers.js'
import { actOnHeldMatching, countHeldMatching } from '../queue/held-search.js'
import { idsNotIn, statusWord } from '../queue/job-filter.js'
import { pauseEntrypoint, resumeEntrypoint } from '../queue/pause.js'
import { discardHeld } from '../queue/remove-jobs.js'
import { requeueFailed } from '../queue/requeue.js'
import type { DashboardContext } from './context.js'
import { readHeldFilter } from './held-filter.js'
import { describeFilter, matchingPhrase } from './held-page.js'

/** Ids one action may name: a page holds at most this many. */
export const MAX_ACTION_IDS = 1000

/** Jobs one "every matching job" action moves at most (ten of the queue's windows). */
export const MAX_FILTER_ACTION = 10_000

export interface ActionResult {
  message: string
  ok: boolean
}

function fail(message: string): ActionResult {
  return { message, ok: false }
}

export async function runAction(ctx: DashboardContext, name: string, form: URLSearchParams, by: string): Promise<ActionResult> {
  try {
    if (name === 'held') return await heldAction(ctx, form, by)
    if (name === 'held-matching') return await heldMatchingAction(ctx, form, by)
    if (name === 'pause' || name === 'resume') return await pauseAction(ctx, name, form, by)
    return fail(`no action "${name}"`)
  } catch (err) {
    if (err instanceof AizkError) return fail(`${err.message}${err.hint ? ` (${err.hint})` : ''}`)
    throw err
  }
}

async function heldAction(ctx: DashboardContext, form: URLSearchParams, by: string): Promise<ActionResult> {
  const action = form.get('action')
  if (action !== 'requeue' && action !== 'discard') return fail('choose requeue or discard')
  const ids = [
    ...new Set(
      form
        .getAll('ids')
        .flatMap((v) => v.split(','))
        .filter((v) => v.trim() !== ''),
    ),
  ].map((v) => jobId(v, 'job id'))
  if (ids.length === 0) return fail(`select at least one held job to ${action}`)
  if (ids.length > MAX_ACTION_IDS) return fail(`at most ${MAX_ACTION_IDS} jobs at once`)
  const notHeld = await idsNotIn(ctx.pool, ids, ['failed'])
  if (notHeld.length) return fail(`not held, nothing done: ${notHeld.map((m) => `job ${m.id} (${statusWord(m.status)})`).join(', ')}`)
  const done = action === 'requeue' ? await requeueFailed(ctx.pool, { ids, limit: ids.length }) : await discardHeld(ctx.pool, { ids, limit: ids.length, by })
  ctx.log('dashboard:action', { action, by, ids: done.map((j) => j.id), count: done.length })
  const verb = action === 'requeue' ? 'requeued' : 'discarded'
  return { ok: true, message: `${verb} ${done.length} job(s): ${done.map((j) => j.id).join(', ')}` }
}

async function pauseAction(ctx: DashboardContext, name: 'pause' | 'resume', form: URLSearchParams, by: string): Promise<ActionResult> {
  const entrypoint = (form.get('entrypoint') ?? '').trim()
  checkEntrypointName(entrypoint)
  if (name === 'pause') {
    const { changed } = await pauseEntrypoint(ctx.pool, entrypoint, { by, reason: 'paused from the dashboard' })
    ctx.log('dashboard:action', { action: 'pause', by, entrypoint, changed })
    return { ok: true, message: changed ? `paused ${entrypoint}` : `${entrypoint} was paused already` }
  }
  const lifted = await resumeEntrypoint(ctx.pool, entrypoint)
  ctx.log('dashboard:action', { action: 'resume', by, entrypoint, changed: lifted !== null })
  return { ok: true, message: lifted ? `resumed ${entrypoint}` : `${entrypoint} was not paused` }
}

/**
 * Requeue or discard every held job matching the filter the confirmation page showed, oldest
 * first, never more than the count it showed (`expected`) nor MAX_FILTER_ACTION.
 */
async function heldMatchingAction(ctx: DashboardContext, form: URLSearchParams, by: string): Promise<ActionResult> {
  const action = form.get('action')
  if (action !== 'requeue' && action !== 'discard') return fail('choose requeue or discard')
  const expected = Number(form.get('expected'))
  if (!Number.isInteger(expected) || expected < 1 || expected > MAX_FILTER_ACTION) {
    return fail(`the confirmed count must be a whole number from 1 to ${MAX_FILTER_ACTION}: open the held page and confirm again`)
  }
  const { filter, search } = readHeldFilter(form)
  const matching = await countHeldMatching(ctx.pool, search)
  const done = await actOnHeldMatching(ctx.pool, action, search, { limit: expected, by })
  const left = Math.max(0, matching - done.length)
  ctx.log('dashboard:action', {
    action,
    by,
    filter: describeFilter(filter),
    matching,
    count: done.length,
    ...(done.length ? { firstId: done[0].id, lastId: done[done.length - 1].id } : {}),
  })
  const verb = action === 'requeue' ? 'requeued' : 'discarded'
  return { ok: true, message: `${verb} ${done.length} held job(s)${matchingPhrase(filter)}${left ? `; ${left} still match` : ''}` }
}
