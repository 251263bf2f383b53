'use strict';
// `gatecheck/playwright` for a CommonJS playwright.config.ts (npm's default project type: Playwright compiles
// the config to CommonJS, so its `import` becomes `require`). The package is ES modules, which `require()`
// loads from Node 20.19 on: before that, one line saying so instead of ERR_REQUIRE_ESM (issue #40).
// Plain JavaScript, copied into dist/ as it is (scripts/build-package.ts).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  const message =
    `gatecheck/playwright needs Node 20.19 or later (package.json "engines"), where require() loads ES modules; ` +
    `this is Node ${process.versions.node}. Upgrade Node, or name the config playwright.config.mts (an ES module).`;
  const error = new Error(message);
  error.stack = message;
  throw error;
}
module.exports = require('./index.js');
