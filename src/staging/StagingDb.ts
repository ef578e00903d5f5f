/**
 * The staging SQLite database of a workspace: one file (`<workspace>/staging.db`) holding staged source
 * rows, the plan and the load checkpoints. The layer opens it and brings the schema up to date.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Migrations from "./Migrations.js"

const migrate = Migrator.make({})({ loader: Migrations.loader, table: "staging_migrations" })

/**
 * The staging database's file, when it is one that a connection of another thread can open (not a database
 * in memory, as tests use, nor a URI): what the extract's and the plan's writer threads write to.
 */
export const sharedFile = Effect.map(Effect.serviceOption(SqliteClient.SqliteClient), (client) =>
  Option.filter(
    Option.map(client, (c) => c.config.filename),
    (f) => f !== "" && f !== ":memory:" && !f.startsWith("file:")
  )
)

/** The staging database file inside a workspace directory. */
export const pathIn = (workspace: string): string => NodePath.join(workspace, "staging.db")

/** Opens (creating if needed) the staging database at `filename` (`:memory:` for tests) and migrates it. */
export const layer = (filename: string) =>
  Layer.effectDiscard(migrate.pipe(Effect.orDie)).pipe(
    Layer.provideMerge(
      Layer.unwrapEffect(
        Effect.sync(() => {
          if (filename !== ":memory:") NodeFs.mkdirSync(NodePath.dirname(filename), { recursive: true })
          return SqliteClient.layer({ filename })
        })
      )
    ),
    Layer.orDie
  )
