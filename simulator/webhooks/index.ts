// Webhooks' surface: the events a call or text sets off.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { emitCallEvent, emitTextReceived } from './events.js';
