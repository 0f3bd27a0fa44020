export { SessionStateKeeper, type SessionState } from './session-state.js';
export { connectionSessionKey, sessionKeyOf } from './session-key.js';
export { SESSION_STATE_DEFAULTS, type SessionStateLimits } from './limits.js';
export { MemorySessionStates } from './memory-states.js';
