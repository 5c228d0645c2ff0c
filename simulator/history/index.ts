// History and contacts' surface: the records of calls, texts, emails and contacts (their schemas and stored shapes), finding and presenting contacts and records, the record indexes, a call's recording.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { RECORDING_TYPE, recordingWav, voiceSampleWav } from './audio.js';
export { asView, firstAtLeast, liveCallCount, newRecordTime, recordIndex, recordsWithAddress } from './indexes.js';
export {
  addContact,
  changeContact,
  contactByEmail,
  contactById,
  contactByPhone,
  newContact,
  noteInbound,
  noteSuppressed,
  personNames,
  personRecords,
  presentCall,
  presentContact,
  presentEmail,
  presentText,
  sameEmail,
} from './people.js';
export {
  AuditEntrySchema,
  CALL_STATUSES,
  CALL_STATUS_FILTERS,
  CALL_TAGS,
  CallRecordSchema,
  ContactSchema,
  DeliveryAttemptSchema,
  EmailRecordSchema,
  SUPPRESSION_REASONS,
  SuppressionSchema,
  TextRecordSchema,
  transcriptText,
} from './records.js';
export type {
  CallOut,
  CallRecord,
  CallStatus,
  CallTag,
  Contact,
  EmailRecord,
  Suppression,
  TextOut,
  TextRecord,
  TranscriptTurn,
} from './records.js';
