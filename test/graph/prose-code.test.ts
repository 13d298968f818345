/**
 * Code never read as prose (issue 48): the examples that made entities and claims of shell
 * sessions, variables, key names and scripts on a Debian manual, through the HTML converter and
 * written straight into Markdown. No database.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { htmlToMarkdown } from '../../src/convert/index.js'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { proseBlocks } from '../../src/graph/extract/prose-blocks.js'
import { withoutCode } from '../../src/graph/extract/prose-code.js'

const names = (text: string) =>
  cleanExtraction(extractBuiltin(text))
    .entities.map((e) => e.name)
    .sort()
const claimObjects = (text: string) => extractBuiltin(text).claims.map((c) => `${c.subject} ${c.object}`)

describe('code kept out of prose', () => {
  it('fences DocBook\'s <pre class="screen"> without <code>, the issue\'s example', () => {
    const md = htmlToMarkdown('<p>Run:</p><pre class="screen">$ echo $IFS</pre>')
    assert.equal(md, 'Run:\n\n```\n$ echo $IFS\n```\n')
    assert.deepEqual(proseBlocks(md), ['Run:'])
  })

  it("never takes variables, assignments, locales or a date command's output as entities", () => {
    const html = [
      '<p>The shell splits words on <code class="literal">IFS=$IFS</code>; set <code class="envar">LANG=fr_FR.UTF-8</code> for French.</p>',
      '<pre class="screen">$ LANG=fr_FR.UTF-8 date\nSat 23 Aug 2003 08 30 36 CEST</pre>',
      '<pre class="programlisting">awk \'{ print $1 }\' &lt;&lt;EOF\nParis France 2100000\nBerlin Germany 3600000\nEOF</pre>',
      '<p>The Debian Project makes a free operating system.</p>',
    ].join('')
    // "French" (a language) may be read as a name or not; nothing from the code may be.
    const found = names(htmlToMarkdown(html))
    assert.ok(found.includes('Debian Project'), found.join(', '))
    assert.deepEqual(
      found.filter((n) => n !== 'Debian Project' && n !== 'French'),
      [],
    )
  })

  it('reads no claim out of a script written into a paragraph', () => {
    const markdown =
      'Bozo\'s script lists every account:\n\nfor uid in $(cut -d: -f3 /etc/passwd)\ndo\n  echo "ID $uid"\ndone < /etc/passwd\n\nThe Debian Project was founded by Ian Murdock.'
    assert.ok(
      claimObjects(markdown).every((c) => !/\$|passwd|done/.test(c)),
      claimObjects(markdown).join('\n'),
    )
    assert.deepEqual(proseBlocks(markdown), ["Bozo's script lists every account:", 'The Debian Project was founded by Ian Murdock.'])
  })

  it('ends a fenced block at its fence even when its last line is short (EOF, fi), not at a title underline', () => {
    assert.deepEqual(proseBlocks('```\ncat <<EOF\nhello\nEOF\n```\n\nDebian is an operating system.'), ['Debian is an operating system.'])
  })

  it('drops command lines, prompts and file listings inside a paragraph', () => {
    assert.equal(withoutCode('Type this:\n$ sudo apt update\nroot@host:~# apt upgrade\nand wait.'), 'Type this: and wait.')
    assert.equal(withoutCode('drwxr-xr-x 2 root root 4096 Jan 1 12:00 Desktop\n-rw-r--r-- 1 root root 0 Jan 1 12:00 notes.txt'), '')
    assert.equal(withoutCode('>>> import os\n>>> os.getcwd()'), '')
  })

  it('drops key names, option flags and paths from sentences, keeping their punctuation', () => {
    assert.equal(withoutCode('Press Ctrl-D or C-x C-c to leave, or Alt+F2.'), 'Press or to leave, or.')
    assert.equal(withoutCode('Use --verbose (or -v) to read /etc/passwd.'), 'Use (or to read.')
    assert.deepEqual(names('To leave the shell, press Ctrl-D. To quit, Richard Stallman typed C-x C-c.'), ['Richard Stallman'])
  })

  it('keeps a code span that is a plain word (a command, a module) and drops any other', () => {
    assert.deepEqual(proseBlocks('Install `apt` packages with `apt-get install -y` as `root`, then press `Ctrl-D`.'), [
      'Install apt packages with as root, then press.',
    ])
  })

  it('keeps prose that merely mentions things written like names: GNU /Linux, TCP/IP, C-style', () => {
    assert.equal(withoutCode('Debian GNU /Linux 11 speaks TCP/IP.'), 'Debian GNU /Linux 11 speaks TCP/IP.')
    assert.equal(withoutCode('It prints C-style escapes.'), 'It prints C-style escapes.')
  })
})
