/**
 * undici's Agent as a module of its own (see `Undici.ts`): the package's types describe only its whole entry.
 */
declare module "undici/lib/dispatcher/agent.js" {
  import { Agent } from "undici"
  export default Agent
}
