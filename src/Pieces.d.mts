/** Types of `Pieces.mjs` for the TypeScript that imports it. */
export declare const ORDINARY_CHARS: number
export declare const pieces: (
  texts: Iterable<string>,
  separator: string,
  open?: string,
  close?: string
) => Generator<string, void, undefined>
