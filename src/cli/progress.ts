/**
 * Progress for long work (prune, big requeues): a redrawn bar on a terminal, plain lines at
 * most every `intervalMs` elsewhere (no escape codes when stderr is not a TTY).
 */
export interface ProgressReporter {
  update(done: number, total?: number): void
  done(message?: string): void
}

export function renderBar(done: number, total: number, width = 30): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1
  const filled = Math.round(ratio * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}%`
}

export function createProgress(label: string, opts: { tty?: boolean; intervalMs?: number; write?: (s: string) => void } = {}): ProgressReporter {
  const tty = opts.tty ?? Boolean(process.stderr.isTTY)
  const write = opts.write ?? ((s: string) => process.stderr.write(s))
  const interval = opts.intervalMs ?? (tty ? 100 : 1000)
  const started = Date.now()
  let last = 0
  let lastLine = ''
  let drew = false
  const line = (done: number, total?: number) => {
    const secs = (Date.now() - started) / 1000
    const rate = secs > 0 ? Math.round(done / secs) : 0
    const count = total !== undefined ? `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}` : done.toLocaleString('en-US')
    return `${label} ${total !== undefined ? `${renderBar(done, total)} ` : ''}${count} (${rate.toLocaleString('en-US')}/s)`
  }
  return {
    update(done, total) {
      const now = Date.now()
      if (now - last < interval && !(total !== undefined && done >= total)) return
      last = now
      lastLine = line(done, total)
      if (tty) {
        write(`\r\x1b[2K${lastLine}`)
        drew = true
      } else {
        write(`${lastLine}\n`)
      }
    },
    done(message) {
      if (tty && drew) write('\r\x1b[2K')
      if (message) write(`${message}\n`)
    },
  }
}
