#!/usr/bin/env node
'use strict';
require('../dist/src/cli/main.js').main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) => { process.exitCode = code; });
