import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { chunkMarkdown, parseBlocks } from '../../src/chunking/index.js'

const doc = `# Guide

Intro paragraph that explains the guide in a sentence or two.

## Install

Run the installer. Then check the version.

\`\`\`sh
npm i -g aizk

aizk --version
\`\`\`

| setting | default |
| ------- | ------- |
| a       | 1       |
| b       | 2       |

## Use

- one
- two
`

describe('parseBlocks', () => {
  it('finds headings, code, tables and paragraphs with offsets into the source', () => {
    const blocks = parseBlocks(doc)
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ['heading', 'paragraph', 'heading', 'paragraph', 'code', 'table', 'heading', 'paragraph'],
    )
    const code = blocks.find((b) => b.kind === 'code')
    assert.ok(code)
    assert.match(doc.slice(code.start, code.end), /^```sh\n[\s\S]*aizk --version\n```$/)
    const table = blocks.find((b) => b.kind === 'table')
    assert.ok(table)
    assert.equal(doc.slice(table.start, table.end).split('\n').length, 4)
  })

  it('keeps an unclosed fence to the end of the document', () => {
    const blocks = parseBlocks('text\n\n```\ncode\n\nmore code')
    assert.equal(blocks.at(-1)?.kind, 'code')
    assert.equal(blocks.length, 2)
  })
})

describe('chunkMarkdown', () => {
  it('starts a chunk at each heading and records the heading trail', () => {
    const chunks = chunkMarkdown(doc, { maxChars: 2000, overlapChars: 0 })
    assert.deepEqual(
      chunks.map((c) => c.heading),
      ['Guide', 'Guide > Install', 'Guide > Use'],
    )
    for (const c of chunks) assert.equal(c.text, doc.slice(c.charStart, c.charEnd))
    assert.deepEqual(
      chunks.map((c) => c.ordinal),
      [0, 1, 2],
    )
  })

  it('never cuts a code block or a table, even when the bound is small', () => {
    const chunks = chunkMarkdown(doc, { maxChars: 100, overlapChars: 0 })
    const codeChunks = chunks.filter((c) => c.text.includes('npm i -g aizk'))
    assert.ok(
      codeChunks.every((c) => c.text.includes('aizk --version')),
      'code block split across chunks',
    )
    const tableChunks = chunks.filter((c) => c.text.includes('| a '))
    assert.ok(
      tableChunks.every((c) => c.text.includes('| b ') && c.text.includes('| setting')),
      'table split across chunks',
    )
  })

  it('bounds prose chunks and carries overlap from the previous chunk', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} talks about topic ${i % 7}.`)
    const md = `# Long\n\n${sentences.slice(0, 20).join(' ')}\n\n${sentences.slice(20, 40).join(' ')}\n\n${sentences.slice(40).join(' ')}\n`
    const chunks = chunkMarkdown(md, { maxChars: 400, overlapChars: 80 })
    assert.ok(chunks.length > 3)
    for (const c of chunks) {
      assert.ok(c.text.length <= 400, `chunk ${c.ordinal} has ${c.text.length} chars`)
      assert.equal(c.text, md.slice(c.charStart, c.charEnd))
    }
    for (let i = 1; i < chunks.length; i++) {
      assert.ok(chunks[i].charStart < chunks[i - 1].charEnd, `chunk ${i} has no overlap`)
      assert.ok(chunks[i].charStart > chunks[i - 1].charStart)
      assert.ok(chunks[i - 1].charEnd - chunks[i].charStart <= 80)
    }
    // Every sentence lands in some chunk.
    for (const s of sentences)
      assert.ok(
        chunks.some((c) => c.text.includes(s)),
        `lost: ${s}`,
      )
  })

  it('is deterministic', () => {
    const a = chunkMarkdown(doc, { maxChars: 120, overlapChars: 30 })
    const b = chunkMarkdown(doc, { maxChars: 120, overlapChars: 30 })
    assert.deepEqual(a, b)
  })

  it('gives no chunks for empty Markdown and one for a short text', () => {
    assert.deepEqual(chunkMarkdown('  \n\n', { maxChars: 100, overlapChars: 10 }), [])
    const [only, ...rest] = chunkMarkdown('just a line', { maxChars: 100, overlapChars: 10 })
    assert.equal(rest.length, 0)
    assert.equal(only.text, 'just a line')
    assert.equal(only.heading, null)
  })
})

describe('chunkMarkdown edge cases', () => {
  it('hard-cuts a paragraph with no spaces and still covers all of it', () => {
    const md = 'x'.repeat(1050)
    const chunks = chunkMarkdown(md, { maxChars: 200, overlapChars: 0 })
    assert.equal(chunks.map((c) => c.text).join(''), md)
    assert.ok(chunks.every((c) => c.text.length <= 200))
    assert.deepEqual(
      chunks.map((c) => c.ordinal),
      chunks.map((_, i) => i),
    )
  })

  it('keeps an oversize code block whole as its own chunk', () => {
    const code = `\`\`\`\n${'line of code\n'.repeat(40)}\`\`\``
    const md = `# T\n\nbefore text.\n\n${code}\n\nafter text.`
    const chunks = chunkMarkdown(md, { maxChars: 120, overlapChars: 20 })
    assert.ok(chunks.some((c) => c.text.includes(code)))
    assert.ok(chunks.every((c) => c.text.trim() !== ''))
  })
})
