#!/usr/bin/env node
// Runs the CLI's bundle (dist/ledger-migrate.mjs, plain node: no TypeScript loader in the process),
// bundling it first when it is missing or older than the sources.
import { pathToFileURL } from "node:url"
import { build, dist, isStale } from "../scripts/build.mjs"

if (isStale()) await build()
await import(pathToFileURL(`${dist}/ledger-migrate.mjs`).href)
