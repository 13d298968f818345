/** The database's settings: which server, which logins, how connections behave (docs/deployment.md). */
import { z } from 'zod'
import { folderSetting, intSetting, numberSetting, settingsGroup, urlSetting } from '../settings-types.js'

export const databaseSettings = settingsGroup({
  name: 'database',
  title: 'Database',
  settings: {
    databaseUrl: {
      schema: urlSetting(['postgres', 'postgresql']),
      description: 'PostgreSQL server to use (`postgres://user:pass@host:port/db`). Unset: the embedded server.',
      firstRun: true,
      secret: true,
    },
    appDatabaseUrl: {
      schema: urlSetting(['postgres', 'postgresql']),
      description:
        'Login for scoped work: a member of the app role that cannot become the owner, so SQL inside a scoped transaction cannot RESET ROLE past row security (docs/security.md). Unset: scoped work uses the owner login with SET LOCAL ROLE.',
      secret: true,
    },
    databasePoolMode: {
      schema: z.enum(['session', 'transaction']).default('session'),
      description:
        '`transaction` when AIZK_DATABASE_URL (and AIZK_APP_DATABASE_URL) go through a transaction pooler such as PgBouncer with pool_mode=transaction: no named prepared statements, LISTEN on AIZK_DIRECT_DATABASE_URL (unset: the worker polls every AIZK_POLL_INTERVAL_SECONDS), `aizk install` and `prune --reclaim` on AIZK_DIRECT_DATABASE_URL (docs/deployment.md#pgbouncer). `session`: a connection is a session of its own (PostgreSQL itself, or session pooling).',
    },
    directDatabaseUrl: {
      schema: urlSetting(['postgres', 'postgresql']),
      description:
        "PostgreSQL itself, bypassing the transaction pooler, for what needs a session of its own when AIZK_DATABASE_POOL_MODE=transaction: the worker's and `--wait`'s LISTEN connection, `aizk install`'s migration lock, `prune --reclaim`'s lock timeout. Ignored in session mode.",
      secret: true,
    },
    dataDir: {
      schema: folderSetting(),
      description: 'Data folder of the embedded server (default `/var/lib/aizk` as root, else `~/.local/share/aizk`).',
      firstRun: true,
    },
    embeddedPort: {
      schema: intSetting(undefined, { min: 1024, max: 65535 }),
      description:
        'Port of the embedded server on 127.0.0.1. Unset: 54329, or the next free port when another program holds it (recorded in the data folder, so every aizk process finds it); set, exactly this port (exit 6 when taken).',
    },
    dbDeadlineSeconds: {
      schema: numberSetting(15, { min: 0.1, max: 3600 }),
      description:
        "Deadline of every queue round trip (pick, completion, heartbeat, counts, requeue, LISTEN check, status reads) and of connecting: past it the call fails and its connection is destroyed, never reused (docs/job-lifecycle.md#network-stalls). Handlers' SQL too (`ctx.pool`), unless the job says its statements run long (`statementDeadlineSeconds`, `ctx.poolWithDeadline`).",
    },
    dbKeepaliveSeconds: {
      schema: numberSetting(10, { min: 1, max: 7200 }),
      description: 'Idle seconds before TCP keepalive probes start on every database connection, so a peer that vanished is noticed by the operating system.',
    },
  },
})
