/** Process entry of `gatecheck` (bin/gatecheck.js and `npm start` both land here). */

import { dropOutputToClosedPipes } from '../shared/closed-pipe.ts';
import { main } from './app.ts';

dropOutputToClosedPipes();

process.exitCode = await main(process.argv.slice(2));
