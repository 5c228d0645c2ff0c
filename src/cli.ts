// Entry point of bin/vmv (bundled to dist/cli.js).
import { guardStreams, requestStop } from './io.js';
import { main } from './main.js';

// A reader that went away (vmv ... | head) is not an error: stop quietly, as other CLIs do. A
// long-running command (serve, listen) is asked to stop, so it cleans up first.
let pipeGone = false;
guardStreams((e) => {
  if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  if (pipeGone) return;
  pipeGone = true;
  if (!requestStop()) process.exit(process.exitCode ?? 0);
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
