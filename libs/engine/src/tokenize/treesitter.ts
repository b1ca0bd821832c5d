import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fixGrammar } from './grammar-fixes';
import { kindHash } from './token-hash';
import { emptyStream, type TokenStream } from './types';

// web-tree-sitter (WASM) with grammars from tree-sitter-wasms; JavaScript, TypeScript, C, Java and Python through
// the native addon built from the same sources when it is there (nativeParser below).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TS = require('web-tree-sitter') as typeof import('web-tree-sitter');
type Parser = import('web-tree-sitter').Parser;

/** Languages tokenised by a tree-sitter grammar (file name in tree-sitter-wasms/out). */
export const GRAMMARS: Record<string, string> = {
  javascript: 'javascript',
  typescript: 'typescript',
  tsx: 'tsx',
  python: 'python',
  go: 'go',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  rust: 'rust',
  solidity: 'solidity',
  ruby: 'ruby',
  php: 'php',
  c_sharp: 'c_sharp',
  kotlin: 'kotlin',
  swift: 'swift',
  scala: 'scala',
  lua: 'lua',
  bash: 'bash',
  zig: 'zig',
  dart: 'dart',
};

let initialised: Promise<void> | null = null;
/** under baselineWasmOnly; the parser runtime optimised nonetheless; the cross-thread lock of module loads (optimiseParser) */
let baseline = false;
let optimisedRuntime = false;
let loadLock: Int32Array | null = null;
const parsers = new Map<string, Promise<Parser | null>>();

/**
 * The emscripten module behind web-tree-sitter. `Parser.init` builds the
 * module on the object it is given, so passing our own object exposes the
 * raw cursor exports. Walking through them skips the library's per-call
 * copying of the cursor into and out of its transfer buffer (about half of
 * the walk, a quarter of tokenising once parsing is counted). The exports come from web-tree-sitter's own C
 * binding (lib/tree-sitter.c); when any is absent (another version, or the
 * library was initialised elsewhere first) the public TreeCursor API is used.
 * Both produce the same stream (tested).
 */
interface RawModule {
  _ts_init(): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  getValue(ptr: number, type: 'i32'): number;
  setValue(ptr: number, value: number, type: 'i32'): void;
}
const RAW_EXPORTS = [
  '_ts_init',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  'getValue',
  'setValue',
] as const;
const moduleHandle: Record<string, unknown> = {};
let raw: { m: RawModule; transfer: number } | null = null;
/** Tests compare the raw walk against the public API walk. */
export const walkMode = { raw: true };
export const rawWalkAvailable = (): boolean => raw !== null;

/** Thrown by the C library shims below when a grammar's scanner aborts (a failed assertion). */
export class GrammarAbort extends Error {}

/**
 * C library functions that some grammars of tree-sitter-wasms import and that
 * web-tree-sitter's runtime does not export (the grammars were built against an
 * older runtime): bash's scanner calls `isalpha` (on `case x in` followed by
 * CRLF, for one), python, cpp, ruby, php and bash import `__assert_fail`, kotlin
 * `abort`. Left unresolved, such a call throws from inside the WASM parse. A test
 * checks that every grammar's imports are met by the runtime or by these.
 */
export const LIBC_SHIMS: Record<string, (...args: number[]) => number> = {
  // The C locale: ASCII letters only.
  isalpha: (c) => (((c | 0x20) - 0x61) >>> 0 < 26 ? 1 : 0),
  __assert_fail: () => {
    throw new GrammarAbort('an assertion failed in a grammar scanner');
  },
  abort: () => {
    throw new GrammarAbort('a grammar scanner aborted');
  },
};

type LoadWasm = (binary: Uint8Array, flags: object, libName?: string, localScope?: object, handle?: number) => unknown;

/**
 * A JS exception thrown through WASM frames skips their epilogues, so the
 * runtime's shadow stack pointer is left lower after every aborted parse; some
 * 50-100 aborts later the stack overflows into the heap. This side module does
 * nothing but read and write that pointer (`env.__stack_pointer`, the global
 * every side module imports), so a parse that throws can put it back. Built
 * here, byte by byte, because it is 103 bytes and needs no toolchain.
 */
function stackPointerModule(): Uint8Array {
  const str = (s: string): number[] => [s.length, ...Buffer.from(s, 'latin1')];
  const section = (id: number, body: number[]): number[] => [id, body.length, ...body]; // every size here is < 128
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    // dylink.0 (must come first): memory info, no memory or table of its own
    ...section(0, [...str('dylink.0'), 0x01, 0x04, 0x00, 0x00, 0x00, 0x00]),
    ...section(1, [0x02, 0x60, 0x00, 0x01, 0x7f, 0x60, 0x01, 0x7f, 0x00]), // types: () -> i32, (i32) -> ()
    ...section(2, [0x01, ...str('env'), ...str('__stack_pointer'), 0x03, 0x7f, 0x01]), // import: mutable i32 global
    ...section(3, [0x02, 0x00, 0x01]), // two functions
    ...section(7, [0x02, ...str('sp_get'), 0x00, 0x00, ...str('sp_set'), 0x00, 0x01]),
    ...section(10, [0x02, 0x04, 0x00, 0x23, 0x00, 0x0b, 0x06, 0x00, 0x20, 0x00, 0x24, 0x00, 0x0b]), // global.get 0 | local.get 0; global.set 0
  ]);
}

let stack: { get(): number; set(sp: number): void } | null = null;

function init(): Promise<void> {
  initialised ??= compiledAs(optimisedRuntime, () => TS.Parser.init(moduleHandle)).then(() => {
    const load = moduleHandle.loadWebAssemblyModule as LoadWasm | undefined;
    if (typeof load === 'function') {
      // Language.load goes through this function of the module object: grammars resolve missing imports in the
      // shims (looked up at each call, so a test can make one abort).
      const shims = Object.fromEntries(Object.keys(LIBC_SHIMS).map((k) => [k, (...a: number[]) => LIBC_SHIMS[k]!(...a)]));
      moduleHandle.loadWebAssemblyModule = ((binary, flags, libName, localScope, handle) =>
        load(binary, flags, libName, { ...shims, ...localScope }, handle)) as LoadWasm;
      try {
        const sp = load(stackPointerModule(), { loadAsync: false }) as { sp_get?: () => number; sp_set?: (v: number) => void };
        if (typeof sp.sp_get === 'function' && typeof sp.sp_set === 'function') stack = { get: sp.sp_get, set: sp.sp_set };
      } catch {
        stack = null; // another runtime: parsing works, only a run of aborted parses is unguarded (a test notices)
      }
    }
    if (RAW_EXPORTS.every((k) => typeof moduleHandle[k] === 'function')) {
      const m = moduleHandle as unknown as RawModule;
      raw = { m, transfer: m._ts_init() };
    }
  });
  return initialised;
}

/**
 * For a one-shot process (the CLI): run WebAssembly on V8's baseline compiler
 * only, never re-compiling hot functions with the optimising one (but see
 * optimiseParser). A grammar's
 * lexer is one huge function that the optimiser takes 0.3-3.6 s of CPU to
 * compile, on a background thread that competes with the fingerprint workers
 * (JavaScript's lexer loaded after bash's: 1.3 s; Scala's: 3.6 s), and a
 * single analysis does not win that back. Measured with the CLI on 2 cores:
 * axios x redaxios 0.86-0.93 -> 0.55-0.58 s and 152-167 -> 103-104 MB,
 * UglifyJS x terser 3.65-3.81 -> 3.52-3.58 s and 301-329 -> 257-265 MB,
 * redis x valkey the same within the noise. A long-lived service keeps the
 * default: it pays each compile once, and optimised parsing is then about a
 * quarter faster (5 MB of C: 1.02 s against 1.35 s). The flag is
 * process-wide, so worker threads started afterwards follow it; once the
 * runtime has been initialised it is too late, and nothing is changed.
 * The tokens do not depend on the compiler.
 */
export function baselineWasmOnly(): void {
  if (initialised) return;
  setFlagsFromString('--liftoff-only');
  baseline = true;
}

/** Whether this process runs WebAssembly on the baseline compiler (baselineWasmOnly). */
export const isBaselineWasmOnly = (): boolean => baseline;

/**
 * Under baselineWasmOnly, megabytes of code to parse do win back the compile of
 * the parser runtime (tree-sitter itself, three quarters of parsing), though
 * not of the grammars' lexers. V8 compiles each module with the compiler
 * settings of the moment it is loaded and keeps them, so this thread loads the
 * runtime with the optimising compiler allowed and every grammar without it.
 * 12.6 MB of C on 2 worker threads (6 alternating runs, median CPU): 4.5 s
 * baseline only, 3.9 s with the runtime and C's grammar optimised, 3.7 s with
 * the runtime alone; JavaScript on one thread: 0.1 MB +70 ms, 1 MB about even,
 * 2.9 MB 1.29 -> 1.05 s wall. Call it before this thread's first parse, with
 * one `lock` (a SharedArrayBuffer of 4 bytes) for every thread of the process:
 * the compiler flag is process-wide, so module loads take turns.
 */
export function optimiseParser(lock?: SharedArrayBuffer): void {
  baseline = true;
  optimisedRuntime = true;
  loadLock = lock ? new Int32Array(lock) : null;
}

/** Runs a module load with the optimising compiler allowed or not; outside baselineWasmOnly, as V8 defaults. */
async function compiledAs<T>(optimise: boolean, load: () => Promise<T>): Promise<T> {
  if (!baseline) return load();
  const held = acquire();
  try {
    // --liftoff-only turned tier-up off when it was set; clearing it does not turn tier-up back on.
    if (optimise) for (const f of ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering']) setFlagsFromString(f);
    return await load();
  } finally {
    if (optimise) setFlagsFromString('--liftoff-only');
    if (held) release();
  }
}

// A thread holds the lock for one module load (milliseconds); a holder that died is given up on after 10 s
// (the next loads then only risk the other compiler: the same tokens, another speed).
const LOCK_GIVE_UP_MS = 10_000;

function acquire(): boolean {
  if (!loadLock) return false;
  const until = Date.now() + LOCK_GIVE_UP_MS;
  while (Atomics.compareExchange(loadLock, 0, 0, 1) !== 0) {
    if (Date.now() > until) return false;
    Atomics.wait(loadLock, 0, 1, 50);
  }
  return true;
}

function release(): void {
  Atomics.store(loadLock!, 0, 0);
  Atomics.notify(loadLock!, 0, 1);
}

function wasmDir(): string {
  return join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
}

/**
 * Grammar loads run one at a time. web-tree-sitter's dynamic linker keeps
 * process-wide state across the await inside `Language.load`: while a grammar
 * is instantiated its own symbols sit in the global offset table with value 0,
 * and the end of any other load checks every entry and throws "bad export type
 * for '<the first grammar's symbol>'" (the weak-symbol set is global too). Two
 * loads in flight at once failed in most runs.
 */
let loadChain: Promise<unknown> = Promise.resolve();

function serialised<T>(load: () => Promise<T>): Promise<T> {
  const run = loadChain.then(load);
  loadChain = run.catch(() => undefined); // a failed load is its own language's error, not the next one's
  return run;
}

async function parserFor(language: string): Promise<Parser | null> {
  const grammar = GRAMMARS[language];
  if (!grammar) return null;
  let p = parsers.get(language);
  if (!p) {
    p = serialised(async () => {
      await init();
      // Bytes, not a path: loading by path goes through a dynamic import some hosts (jest's VM) lack.
      // A grammar that fails to load is an error, never a silent fallback (output must not depend on the host).
      const bytes = fixGrammar(grammar, readFileSync(join(wasmDir(), `tree-sitter-${grammar}.wasm`)));
      const lang = await compiledAs(false, () => TS.Language.load(bytes));
      const parser = new TS.Parser();
      parser.setLanguage(lang);
      return parser;
    });
    parsers.set(language, p); // a rejected load stays cached: that language keeps failing, loudly
  }
  return p;
}

const STRING_NODE =
  /(^|_)(string|char|character|rune|template_string|string_literal|raw_string_literal|char_literal|character_literal|rune_literal|interpreted_string_literal|heredoc_body)$/;
const STRING_PART = /^(string_(start|end|content|fragment)|escape_sequence)$/;
const IDENT_NODE = /identifier|^name$|^constant$|^field$|^word$|^label$/;
const NUMBER_NODE = /number|integer|float|int_literal|decimal|hex_literal|octal|binary_literal|imaginary/;
const COMMENT_NODE = /comment/;

/**
 * The native parser (libs/engine/native): tree-sitter's runtime at web-tree-sitter's version and the grammar
 * sources tree-sitter-wasms built its JavaScript, TypeScript, TSX, C, Java and Python files from, compiled into a Node addon that
 * also runs the walk of tokenizeTreeSitter below. The same trees and the same walk give the same token stream (a
 * test compares them over real code), and faster: axios × redaxios with the CLI 1.17 → 0.89 s. Built by
 * `make build`; where it is not built or does not load, those languages go through WASM as the others do, with the
 * same results. LINEAGE_PARSER=wasm turns it off (benchmarks compare the two).
 */
interface NativeParser {
  tokenize(language: number, text: string, categories: Uint8Array): Int32Array | null;
  types(language: number): [string, boolean][];
}
const NATIVE_LANGUAGES: Record<string, number> = { javascript: 0, typescript: 1, tsx: 2, c: 3, java: 4, python: 5 };
/** Tests turn it off and on to compare the two parsers. */
export const parserChoice = { native: process.env.LINEAGE_PARSER !== 'wasm' };
let nativeLoaded: NativeParser | null | undefined;

function nativeParser(): NativeParser | null {
  if (nativeLoaded === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const addon = require(join(__dirname, '..', '..', 'native', 'build', 'Release', 'lineage_parse.node')) as NativeParser;
      // An addon built before the last of these languages throws for it: then none goes through it (same output).
      addon.types(Math.max(...Object.values(NATIVE_LANGUAGES)));
      nativeLoaded = addon;
    } catch {
      nativeLoaded = null;
    }
  }
  return nativeLoaded;
}

/** Whether the native parser is built and loads in this process. */
export const nativeParserAvailable = (): boolean => nativeParser() !== null;

/** Whether the native parser's languages go through it in this process (built, loads, not turned off). */
export const nativeParserInUse = (): boolean => parserChoice.native && nativeParserAvailable();

const nativeTables = new Map<string, TypeTable>();

function nativeTypeTable(parser: NativeParser, language: string): TypeTable {
  let t = nativeTables.get(language);
  if (!t) {
    const types = parser.types(NATIVE_LANGUAGES[language]!);
    t = buildTypeTable(
      types.length,
      (id) => types[id]![0],
      (id) => types[id]![1],
    );
    nativeTables.set(language, t);
  }
  return t;
}

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
  const types = lang.types; // a getter that copies; read once
  t = buildTypeTable(
    lang.nodeTypeCount,
    (id) => types[id] ?? '',
    (id) => lang.nodeTypeIsNamed(id),
  );
  tables.set(lang, t);
  return t;
}

/** The table of a language with `n` node types, from each type's name and whether it is named. */
function buildTypeTable(n: number, typeName: (id: number) => string, isNamed: (id: number) => boolean): TypeTable {
  const t = { cat: new Uint8Array(n + 1), hash: new Uint32Array(n + 1) };
  for (let id = 0; id <= n; id++) {
    const type = id < n ? typeName(id) : '';
    const named = id < n ? isNamed(id) : false;
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
  return t;
}

/** Whether the shadow stack pointer can be restored after a parse that throws (tests). */
export const stackRestoreAvailable = (): boolean => stack !== null;

/**
 * Tokenise with the language's grammar (`kindsOnly`: the token kinds and lines alone, without the texts of
 * identifiers, strings and comments, for fingerprints and nothing else); null when the language has no grammar,
 * parsing fails, or the grammar's scanner aborts on this text. The last depends
 * on the grammar and the text alone, so the generic lexer that the caller then
 * uses is the same choice on every run and machine.
 */
export async function tokenizeTreeSitter(language: string, text: string, kindsOnly = false): Promise<TokenStream | null> {
  const native = parserChoice.native && NATIVE_LANGUAGES[language] !== undefined ? nativeParser() : null;
  if (native) return nativeStream(native, language, text, kindsOnly);
  const parser = await parserFor(language);
  if (!parser) return null;
  const sp = stack?.get();
  let tree;
  try {
    tree = parser.parse(text);
  } catch (err) {
    if (stack && sp !== undefined) stack.set(sp);
    parser.reset(); // else the next parse resumes this one
    if (err instanceof GrammarAbort) return null;
    throw err;
  }
  if (!tree) return null;
  const table = typeTable(parser);
  const out = emptyStream();
  const { lineAt, countLines } = lineCounter(text);
  const c = tree.walk();
  const ops = raw && walkMode.raw ? rawOps(raw, c, (tree as unknown as { 0: number })[0]) : publicOps(c);
  try {
    for (;;) {
      const id = ops.typeId();
      const cat = table.cat[id] ?? CAT_OTHER;
      let leaf = true;
      if (cat === CAT_COMMENT) {
        if (!kindsOnly) {
          const s = ops.start();
          out.comments.push({ text: text.slice(s, ops.end()), line: lineAt(s) });
        }
      } else if (cat === CAT_STRING) {
        const s = ops.start();
        const e = ops.end();
        const l = lineAt(s);
        out.kinds.push(table.hash[id]!);
        out.lines.push(l);
        out.endLines.push(l + countLines(s, e));
        if (!kindsOnly) out.strings.push({ text: stripQuotes(text.slice(s, e)), line: l });
      } else if (ops.firstChild()) {
        leaf = false;
      } else if (cat !== CAT_SKIP && !ops.missing()) {
        const s = ops.start();
        const l = lineAt(s);
        if (cat === CAT_IDENT && !kindsOnly) out.identifiers.push({ text: text.slice(s, ops.end()), line: l });
        out.kinds.push(table.hash[id]!);
        out.lines.push(l);
        out.endLines.push(l);
      }
      if (!leaf) continue; // descended into the first child
      let moved = ops.nextSibling();
      while (!moved) {
        if (!ops.parent()) return out;
        moved = ops.nextSibling();
      }
    }
  } finally {
    ops.release();
    c.delete();
    tree.delete();
  }
}

/** Line of an offset: nodes come in text order, so a forward-only cursor over line starts suffices. */
function lineCounter(text: string): { lineAt(idx: number): number; countLines(a: number, b: number): number } {
  let line = 0;
  let nextNl = text.indexOf('\n');
  return {
    lineAt: (idx) => {
      while (nextNl !== -1 && nextNl < idx) {
        line++;
        nextNl = text.indexOf('\n', nextNl + 1);
      }
      return line;
    },
    countLines: (a, b) => {
      let n = 0;
      for (let i = text.indexOf('\n', a); i !== -1 && i < b; i = text.indexOf('\n', i + 1)) n++;
      return n;
    },
  };
}

/** tokenizeTreeSitter's stream from the nodes the native walk kept (category, type id, start, end each). */
function nativeStream(parser: NativeParser, language: string, text: string, kindsOnly: boolean): TokenStream | null {
  const table = nativeTypeTable(parser, language);
  const nodes = parser.tokenize(NATIVE_LANGUAGES[language]!, text, table.cat);
  if (!nodes) return null;
  const out = emptyStream();
  const { lineAt, countLines } = lineCounter(text);
  for (let i = 0; i < nodes.length; i += 4) {
    const cat = nodes[i]!;
    const id = nodes[i + 1]!;
    const s = nodes[i + 2]!;
    const e = nodes[i + 3]!;
    if (cat === CAT_COMMENT) {
      if (!kindsOnly) out.comments.push({ text: text.slice(s, e), line: lineAt(s) });
      continue;
    }
    const l = lineAt(s);
    out.kinds.push(table.hash[id]!);
    out.lines.push(l);
    if (cat === CAT_STRING) {
      out.endLines.push(l + countLines(s, e));
      if (!kindsOnly) out.strings.push({ text: stripQuotes(text.slice(s, e)), line: l });
    } else {
      out.endLines.push(l);
      if (cat === CAT_IDENT && !kindsOnly) out.identifiers.push({ text: text.slice(s, e), line: l });
    }
  }
  return out;
}

interface CursorOps {
  typeId(): number;
  start(): number;
  end(): number;
  missing(): boolean;
  firstChild(): boolean;
  nextSibling(): boolean;
  parent(): boolean;
  /** leave the JS cursor object describing the cursor's real state (its stack may have moved) */
  release(): void;
}

type Cursor = ReturnType<import('web-tree-sitter').Tree['walk']>;

function publicOps(c: Cursor): CursorOps {
  return {
    typeId: () => c.nodeTypeId,
    start: () => c.startIndex,
    end: () => c.endIndex,
    missing: () => c.nodeIsMissing,
    firstChild: () => c.gotoFirstChild(),
    nextSibling: () => c.gotoNextSibling(),
    parent: () => c.gotoParent(),
    release: () => undefined,
  };
}

/**
 * The cursor lives in the module's transfer buffer for the whole walk: it is
 * copied in once, every export reads (and the moves rewrite) it there, and it
 * is copied back before the cursor is deleted. Nothing else may use the
 * library between the two copies; the walk is synchronous, so nothing can.
 */
function rawOps(r: { m: RawModule; transfer: number }, c: Cursor, tree: number): CursorOps {
  const { m, transfer } = r;
  const slots = c as unknown as Record<number, number>;
  for (let i = 0; i < 4; i++) m.setValue(transfer + 4 * i, slots[i]!, 'i32');
  return {
    typeId: () => m._ts_tree_cursor_current_node_type_id_wasm(tree),
    start: () => m._ts_tree_cursor_start_index_wasm(tree),
    end: () => m._ts_tree_cursor_end_index_wasm(tree),
    missing: () => m._ts_tree_cursor_current_node_is_missing_wasm(tree) === 1,
    firstChild: () => m._ts_tree_cursor_goto_first_child_wasm(tree) === 1,
    nextSibling: () => m._ts_tree_cursor_goto_next_sibling_wasm(tree) === 1,
    parent: () => m._ts_tree_cursor_goto_parent_wasm(tree) === 1,
    release: () => {
      for (let i = 0; i < 4; i++) slots[i] = m.getValue(transfer + 4 * i, 'i32');
    },
  };
}

function stripQuotes(s: string): string {
  const m = /^[a-zA-Z]*(["'`]+)([\s\S]*?)\1$/.exec(s);
  return m ? (m[2] ?? '') : s;
}
