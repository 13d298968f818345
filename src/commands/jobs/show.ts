import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../../cli/base-command.js'
import { NotFoundError } from '../../errors.js'
import { jobStoryJson, renderJobStory } from '../../operator/job-story-view.js'
import { jobId } from '../../operator/numbers.js'
import { readJobStory } from '../../queue/job-story.js'

export default class JobsShow extends AizkCommand {
  static override summary = "One job's story: its row, payload, headers, the worker holding it, and every log row with tracebacks."
  static override description =
    'Works for queued, picked and held jobs (their row is in pgqueuer) and for finished ones whose log rows are still kept (successful, deleted, canceled ...; `aizk prune` trims them). A picked job names the worker running it (host, pid, heartbeat). The payload is pretty-printed and cut at 2,000 characters unless --full. Exit 5 when no row and no log row has that id.'
  static override examples = [
    { command: '<%= config.bin %> jobs show 1234', description: 'The story of job 1234 as text.' },
    { command: '<%= config.bin %> jobs show 1234 --full', description: 'Show the whole payload, however long.' },
    { command: '<%= config.bin %> jobs show 1234 --json', description: 'Print {"id", "state", "job", "payload", "headers", "holder", "log"} as JSON.' },
  ]
  static override args = {
    id: Args.string({ description: 'The job id (as `aizk status`, `aizk requeue --dry-run` and the worker print it).', required: true }),
  }
  static override flags = {
    full: Flags.boolean({ description: 'Show the whole payload instead of its first 2,000 characters.', default: false }),
  }

  async run() {
    const { args, flags } = await this.parse(JobsShow)
    const settings = await this.settings()
    const id = jobId(args.id, 'job id')
    const db = await this.database({ readOnly: true })
    const story = await readJobStory(db.pool, id, settings.heartbeatTimeoutSeconds)
    if (!story) {
      throw new NotFoundError(
        `no job ${id}: not in the queue and no log row`,
        'finished jobs are kept only in pgqueuer_log, until `aizk prune` trims it; `aizk status` lists live ones',
        { id },
      )
    }
    const doc = jobStoryJson(story, flags.full)
    if (!this.jsonEnabled()) this.log(renderJobStory(story, flags.full))
    return doc
  }
}
