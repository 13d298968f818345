/**
 * The content-addressed store: where an original goes (settings.contentStore) and how it comes
 * back. PostgreSQL by default, so every host shares it and a database backup covers it; a folder
 * on a shared volume as the option.
 */
import type { Queryable } from '../db/queryable.js'
import { ConfigError } from '../errors.js'
import { envName } from '../settings.js'
import { contentIdOf } from './content-id.js'
import { folderLocation, putFile, readFileAt } from './folder-store.js'
import { putContent, readContent } from './postgres-store.js'

export type StorageKind = 'postgres' | 'folder'

export interface ContentSettings {
  contentStore: StorageKind
  contentStoreDir?: string
}

export interface StoredOriginal {
  contentId: string
  storage: StorageKind
  /** The folder store's relative path; null in PostgreSQL. */
  location: string | null
  byteSize: number
}

function folderOf(settings: ContentSettings): string {
  if (!settings.contentStoreDir) {
    throw new ConfigError([`${envName('contentStoreDir')}: is required when ${envName('contentStore')} is folder`])
  }
  return settings.contentStoreDir
}

/** Where bytes will be stored, without storing them (the artifact row is written first). */
export function planOriginal(settings: ContentSettings, bytes: Buffer): StoredOriginal {
  const contentId = contentIdOf(bytes)
  const folder = settings.contentStore === 'folder'
  return { contentId, storage: settings.contentStore, location: folder ? folderLocation(contentId) : null, byteSize: bytes.length }
}

/** Store bytes (on `db`, inside the caller's transaction, for PostgreSQL) and say where they went. */
export async function storeOriginal(db: Queryable, settings: ContentSettings, bytes: Buffer): Promise<StoredOriginal> {
  const contentId = contentIdOf(bytes)
  if (settings.contentStore === 'folder') {
    const location = await putFile(folderOf(settings), contentId, bytes)
    return { contentId, storage: 'folder', location, byteSize: bytes.length }
  }
  await putContent(db, contentId, bytes)
  return { contentId, storage: 'postgres', location: null, byteSize: bytes.length }
}

/** The stored bytes of an original, or null when they are missing. */
export async function readOriginal(
  db: Queryable,
  settings: ContentSettings,
  original: { contentId: string; scopes: readonly string[]; storage: string; location: string | null },
): Promise<Buffer | null> {
  if (original.storage === 'folder') {
    if (!original.location) return null
    return readFileAt(folderOf(settings), original.location)
  }
  return readContent(db, original.contentId, original.scopes)
}
