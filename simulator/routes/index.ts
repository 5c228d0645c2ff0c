// Every resource the simulator serves. A new resource module is added here and nowhere else.
import type { Resource } from '../http.js';
import { control } from './control.js';
import { history } from './history.js';
import { aiNumbers } from './ai-numbers.js';
import { controlTraffic } from './control-traffic.js';
import { quickActions } from './quick-actions.js';
import { quickEmail } from './quick-email.js';
import { webhooks } from './webhooks.js';

export const resources: Resource[] = [quickEmail, quickActions, aiNumbers, history, control, controlTraffic, webhooks];
