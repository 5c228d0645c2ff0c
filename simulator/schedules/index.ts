// Video schedules' surface: the calendar arithmetic in a time zone.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { addDays, instantOf, localDay } from './calendar.js';
