/** Original bytes to Markdown: natively for Markdown, text and HTML; through Docling otherwise. */
import { envName } from '../settings.js'
import { convertWithDocling } from './docling-client.js'
import { ConverterMissingError } from './errors.js'
import { converterFor } from './media-type.js'
import { decodeText, textToMarkdown } from './text.js'

export interface Original {
  bytes: Buffer
  filename: string | null
  mediaType: string | null
}

export interface ConvertSettings {
  doclingUrl?: string
  doclingApiKey?: string
  doclingTimeoutSeconds: number
}

export async function convertToMarkdown(original: Original, settings: ConvertSettings, signal?: AbortSignal): Promise<string> {
  const kind = converterFor(original.mediaType, original.filename)
  if (kind === 'markdown') return textToMarkdown(decodeText(original.bytes))
  if (kind === 'text') return textToMarkdown(decodeText(original.bytes))
  if (kind === 'html') {
    // Loaded on first use: the library entry (ingestOriginal) should not pay for turndown.
    const { htmlToMarkdown } = await import('./html.js')
    return htmlToMarkdown(decodeText(original.bytes))
  }
  const what = `${original.filename ?? 'an original'} (${original.mediaType ?? 'unknown type'})`
  if (!settings.doclingUrl) {
    throw new ConverterMissingError(
      `no converter for ${what}: set ${envName('doclingUrl')} to a docling-serve URL (e.g. http://docling:5001)`,
      `set ${envName('doclingUrl')}, then \`aizk requeue --entrypoint aizk_convert_artifact\``,
    )
  }
  return convertWithDocling(original.bytes, original.filename ?? 'original', original.mediaType ?? 'application/octet-stream', {
    url: settings.doclingUrl,
    apiKey: settings.doclingApiKey,
    timeoutMs: settings.doclingTimeoutSeconds * 1000,
    signal,
  })
}
