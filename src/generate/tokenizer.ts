/**
 * SentencePiece in Node. @agnai/sentencepiece-js is Google's C++ sentencepiece compiled to WebAssembly
 * (it loads the same serialized ModelProto that Python's `sentencepiece` writes and runs the same
 * normaliser and Unigram/BPE encoder), so the ids are identical to Python's by construction; the test
 * test/unit/generate/tokenizer.test.ts checks it against golden.json written by the Python trainer.
 * A hand-written Viterbi encoder was therefore not needed.
 *
 * The WASM build exposes encode (ids, pieces), decode (ids) and PieceToId, but not IdToPiece; pieces of
 * a text are obtained by encoding it (encodePieces returns them aligned with encodeIds).
 */
import * as fs from 'node:fs';
import { AskgraphError } from '../core';

interface SppInstance {
  load(file: string): Promise<void>;
  encodeIds(text: string): number[];
  encodePieces(text: string): string[];
  decodeIds(ids: number[]): string;
  processor: { PieceToId(view: unknown): number };
  sentencepiece: { StringView: new (s: string) => { getView(): { delete(): void }; delete(): void } };
}

// The package ships no type declarations; the shape above is what dist/index.js defines.
 
const spjs = require('@agnai/sentencepiece-js') as { SentencePieceProcessor: new () => SppInstance };

export class SentencePieceTokenizer {
  private constructor(
    private readonly spp: SppInstance,
    readonly file: string,
  ) {}

  /** Loads a sentencepiece .model file (MODEL_UNAVAILABLE if it is missing or unreadable). */
  static async load(file: string): Promise<SentencePieceTokenizer> {
    if (!fs.existsSync(file)) throw new AskgraphError('MODEL_UNAVAILABLE', `tokenizer model not found: ${file}`);
    const spp = new spjs.SentencePieceProcessor();
    try {
      await spp.load(file);
    } catch (e) {
      throw new AskgraphError('MODEL_UNAVAILABLE', `cannot load tokenizer ${file}: ${(e as Error).message}`, { cause: e });
    }
    const tok = new SentencePieceTokenizer(spp, file);
    // A file that is not a sentencepiece model loads "successfully" in the WASM build but encodes nothing.
    if (tok.encode('a b').length === 0) throw new AskgraphError('MODEL_UNAVAILABLE', `not a sentencepiece model: ${file}`);
    return tok;
  }

  /** Sentencepiece ids of the text, identical to Python's `SentencePieceProcessor.encode(text)`. */
  encode(text: string): number[] {
    if (text.length === 0) return [];
    return Array.from(this.spp.encodeIds(text));
  }

  /** The pieces of the text, aligned with encode(text). */
  encodePieces(text: string): string[] {
    if (text.length === 0) return [];
    return Array.from(this.spp.encodePieces(text));
  }

  /** Text of the ids, identical to Python's `decode(ids)` (leading "▁" dropped, "▁" → space). */
  decode(ids: readonly number[]): string {
    if (ids.length === 0) return '';
    return this.spp.decodeIds(Array.from(ids));
  }

  /**
   * The piece strings of ids 0 … count-1 (Python's `id_to_piece`; the WASM build has no IdToPiece): an id's
   * decoded text, with the word-start mark "▁" in front when that is the piece (PieceToId tells).
   */
  pieceStrings(count: number): string[] {
    const out: string[] = [];
    for (let id = 0; id < count; id++) {
      const text = this.spp.decodeIds([id]);
      out.push(this.pieceToId('▁' + text) === id ? '▁' + text : text);
    }
    return out;
  }

  /** Id of a piece (the unk id for unknown pieces). */
  pieceToId(piece: string): number {
    const sv = new this.spp.sentencepiece.StringView(piece);
    const view = sv.getView();
    try {
      return this.spp.processor.PieceToId(view);
    } finally {
      view.delete();
      sv.delete();
    }
  }
}
