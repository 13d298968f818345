/**
 * Code written into running text, taken out before the extractor reads a block as sentences:
 * command lines ("$ ls", "# apt update", "user@host:~$ ..."), `ls -l` listings and bare paths
 * on lines of their own, and words that are code (option flags, key names such as Ctrl-D and
 * C-x, variables and assignments, paths, identifiers with underscores, calls). A block that is
 * mostly code is dropped whole. docs/memory-graph.md, "Conversion".
 */

/** A line that is typed at a prompt, or shown as a shell or Python session prints it. */
const COMMAND_LINE = /^\s*(?:[$%#]\s|[\w.-]+@[\w.-]+(?::\S*)?\s?[$#%]\s|>>>\s|\.\.\.\s)/
/** A line of `ls -l`, or a bare path. */
const LISTING_LINE = /^\s*(?:[-dlcbps][rwxsStT-]{9}[.+@]?\s|total\s+\d+\s*$|(?:~|\.{1,2})?\/\S*\s*$)/

const CODE_WORDS: RegExp[] = [
  /^--?[A-Za-z0-9][\w-]*(?:=\S*)?$/, // option flags: -a, --all, --block-size=M
  /^(?:(?:Ctrl|Control|Alt|AltGr|Meta|Shift|Super|Cmd|Command|Win)[-+])+\S+$/, // key names: Ctrl-D, Alt+F2, Ctrl+Alt+Del
  /^(?:[CMSsH]-)+(?:[A-Za-z0-9@[\]\\^_?]|SPC|RET|TAB|DEL|ESC|LFD|F\d{1,2})$/, // Emacs's: C-x, M-C-k (not "C-style")
  /^\w*\$|\$\{?\w/, // variables: $IFS, ${HOME}
  /^[\w.-]+=/, // assignments: IFS=$IFS, LANG=fr_FR.UTF-8
  /^(?:~|\.{1,2})?\/(?:[\w.~+-]*\/|[a-z0-9._~+-]+$)/, // paths: /etc/passwd, ~/.bashrc, ./configure, /usr (not "GNU /Linux")
  /[A-Za-z0-9]_[A-Za-z0-9]/, // identifiers: fr_FR, pam_env.so
  /^[\w.]+\([^)]*\)$/, // calls: foo(), os.path.join(a)
  /[{}<>|\\;`]/, // shell and program syntax
]

const OPENING = /^[("'‘“[]+/
const CLOSING = /[)"'’”\].,;:!?…]+$/

function isCodeWord(word: string): boolean {
  const core = word.replace(OPENING, '').replace(CLOSING, '')
  return core !== '' && CODE_WORDS.some((re) => re.test(core))
}

/** The word's punctuation that belongs to the sentence (a closing period, a comma), without the code. */
function punctuationOf(word: string): string {
  return (word.match(/[.,;:!?…]+$/)?.[0] ?? '').slice(-1)
}

/** A shell keyword that opens or closes a line of a script. */
const SHELL_KEYWORD = /^\s*(?:for|do|done|if|then|else|elif|fi|case|esac|while|until)\b/

function codeWordsIn(words: string[]): number {
  return words.filter(isCodeWord).length
}

/** A line that is code: a command line, a listing, a script's line, or a line half of code words or more. */
function isCodeLine(line: string): boolean {
  if (COMMAND_LINE.test(line) || LISTING_LINE.test(line)) return true
  const words = line.split(/\s+/).filter(Boolean)
  const code = codeWordsIn(words)
  if (SHELL_KEYWORD.test(line) && (code > 0 || words.every((w) => SHELL_KEYWORD.test(w)))) return true
  return words.length >= 3 && code * 2 >= words.length
}

/**
 * The block's text without its code, or '' when code was most of it. Code lines go; code words
 * go, keeping the sentence's punctuation they carried.
 */
export function withoutCode(text: string): string {
  const lines = text.split('\n')
  const kept = lines.filter((line) => !isCodeLine(line))
  if (kept.length * 2 < lines.length) return ''
  const words = kept.join(' ').split(/\s+/).filter(Boolean)
  const code = codeWordsIn(words)
  if (code * 2 > words.length) return ''
  const out: string[] = []
  for (const word of words) {
    if (!isCodeWord(word)) {
      out.push(word)
      continue
    }
    const punctuation = punctuationOf(word)
    if (punctuation && out.length > 0) out[out.length - 1] += punctuation
  }
  return out.join(' ')
}

/** An inline code span's text as prose keeps it: a plain lower-case word of two letters or more (a command, a module; not a key) reads as a noun; anything else is code. */
export function codeSpanWord(text: string): string {
  return /^[a-z][a-z0-9.+-]+$/.test(text) && !isCodeWord(text) ? text : ''
}
