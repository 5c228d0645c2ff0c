// Quick actions' surface: what quick calls, texts and email cost, the shared sender pool, and an inbound reply to a quick text's thread.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { PER_RECIPIENT_CENTS } from './email.js';
export { CALL_MINUTE_CENTS, CALL_START_CENTS, TEXT_MESSAGE_CENTS } from './jobs.js';
export { SharedPoolNumberSchema, fill, poolView } from './shared-pool.js';
export { receiveReply, threadFor } from './text-machine.js';
