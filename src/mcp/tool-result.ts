/**
 * What a tool hands back to the MCP client: its result as one JSON text block, or an error block
 * (`isError`) with the message and the hint, as the CLI renders an AizkError. A tool that fails
 * never ends the server.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AizkError, errorMessage } from '../errors.js'

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] }
}

export function errorResult(err: unknown): CallToolResult {
  const hint = err instanceof AizkError && err.hint ? `\nhint: ${err.hint}` : ''
  const code = err instanceof AizkError ? ` (${err.code})` : ''
  return { isError: true, content: [{ type: 'text', text: `error${code}: ${errorMessage(err)}${hint}` }] }
}

/** Run a tool body; its value becomes the JSON result, its error an error block. */
export async function runTool(body: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return jsonResult(await body())
  } catch (err) {
    return errorResult(err)
  }
}
