/** Types of `build.mjs` for the TypeScript that imports it (the benchmark). */
export declare const root: string
export declare const dist: string
export declare const isStale: (bench?: boolean) => boolean
export declare const build: (bench?: boolean) => Promise<void>
export declare const ascii: (text: string) => string
