/**
 * Which clients are inside a scoped transaction right now (the app role, row security on). The
 * scope module marks them; the queue asks, because the app role enqueues through its one door,
 * aizk_app_enqueue, not by inserting queue rows (docs/security.md).
 */
const scoped = new WeakSet<object>()

/** Run `fn` with `client` marked as scoped. */
export async function asScoped<T>(client: object, fn: () => Promise<T>): Promise<T> {
  scoped.add(client)
  try {
    return await fn()
  } finally {
    scoped.delete(client)
  }
}

/** Whether `db` is a client inside a scoped transaction. */
export function isScopedClient(db: object): boolean {
  return scoped.has(db)
}
