// Phone numbers' surface: numbers made and found, what a line costs a month, their configuration and workspace defaults, whether one is connected (its line, the account), an AI number's lines settled when money comes, and what an inbound call or text to one does.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { DefaultsPatch, VOICE_MODEL_TIERS, WorkspaceDefaultsSchema, stackSchema } from './config.js';
export { newConfig } from './config-defaults.js';
export { applyDefaultsPatch } from './config-patch.js';
export { VOICES } from './voices.js';
export { planInbound } from './inbound-call.js';
export { LINE_CENTS_PER_MONTH, notConnected, settleLines } from './lines.js';
export { receiveNumberText } from './number-text.js';
export { createNumber, freshNumber, numberTaken } from './numbers.js';
