// Calls' surface: a call or text as it happens (opened, answered, closed, recorded into history), opt-outs, scripted calls, the simulated other party (personas and how they play), and the carrier's inventory of numbers.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { COUNTRIES, NUMBER_TYPES, TOLL_FREE, inventory } from './carrier.js';
export {
  answerCall,
  closeCall,
  ensureContact,
  findCall,
  isOptedOut,
  openCall,
  optOut,
  recordText,
} from './conversations.js';
export { OPT_OUT_TEXT, PROVIDER_TEXT_ERROR, agentReply, carrierCheck, classifyReply, textOpener } from './scenarios.js';
export { REVIEW_DELAY_SECONDS, runCall } from './scripted-call.js';
export { personaFor } from './persona.js';
export type { CallPersona, Persona, Resolved } from './persona.js';
export { attemptOf, oneOffCall, planConversation, review, substitute } from './persona-play.js';
export type { Conversation } from './persona-play.js';
export type { CallPlan } from './scripted-call.js';
export type { CarrierCheck } from './scenarios.js';
