/**
 * The failures issue 48 saw on a Debian manual no labeled set covered, one test per class, with
 * its sentences: labels and fragments taken for names, wrong kinds, claims that lost their
 * modality, polarity or tense, objects cut off or vacuous (docs/memory-graph.md, "Extractors").
 * No database.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { claimSentence } from '../../src/graph/maintain/claim-sentence.js'

// The rules alone (name-spans.ts, sentence-relations.ts); the learned layer is tested in test/unit/entity-model.test.ts.
const entities = (text: string) => cleanExtraction(extractBuiltin(text, null)).entities
const names = (text: string) =>
  entities(text)
    .map((e) => e.name)
    .sort()
const kindOf = (text: string, name: string) => entities(text).find((e) => e.name === name)?.kind
const claims = (text: string) => extractBuiltin(text, null).claims.map((c) => `${c.subject} | ${c.predicate} | ${c.object}`)

describe('built-in extractor on unseen prose', () => {
  it('takes no label or fragment for a name', () => {
    const text = [
      'Before you start, make a backup of the recovery partition.',
      'Requires a kernel built with Netfilter.',
      'Toggle the switch in the Options menu to change the options of Debian.',
      'Point the cursor at the icon.',
      'Recovery mode starts a root shell.',
    ].join(' ')
    const found = names(text)
    for (const fragment of ['Before', 'Requires', 'Options', 'Toggle', 'Point', 'Recovery'])
      assert.ok(!found.includes(fragment), `${fragment} in ${found.join(', ')}`)
    assert.ok(found.includes('Debian') && found.includes('Netfilter'), found.join(', '))
  })

  it('takes no code that reached the prose, no adverb and no gerund phrase for a name', () => {
    const text = 'Set UID=0 and CAP_SYS_MODULE[65 in Debian. Continuously, Debian updates itself. Creating group Debian-exim is done by Exim.'
    assert.deepEqual(names(text), ['Debian', 'Exim'])
  })

  it('keeps real one-word names beside common words', () => {
    const text = 'Lintian checks packages. The debhelper tools build them. Developers push their work to Salsa.'
    assert.deepEqual(names(text), ['Lintian', 'Salsa'])
  })

  it('does not make an acronym or a modifier a person, nor a guessed acronym an organisation', () => {
    const text = 'PAM handles authentication for Debian. Cyril character glyphs need a font. GRUB loads the kernel, which is released under the GPL.'
    assert.equal(kindOf(text, 'PAM'), 'concept')
    assert.equal(kindOf(text, 'Cyril'), 'concept')
    assert.equal(kindOf(text, 'GRUB'), 'concept')
    assert.equal(kindOf(text, 'GPL'), 'concept')
    assert.equal(kindOf('Ian Murdock founded Debian. The Free Software Foundation sponsored it.', 'Ian Murdock'), 'person')
    assert.equal(kindOf('Ian Murdock founded Debian. The Free Software Foundation sponsored it.', 'Free Software Foundation'), 'organisation')
  })

  it('keeps modality and polarity, and the verb the modal governs', () => {
    assert.deepEqual(claims('A Debian CD/DVD-R can prevent overwrite accidents.'), ['Debian CD/DVD R | can prevent | overwrite accidents'])
    assert.deepEqual(claims('Debian must not include non-free software.'), ['Debian | not must include | non free software'])
    assert.equal(claimSentence('Debian CD/DVD R', 'can prevent', 'overwrite accidents'), 'Debian CD/DVD R can prevent overwrite accidents.')
    assert.equal(claimSentence('Python', 'not can read', 'the file'), 'Python cannot read the file.')
    assert.equal(claimSentence('Debian', 'not must include', 'non-free software'), 'Debian must not include non-free software.')
  })

  it('keeps a state the text puts in the past', () => {
    const found = claims('KDE uses Qt. At the time, Qt was not free software.')
    assert.ok(found.includes('Qt | not was | free software'), found.join('; '))
    assert.equal(claimSentence('Qt', 'not was', 'free software'), 'Qt was not free software.')
    assert.equal(claimSentence('Debian', 'had', 'two leaders'), 'Debian had two leaders.')
    // Present states and relations to names keep the lemma.
    assert.deepEqual(claims('Debian is not an acronym.'), ['Debian | not be | acronym'])
  })

  it('takes a literal object whole, or not at all when it says nothing', () => {
    assert.deepEqual(claims('Netfilter provides the infrastructure for packet filtering in the Linux kernel.'), [
      'Netfilter | provide | infrastructure for packet filtering in the Linux kernel',
    ])
    assert.deepEqual(claims('Git does everything.'), [])
    assert.deepEqual(claims('The Debian LTS team handles the last two.'), [])
  })

  it('reads a passive whose participle compromise takes for an adjective', () => {
    assert.deepEqual(claims('Debian is released under the GPL.'), ['Debian | be released under | GPL'])
  })
})
