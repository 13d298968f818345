/** Read a JSON payload from --payload, --payload-file (or `-` for stdin), or piped stdin. */
import { readFile } from 'node:fs/promises'
import { UsageError } from '../errors.js'

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return ''
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string, from: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new UsageError(
      `the payload from ${from} is not valid JSON: ${(err as Error).message}`,
      `give a JSON object, e.g. --payload '{"scopes":["00000000-0000-4000-a000-000000000001"]}'`,
    )
  }
}

/** The payload, or undefined when none was given (an empty stdin is none). */
export async function readPayload(flags: { payload?: string; 'payload-file'?: string }): Promise<unknown> {
  if (flags.payload !== undefined && flags['payload-file'] !== undefined) {
    throw new UsageError('give the payload once: --payload or --payload-file, not both', 'use --payload JSON, --payload-file FILE, or pipe JSON on stdin')
  }
  if (flags.payload !== undefined) return parseJson(flags.payload, '--payload')
  const file = flags['payload-file']
  if (file !== undefined) {
    let text: string
    try {
      text = file === '-' ? await readStdin() : await readFile(file, 'utf8')
    } catch (err) {
      throw new UsageError(`cannot read --payload-file ${file}: ${(err as Error).message}`, 'give the path of a JSON file, or - for stdin')
    }
    return parseJson(text, file === '-' ? 'stdin' : file)
  }
  const piped = await readStdin()
  return piped.trim() === '' ? undefined : parseJson(piped, 'stdin')
}
