import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { renderRecall } from '../cli/render-recall.js'
import { checkScopes, scopeFlag } from '../cli/scope-flag.js'
import { embedTexts } from '../embedding/embeddings-client.js'
import { UsageError } from '../errors.js'
import { checkQuestion, recall } from '../graph/read/recall.js'
import { RECALL_FLOOR } from '../graph/read/recall-model.js'
import { asOfSpan } from '../graph/time-span.js'

export default class Recall extends AizkCommand {
  static override summary =
    'Answer a question from the memory graph of one scope set: the claims, entities, communities and text that bear on it, each with its source.'
  static override description =
    'Reads as the app role inside the scope set, so row security decides: the set sees its own rows and those of its subsets, never a wider set. Ranks by full text over chunks, names, profiles, claims and communities, trigrams on names, one or two hops around the named entities (claim weight, after decay), and the question\'s vector when AIZK_EMBEDDINGS_URL is set, fused by reciprocal rank (docs/memory-graph.md, "Reading the graph"). When the first items do not answer the question well enough (--floor), answers nothing: exit 0, "abstained": true in JSON. --as-of answers by when facts were true, --known-at by when the graph recorded them (docs/memory-graph.md, "Time on every fact"). Exit 2 on an empty question or one holding a NUL, no scope or a malformed one, or an --as-of or --known-at that is not a date.'
  static override examples = [
    {
      command: '<%= config.bin %> recall "Who founded Debian?" --scope aaaaaaaa-0000-4000-8000-000000000001',
      description: 'The ten best items, each with where it came from.',
    },
    {
      command: '<%= config.bin %> recall "Who led Debian?" --scope aaaaaaaa-0000-4000-8000-000000000001 --as-of 1997 --limit 5 --json',
      description:
        'The facts true in 1997 (claims dated wholly before or after it left out), the five best, as JSON: items, claims with when they were true and recorded, entities, communities, chunks.',
    },
    {
      command: '<%= config.bin %> recall "Who founded Debian?" --scope aaaaaaaa-0000-4000-8000-000000000001 --known-at 2024-01-01T00:00:00Z',
      description: 'As the graph stood on 1 January 2024: claims recorded later, and claims superseded before then, left out.',
    },
    {
      command: '<%= config.bin %> recall "Who founded Red Hat?" --scope aaaaaaaa-0000-4000-8000-000000000001 --floor 0',
      description: 'Whatever ranks, even when nothing in the set supports an answer (by default recall then answers nothing).',
    },
  ]
  static override args = {
    question: Args.string({ description: 'The question, in plain words.', required: true }),
  }
  static override flags = {
    scope: scopeFlag(),
    limit: Flags.integer({ description: 'Items to return, best first.', default: 10, min: 1, max: 100 }),
    floor: Flags.string({
      description: `The relevance floor, 0 to 1: when the confidence that the first items answer the question (a model reading the question's words, rarer ones weighing more, and the kind of answer it asks for against them) is below it, answer nothing. 0 shows whatever ranks. Default ${RECALL_FLOOR}.`,
    }),
    'as-of': Flags.string({
      description:
        'Answer by when facts were true: a year (1997), a month (2001-04, "April 2001"), a day (2010-06-01) or an ISO 8601 moment (its day). Claims the text dates wholly before or after it are left out; undated claims stay.',
    }),
    'known-at': Flags.string({
      description: 'An ISO 8601 moment: answer as the graph stood then (claims recorded after it, and claims superseded at or before it, left out).',
    }),
  }

  async run() {
    const { args, flags } = await this.parse(Recall)
    const scopes = checkScopes(flags.scope)
    const question = checkQuestion(args.question)
    const asOf = flags['as-of']
    if (asOf !== undefined && !asOfSpan(asOf)) {
      throw new UsageError(`--as-of "${asOf}" is not a date`, 'pass a year (1997), a month (2001-04 or "April 2001"), a day (2010-06-01) or an ISO 8601 moment')
    }
    let knownAt: Date | undefined
    if (flags['known-at'] !== undefined) {
      knownAt = new Date(flags['known-at'])
      if (Number.isNaN(knownAt.getTime()))
        throw new UsageError(`--known-at "${flags['known-at']}" is not a date`, 'pass an ISO 8601 moment, e.g. 2024-01-01T00:00:00Z')
    }
    const floor = flags.floor === undefined ? undefined : flags.floor.trim() === '' ? Number.NaN : Number(flags.floor)
    if (floor !== undefined && !(floor >= 0 && floor <= 1))
      throw new UsageError(`--floor "${flags.floor}" is not a number from 0 to 1`, 'pass a share such as 0.5, or 0 to see whatever ranks')
    const settings = await this.settings()
    const queryVector = settings.embeddingsUrl
      ? (await embedTexts([question], { url: settings.embeddingsUrl, model: settings.embeddingsModel, apiKey: settings.embeddingsApiKey, batchSize: 1 }))[0]
      : undefined
    const db = await this.database({ deadline: false })
    const result = await recall(db.pool, { readScopes: scopes, query: question, limit: flags.limit, asOf, knownAt, queryVector, floor }, settings)
    if (!this.jsonEnabled()) this.log(renderRecall(result))
    return result
  }
}
