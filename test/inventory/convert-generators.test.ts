/**
 * HTML from each documentation generator real documentation comes from, as Debian ships it
 * (test/fixtures/convert/: small excerpts, each naming its package, version and file; cut with
 * `scripts/fetch-corpus.sh --convert`): code, screens and synopses fenced, data tables as
 * Markdown tables, definition lists as lists, and the extractor's prose free of code. No network.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { htmlToMarkdown } from '../../src/convert/index.js'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { proseBlocks } from '../../src/graph/extract/prose-blocks.js'

const folder = new URL('../fixtures/convert/', import.meta.url)
const fixture = (name: string) => readFileSync(new URL(`${name}.html`, folder), 'utf8')

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#8230;': '…', '&#x00A0;': ' ' }
const decode = (s: string) => s.replace(/&(?:lt|gt|amp|quot|#39|#8230|#x00A0);/g, (e) => ENTITIES[e])

/** The lines of every <pre> in the HTML, as text. */
function preLines(html: string): string[] {
  return Array.from(html.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)).flatMap((m) =>
    decode(m[1].replace(/<[^>]+>/g, ''))
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length >= 6),
  )
}

/** The text inside the Markdown's fenced blocks (list-indented ones too). */
function fencedText(md: string): string {
  return Array.from(md.matchAll(/^( *)(`{3,})[^\n]*\n([\s\S]*?)\n\1\2$/gm), (m) => m[3]).join('\n')
}

interface Expected {
  fenced?: string[]
  tableRows?: RegExp[]
  listItems?: RegExp[]
  prose?: string[]
  notInProse?: string[]
  entities?: string[]
  notEntities?: string[]
}

const EXPECTED: Record<string, Expected> = {
  'docbook-reference-screen-table': {
    fenced: ['$ chmod u=rw,go=r foo', '-rw-r--r-- 1 penguin penguin 0 Oct 16 21:39 bar', '(file permissions) = (requested file permissions) & ~(umask value)'],
    tableRows: [
      /^\| umask \| file permissions created \| directory permissions created \| usage \|$/m,
      /^\| 0022 \| -rw-r--r-- \| -rwxr-xr-x \| writable only by the user \|$/m,
    ],
    prose: ['Enable UPG by putting "" in the file.', 'The Debian system uses a user private group (UPG) scheme as its default.'],
    notInProse: ['penguin', '~/.bashrc'],
  },
  'docbook-handbook-programlisting-screen': {
    fenced: ['Maintainer: Raphael Hertzog <hertzog@debian.org>', '$ equivs-build file', 'dpkg-buildpackage: info: source package libxml-libxml-perl'],
    prose: [
      'On the other hand, a meta-package exists mostly as a collection of dependencies, so that installing the meta-package will actually bring in a set of other packages in a single step.',
    ],
    notEntities: ['Raphael Hertzog', 'Maintainer', 'Fake'],
  },
  'docbook-handbook-keycap': {
    prose: ['It is possible to browse the list of installed packages and mark packages as automatic with + or to remove the mark with the key.'],
    notInProse: ['Shift', 'Enter'],
    notEntities: ['Shift', 'Enter', 'Shift+m'],
  },
  'docbook-install-keycap': {
    prose: ['You can access this terminal by pressing +; get back to the main installer process with +.'],
    notEntities: ['Left Alt', 'F4', 'Left Alt+F4'],
  },
  'docbook-install-variablelist': {
    listItems: [
      /^- debconf\/priority \(priority\)$/m,
      /^- DEBIAN\\_FRONTEND$/m,
      /^ {2}This parameter sets the lowest priority of messages to be displayed\.$/m,
    ],
    prose: ['This parameter sets the lowest priority of messages to be displayed.', 'The default installation uses.'],
    notInProse: ['priority=', 'DEBIAN_FRONTEND='],
  },
  'docbook-install-table': {
    tableRows: [/^\| Installation method \| initrd \| file \| network \|$/m, /^\| netboot \| yes \| no \| yes \|$/m],
    prose: ['The following table shows which preseeding methods can be used with which installation methods.'],
  },
  'docbook-maint-guide-screen': {
    fenced: ['$ mkdir -p hello-sh/hello-sh-1.0; cd hello-sh/hello-sh-1.0', '# (C) 2011 Foo Bar, GPL2+'],
    notEntities: ['Foo Bar', 'GPL2'],
  },
  'sphinx-devref-highlight': {
    fenced: ['if command -v install-docs > /dev/null; then'],
    prose: ['Using which is an acceptable alternative, since it is from the required debianutils package.'],
    notInProse: ['$PATH', '-v'],
  },
  'sphinx-devref-table': {
    tableRows: [/^\| {2}\| alpha \| arm \|$/m, /^\| unstable \| 1 \| 2 \|$/m],
    prose: ['Consider this example:'],
  },
  'sphinx-python-shlex': {
    fenced: [">>> print(join(['echo', '-n', 'Multiple words']))"],
    listItems: [/^- `shlex\.split\(s, comments=False, posix=True\)`$/m, /^- `shlex\.join\(split_command\)`$/m],
    prose: ['Concatenate the tokens of the list and return a string.'],
    notInProse: ['shlex.split(', '¶'],
  },
  'mandoc-man-ls': {
    fenced: ['ls [OPTION]... [FILE]...'],
    listItems: [/^- `-a, --all`$/m, /^ {2}do not ignore entries starting with \.$/m],
    prose: ['Mandatory arguments to long options are mandatory for short options too.'],
    notInProse: ['--all', '-cftuvSUX', '[OPTION]'],
  },
  'mandoc-man-mandoc-synopsis': {
    fenced: ['mandoc [-ac] [-I os=name] [-K encoding] [-mdoc | -man] [-O options] [-T output] [-W level] [file ...]'],
  },
  'mandoc-man-mandoc-examples': {
    fenced: ['$ mandoc -l mandoc.1 man.1 apropos.1 makewhatis.8', '$ mandoc -T html -O style=/usr/share/misc/mandoc.css mdoc.7 > mdoc.7.html'],
    prose: ['To page manuals to the terminal:'],
    notInProse: ['$ mandoc'],
  },
  'texinfo-bash-looping': {
    fenced: ['until test-commands; do consequent-commands; done'],
    listItems: [/^- `until`$/m, /^ {2}The syntax of the `until` command is:$/m],
    prose: ['Bash supports the following looping constructs.', 'The syntax of the until command is:'],
    notInProse: ['¶', 'consequent-commands;'],
  },
  'texinfo-bash-keys': {
    prose: ['The text is read as and describes the character produced when the key is pressed while the Control key is depressed.'],
    notInProse: ['C-k', 'M-k', 'Control-K', 'ALT'],
    notEntities: ['ALT', 'Control-K', 'Meta-K'],
  },
  'asciidoc-git-add-synopsis-options': {
    fenced: ['git add [--verbose | -v] [--dry-run | -n] [--force | -f] [--interactive | -i] [--patch | -p]'],
    listItems: [/^- `-n`, `--dry-run`$/m, /^- `<pathspec>…`$/m],
    prose: ['Don’t actually add the file(s), just show if they exist and/or will be ignored.'],
    notInProse: ['dir/file1', '--no-all'],
  },
  'asciidoc-git-add-examples': {
    fenced: ['$ git add Documentation/\\*.txt', '$ git add git-*.sh'],
    notInProse: ['$ git add'],
  },
  'asciidoc-git-admonition': {
    prose: ['Be wary of your MUAs word-wrap corrupting your patch.'],
  },
}

describe('conversion of real documentation HTML, per generator', () => {
  it('has an expectation for every fixture, and every fixture names its source', () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.html'))
    assert.deepEqual(files.map((f) => f.replace(/\.html$/, '')).sort(), Object.keys(EXPECTED).sort())
    for (const f of files) assert.match(readFileSync(new URL(f, folder), 'utf8'), /^<!-- \S+ .*(lines \d+-\d+).* -->\n/, f)
  })

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(name, () => {
      const html = fixture(name)
      const md = htmlToMarkdown(html)
      const fenced = fencedText(md)
      const prose = proseBlocks(md)
      const proseText = prose.join('\n')
      // Every line of every <pre> is in a fenced block, and never in the prose.
      for (const line of preLines(html)) {
        assert.ok(fenced.includes(line), `${name}: <pre> line not fenced: ${line}\n${md}`)
        assert.ok(!proseText.includes(line), `${name}: <pre> line read as prose: ${line}`)
      }
      for (const line of expected.fenced ?? []) assert.ok(fenced.includes(line), `${name}: not fenced: ${line}\n${md}`)
      for (const row of expected.tableRows ?? []) assert.match(md, row)
      for (const item of expected.listItems ?? []) assert.match(md, item)
      for (const sentence of expected.prose ?? []) assert.ok(proseText.includes(sentence), `${name}: prose lost: ${sentence}\n${prose.join('\n')}`)
      for (const code of expected.notInProse ?? []) assert.ok(!proseText.includes(code), `${name}: code read as prose: ${code}\n${proseText}`)
      const names = cleanExtraction(extractBuiltin(md)).entities.map((e) => e.name)
      for (const bad of expected.notEntities ?? []) assert.ok(!names.includes(bad), `${name}: entity from code: ${bad} (${names.join('; ')})`)
      for (const entity of names) assert.doesNotMatch(entity, /[=$_{}<>|\\]|^-|^(?:Ctrl|Alt|Shift|C|M)[-+]/, `${name}: entity looks like code`)
    })
  }
})
