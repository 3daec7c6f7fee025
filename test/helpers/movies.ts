/**
 * The embedded movies pack's compile settings for tests that compile movies forms without opening the
 * pack: the compiler has no namespace of its own, so bare names such as `directed_by` resolve only
 * through a pack (store/movies/pack.json).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPackDir } from '../../src/core';
import { packCompileOptions, packNamespaces, type CompileOptions } from '../../src/compile';
import { parsePackConfig } from '../../src/execute';

const file = path.join(defaultPackDir(), 'pack.json');
const config = parsePackConfig(fs.readFileSync(file, 'utf8'), file);

/** The movies pack's namespaces only (relations, classes and bare entity ids); the compiler's other defaults stay. */
export const MOVIES_NAMESPACES: CompileOptions = packNamespaces(config);

/** Everything the movies pack sets (namespaces, label predicates, the every-hop topic rule). */
export const MOVIES_PACK_OPTIONS: CompileOptions = packCompileOptions(config);
