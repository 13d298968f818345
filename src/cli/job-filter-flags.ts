/**
 * The flags requeue, discard and cancel share (entrypoint, id, older-than, limit, dry-run, yes),
 * built per command so each help text names the rows it acts on; readJobFilter
 * (src/operator/job-filter-input.ts) reads them back into the core's JobFilter.
 */
import { Flags } from '@oclif/core'
import { wholeFlag } from './flags.js'

/** `rows`: what the command acts on, as in "Only this held job id". */
export function jobFilterFlags(rows: string, limitDefault: string) {
  return {
    entrypoint: Flags.string({
      char: 'e',
      description:
        "Only this entrypoint (repeatable): one this installation registers (`aizk jobs types`), or one with jobs in the queue (`aizk status`, where a PgQueuer worker's appear); any other is refused (exit 2).",
      multiple: true,
    }),
    id: Flags.string({ description: `Only this ${rows} job id (repeatable).`, multiple: true }),
    'older-than': Flags.string({ description: `Only ${rows} jobs unchanged for at least this long (30m, 2h, 7d).` }),
    limit: wholeFlag({ char: 'n', description: `At most this many jobs (default: ${limitDefault}).`, example: '--limit 100' }),
    'dry-run': Flags.boolean({ description: 'List what would be done; change nothing.', default: false }),
  }
}
