/** The extraction pool's thread entry: one chunk's text in, its raw extraction out. */
import { extractBuiltin } from './builtin-extractor.js'

export default function extract(text: string) {
  return extractBuiltin(text)
}
