// Imports one package entry of aizk (argv[2]) by the package's own name and prints, as JSON, how
// long the import took and how much heap it left behind (after a GC).
const before = process.memoryUsage().heapUsed
const start = performance.now()
await import(process.argv[2])
const ms = performance.now() - start
globalThis.gc?.()
process.stdout.write(JSON.stringify({ ms, heapMB: (process.memoryUsage().heapUsed - before) / 1048576 }))
