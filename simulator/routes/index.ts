// Every resource the simulator serves. A new resource module is added here and nowhere else.
import type { Resource } from '../http.js';
import { apiDescription } from './api-description.js';
import { control } from './control.js';
import { history } from './history.js';
import { aiNumbers } from './ai-numbers.js';
import { controlNumbers } from './control-numbers.js';
import { controlTraffic } from './control-traffic.js';
import { phoneNumbers } from './phone-numbers.js';
import { voiceCalls } from './voice-calls.js';
import { quickActions } from './quick-actions.js';
import { quickEmail } from './quick-email.js';
import { webhooks } from './webhooks.js';

export const resources: Resource[] = [
  quickEmail, quickActions, aiNumbers, phoneNumbers, voiceCalls, history, webhooks, apiDescription, control, controlTraffic, controlNumbers,
];
