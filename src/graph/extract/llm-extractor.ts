/**
 * Structured extraction by an OpenAI-compatible chat model. The answer must be JSON matching
 * extractionSchema; a malformed answer is asked again (with what was wrong) up to
 * `llmMaxAttempts` times, then the job is held with the model's last text in the error.
 * Nothing is written from an answer that failed validation.
 */
import { PermanentJobError } from '../../permanent-error.js'
import { type Extraction, type Extractor, extractionSchema } from './extraction.js'
import { type ChatMessage, chatCompletion, type LlmSettings } from './llm-client.js'

export interface LlmExtractorSettings extends LlmSettings {
  llmMaxAttempts: number
}

const INSTRUCTIONS = `You extract a knowledge graph from text. Answer with one JSON object and nothing else:
{"entities":[{"name":string,"kind":"person"|"organisation"|"place"|"concept"|"event"|"product","description":string}],
 "claims":[{"subject":string,"predicate":string,"object":string,"objectIsEntity":boolean,"description":string,"strength":number,"when"?:string}]}
Entities are named things (people, organisations, places, products, events, named concepts), never
headings, pronouns or common nouns. Each entity's description says what the text says it is, in one sentence.
Claims are the relations the text states. Subjects are entity names. Predicates are short verbs in the
infinitive, passive voice kept ("write", "be elected", "not support"); a negated statement starts with "not".
objectIsEntity is true when the object is one of the entities. Each claim's description restates it in a
sentence; strength is 1 (said in passing) to 10 (the text's point); when is the date the text gives for
when it became true ("1993", "April 2001"), left out when the text gives none.
When a known entity name (listed before the text) names the same thing, use that name exactly.`

const MAX_KNOWN_NAMES = 200

export class MalformedAnswerError extends PermanentJobError {}

export class LlmExtractor implements Extractor {
  readonly name: string
  constructor(private readonly settings: LlmExtractorSettings) {
    this.name = `llm:${settings.llmModel}`
  }

  async extract(text: string, signal?: AbortSignal, knownNames: readonly string[] = []): Promise<Extraction> {
    // The text is the last message of the first request: the known names travel before it.
    const messages: ChatMessage[] = [
      { role: 'system', content: INSTRUCTIONS },
      ...(knownNames.length > 0 ? [{ role: 'user' as const, content: `Known entity names: ${JSON.stringify(knownNames.slice(0, MAX_KNOWN_NAMES))}` }] : []),
      { role: 'user', content: text },
    ]
    let problem = ''
    let answer = ''
    for (let attempt = 1; attempt <= this.settings.llmMaxAttempts; attempt++) {
      answer = await chatCompletion(this.settings, messages, signal)
      const parsed = parseAnswer(answer)
      if (parsed.ok) return parsed.value
      problem = parsed.problem
      messages.push(
        { role: 'assistant', content: answer },
        { role: 'user', content: `That answer was invalid (${problem}). Answer again with the JSON object only.` },
      )
    }
    throw new MalformedAnswerError(
      `the model's extraction was malformed ${this.settings.llmMaxAttempts} time(s) (${problem}); its last answer: ${answer.slice(0, 2000)}`,
    )
  }
}

/** JSON (optionally inside a ``` fence) that matches extractionSchema, or what was wrong. */
export function parseAnswer(answer: string): { ok: true; value: Extraction } | { ok: false; problem: string } {
  const fenced = answer.match(/```(?:json)?\s*([\s\S]*?)```/)
  let json: unknown
  try {
    json = JSON.parse(fenced ? fenced[1] : answer)
  } catch (err) {
    return { ok: false, problem: `not JSON: ${(err as Error).message}` }
  }
  const result = extractionSchema.safeParse(json)
  if (!result.success) {
    const issue = result.error.issues[0]
    return { ok: false, problem: `${issue.path.join('.') || 'answer'}: ${issue.message}` }
  }
  return { ok: true, value: result.data }
}
