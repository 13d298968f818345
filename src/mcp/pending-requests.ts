/**
 * Requests the server has read but not answered yet, counted on the transport: a client that
 * writes its last request and closes stdin (a script piping JSON-RPC in) still gets the answer
 * before the server closes.
 */
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

const isRequest = (m: JSONRPCMessage) => 'method' in m && 'id' in m
const isResponse = (m: JSONRPCMessage) => !('method' in m) && 'id' in m

/** Count requests and responses on a connected transport; `idle()` resolves once every request read has been answered. */
export function trackPendingRequests(transport: StdioServerTransport): { idle(): Promise<void> } {
  let pending = 0
  let wake: (() => void) | undefined
  const received = transport.onmessage
  transport.onmessage = (message: JSONRPCMessage) => {
    if (isRequest(message)) pending++
    received?.(message)
  }
  const send = transport.send.bind(transport)
  transport.send = async (message: JSONRPCMessage) => {
    try {
      await send(message)
    } finally {
      if (isResponse(message)) {
        pending = Math.max(0, pending - 1)
        if (pending === 0) wake?.()
      }
    }
  }
  return {
    async idle() {
      while (pending > 0) await new Promise<void>((resolve) => (wake = resolve))
    },
  }
}
