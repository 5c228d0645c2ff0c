// Entry point of bin/vmv (bundled to dist/cli.js).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
