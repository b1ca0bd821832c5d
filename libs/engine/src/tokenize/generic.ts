import { kindHash } from './token-hash';
import { emptyStream, type TokenStream } from './types';

// Fallback lexer for languages without a grammar: identifiers, numbers,
// strings, comments (// # /* */ --) and single punctuation characters.
const RE =
  /(\/\*[\s\S]*?\*\/|\/\/[^\n]*|#[^\n]*|--[^\n]*)|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|([A-Za-z_$][\w$]*)|(\d[\w.]*)|(\S)/g;
const KEYWORDS = new Set([
  'if',
  'else',
  'for',
  'while',
  'return',
  'function',
  'def',
  'class',
  'import',
  'from',
  'let',
  'var',
  'const',
  'fn',
  'func',
  'end',
  'do',
  'then',
  'switch',
  'case',
  'break',
  'continue',
  'new',
  'try',
  'catch',
  'finally',
  'throw',
  'public',
  'private',
  'static',
  'struct',
  'enum',
  'interface',
  'package',
  'module',
  'use',
  'local',
  'and',
  'or',
  'not',
  'in',
  'is',
  'true',
  'false',
  'null',
  'nil',
  'none',
  'self',
  'this',
]);

export function tokenizeGeneric(text: string): TokenStream {
  const out = emptyStream();
  let line = 0;
  let last = 0;
  RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RE.exec(text))) {
    for (let i = last; i < m.index; i++) if (text.charCodeAt(i) === 10) line++;
    last = m.index;
    const startLine = line;
    const tok = m[0];
    let nl = 0;
    for (let i = 0; i < tok.length; i++) if (tok.charCodeAt(i) === 10) nl++;
    if (m[1] !== undefined) {
      out.comments.push({ text: tok, line: startLine });
    } else {
      let kind: string;
      if (m[2] !== undefined) {
        kind = 'S';
        out.strings.push({ text: tok.slice(1, -1), line: startLine });
      } else if (m[3] !== undefined) {
        if (KEYWORDS.has(tok)) kind = tok;
        else {
          kind = 'I';
          out.identifiers.push({ text: tok, line: startLine });
        }
      } else if (m[4] !== undefined) kind = 'N';
      else if (tok === ';') {
        last = m.index + tok.length;
        continue;
      } else kind = tok;
      out.kinds.push(kindHash(kind));
      out.lines.push(startLine);
      out.endLines.push(startLine + nl);
    }
    line += nl;
    last = m.index + tok.length;
  }
  return out;
}
