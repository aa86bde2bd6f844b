#!/usr/bin/env node
// The `gpusim` program (package.json "bin"): the CommonJS launcher the build made
// (dist/gpusim-launch.cjs, from src/cli/bin.ts), else the ES module CLI (dist/src/cli/main.js).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const launcher = join(__dirname, '..', 'dist', 'gpusim-launch.cjs');
if (existsSync(launcher)) require(launcher);
else import('../dist/src/cli/main.js').then((m) => m.runCli());
