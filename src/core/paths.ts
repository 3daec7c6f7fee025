import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository / package root (the folder holding package.json), whether run from src/ via tsx or from dist/. */
export function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'store'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('askgraph: cannot find the package root from ' + __dirname);
    dir = up;
  }
}

/** The embedded default knowledge pack (movies graph + parser). */
export function defaultPackDir(): string {
  return path.join(packageRoot(), 'store', 'movies');
}
