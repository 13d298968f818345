/**
 * A concurrency limit read from a setting when the worker asks, not when the module loads (a job
 * module is imported before settings are parsed). Declared as a getter on the class itself.
 */
import { loadSettings } from '../../settings.js'

export function limitFromSetting(job: object, key: string, fallback: number): void {
  Object.defineProperty(job, 'concurrencyLimit', {
    configurable: true,
    enumerable: true,
    get() {
      try {
        const value = loadSettings()[key]
        return typeof value === 'number' ? value : fallback
      } catch {
        return fallback
      }
    },
  })
}
