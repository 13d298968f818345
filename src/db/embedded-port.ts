/**
 * Which port the embedded server listens on. Unset, it is the default (54329) unless another
 * program (another user's embedded server, say) holds it: then the next free port above it is
 * taken and recorded in the data folder's server.json, where every aizk process of this user
 * finds it. A port the operator named (AIZK_EMBEDDED_PORT) is used as named, or refused in one
 * line (exit 6) when taken.
 */
import net from 'node:net'
import { ConflictError } from '../errors.js'

export const DEFAULT_EMBEDDED_PORT = 54329
/** How many ports above the default are tried before asking the system for any free one. */
const SCAN = 100

/** Whether nothing listens on 127.0.0.1:port (we could bind it right now). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.once('error', () => resolve(false))
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)))
  })
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export function portTakenError(port: number, dataDir: string): ConflictError {
  return new ConflictError(
    `port ${port} on 127.0.0.1 is taken by another program, so the embedded PostgreSQL in ${dataDir} cannot start: set AIZK_EMBEDDED_PORT to a free port, or unset it to let aizk pick one`,
  )
}

/**
 * The port to start on. `wanted` is the operator's AIZK_EMBEDDED_PORT (undefined: not set);
 * `recorded` the port server.json holds from an earlier start. `avoid` lists ports that were
 * found free but then failed to bind (someone took them in between).
 */
export async function choosePort(opts: { wanted?: number; recorded?: number; dataDir: string; avoid?: number[] }): Promise<number> {
  const avoid = new Set(opts.avoid ?? [])
  if (opts.wanted !== undefined) {
    if (!avoid.has(opts.wanted) && (await portIsFree(opts.wanted))) return opts.wanted
    throw portTakenError(opts.wanted, opts.dataDir)
  }
  const first = opts.recorded ?? DEFAULT_EMBEDDED_PORT
  const candidates = [first, DEFAULT_EMBEDDED_PORT, ...Array.from({ length: SCAN }, (_, i) => DEFAULT_EMBEDDED_PORT + 1 + i)]
  for (const port of new Set(candidates)) {
    if (port > 65535 || avoid.has(port)) continue
    if (await portIsFree(port)) return port
  }
  return anyFreePort()
}
