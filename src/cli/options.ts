import { AskgraphError } from '../core';

/**
 * commander `argParser` for an integer option: `.option('--beam <k>', '…', intArg('--beam'))`. A value that is
 * not an integer ≥ min throws BAD_REQUEST naming the option, which main prints as
 * `askgraph: BAD_REQUEST: --beam must be a positive integer, got "x"` (exit 2) before the command runs.
 */
export function intArg(name: string, min = 1): (value: string) => number {
  const what = min === 1 ? 'a positive integer' : min === 0 ? 'a non-negative integer' : `an integer ≥ ${min}`;
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new AskgraphError('BAD_REQUEST', `${name} must be ${what}, got "${value}"`);
    return n;
  };
}
