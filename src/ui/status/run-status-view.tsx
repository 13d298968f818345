/** Mount the live dashboard on the terminal and resolve when the operator leaves it. */
import { render } from 'ink'
import { StatusApp } from './status-app.js'
import type { StatusStats } from './status-stats.js'

export async function runStatusView(opts: { load: () => Promise<StatusStats>; intervalMs: number }): Promise<void> {
  const app = render(<StatusApp load={opts.load} intervalMs={opts.intervalMs} />, { exitOnCtrlC: false })
  await app.waitUntilExit()
}
