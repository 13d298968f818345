/**
 * The action tools, registered only when `aizk mcp --allow-actions` asks for them: requeue held
 * jobs, cancel queued (or running) jobs, pause and resume an entrypoint. Each runs the same core
 * function as its CLI command, with the same checks (named ids must be in the right state,
 * exit-5 wording), and records the actor as the CLI records its operator. A filter is required:
 * an assistant cannot requeue or cancel the whole queue with an empty call.
 */
import { z } from 'zod'
import { NotFoundError, UsageError } from '../errors.js'
import { checkEntrypointName } from '../operator/entrypoints.js'
import { jobId } from '../operator/numbers.js'
import { requestCancel } from '../queue/cancel-request.js'
import { idsNotIn, type JobFilter, statusWord } from '../queue/job-filter.js'
import { pauseEntrypoint, resumeEntrypoint } from '../queue/pause.js'
import { cancelQueued } from '../queue/remove-jobs.js'
import { idsNotHeld, requeueHeld } from '../queue/requeue.js'
import type { McpContext } from './context.js'
import { tool } from './register.js'

const ids = z.array(z.string()).optional().describe('Only these job ids.')
const entrypoints = z.array(z.string()).optional().describe('Only jobs of these entrypoints.')
const limit = z.number().int().min(1).max(10_000).default(100).describe('Most jobs moved (1-10,000, default 100), oldest first.')

function filterOf(a: { ids?: string[]; entrypoints?: string[] }): JobFilter & { ids: string[] } {
  const idList = (a.ids ?? []).map((id) => jobId(id, 'id'))
  for (const ep of a.entrypoints ?? []) checkEntrypointName(ep)
  if (idList.length === 0 && (a.entrypoints ?? []).length === 0)
    throw new UsageError('name the jobs: give ids or entrypoints', 'an empty filter would match the whole queue')
  return { ids: idList, entrypoints: a.entrypoints }
}

export function actionTools(ctx: McpContext) {
  const { pool, actor } = ctx
  return [
    tool({
      name: 'requeue_jobs',
      action: true,
      description:
        'Put held jobs (status failed) back in the queue, as `aizk requeue`: attempts reset, one more cycle counted, workers notified. Give ids or entrypoints. Named ids that are not held are refused before anything moves.',
      input: { ids, entrypoints, limit, maxCycles: z.number().int().min(1).optional().describe('Skip jobs already requeued and held again this many times.') },
      run: async (a) => {
        const filter = filterOf(a)
        const notHeld = await idsNotHeld(pool, filter.ids)
        if (notHeld.length) {
          throw new NotFoundError(
            `not held: ${notHeld.map((m) => `job ${m.id} (${m.status ?? 'no such job'})`).join(', ')}`,
            'only held jobs can be requeued; failed_jobs lists them',
            { notHeld },
          )
        }
        const requeued = await requeueHeld(pool, { ...filter, limit: a.limit, maxCycles: a.maxCycles })
        return { count: requeued.length, requeued }
      },
    }),
    tool({
      name: 'cancel_jobs',
      action: true,
      description:
        'Cancel queued jobs, as `aizk cancel`: each leaves the queue with a `canceled` log row. running: true also asks the workers running matching picked jobs to stop them (they leave with a `canceled` row once their handler returns). Give ids or entrypoints.',
      input: { ids, entrypoints, limit, running: z.boolean().default(false).describe('Also ask workers to stop matching running (picked) jobs.') },
      run: async (a) => {
        const filter = filterOf(a)
        const missing = await idsNotIn(pool, filter.ids, a.running ? ['queued', 'picked'] : ['queued'])
        if (missing.length) {
          throw new NotFoundError(
            `not ${a.running ? 'queued or running' : 'queued'}: ${missing.map((m) => `job ${m.id} (${statusWord(m.status)})`).join(', ')}`,
            'set running: true for a running job; held jobs are discarded with `aizk discard`',
            { notCancelable: missing },
          )
        }
        const canceled = await cancelQueued(pool, { ...filter, limit: a.limit, by: actor })
        const left = a.limit - canceled.length
        const cancelRequested = a.running && left > 0 ? await requestCancel(pool, { ...filter, limit: left, by: actor }) : []
        return { count: canceled.length + cancelRequested.length, canceled, cancelRequested }
      },
    }),
    tool({
      name: 'pause_entrypoint',
      action: true,
      description:
        'Pause an entrypoint on every aizk worker at once, as `aizk pause`: its jobs stay queued (enqueueing goes on) until resume_entrypoint; running jobs finish. Python PgQueuer workers do not read the pause.',
      input: {
        entrypoint: z.string().describe('The entrypoint to pause.'),
        reason: z.string().max(500).optional().describe('Why: kept with the pause and shown by `aizk status`.'),
      },
      run: async (a) => {
        checkEntrypointName(a.entrypoint)
        const { changed, pause } = await pauseEntrypoint(pool, a.entrypoint, { by: actor, reason: a.reason ?? null })
        return { entrypoint: a.entrypoint, paused: true, changed, pausedAt: pause.pausedAt, pausedBy: pause.pausedBy, reason: pause.reason }
      },
    }),
    tool({
      name: 'resume_entrypoint',
      action: true,
      description: 'Lift the pause of an entrypoint, as `aizk resume`: workers pick its jobs again at once.',
      input: { entrypoint: z.string().describe('The entrypoint to resume.') },
      run: async (a) => {
        checkEntrypointName(a.entrypoint)
        const was = await resumeEntrypoint(pool, a.entrypoint)
        return { entrypoint: a.entrypoint, paused: false, changed: was !== null }
      },
    }),
  ]
}
