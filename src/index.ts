// The library API: every stage through its index. The CLI and the server are thin layers over these.
export * from './core';
export * as form from './form';
