/** Types of `StagingSql.mjs` for the TypeScript that imports it. */
export declare const NEXT_GEN: string
export declare const REGISTER: string
export declare const UNPUBLISHED: string
export declare const PART_SIZE: number
export declare const BATCH_SEPARATOR: string
export declare const packTexts: (texts: ReadonlyArray<string>) => Array<string>
export declare const unpackTexts: (pieces: ReadonlyArray<string>) => Array<string>
export declare const PART: string
export declare const PART_ROWS: string
export declare const INSERT_ROW: string
export declare const INSERT: {
  readonly src_shapes: string
  readonly skipped: string
  readonly rejects: string
}
export declare const PUBLISH: ReadonlyArray<string>
export declare const PUBLISH_FILE: string
export declare const FORGET: ReadonlyArray<string>
export declare const DISCARD: ReadonlyArray<string>
