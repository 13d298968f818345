import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { readOriginal } from '../cli/read-original.js'
import { UsageError } from '../errors.js'
import { ingestOriginal } from '../ingest/ingest.js'
import { isUuid } from '../scope/scope-set.js'

export default class Ingest extends AizkCommand {
  static override summary = 'Store a file as an artifact of a scope set and enqueue its conversion.'
  static override description =
    'The original goes into the content-addressed store (PostgreSQL unless AIZK_CONTENT_STORE=folder), the artifact row is written with its scopes, and its conversion job is enqueued, all in one transaction. Ingesting the same bytes into the same scope set again changes nothing and names the same artifact. A text file (Markdown, plain text, HTML) holding a NUL byte is refused (exit 2, nothing stored): text in PostgreSQL cannot hold one.'
  static override examples = [
    { command: '<%= config.bin %> ingest report.pdf --scope 3f0c0a4e-8d1b-4d6e-9a57-0b4c1f2a9e11', description: 'Ingest into one scope.' },
    {
      command: '<%= config.bin %> ingest notes.md --scope 3f0c0a4e-8d1b-4d6e-9a57-0b4c1f2a9e11 --scope 9b2d7c61-4e3a-4f7b-8c2d-1a5e6f7b8c9d',
      description: 'Ingest into the scope set {A, B} (readable by members of both).',
    },
    {
      command: '<%= config.bin %> ingest page.html --scope 3f0c0a4e-8d1b-4d6e-9a57-0b4c1f2a9e11 --json',
      description: 'Print the artifact id, content id and job id as JSON.',
    },
    {
      command: '<%= config.bin %> ingest upload.bin --media-type application/pdf --scope 3f0c0a4e-8d1b-4d6e-9a57-0b4c1f2a9e11',
      description: 'Say what the file is when its name does not.',
    },
  ]
  static override args = {
    file: Args.string({ description: 'The file to ingest: a regular file of at most AIZK_INGEST_MAX_BYTES (256 MiB by default).', required: true }),
  }
  static override flags = {
    scope: Flags.string({ char: 's', description: 'A scope UUID of the artifact (repeat for a set of several).', multiple: true, required: true }),
    'media-type': Flags.string({ description: 'The media type (default: from the file extension).' }),
  }

  async run() {
    const { args, flags } = await this.parse(Ingest)
    const bad = flags.scope.filter((s) => !isUuid(s.trim().toLowerCase()))
    if (bad.length)
      throw new UsageError(`--scope ${bad.map((b) => `"${b}"`).join(', ')} is not a UUID`, 'scopes are UUIDs such as 3f0c0a4e-8d1b-4d6e-9a57-0b4c1f2a9e11')
    const settings = await this.settings()
    const bytes = await readOriginal(args.file, settings.ingestMaxBytes)
    const db = await this.database({ deadline: false })
    const result = await ingestOriginal(db.pool, settings, { bytes, filename: args.file, mediaType: flags['media-type'] ?? null, scopes: flags.scope })
    if (this.jsonEnabled()) return result
    const what = result.created ? 'ingested' : 'already ingested'
    const job = result.conversionJobId
      ? `conversion job ${result.conversionJobId} queued`
      : result.created
        ? 'conversion waits for the same bytes converting for another scope set (dispatch sends it)'
        : `conversion ${result.conversionStatus}`
    this.log(
      `${what} ${args.file} as artifact ${result.artifactId} {${result.scopes.join(',')}}: content ${result.contentId.slice(0, 12)}…, ${result.byteSize} bytes, ${result.mediaType}; ${job}`,
    )
    return result
  }
}
