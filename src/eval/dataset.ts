/** Reads a data set in one of the formats `askgraph eval --format` accepts. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError } from '../core';
import type { ToFormOptions } from '../compile';
import { readExamples, readText } from './jsonl';
import { readMetaqaFile } from './importers/metaqa';
import { importQald } from './importers/qald';
import type { Example } from './types';

export type DatasetFormat = 'jsonl' | 'metaqa' | 'qald';

function guessFormat(file: string): DatasetFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'qald';
  if (ext === '.txt' || ext === '.tsv') return 'metaqa';
  return 'jsonl';
}

/**
 * `toForm`: how QALD's SPARQL becomes gold forms — the pack's namespaces (packCompileOptions), so
 * that its IRIs read as the bare names the parser writes; without them IRIs stay IRIs.
 */
export function loadDataset(file: string, format?: DatasetFormat, toForm: ToFormOptions = {}): Example[] {
  const f = format ?? guessFormat(file);
  if (!fs.existsSync(file)) throw new AskgraphError('NOT_FOUND', `no data set at ${file}`);
  switch (f) {
    case 'jsonl':
      return readExamples(file);
    case 'metaqa':
      return readMetaqaFile(file, fs.existsSync);
    case 'qald': {
      let data: unknown;
      try {
        data = JSON.parse(readText(file));
      } catch (e) {
        throw new AskgraphError('DATA_FORMAT', `${file}: ${(e as Error).message}`);
      }
      return importQald(data, toForm).examples;
    }
    default:
      throw new AskgraphError('BAD_REQUEST', `unknown data set format ${String(f)} (jsonl, metaqa, qald)`);
  }
}
