export interface TestServerHandle {
  server: { url: string; port: number; started: boolean }
  release(): Promise<boolean>
}

export function acquireTestServer(opts: {
  dataDir: string
  port?: number
  log?: (line: string) => void
  env: NodeJS.ProcessEnv
  embedded: {
    ensureEmbeddedServer(opts: {
      dataDir: string
      port?: number
      log?: (line: string) => void
      env: NodeJS.ProcessEnv
    }): Promise<{ url: string; port: number; started: boolean }>
    stopEmbeddedServer(dataDir: string, env: NodeJS.ProcessEnv): Promise<boolean>
  }
  lock: { withStartLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> }
  pid?: number
}): Promise<TestServerHandle>
export function liveRuns(runs: string): number[]
