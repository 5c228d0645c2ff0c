// Videos' surface: the catalog of templates and their defaults, the script writer, a video's recipe and body checks, a new video and its price, how a video is presented.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { checkMusic, recipe, videoInput } from './body.js';
export { DEFAULTS, TEMPLATES, TEMPLATE_INFO, defaultPreset, wordCount } from './catalog.js';
export type { Template } from './catalog.js';
export { enter, newVideo, priceVideo } from './machine.js';
export { presentVideo } from './present.js';
export { VideoSchema } from './records.js';
export { write } from './writer.js';
export type { SlideSettings, Written } from './writer.js';
