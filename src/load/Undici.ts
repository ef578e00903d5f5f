/**
 * The part of undici the program uses: its Agent, whose `dispatch` TargetApi sends every request through
 * (with a handler of its own). undici's entry also loads and runs fetch, WebSocket, EventSource, its caches,
 * its mocks and the request API it adds to every dispatcher: 1.08 MB of the CLI's 3.45 MB bundle, run at
 * every start. Loaded from node_modules by plain `require`, the entry took 103-111 ms and the Agent, Pool
 * and request API 41 ms (three runs each).
 */
import AgentClass from "undici/lib/dispatcher/agent.js"

export const Agent = AgentClass
export type Agent = AgentClass
