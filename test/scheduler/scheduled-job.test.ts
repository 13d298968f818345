import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError } from '../../src/errors.js'
import * as inventory from '../../src/jobs/inventory/index.js'
import { isJobClass, JobDeclarationError, JobRegistry } from '../../src/jobs/registry.js'
import { deriveJobName, isScheduledJobClass, ScheduledJob, ScopedScheduledJob, SystemScheduledJob } from '../../src/jobs/scheduled-job.js'
import { JobPriority } from '../../src/queue/priority.js'
import { envName, parseSettings } from '../../src/settings.js'
import { runCli } from '../support/cli.js'

// The inventory's own CommunitiesJob: a second class of that name could not register.
const { CommunitiesJob } = inventory
class NightlyDigestJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  async execute() {}
}
class SnapshotJob extends SystemScheduledJob {
  static override defaultCron = '0 2 * * *'
  static override defaultEnabled = false
  async execute() {}
}
/** Abstract in intent: declares no execute, so it is not a job. */
abstract class MemoryPass extends ScopedScheduledJob {}

/** The derivation rule, pinned on the spec's class names (names stored in the database). */
const SPEC_NAMES: Record<string, string> = {
  ArtifactDispatchJob: 'artifact_dispatch',
  ChunkDispatchJob: 'chunk_dispatch',
  ProfileProjectionJob: 'profile_projection',
  SessionPromoteJob: 'session_promote',
  DecayJob: 'decay',
  DedupJob: 'dedup',
  CommunitiesJob: 'communities',
  RaptorJob: 'raptor',
  ProfileRefreshJob: 'profile_refresh',
  InsightJob: 'insight',
  ChunkRecoveryJob: 'chunk_recovery',
  ArtifactIntegrityJob: 'artifact_integrity',
  CleanupJob: 'cleanup',
  BackupJob: 'backup',
}

/** aizk's own scheduled inventory: kind and names, a database contract. */
const INVENTORY: Record<string, { kind: 'scoped' | 'system'; name: string }> = {
  ArtifactDispatchJob: { kind: 'scoped', name: 'artifact_dispatch' },
  ChunkDispatchJob: { kind: 'scoped', name: 'chunk_dispatch' },
  ProfileProjectionJob: { kind: 'scoped', name: 'profile_projection' },
  SessionPromoteJob: { kind: 'scoped', name: 'session_promote' },
  DecayJob: { kind: 'scoped', name: 'decay' },
  DedupJob: { kind: 'scoped', name: 'dedup' },
  CommunitiesJob: { kind: 'scoped', name: 'communities' },
  RaptorJob: { kind: 'scoped', name: 'raptor' },
  ProfileRefreshJob: { kind: 'scoped', name: 'profile_refresh' },
  InsightJob: { kind: 'scoped', name: 'insight' },
  ChunkRecoveryJob: { kind: 'system', name: 'chunk_recovery' },
  ArtifactIntegrityJob: { kind: 'system', name: 'artifact_integrity' },
  CleanupJob: { kind: 'system', name: 'cleanup' },
  BackupJob: { kind: 'system', name: 'backup' },
}

describe('ScheduledJob names are derived from the class name', () => {
  it('derives name, entrypoints and settings (CommunitiesJob, NightlyDigestJob, SnapshotJob)', () => {
    const pinned = [CommunitiesJob, NightlyDigestJob, SnapshotJob].map((j) => ({
      name: j.jobName,
      kind: j.kind,
      entrypoint: j.entrypoint,
      cronEntrypoint: j.cronEntrypoint,
      cron: envName(j.settingKeys.cron),
      enabled: envName(j.settingKeys.enabled),
    }))
    assert.deepEqual(pinned, [
      {
        name: 'communities',
        kind: 'scoped',
        entrypoint: 'aizk_task_communities',
        cronEntrypoint: 'aizk_cron_communities',
        cron: 'AIZK_COMMUNITIES_CRON',
        enabled: 'AIZK_COMMUNITIES_ENABLED',
      },
      {
        name: 'nightly_digest',
        kind: 'scoped',
        entrypoint: 'aizk_task_nightly_digest',
        cronEntrypoint: 'aizk_cron_nightly_digest',
        cron: 'AIZK_NIGHTLY_DIGEST_CRON',
        enabled: 'AIZK_NIGHTLY_DIGEST_ENABLED',
      },
      {
        name: 'snapshot',
        kind: 'system',
        entrypoint: 'aizk_task_snapshot',
        cronEntrypoint: 'aizk_cron_snapshot',
        cron: 'AIZK_SNAPSHOT_CRON',
        enabled: 'AIZK_SNAPSHOT_ENABLED',
      },
    ])
  })

  it('pins the rule on every scheduled job name of the spec', () => {
    for (const [cls, name] of Object.entries(SPEC_NAMES)) assert.equal(deriveJobName(cls), name, cls)
    assert.equal(deriveJobName('HTMLExportJob'), 'html_export')
  })

  it("pins every scheduled job aizk's inventory exports", () => {
    const scheduled = Object.values(inventory as Record<string, unknown>).filter(isScheduledJobClass)
    assert.deepEqual(scheduled.map((j) => j.name).sort(), Object.keys(INVENTORY).sort())
    for (const job of scheduled) {
      const pin = INVENTORY[job.name]
      assert.ok(pin, `${job.name} is a new scheduled job: pin its derived names here`)
      assert.deepEqual(
        { kind: job.kind, name: job.jobName, entrypoint: job.entrypoint, cron: job.cronEntrypoint },
        { kind: pin.kind, name: pin.name, entrypoint: `aizk_task_${pin.name}`, cron: `aizk_cron_${pin.name}` },
      )
      assert.equal(job.priority, JobPriority.maintenance)
      assert.equal(job.concurrencyLimit, 1)
    }
  })

  it('priority 10, concurrency 1, dedupe keys by sorted scopes', () => {
    assert.equal(CommunitiesJob.priority, 10)
    assert.equal(CommunitiesJob.concurrencyLimit, 1)
    assert.equal(SnapshotJob.priority, 10)
    assert.equal(SnapshotJob.concurrencyLimit, 1)
    const a = 'aaaaaaaa-0000-4000-8000-000000000001'
    const b = 'bbbbbbbb-0000-4000-8000-000000000002'
    assert.equal(CommunitiesJob.dedupeKey([b, a]), `communities:${a},${b}`)
    assert.equal(SnapshotJob.dedupeKey(), 'snapshot')
  })

  it('the abstract bases are not jobs; a concrete subclass is', () => {
    for (const base of [ScheduledJob, ScopedScheduledJob, SystemScheduledJob, MemoryPass]) {
      assert.equal(isJobClass(base), false, base.name)
      assert.equal(isScheduledJobClass(base), false, base.name)
    }
    assert.equal(isJobClass(CommunitiesJob), true)
    const registry = new JobRegistry()
    const found = registry.registerModule({ ScheduledJob, ScopedScheduledJob, SystemScheduledJob, MemoryPass, CommunitiesJob, SnapshotJob })
    assert.deepEqual(found.map((j) => j.entrypoint).sort(), ['aizk_task_communities', 'aizk_task_snapshot'])
  })
})

describe('a scheduled job registers its settings', () => {
  it('adds <name>Cron and <name>Enabled with the declared defaults when it registers', () => {
    class LateProbeJob extends SystemScheduledJob {
      static override defaultCron = '*/5 * * * *'
      async execute() {}
    }
    const registry = new JobRegistry()
    assert.equal('lateProbeCron' in parseSettings({}, { registry }), false)
    registry.register(LateProbeJob)
    registry.register(LateProbeJob) // the same class again: no double registration
    new JobRegistry().register(LateProbeJob) // a second registry owns its own copy
    const settings = parseSettings({}, { registry })
    assert.equal(settings.lateProbeCron, '*/5 * * * *')
    assert.equal(settings.lateProbeEnabled, true)
    const off = parseSettings({ AIZK_LATE_PROBE_ENABLED: 'false' }, { registry })
    assert.equal(LateProbeJob.enabled(off), false)
    assert.equal(LateProbeJob.nextFire(off), null)
    assert.equal(LateProbeJob.enabled(parseSettings({ AIZK_LATE_PROBE_CRON: 'off' }, { registry })), false)
  })

  it('an invalid cron is a configuration error (exit 3) naming the variable', () => {
    const registry = new JobRegistry()
    registry.register(NightlyDigestJob)
    for (const bad of ['61 * * * *', '* * *', 'often']) {
      assert.throws(() => parseSettings({ AIZK_NIGHTLY_DIGEST_CRON: bad }, { registry }), /AIZK_NIGHTLY_DIGEST_CRON:/, bad)
    }
    let caught: unknown
    try {
      parseSettings({ AIZK_NIGHTLY_DIGEST_CRON: '61 * * * *', AIZK_QUEUE_BATCH_SIZE: 'x' }, { registry })
    } catch (err) {
      caught = err
    }
    assert.ok(caught instanceof ConfigError)
    assert.equal(caught.exitCode, 3)
    assert.ok(
      caught.problems.some((p) => p.startsWith('AIZK_NIGHTLY_DIGEST_CRON:')),
      caught.message,
    )
    assert.ok(
      caught.problems.some((p) => p.startsWith('AIZK_QUEUE_BATCH_SIZE:')),
      'every problem at once',
    )
  })

  it("the CLI exits 3 naming an inventory job's invalid cron variable", async () => {
    const res = await runCli(['settings'], { env: { AIZK_ARTIFACT_DISPATCH_CRON: '61 * * * *' } })
    assert.equal(res.code, 3, res.stderr)
    assert.match(res.stderr, /AIZK_ARTIFACT_DISPATCH_CRON: expected a cron expression/)
  })

  it('refuses a bad default cron, and two classes deriving one name, at registration', () => {
    class BrokenJob extends SystemScheduledJob {
      static override defaultCron = 'every tuesday'
      async execute() {}
    }
    assert.throws(() => new JobRegistry().register(BrokenJob), JobDeclarationError)
    const Twin = class CommunitiesJob extends ScopedScheduledJob {
      static override defaultCron = '* * * * *'
      async execute() {}
    }
    const registry = new JobRegistry()
    registry.register(CommunitiesJob)
    assert.throws(() => registry.register(Twin), /aizk_task_communities is declared twice/)
  })

  it('nextFire reads the cron in UTC, or in AIZK_TIMEZONE', () => {
    const registry = new JobRegistry()
    registry.register(CommunitiesJob)
    const from = new Date('2024-01-01T00:00:00Z') // a Monday
    assert.equal(CommunitiesJob.nextFire(parseSettings({}, { registry }), from)?.toISOString(), '2024-01-07T04:00:00.000Z')
    const kolkata = parseSettings({ AIZK_TIMEZONE: 'Asia/Kolkata' }, { registry })
    assert.equal(CommunitiesJob.nextFire(kolkata, from)?.toISOString(), '2024-01-06T22:30:00.000Z')
  })
})
