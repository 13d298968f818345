/**
 * Time on every fact, end to end on real Debian text (debian-history's chapter on its leaders:
 * "Bruce Perens led Debian from April 1996 until December 1997."), as the app role under row
 * security: the projection keeps both ends of every leader's term, the insight pass closes each
 * term with the next one (kept, not deleted; nothing changes on a second run), and recall --as-of
 * answers who led Debian in a given year by when the claims were true, with when they were
 * recorded beside it. A second set holding a different leader shows the answer never crosses sets;
 * a third, that a dated "X was replaced by Y" ends X's role.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { htmlToMarkdown } from '../../src/convert/html.js'
import { closeExtractionPool } from '../../src/graph/extract/extract-pool.js'
import { recall } from '../../src/graph/read/recall.js'
import { timeSpan } from '../../src/graph/time-span.js'
import { CommunitiesJob, InsightJob, ProfileProjectionJob } from '../../src/jobs/inventory/index.js'
import type { ScopedScheduledJob } from '../../src/jobs/scheduled-job.js'
import { A, B, C, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { debianPackageDir } from '../support/graph/debian-docs.js'
import { addDocument, asSet, graphSettings, jobContext, projectAs } from '../support/graph/graph.js'

const history = debianPackageDir('debian-history')
const LEADERS = 'leaders.en.html'

const db = await fileDatabase()
const app = await fileAppLogin(db)

async function write(scopes: string[], title: string, body: string): Promise<void> {
  for (const chunk of await addDocument(app.scoped, scopes, title, body)) await projectAs(app.scoped, chunk, scopes)
}

async function run(Job: typeof InsightJob | typeof ProfileProjectionJob | typeof CommunitiesJob, scopes: string[]): Promise<Record<string, unknown>> {
  let detail: Record<string, unknown> = {}
  const ctx = { ...jobContext(app.scoped, Job.entrypoint, graphSettings()), report: (d: Record<string, unknown>) => (detail = { ...detail, ...d }) }
  await (new Job() as ScopedScheduledJob).handle({ scopes }, ctx)
  return detail
}
const insights = (scopes: string[]) => run(InsightJob, scopes)

interface LeadRow {
  leader: string
  valid_from: string | null
  valid_to: string | null
  ended_by: string | null
  superseded_by: string | null
}

const leadClaims = (scopes: string[]) =>
  asSet(
    app.scoped,
    scopes,
    async (q) =>
      (
        await q.query<LeadRow>(
          `SELECT s.name AS leader, c.valid_from, c.valid_to, c.ended_by::text, c.superseded_by::text
           FROM claim c JOIN entity s ON s.id = c.subject_id JOIN entity o ON o.id = c.object_id
          WHERE c.scopes = $1::uuid[] AND c.predicate = 'lead' AND o.name = 'Debian' ORDER BY aizk_time_bound(c.valid_from, false)`,
          [scopes],
        )
      ).rows,
  )

/** Who the claims recall returns say led Debian, as of `asOf`. */
async function leadersAsOf(scopes: string[], asOf: string | Date): Promise<string[]> {
  const r = await recall(app.scoped, { readScopes: scopes, query: 'Who led Debian?', limit: 100, asOf }, identity)
  return r.claims
    .filter((c) => c.predicate === 'lead' && c.object === 'Debian')
    .map((c) => c.subject)
    .sort()
}

describe('time on every fact: the leaders of Debian', { skip: 'missing' in history ? history.missing : false }, () => {
  before(async () => {
    if ('missing' in history) return
    const chapter = (file: string) => htmlToMarkdown(readFileSync(path.join(history.dir, 'usr/share/doc/debian-history/docs', file), 'utf8'))
    await write([A], 'A Brief History of Debian: Introduction', chapter('intro.en.html'))
    await write([A], 'A Brief History of Debian: Leadership', chapter(LEADERS))
    // {B} holds another story, dated inside Bruce Perens's term.
    await write([B], 'Zebra notes', 'Ada Lovelace led Debian from March 1997 until May 1997.')
    // {C}: a role that a "replaced by" sentence ends.
    await write([C], 'Zebra history', 'Grace Hopper led Zebra Linux from 1990. In April 1995, Grace Hopper was replaced by Alan Turing.')
  })
  db.beforeDrop(async () => {
    await closeExtractionPool()
  })

  it('keeps when each term began and ended, as the text dates it', async () => {
    const rows = await leadClaims([A])
    assert.ok(rows.length >= 16, `a claim per leader: ${rows.map((r) => r.leader).join(', ')}`)
    const perens = rows.find((r) => r.leader === 'Bruce Perens')
    assert.deepEqual([perens?.valid_from, perens?.valid_to], ['April 1996', 'December 1997'])
    const akkerman = rows.find((r) => r.leader === 'Wichert Akkerman')
    assert.deepEqual([akkerman?.valid_from, akkerman?.valid_to], ['January 1999', 'March 2001'])
  })

  it('the insight pass closes each term with the next, keeps every claim, and changes nothing run again', async () => {
    const before = await leadClaims([A])
    const first = await insights([A])
    assert.equal(first.closed, before.length - 1, 'every term but the last is closed')
    const after = await leadClaims([A])
    assert.equal(after.length, before.length, 'nothing deleted')
    const byId = new Map<string, string>()
    await asSet(app.scoped, [A], async (q) => {
      for (const r of (
        await q.query<{ id: string; name: string }>(`SELECT c.id::text, s.name FROM claim c JOIN entity s ON s.id = c.subject_id WHERE c.predicate = 'lead'`)
      ).rows)
        byId.set(r.id, r.name)
    })
    for (const [k, r] of after.entries()) {
      if (k === after.length - 1) {
        assert.equal(r.ended_by, null, `${r.leader} is the last leader the text dates`)
        continue
      }
      assert.equal(byId.get(r.ended_by ?? ''), after[k + 1].leader, `${r.leader} was followed by ${after[k + 1].leader}`)
      assert.equal(r.superseded_by, null, 'a closed term is not a superseded claim: it was true for its span')
      assert.ok(r.valid_to, `${r.leader}'s term has an end`)
    }
    assert.equal((await insights([A])).closed, 0, 'a second run closes nothing again')
    const contradictions = await asSet(
      app.scoped,
      [A],
      async (q) => (await q.query(`SELECT title FROM insight WHERE kind = 'contradiction' AND scopes = $1::uuid[]`, [[A]])).rows,
    )
    assert.deepEqual(contradictions, [], 'successive leaders are no contradiction')
  })

  it('recall --as-of answers who led Debian in 1997, 2001 and 2010', async () => {
    assert.deepEqual(await leadersAsOf([A], '1997'), ['Bruce Perens'])
    assert.deepEqual(await leadersAsOf([A], '2001'), ['Ben Collins', 'Wichert Akkerman'], 'the term changed in April 2001')
    assert.deepEqual(await leadersAsOf([A], '2001-07-01'), ['Ben Collins'])
    assert.deepEqual(await leadersAsOf([A], new Date('2001-02-15T12:00:00Z')), ['Wichert Akkerman'], 'a moment is the day it falls on')
    assert.deepEqual(await leadersAsOf([A], '2010'), ['Stefano Zacchiroli', 'Steve McIntyre'])
    assert.deepEqual(await leadersAsOf([A], 'June 2010'), ['Stefano Zacchiroli'])
    assert.deepEqual(await leadersAsOf([A], '1850'), [], 'no leader before Debian')
  })

  it('gives when each claim was true beside when it was recorded', async () => {
    const r = await recall(app.scoped, { readScopes: [A], query: 'Who led Debian?', limit: 100, asOf: '1997' }, identity)
    assert.deepEqual(r.asOfSpan, { start: '1997-01-01', end: '1998-01-01' })
    const perens = r.claims.find((c) => c.subject === 'Bruce Perens')
    assert.ok(perens)
    assert.deepEqual([perens.statedFrom, perens.statedUntil], ['April 1996', 'December 1997'])
    assert.ok(Math.abs(Date.parse(perens.recordedAt) - Date.now()) < 3_600_000, 'recorded during this test')
    assert.equal(perens.validFrom, perens.recordedAt, '0.1.0 name of the recorded time')
    assert.ok(perens.endedBy, 'the claim that closed the term')
    const item = r.items.find((i) => i.id === perens.id)
    assert.match(item?.text ?? '', /\(from April 1996 until December 1997\)$/)
  })

  it('profiles state dated facts in the past, and every entity mentioned three times says what it is', async () => {
    await run(ProfileProjectionJob, [A])
    const profiles = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ name: string; summary: string; mentions: number }>(
            `SELECT e.name, p.summary, (SELECT sum(m.count) FROM mention m WHERE m.entity_id = e.id)::int AS mentions
             FROM profile p JOIN entity e ON e.id = p.entity_id WHERE p.scopes = $1::uuid[] AND e.merged_into IS NULL`,
            [[A]],
          )
        ).rows,
    )
    const perens = profiles.find((p) => p.name === 'Bruce Perens')
    assert.match(perens?.summary ?? '', /^Bruce Perens led Debian from April 1996 until December 1997\./)
    const frequent = profiles.filter((p) => p.mentions >= 3)
    assert.ok(frequent.length >= 2, `entities mentioned three times or more: ${frequent.map((p) => p.name).join(', ')}`)
    for (const p of frequent) assert.doesNotMatch(p.summary, /nothing is claimed/, `${p.name}: ${p.summary}`)
  })

  it('the community of leaders is titled by what its claims share, with a one-paragraph summary', async () => {
    await run(CommunitiesJob, [A])
    const communities = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ title: string; summary: string; size: number }>(
            `SELECT title, summary, size FROM community WHERE scopes = $1::uuid[] AND level = 0 ORDER BY size DESC`,
            [[A]],
          )
        ).rows,
    )
    const leaders = communities.find((c) => c.title === 'Who led Debian')
    assert.ok(leaders, `titles: ${communities.map((c) => c.title).join(' | ')}`)
    assert.match(
      leaders.summary,
      /^\d+ entities around [^.]+\. [^.]*(, [A-Z][\w ]+)+ and \d+ others led Debian between [A-Z]?\w* ?\d{4} and [A-Z]?\w* ?\d{4}\./,
    )
    assert.doesNotMatch(leaders.summary, /\n/, 'one paragraph')
  })

  it('"Y replaced X" in a year ends X\'s role then', async () => {
    assert.equal((await insights([C])).closed, 1)
    const [hopper] = await asSet(
      app.scoped,
      [C],
      async (q) =>
        (
          await q.query<{ valid_from: string; valid_to: string; by: string }>(
            `SELECT c.valid_from, c.valid_to, r.predicate || ' ' || s.name AS by FROM claim c JOIN claim r ON r.id = c.ended_by JOIN entity s ON s.id = r.subject_id WHERE c.predicate = 'lead'`,
          )
        ).rows,
    )
    assert.deepEqual(hopper, { valid_from: '1990', valid_to: 'April 1995', by: 'replace Alan Turing' })
    const led = async (asOf: string) =>
      (await recall(app.scoped, { readScopes: [C], query: 'Who led Zebra Linux?', limit: 50, asOf }, identity)).claims
        .filter((c) => c.predicate === 'lead')
        .map((c) => c.subject)
    assert.deepEqual(await led('1993'), ['Grace Hopper'])
    assert.deepEqual(await led('1996'), [])
  })

  it("the database reads a date as the same period as recall's parser", async () => {
    const texts = [
      '1996',
      'April 1996',
      'December 1997',
      'June 17th, 1996',
      '17 June 1996',
      'August of 1993',
      '1990s',
      '2001-04-15',
      '2001-04',
      'Feb 30 2001',
      'someday',
    ]
    const rows = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ start: string | null; end: string | null }>(
            `SELECT aizk_time_bound(t, false)::text AS start, aizk_time_bound(t, true)::text AS end FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n`,
            [texts],
          )
        ).rows,
    )
    assert.deepEqual(
      rows.map((r) => (r.start === null ? undefined : { start: r.start, end: r.end })),
      texts.map((t) => timeSpan(t)),
    )
  })

  it('never answers from another set, and a reader of {A,B} sees both', async () => {
    assert.deepEqual(await leadersAsOf([B], '1997'), ['Ada Lovelace'])
    assert.deepEqual(await leadersAsOf([A, B], '1997'), ['Ada Lovelace', 'Bruce Perens'])
    assert.deepEqual(await leadersAsOf([B], '1999'), [])
  })
})
