#!/usr/bin/env node
// The only place that decides the process's exit code.
import { execute } from '@oclif/core'

await execute({ dir: import.meta.url })
