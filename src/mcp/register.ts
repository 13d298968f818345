/** One tool as this server declares it: a name, what it does, its arguments (zod) and its body. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { runTool } from './tool-result.js'

export interface ToolSpec<Shape extends z.ZodRawShape> {
  name: string
  description: string
  input: Shape
  /** Changes the queue (requeue, cancel, pause): registered only with --allow-actions. */
  action?: boolean
  run(args: z.infer<z.ZodObject<Shape>>): Promise<unknown>
}

/** Declare a tool with its argument types checked against its body. */
export function tool<Shape extends z.ZodRawShape>(spec: ToolSpec<Shape>): ToolSpec<z.ZodRawShape> {
  return spec as unknown as ToolSpec<z.ZodRawShape>
}

export function registerTools(server: McpServer, specs: ToolSpec<z.ZodRawShape>[]): void {
  for (const spec of specs) {
    const parse = z.object(spec.input)
    server.registerTool(
      spec.name,
      {
        description: spec.description,
        inputSchema: spec.input,
        annotations: spec.action ? { readOnlyHint: false, destructiveHint: true, idempotentHint: false } : { readOnlyHint: true, openWorldHint: false },
      },
      // The SDK has validated the arguments already; parsing again applies the defaults.
      async (args: unknown) => runTool(() => spec.run(parse.parse(args ?? {}))),
    )
  }
}
