/**
 * Originals in a folder (a shared volume every host mounts): `<dir>/<id[0:2]>/<id>`. Writes go
 * through a temporary name and a rename, so a reader never sees half a file; the same bytes
 * written twice land once, and a file whose bytes no longer match its name is replaced.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { contentIdOf } from './content-id.js'

export function folderLocation(contentId: string): string {
  return `${contentId.slice(0, 2)}/${contentId}`
}

export async function putFile(dir: string, contentId: string, bytes: Buffer): Promise<string> {
  const location = folderLocation(contentId)
  const target = path.join(dir, location)
  // An existing file is trusted only when its bytes still hash to its name.
  const existing = await stat(target).catch(() => null)
  if (existing?.isFile() && existing.size === bytes.length) {
    const current = await readFile(target).catch(() => null)
    if (current && contentIdOf(current) === contentId) return location
  }
  await mkdir(path.dirname(target), { recursive: true })
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, bytes, { flush: true })
    await rename(temp, target)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
  return location
}

/** The bytes at a location, or null when the file is gone. */
export async function readFileAt(dir: string, location: string): Promise<Buffer | null> {
  const target = path.resolve(dir, location)
  if (!target.startsWith(path.resolve(dir) + path.sep)) throw new Error(`content location ${location} leaves the store folder`)
  try {
    return await readFile(target)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}
