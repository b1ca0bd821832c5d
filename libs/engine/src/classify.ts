import type { FileClass } from './types';

// Extension → language id. Languages with a tree-sitter grammar are tokenised
// by it; the rest go through the generic lexer.
const EXT_LANG: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  pyi: 'python',
  go: 'go',
  java: 'java',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  rs: 'rust',
  sol: 'solidity',
  rb: 'ruby',
  rake: 'ruby',
  ru: 'ruby',
  php: 'php',
  cs: 'c_sharp',
  kt: 'kotlin',
  swift: 'swift',
  scala: 'scala',
  lua: 'lua',
  sh: 'bash',
  bash: 'bash',
  zig: 'zig',
  dart: 'dart',
  m: 'objc',
  ex: 'elixir',
  exs: 'elixir',
  ml: 'ocaml',
  vue: 'vue',
  css: 'css',
  scss: 'css',
  less: 'css',
  sass: 'css',
  styl: 'css',
  html: 'html',
  htm: 'html',
  // Without a grammar here, through the generic lexer: code all the same. Before 0.6.8 their files counted as
  // prose, and a Perl, Haskell or CoffeeScript fork had no code evidence at all.
  pl: 'perl',
  pm: 'perl',
  t: 'perl',
  xs: 'perl',
  raku: 'raku',
  rakumod: 'raku',
  pm6: 'raku',
  hs: 'haskell',
  lhs: 'haskell',
  hsc: 'haskell',
  elm: 'elm',
  purs: 'purescript',
  erl: 'erlang',
  hrl: 'erlang',
  clj: 'clojure',
  cljs: 'clojure',
  cljc: 'clojure',
  fs: 'fsharp',
  fsi: 'fsharp',
  fsx: 'fsharp',
  mli: 'ocaml',
  sml: 'sml',
  r: 'r',
  jl: 'julia',
  nim: 'nim',
  cr: 'crystal',
  groovy: 'groovy',
  f: 'fortran',
  for: 'fortran',
  f90: 'fortran',
  f95: 'fortran',
  f03: 'fortran',
  f08: 'fortran',
  pas: 'pascal',
  dpr: 'pascal',
  tcl: 'tcl',
  s: 'asm',
  asm: 'asm',
  coffee: 'coffeescript',
  ls: 'livescript',
  mm: 'objc',
  ps1: 'powershell',
  psm1: 'powershell',
  vim: 'vim',
  el: 'elisp',
  lisp: 'lisp',
  lsp: 'lisp',
  scm: 'scheme',
  ss: 'scheme',
  sld: 'scheme',
  rkt: 'racket',
  cu: 'cuda',
  cuh: 'cuda',
  ino: 'cpp',
  pyx: 'cython',
  pxd: 'cython',
  svelte: 'svelte',
  hx: 'haxe',
  vala: 'vala',
  adb: 'ada',
  ads: 'ada',
  vhd: 'vhdl',
  vhdl: 'vhdl',
  sv: 'systemverilog',
  svh: 'systemverilog',
  glsl: 'glsl',
  vert: 'glsl',
  frag: 'glsl',
  awk: 'awk',
  bats: 'bash',
  zsh: 'bash',
  ksh: 'bash',
  fish: 'fish',
  nix: 'nix',
  gleam: 'gleam',
  re: 'reason',
  rei: 'reason',
  res: 'rescript',
  resi: 'rescript',
  idr: 'idris',
  agda: 'agda',
  lean: 'lean',
  moon: 'moonscript',
  fnl: 'fennel',
  y: 'yacc',
  yy: 'yacc',
};

const DOC_EXT = new Set(['md', 'markdown', 'rst', 'txt', 'adoc', 'asciidoc', 'org', 'tex']);
const CONFIG_EXT = new Set([
  'json',
  'yaml',
  'yml',
  'toml',
  'ini',
  'cfg',
  'conf',
  'xml',
  'properties',
  'lock',
  'mod',
  'sum',
  'editorconfig',
  'gitignore',
  'gitattributes',
  'npmignore',
  'env',
]);
const BINARY_EXT = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'ico',
  'pdf',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'jar',
  'class',
  'so',
  'dll',
  'exe',
  'o',
  'a',
  'wasm',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'mp3',
  'mp4',
  'webm',
  'webp',
  'bmp',
  'tiff',
  'psd',
  'bin',
  'dat',
  'node',
  'pyc',
]);
/** Pages of a documentation site (docs/): built from the project's sources (CoffeeScript's docs/v2/test.html holds its whole test suite), never its code. */
const DOC_PAGE_EXT = new Set(['html', 'htm', 'css']);
const DOC_NAMES =
  /^(readme|license|licence|copying|notice|authors|contributors|changelog|changes|history|news|code_of_conduct|contributing|security)(\.|$)/i;
const CONFIG_NAMES =
  /^(makefile|dockerfile|\.?[a-z0-9_-]*rc|package\.json|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|cargo\.toml|cargo\.lock|go\.mod|go\.sum|requirements[^/]*\.txt|setup\.py|setup\.cfg|pyproject\.toml|pom\.xml|build\.gradle|foundry\.toml|hardhat\.config\.[jt]s|tsconfig[^/]*\.json|jest\.config\.[jt]s|webpack\.config\.[jt]s|rollup\.config\.[jt]s|\.eslintrc[^/]*|\.prettierrc[^/]*|\.travis\.yml)$/i;
// `_vendor/`: Python's convention for pinned copies of dependencies (pip, poetry-core, pdm-backend; listed in vendor.txt).
const VENDOR_DIRS =
  /(^|\/)(vendor|vendors|_vendor|_vendored|vendored|third_party|third-party|thirdparty|external|extern|deps|node_modules|bower_components|lib\/forge-std|lib\/openzeppelin-contracts|jspm_packages|Godeps)\//i;
const GENERATED_PATHS =
  /(^|\/)(dist|build|out|coverage|target|\.next|__generated__|generated|gen)\/|(\.pb\.go|_pb2\.py|\.pb\.(cc|h)|_generated\.\w+|\.generated\.\w+|\.g\.dart|\.d\.ts|\.map)$|(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock)$/i;
const MINIFIED_NAME = /[.-]min\.(js|css)$|\.bundle\.js$/i;
// `t/` and `.t`: Perl's tests (and git's own test suite).
const TEST_PATH =
  /(^|\/)(test|tests|__tests__|spec|specs|testing|testdata|fixtures?|t)\/|(_test\.(go|py|rs|c|cc|cpp)|\.test\.[jt]sx?|\.spec\.[jt]sx?|_spec\.rb|\.t\.sol|\.t)$|(^|\/)test_[^/]+\.py$|(^|\/)[^/]*Test\.java$/i;
const GENERATED_MARK = /@generated|do not edit|auto-?generated|autogenerated|generated by|code generated .* DO NOT EDIT/i;

export function extOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : base.startsWith('.') ? base.slice(1).toLowerCase() : '';
}

export function languageOf(path: string): string | null {
  return EXT_LANG[extOf(path)] ?? null;
}

/** Classification from the path alone (no content). */
export function classifyPath(path: string): FileClass | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const ext = extOf(path);
  if (VENDOR_DIRS.test(path)) return 'vendored';
  if (BINARY_EXT.has(ext)) return 'binary';
  if (MINIFIED_NAME.test(base)) return 'minified';
  if (GENERATED_PATHS.test(path)) return 'generated';
  if (DOC_NAMES.test(base) || DOC_EXT.has(ext) || (/(^|\/)docs?\//i.test(path) && (!EXT_LANG[ext] || DOC_PAGE_EXT.has(ext)))) return 'docs';
  if (CONFIG_NAMES.test(base) || CONFIG_EXT.has(ext)) return 'config';
  return null;
}

/** Languages whose files may well begin as an XML or HTML document. */
const MARKUP_LANGUAGES = new Set(['html', 'vue', 'php']);

/**
 * An XML or HTML document under a code file's extension is data, not that language: Qt Linguist's translation
 * files are `.ts` (KeePassXC holds 16 MB of them: parsed as TypeScript they took about 15 s of a 19 s analysis).
 */
export function isMarkupInCodeFile(path: string, content: Buffer | null): boolean {
  const lang = languageOf(path);
  if (!content || !lang || MARKUP_LANGUAGES.has(lang)) return false;
  const head = content
    .subarray(0, 256)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^<(\?xml|!DOCTYPE)[\s>]/i.test(head);
}

/** Full classification: path first, then content (binary, markup under a code extension, generated marker, minified shape). */
export function classify(path: string, content: Buffer | null): FileClass {
  const byPath = classifyPath(path);
  if (byPath) return byPath;
  if (content) {
    const head = content.subarray(0, 8000);
    if (head.includes(0)) return 'binary';
    if (isMarkupInCodeFile(path, content)) return 'config';
    const text = head.toString('utf8');
    const firstLines = text.split('\n', 12).join('\n');
    if (GENERATED_MARK.test(firstLines)) return 'generated';
    if (isMinified(content)) return 'minified';
  }
  if (TEST_PATH.test(path)) return 'test';
  return languageOf(path) ? 'source' : 'docs';
}

/** Long average line length or very long lines with little whitespace. */
export function isMinified(content: Buffer): boolean {
  if (content.length < 2000) return false;
  // Newlines found with indexOf (memchr), not a loop over every byte: this runs on every text file of both trees.
  let lines = 1;
  let longest = 0;
  let start = 0;
  for (let nl = content.indexOf(10); nl !== -1; nl = content.indexOf(10, start)) {
    lines++;
    if (nl - start > longest) longest = nl - start;
    start = nl + 1;
  }
  if (content.length - start > longest) longest = content.length - start;
  const avg = content.length / lines;
  if (avg > 300) return true;
  if (longest <= 5000) return false;
  let spaces = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c === 32 || c === 9) spaces++;
  }
  return spaces / content.length < 0.08;
}

export function countLines(content: Buffer): number {
  if (content.length === 0) return 0;
  let n = 0;
  for (let i = content.indexOf(10); i !== -1; i = content.indexOf(10, i + 1)) n++;
  return content[content.length - 1] === 10 ? n : n + 1;
}

/** Files whose classes yield code evidence. */
export function isCodeClass(c: FileClass): boolean {
  return c === 'source' || c === 'test';
}

/** Path components that are empty, `.`/`..`, contain control characters or backslashes are refused. */
export function isSafePath(path: string): boolean {
  if (!path || path.startsWith('/') || path.length > 4096) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f\\]/.test(path)) return false;
  return path.split('/').every((p) => p !== '' && p !== '.' && p !== '..' && p.toLowerCase() !== '.git');
}
