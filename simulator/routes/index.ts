// Every resource the simulator serves. A new resource module is added here and nowhere else.
import type { Resource } from '../http.js';
import { control } from './control.js';
import { history } from './history.js';
import { quickEmail } from './quick-email.js';

export const resources: Resource[] = [quickEmail, history, control];
