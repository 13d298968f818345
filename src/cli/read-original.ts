/**
 * The bytes `aizk ingest` stores, read with a bound: only a regular file (a FIFO would block the
 * read forever, a device such as /dev/zero never ends), and never more than AIZK_INGEST_MAX_BYTES,
 * refused before the bytes are held in memory. Files whose size the system does not report
 * (/proc) are read up to the bound and refused past it.
 */
import { constants, type promises as fsp } from 'node:fs'
import { open } from 'node:fs/promises'
import { NotFoundError, UsageError } from '../errors.js'

const CHUNK = 1 << 20

function kindOf(stat: Awaited<ReturnType<fsp.FileHandle['stat']>>): string {
  if (stat.isFIFO()) return 'a named pipe'
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  if (stat.isSocket()) return 'a socket'
  return 'not a regular file'
}

function tooLarge(file: string, what: string, maxBytes: number): UsageError {
  return new UsageError(
    `${file} is ${what}, over the ingest limit of ${maxBytes.toLocaleString('en-US')} bytes (AIZK_INGEST_MAX_BYTES)`,
    'raise AIZK_INGEST_MAX_BYTES (at most 1,073,741,823: what one PostgreSQL value holds), or ingest a smaller file',
  )
}

export async function readOriginal(file: string, maxBytes: number): Promise<Buffer> {
  const cannotRead = (err: NodeJS.ErrnoException): never => {
    if (err.code === 'ENOENT') throw new NotFoundError(`no such file: ${file}`)
    if (err.code === 'EISDIR') throw new UsageError(`${file} is a folder, not a file`)
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`, 'ingest a regular file you can read')
  }
  // O_NONBLOCK: opening a named pipe with no writer returns at once instead of waiting for one.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(cannotRead)
  try {
    const stat = await handle.stat()
    if (stat.isDirectory()) throw new UsageError(`${file} is a folder, not a file`)
    if (!stat.isFile()) throw new UsageError(`${file} is ${kindOf(stat)}, not a regular file`, 'ingest reads regular files only: save the data to a file first')
    if (stat.size > maxBytes) throw tooLarge(file, `${stat.size.toLocaleString('en-US')} bytes`, maxBytes)
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const want = Math.min(CHUNK, maxBytes + 1 - total)
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(want), 0, want, null).catch(cannotRead)
      if (bytesRead === 0) break
      chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead))
      total += bytesRead
      if (total > maxBytes) throw tooLarge(file, 'larger than that', maxBytes)
    }
    return Buffer.concat(chunks, total)
  } finally {
    await handle.close().catch(() => {})
  }
}
