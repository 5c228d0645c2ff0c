// Entry point of bin/vmv (bundled to dist/cli.js).
import { main } from './main.js';

// a reader that went away (vmv ... | head) is not an error: stop quietly, as other CLIs do
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

process.exitCode = await main(process.argv.slice(2));
