// The chat's terminal libraries, bundled on their own as an ES module (dist/ui-vendor.js): ink
// waits on a WebAssembly module at its top level, which the CommonJS copy of the bundle that
// bin/vmv runs cannot express. bin/loader.cjs imports this before it loads the chat's chunk and
// hands these to it as require('ink'), require('react') and require('react/jsx-runtime').
export * as ink from 'ink';
export * as jsxRuntime from 'react/jsx-runtime';
import * as react from 'react';

export { react };
