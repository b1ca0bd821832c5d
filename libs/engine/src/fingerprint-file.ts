import { tokenize } from './tokenize';
import { winnow } from './winnow';
import type { FileFingerprints, LanguageItem } from './types';

export interface FileJob {
  path: string;
  blobId: string;
  language: string | null;
  isTest: boolean;
  text: string;
  /** only the fingerprints (dating an old version reads nothing else): no language items or test names */
  fingerprintsOnly?: boolean;
}

export interface FileResult {
  fp: FileFingerprints;
  language: LanguageItem[];
  tests: LanguageItem[];
}

const MAX_ITEMS_PER_FILE = 400;

/** Tokenise one file and winnow it; also extract its language and test items. Pure and deterministic. */
export async function fingerprintFile(job: FileJob, k: number, w: number): Promise<FileResult> {
  const ts = await tokenize(job.language, job.text, job.fingerprintsOnly);
  const win = winnow(ts.kinds, k, w);
  const startLines: number[] = [];
  const endLines: number[] = [];
  for (const p of win.positions) {
    startLines.push(ts.lines[p]! + 1);
    endLines.push(ts.endLines[p + k - 1]! + 1);
  }
  const fp: FileFingerprints = {
    path: job.path,
    blobId: job.blobId,
    language: job.language ?? 'generic',
    tokens: ts.kinds.length,
    hashes: win.hashes,
    startLines,
    endLines,
    lowEntropy: win.lowEntropy,
  };
  if (job.fingerprintsOnly) return { fp, language: [], tests: [] };
  const language: LanguageItem[] = [];
  const seen = new Set<string>();
  const add = (kind: LanguageItem['kind'], text: string, line: number): void => {
    const key = kind + '\0' + text;
    if (seen.has(key) || language.length >= MAX_ITEMS_PER_FILE * 3) return;
    seen.add(key);
    language.push({ kind, text, path: job.path, line: line + 1 });
  };
  let nIdent = 0;
  for (const id of ts.identifiers) {
    if (id.text.length >= 6 && nIdent < MAX_ITEMS_PER_FILE) {
      const before = seen.size;
      add('IDENTIFIER', id.text, id.line);
      if (seen.size > before) nIdent++;
    }
  }
  let nComment = 0;
  for (const c of ts.comments) {
    const t = normaliseComment(c.text);
    if (t.length >= 20 && nComment < MAX_ITEMS_PER_FILE) {
      add('COMMENT', t, c.line);
      nComment++;
    }
  }
  let nString = 0;
  for (const s of ts.strings) {
    const t = s.text.trim();
    if (t.length >= 10 && t.length <= 400 && nString < MAX_ITEMS_PER_FILE) {
      add('STRING', t, s.line);
      nString++;
    }
  }
  const tests = job.isTest ? extractTestNames(job.path, job.text) : [];
  return { fp, language, tests };
}

export function normaliseComment(raw: string): string {
  return raw
    .replace(/^\s*(\/\/+|\/\*+|#+|--|\*+\/?)/gm, ' ')
    .replace(/\*+\/\s*$/, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const TEST_PATTERNS: RegExp[] = [
  /\b(?:it|test|describe|context|specify)\s*\(\s*(['"`])((?:(?!\1).){6,200})\1/g,
  /\bdef\s+(test_\w{3,})/g,
  /\bfunc\s+(Test\w{3,})/g,
  /#\[test\]\s*(?:async\s+)?fn\s+(\w{4,})/g,
  /@Test[\s\S]{0,80}?void\s+(\w{4,})/g,
  /\bfunction\s+(test\w{3,})\s*\(/g,
];

export function extractTestNames(path: string, text: string): LanguageItem[] {
  const out: LanguageItem[] = [];
  const seen = new Set<string>();
  let starts: number[] | null = null; // offsets where lines 2, 3, … begin, made on the first match
  const lineOf = (index: number): number => {
    starts ??= lineStarts(text);
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= index) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  for (const re of TEST_PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) && out.length < 500) {
      const name = (m[2] ?? m[1] ?? '').trim();
      if (!name || seen.has(name)) continue;
      seen.add(name);
      out.push({ kind: 'IDENTIFIER', text: name, path, line: lineOf(m.index) });
    }
  }
  return out;
}

function lineStarts(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}
