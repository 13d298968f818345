/**
 * The dashboard's listen address: a --host checked before anything connects, and the errors of
 * binding it told as what they are (a port in use is a conflict, an address this machine does not
 * have is bad input), never as the database's failure or a bug.
 */
import { isIP } from 'node:net'
import { AizkError, ConflictError, UsageError } from '../errors.js'

/** One DNS label: letters, digits and inner hyphens, at most 63 characters (RFC 1123). */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i

/** The address to listen on, brackets of an IPv6 literal dropped; a usage error (exit 2) when it is not an address or a host name. */
export function listenHost(host: string): string {
  const h = host.trim().replace(/^\[(.*)\]$/, '$1')
  const name = h.endsWith('.') ? h.slice(0, -1) : h
  if (isIP(h) || (name.length > 0 && name.length <= 253 && name.split('.').every((label) => LABEL.test(label)))) return h
  throw new UsageError(
    `--host "${host}" is not an IP address or a host name`,
    'give an address of this machine, such as 127.0.0.1 (the default), ::1 or 0.0.0.0',
  )
}

/** Why the server could not listen on host:port, as an error with its exit code; others pass through. */
export function listenError(err: unknown, host: string, port: number): unknown {
  if (err instanceof AizkError) return err
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') {
    return new ConflictError(`dashboard port ${port} on ${host} is in use`, 'pick another --port (or AIZK_DASHBOARD_PORT), or 0 for any free port')
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAFNOSUPPORT') {
    return new UsageError(
      `--host ${host} cannot be listened on: it is not an address of this machine (${code})`,
      'give an address of this machine, such as 127.0.0.1 (the default), or 0.0.0.0 for every interface',
    )
  }
  if (code === 'EACCES') {
    return new UsageError(`--port ${port} needs privileges this process does not have (EACCES)`, 'use a port of 1024 or above, such as the default 8474')
  }
  return err
}
