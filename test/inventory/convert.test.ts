import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  ConverterMissingError,
  converterFor,
  convertToMarkdown,
  DoclingError,
  htmlToMarkdown,
  mediaTypeFor,
  PermanentJobError,
} from '../../src/convert/index.js'
import { EmbeddingsError, embedTexts } from '../../src/embedding/index.js'
import { type FakeServer, fakeVector, formOf, startFakeDocling, startFakeEmbeddings } from '../support/inventory/fake-services.js'

describe('native conversion', () => {
  it('turns HTML into Markdown with headings, code, lists and tables', () => {
    const md = htmlToMarkdown(`<html><head><title>t</title><style>p{}</style></head><body>
      <h1>Title</h1><p>Some <strong>bold</strong> text.</p>
      <pre><code>const x = 1</code></pre>
      <ul><li>one</li><li>two</li></ul>
      <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>
      <script>alert(1)</script></body></html>`)
    assert.match(md, /^# Title$/m)
    assert.match(md, /\*\*bold\*\*/)
    assert.match(md, /```\nconst x = 1\n```/)
    assert.match(md, /^- +one$/m)
    assert.match(md, /^\| k \| v \|\n\| --- \| --- \|\n\| a \| 1 \|$/m)
    assert.doesNotMatch(md, /alert|p\{\}/)
  })

  it('keeps Markdown and text as written, normalizing line endings and a BOM', async () => {
    const md = await convertToMarkdown({ bytes: Buffer.from('\uFEFF# Hi\r\n\r\nthere'), filename: 'a.md', mediaType: null }, { doclingTimeoutSeconds: 300 })
    assert.equal(md, '# Hi\n\nthere\n')
    const txt = await convertToMarkdown({ bytes: Buffer.from('plain\ntext\n'), filename: 'notes.txt', mediaType: 'text/plain' }, { doclingTimeoutSeconds: 300 })
    assert.equal(txt, 'plain\ntext\n')
  })

  it('routes by media type, else by file name', () => {
    assert.equal(converterFor('text/html; charset=utf-8'), 'html')
    assert.equal(converterFor(null, 'x.MD'), 'markdown')
    assert.equal(converterFor('application/octet-stream', 'r.pdf'), 'docling')
    assert.equal(converterFor(mediaTypeFor('deck.pptx')), 'docling')
    assert.equal(mediaTypeFor('noext'), 'application/octet-stream')
  })

  it('with no Docling service, a PDF fails permanently naming the setting', async () => {
    await assert.rejects(
      convertToMarkdown({ bytes: Buffer.from('%PDF-1.4'), filename: 'r.pdf', mediaType: 'application/pdf' }, { doclingTimeoutSeconds: 300 }),
      (err) => {
        assert.ok(err instanceof ConverterMissingError)
        assert.ok(err instanceof PermanentJobError)
        assert.match(err.message, /AIZK_DOCLING_URL/)
        return true
      },
    )
  })
})

describe('docling-serve client', () => {
  let docling: FakeServer
  before(async () => {
    docling = await startFakeDocling({ apiKey: 'k1' })
  })
  after(() => docling.close())

  it('uploads the file as multipart `files` with to_formats=md and reads document.md_content', async () => {
    const bytes = Buffer.from('%PDF-1.4 fake pdf bytes')
    const md = await convertToMarkdown(
      { bytes, filename: 'report.pdf', mediaType: 'application/pdf' },
      { doclingTimeoutSeconds: 300, doclingUrl: docling.url, doclingApiKey: 'k1' },
    )
    assert.match(md, /^# report\.pdf/)
    assert.match(md, new RegExp(`${bytes.length} bytes`))
    const req = docling.seen.at(-1)
    assert.ok(req)
    assert.equal(req.headers['x-api-key'], 'k1')
    const form = await formOf(req)
    const file = form.get('files') as File
    assert.equal(file.name, 'report.pdf')
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes)
  })

  it('a wrong key is a permanent failure; a 5xx or unreachable service is retryable', async () => {
    const original = { bytes: Buffer.from('x'), filename: 'a.docx', mediaType: null }
    await assert.rejects(convertToMarkdown(original, { doclingTimeoutSeconds: 300, doclingUrl: docling.url, doclingApiKey: 'nope' }), PermanentJobError)
    const broken = await startFakeDocling({ fail: 'http500' })
    try {
      await assert.rejects(
        convertToMarkdown(original, { doclingTimeoutSeconds: 300, doclingUrl: broken.url }),
        (err) => err instanceof DoclingError && !(err instanceof PermanentJobError),
      )
    } finally {
      await broken.close()
    }
    await assert.rejects(convertToMarkdown(original, { doclingTimeoutSeconds: 300, doclingUrl: broken.url }), DoclingError)
  })

  it('status failure from docling-serve is permanent', async () => {
    const failing = await startFakeDocling({ fail: 'failure' })
    try {
      await assert.rejects(
        convertToMarkdown({ bytes: Buffer.from('x'), filename: 'a.pdf', mediaType: null }, { doclingTimeoutSeconds: 300, doclingUrl: failing.url }),
        /status failure/,
      )
    } finally {
      await failing.close()
    }
  })
})

describe('embeddings client', () => {
  it('batches texts, sends the model and key, and places vectors by index', async () => {
    const server = await startFakeEmbeddings({ apiKey: 'sk-test' })
    try {
      const texts = Array.from({ length: 5 }, (_, i) => `text number ${i}${' x'.repeat(i)}`)
      const vectors = await embedTexts(texts, { url: `${server.url}/v1`, model: 'm1', apiKey: 'sk-test', batchSize: 2 })
      assert.deepEqual(vectors, texts.map(fakeVector))
      assert.deepEqual(server.batches, [2, 2, 1])
      assert.equal(JSON.parse(server.seen[0].body.toString()).model, 'm1')
    } finally {
      await server.close()
    }
  })

  it('a failing endpoint throws (the job retries)', async () => {
    const server = await startFakeEmbeddings({ failFirst: 1 })
    try {
      await assert.rejects(embedTexts(['a'], { url: `${server.url}/v1`, model: 'm' }), (err) => err instanceof EmbeddingsError && err.status === 503)
      assert.equal((await embedTexts(['a'], { url: `${server.url}/v1/embeddings`, model: 'm' })).length, 1)
    } finally {
      await server.close()
    }
  })
})
