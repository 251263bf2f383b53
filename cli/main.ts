/** Process entry of `gatecheck` (bin/gatecheck.js and `npm start` both land here). */

import { main } from './app.ts';

process.exitCode = await main(process.argv.slice(2));
