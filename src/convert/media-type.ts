/**
 * Which converter an original goes to, from its declared media type or else its file name.
 * Markdown, plain text and HTML convert in-process; everything else goes to Docling.
 */
export type ConverterKind = 'markdown' | 'text' | 'html' | 'docling'

const BY_EXTENSION: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  adoc: 'text/asciidoc',
}

const NAME = '[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}'
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"'
const MEDIA_TYPE = new RegExp(`^${NAME}/${NAME}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|${QUOTED}))*$`)

/**
 * A declared media type in RFC 6838's shape (`type/subtype`, optionally `; name=value`
 * parameters), lower-cased where case does not matter; null when it is not one.
 */
export function normalizeMediaType(value: string): string | null {
  const text = value.trim()
  if (text.length > 255 || !MEDIA_TYPE.test(text)) return null
  const [essence, ...params] = text.split(';')
  return [essence.trim().toLowerCase(), ...params.map((p) => p.trim())].join('; ')
}

/** The media type for a file name, or application/octet-stream when the extension is unknown. */
export function mediaTypeFor(filename: string | null | undefined): string {
  const ext = (filename ?? '').toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? ''
  return BY_EXTENSION[ext] ?? 'application/octet-stream'
}

export function converterFor(mediaType: string | null | undefined, filename?: string | null): ConverterKind {
  const type = (mediaType && mediaType !== 'application/octet-stream' ? mediaType : mediaTypeFor(filename)).split(';')[0].trim().toLowerCase()
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown'
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html'
  if (type === 'text/plain' || type === 'text/csv') return 'text'
  return 'docling'
}
