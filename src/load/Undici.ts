/**
 * The parts of undici the program uses: its Agent and Pool, with the request API that undici's entry adds to
 * every dispatcher (`Object.assign(Dispatcher.prototype, api)` in its `index.js`, done here the same way).
 * undici's entry also loads and runs fetch, WebSocket, EventSource, its caches and its mocks: 1.08 MB of the
 * CLI's 3.45 MB bundle, run at every start. Loaded from node_modules by plain `require`, the entry took
 * 103-111 ms and these parts 41 ms (three runs each).
 */
import AgentClass from "undici/lib/dispatcher/agent.js"
import DispatcherClass from "undici/lib/dispatcher/dispatcher.js"
import PoolClass from "undici/lib/dispatcher/pool.js"
import api from "undici/lib/api/index.js"

Object.assign(DispatcherClass.prototype, api)

export const Agent = AgentClass
export type Agent = AgentClass
export const Pool = PoolClass
export type Pool = PoolClass
