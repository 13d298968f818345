/**
 * A job body's module, loaded on the job's first run and kept. Job code loads only when its job
 * runs (start-up stays quick), but `await import()` of a module already loaded still goes through
 * the module loader every time: about 11 µs of CPU built, 220 µs under a loader hook such as
 * tsx's, twice per chunk for the projection. A failed load is forgotten, so the retry loads again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined
      throw err
    })
    return loading
  }
}
