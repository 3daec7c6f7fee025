#!/usr/bin/env node
'use strict';
// A reader that stops early (`askgraph ask … | head -1`) closes the pipe: leave quietly, no EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
require('../dist/src/cli/main.js')
  .main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env })
  .then((code) => {
    process.exitCode = code;
    // The command is done: a handle left open by a failed start-up (a worker, a socket) must not keep
    // the process alive. Normal exits drain first; this only fires if something would hang.
    setTimeout(() => process.exit(code), 1000).unref();
  });
