#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader so the installed bin needs no build step.
import { register } from "tsx/esm/api"
import { fileURLToPath } from "node:url"
register()
await import(fileURLToPath(new URL("../src/cli/main.ts", import.meta.url)))
