import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kindHash } from './token-hash';
import { emptyStream, type TokenStream } from './types';

// web-tree-sitter (WASM) with grammars from tree-sitter-wasms: no native build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TS = require('web-tree-sitter') as typeof import('web-tree-sitter');
type Parser = import('web-tree-sitter').Parser;

/** Languages tokenised by a tree-sitter grammar (file name in tree-sitter-wasms/out). */
export const GRAMMARS: Record<string, string> = {
  javascript: 'javascript', typescript: 'typescript', tsx: 'tsx', python: 'python', go: 'go', java: 'java',
  c: 'c', cpp: 'cpp', rust: 'rust', solidity: 'solidity', ruby: 'ruby', php: 'php', c_sharp: 'c_sharp',
  kotlin: 'kotlin', swift: 'swift', scala: 'scala', lua: 'lua', bash: 'bash', zig: 'zig', dart: 'dart',
};

let initialised: Promise<void> | null = null;
const parsers = new Map<string, Promise<Parser | null>>();

function wasmDir(): string {
  return join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
}

async function parserFor(language: string): Promise<Parser | null> {
  const grammar = GRAMMARS[language];
  if (!grammar) return null;
  let p = parsers.get(language);
  if (!p) {
    p = (async () => {
      initialised ??= TS.Parser.init();
      await initialised;
      // Bytes, not a path: loading by path goes through a dynamic import some hosts (jest's VM) lack.
      // A grammar that fails to load is an error, never a silent fallback (output must not depend on the host).
      const lang = await TS.Language.load(readFileSync(join(wasmDir(), `tree-sitter-${grammar}.wasm`)));
      const parser = new TS.Parser();
      parser.setLanguage(lang);
      return parser;
    })();
    parsers.set(language, p);
  }
  return p;
}

const STRING_NODE = /(^|_)(string|char|character|rune|template_string|string_literal|raw_string_literal|char_literal|character_literal|rune_literal|interpreted_string_literal|heredoc_body)$/;
const STRING_PART = /^(string_(start|end|content|fragment)|escape_sequence)$/;
const IDENT_NODE = /identifier|^name$|^constant$|^field$|^word$|^label$/;
const NUMBER_NODE = /number|integer|float|int_literal|decimal|hex_literal|octal|binary_literal|imaginary/;
const COMMENT_NODE = /comment/;

/** Whether a language has a grammar and it loads (throws if it should load and does not). */
export async function grammarLoads(language: string): Promise<boolean> {
  return (await parserFor(language)) !== null;
}

// Per-language table from node type id to what the walker does with it, so
// the walk reads one integer per node instead of strings (WASM marshalling).
const CAT_OTHER = 0;
const CAT_COMMENT = 1;
const CAT_STRING = 2;
const CAT_IDENT = 3;
const CAT_NUMBER = 4;
const CAT_SKIP = 5;
interface TypeTable {
  cat: Uint8Array;
  hash: Uint32Array;
}
const tables = new WeakMap<object, TypeTable>();

function typeTable(parser: Parser): TypeTable {
  const lang = parser.language!;
  let t = tables.get(lang);
  if (t) return t;
  const n = lang.nodeTypeCount;
  t = { cat: new Uint8Array(n + 1), hash: new Uint32Array(n + 1) };
  for (let id = 0; id <= n; id++) {
    const type = lang.types[id] ?? '';
    const named = id < n ? lang.nodeTypeIsNamed(id) : false;
    let cat = CAT_OTHER;
    let kind = type;
    if (type.trim() === '' || type === ';' || (named && type === 'ERROR')) cat = CAT_SKIP;
    else if (named && COMMENT_NODE.test(type)) cat = CAT_COMMENT;
    else if (named && STRING_NODE.test(type) && !STRING_PART.test(type)) {
      cat = CAT_STRING;
      kind = 'S';
    } else if (named && IDENT_NODE.test(type)) {
      cat = CAT_IDENT;
      kind = 'I';
    } else if (named && NUMBER_NODE.test(type)) {
      cat = CAT_NUMBER;
      kind = 'N';
    }
    t.cat[id] = cat;
    t.hash[id] = kindHash(kind);
  }
  tables.set(lang, t);
  return t;
}

/** Tokenise with the language's grammar; null when the language has no grammar or parsing fails. */
export async function tokenizeTreeSitter(language: string, text: string): Promise<TokenStream | null> {
  const parser = await parserFor(language);
  if (!parser) return null;
  const tree = parser.parse(text);
  if (!tree) return null;
  const table = typeTable(parser);
  const out = emptyStream();
  // Line of an offset: leaves come in text order, so a forward-only cursor over line starts suffices.
  let line = 0;
  let nextNl = text.indexOf('\n');
  const lineAt = (idx: number): number => {
    while (nextNl !== -1 && nextNl < idx) {
      line++;
      nextNl = text.indexOf('\n', nextNl + 1);
    }
    return line;
  };
  const countLines = (a: number, b: number): number => {
    let n = 0;
    for (let i = text.indexOf('\n', a); i !== -1 && i < b; i = text.indexOf('\n', i + 1)) n++;
    return n;
  };
  const c = tree.walk();
  try {
    for (;;) {
      const id = c.nodeTypeId;
      const cat = table.cat[id] ?? CAT_OTHER;
      let leaf = true;
      if (cat === CAT_COMMENT) {
        const s = c.startIndex;
        out.comments.push({ text: text.slice(s, c.endIndex), line: lineAt(s) });
      } else if (cat === CAT_STRING) {
        const s = c.startIndex;
        const e = c.endIndex;
        const l = lineAt(s);
        out.kinds.push(table.hash[id]!);
        out.lines.push(l);
        out.endLines.push(l + countLines(s, e));
        out.strings.push({ text: stripQuotes(text.slice(s, e)), line: l });
      } else if (c.gotoFirstChild()) {
        leaf = false;
      } else if (cat !== CAT_SKIP && !c.nodeIsMissing) {
        const s = c.startIndex;
        const l = lineAt(s);
        if (cat === CAT_IDENT) out.identifiers.push({ text: text.slice(s, c.endIndex), line: l });
        out.kinds.push(table.hash[id]!);
        out.lines.push(l);
        out.endLines.push(l);
      }
      if (!leaf) continue; // descended into the first child
      let moved = c.gotoNextSibling();
      while (!moved) {
        if (!c.gotoParent()) return out;
        moved = c.gotoNextSibling();
      }
    }
  } finally {
    c.delete();
    tree.delete();
  }
}

function stripQuotes(s: string): string {
  const m = /^[a-zA-Z]*(["'`]+)([\s\S]*?)\1$/.exec(s);
  return m ? (m[2] ?? '') : s;
}
