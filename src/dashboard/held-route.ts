/** The held page and its confirmation page: the reads behind heldPageBody and confirmBody. */

import { UsageError } from '../errors.js'
import { jobInventory } from '../operator/job-inventory.js'
import { countHeldMatching, searchHeld } from '../queue/held-search.js'
import { MAX_FILTER_ACTION } from './actions.js'
import type { DashboardContext } from './context.js'
import { readHeldFilter } from './held-filter.js'
import { confirmBody, heldPageBody } from './held-page.js'
import type { Html } from './html.js'
import { readStateCounts } from './state-counts.js'

export async function renderHeld(ctx: DashboardContext, url: URL): Promise<{ title: string; nav: string; html: Html }> {
  const { filter, search, after } = readHeldFilter(url.searchParams)
  if (url.pathname === '/held/confirm') {
    const action = url.searchParams.get('action')
    if (action !== 'requeue' && action !== 'discard') throw new UsageError(`no action "${action ?? ''}"`, 'choose requeue or discard from the held page')
    if (ctx.readOnly) throw new UsageError('read-only dashboard: actions are off', 'start `aizk dashboard` without --read-only to act')
    const matching = await countHeldMatching(ctx.pool, search)
    return {
      title: action === 'requeue' ? 'Requeue held jobs?' : 'Discard held jobs?',
      nav: '/held',
      html: confirmBody(action, filter, matching, MAX_FILTER_ACTION, ctx.csrf),
    }
  }
  const found = await searchHeld(ctx.pool, search, after, filter.limit)
  const counts = await readStateCounts(ctx.pool)
  const entrypoints = [
    ...new Set(
      jobInventory(ctx.settings)
        .map((r) => r.entrypoint)
        .concat(filter.entrypoint ?? []),
    ),
  ].sort()
  return {
    title: 'Held jobs',
    nav: '/held',
    html: heldPageBody({ ...found, counts, now: Date.now() }, filter, entrypoints, ctx.csrf, ctx.readOnly, MAX_FILTER_ACTION),
  }
}
