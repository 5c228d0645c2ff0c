// The world the simulator keeps: one document of every capability's collections and values (what
// the store persists, what every unit of work reads and changes).
import type { Data } from '../model.js';

export type World = Data;
