/** One sleeper that another part can wake early: a picker between turns, the drain between checks. */
export class Wakeup {
  private waiter: (() => void) | undefined

  get sleeping(): boolean {
    return this.waiter !== undefined
  }

  /** Resolves after `ms`, or at the next `wake()`. An unref'd sleep does not keep the process alive. */
  sleep(ms: number, opts: { unref?: boolean } = {}): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined
        resolve()
      }, ms)
      if (opts.unref) timer.unref()
      this.waiter = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  wake(): void {
    const w = this.waiter
    this.waiter = undefined
    w?.()
  }
}
