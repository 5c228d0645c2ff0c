// The API's own words the CLI checks flags against before it sends anything (video templates and
// their settings, platforms, scopes, states, webhook event types): enumerations with no simulator
// code behind them, so the CLI (and vmv/testing) bundles them and a command against a service never
// loads the simulator for them. The second of the simulator's doors (index.ts is the first:
// everything that runs); a test and the dependency rules (.dependency-cruiser.cjs) keep it free of
// anything but constants.
export {
  AVATAR_LAYOUTS,
  BACKGROUND_MODES,
  DURATION,
  FORMATS,
  PLATFORM_NAMES,
  PLATFORMS,
  SUBTITLE_STYLES,
  TEMPLATE_INFO,
  TEMPLATES,
  TIKTOK_PRIVACY,
  VIDEO_MODELS,
  VIDEO_STATES,
  type Platform,
} from './videos/catalog.js';
export { SCOPES, type Scope } from './core/world.js';
export { EVENT_TYPES } from './webhooks/records.js';
