/**
 * A TCP proxy in the test process between a client and PostgreSQL, for network faults the way
 * an operator's network makes them: `stall()` stops forwarding bytes both ways without closing
 * anything (a NAT that dropped its state, a partition: no RST, no FIN). What is sent meanwhile
 * is lost for good, as behind a gateway that forgot the connection: a query whose reply is
 * dropped waits for it forever unless the client gives up; `stall({ applicationName })` silences
 * only the connections of one pool. `resume()` forwards again,
 * `reset()` destroys every connection at once.
 */
import net from 'node:net'

export interface StallProxy {
  /** The proxy's own URL: `target` with host and port replaced. */
  readonly url: string
  readonly port: number
  /**
   * Stop forwarding; with `applicationName`, only on the connections whose startup message named
   * it (say the worker's handlers' pool, `aizk-worker-jobs`), the others go on.
   */
  stall(opts?: { applicationName?: string }): void
  /**
   * Stall once the server has sent `n` more ReadyForQuery messages (counted over every
   * connection): the handshake is one, each statement one more. So a command gets past
   * connecting and into its own statements before the path goes silent.
   */
  stallAfterReady(n: number): void
  resume(): void
  /** Destroy every proxied connection (an RST to both ends). */
  reset(): void
  /** Connections open through the proxy now. */
  readonly connections: number
  close(): Promise<void>
}

interface Pair {
  client: net.Socket
  server: net.Socket
  /** The application_name of the connection's startup message, once seen. */
  app?: string
}

export interface StallProxyOptions {
  /**
   * Hold back a FIN during a stall too (half-open sockets), so a goodbye gets no answer: for
   * tests of closing a pool. Off by default: the worker tests' proxies pass FINs through.
   */
  holdFin?: boolean
}

export async function startStallProxy(targetUrl: string, opts: StallProxyOptions = {}): Promise<StallProxy> {
  const allowHalfOpen = opts.holdFin === true
  const target = new URL(targetUrl)
  const targetPort = Number(target.port || 5432)
  const targetHost = target.hostname || '127.0.0.1'
  const pairs = new Set<Pair>()
  let stalled = false
  let stalledApp: string | undefined
  let readyLeft = 0
  const isStalled = (pair: Pair) => stalled || (stalledApp !== undefined && pair.app === stalledApp)

  const forward = (pair: Pair, from: net.Socket, to: net.Socket) => {
    const fromServer = from === pair.server
    // With holdFin a FIN is forwarded like data: during a stall the other end never learns of it.
    if (allowHalfOpen) {
      from.on('end', () => {
        if (!isStalled(pair)) to.end()
      })
    }
    from.on('data', (chunk: Buffer) => {
      if (!fromServer && pair.app === undefined) pair.app = startupApplication(chunk)
      if (isStalled(pair)) return
      to.write(chunk)
      if (fromServer && readyLeft > 0) {
        readyLeft -= countReady(chunk)
        if (readyLeft <= 0) stalled = true
      }
    })
  }

  // Half-open sockets with holdFin: the proxy, not Node, decides whether a FIN goes on.
  const server = net.createServer({ allowHalfOpen }, (client) => {
    const upstream = net.connect({ port: targetPort, host: targetHost, allowHalfOpen })
    const pair: Pair = { client, server: upstream }
    pairs.add(pair)
    forward(pair, client, upstream)
    forward(pair, upstream, client)
    const close = () => {
      if (!pairs.delete(pair)) return
      client.destroy()
      upstream.destroy()
    }
    // A close seen during a stall is not passed on either: the path is silent both ways.
    let closing = false
    const closeWhenForwarding = () => {
      if (closing) return
      closing = true
      if (!isStalled(pair)) close()
      else {
        const later = setInterval(() => {
          if (isStalled(pair)) return
          clearInterval(later)
          close()
        }, 20)
      }
    }
    client.on('error', closeWhenForwarding)
    upstream.on('error', closeWhenForwarding)
    client.on('close', closeWhenForwarding)
    upstream.on('close', closeWhenForwarding)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  const url = new URL(targetUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)

  const reset = () => {
    for (const pair of [...pairs]) {
      pairs.delete(pair)
      pair.client.resetAndDestroy()
      pair.server.resetAndDestroy()
    }
  }

  return {
    url: url.toString(),
    port,
    get connections() {
      return pairs.size
    },
    stall(opts = {}) {
      if (opts.applicationName === undefined) stalled = true
      else stalledApp = opts.applicationName
    },
    stallAfterReady(n: number) {
      readyLeft = n
    },
    resume() {
      stalled = false
      stalledApp = undefined
      readyLeft = 0
    },
    reset,
    async close() {
      stalled = false
      stalledApp = undefined
      reset()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The application_name in a StartupMessage (length, protocol 3.0, then name/value pairs), '' when none. */
function startupApplication(chunk: Buffer): string {
  if (chunk.length < 8 || chunk.readInt32BE(4) !== 0x30000) return ''
  const fields = chunk.subarray(8, chunk.readInt32BE(0)).toString('utf8').split('\0')
  const at = fields.indexOf('application_name')
  return at >= 0 && at % 2 === 0 ? (fields[at + 1] ?? '') : ''
}

/** ReadyForQuery messages ('Z', length 5, a transaction status byte) in a chunk from the server. */
function countReady(chunk: Buffer): number {
  let n = 0
  for (let i = chunk.indexOf(0x5a); i >= 0 && i + 5 < chunk.length; i = chunk.indexOf(0x5a, i + 1)) {
    if (chunk.readInt32BE(i + 1) === 5 && [0x49, 0x54, 0x45].includes(chunk[i + 5])) n++
  }
  return n
}
