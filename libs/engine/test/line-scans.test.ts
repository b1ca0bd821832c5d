import { countLines, isMinified } from '../src/classify';
import { extractTestNames } from '../src/fingerprint-file';

// The scans find newlines with indexOf; these are the byte loops they replaced, kept as references.
function naiveCountLines(content: Buffer): number {
  if (content.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < content.length; i++) if (content[i] === 10) n++;
  return content[content.length - 1] === 10 ? n : n + 1;
}

function naiveIsMinified(content: Buffer): boolean {
  if (content.length < 2000) return false;
  let lines = 1;
  let longest = 0;
  let cur = 0;
  let spaces = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c === 10) {
      lines++;
      if (cur > longest) longest = cur;
      cur = 0;
    } else {
      cur++;
      if (c === 32 || c === 9) spaces++;
    }
  }
  if (cur > longest) longest = cur;
  return content.length / lines > 300 || (longest > 5000 && spaces / content.length < 0.08);
}

const samples: Buffer[] = [
  Buffer.from(''),
  Buffer.from('\n'),
  Buffer.from('one line, no newline'),
  Buffer.from('a\nb\n\n'),
  Buffer.from('x'.repeat(2500)), // one long line
  Buffer.from('const a = 1;\n'.repeat(400)), // ordinary code
  Buffer.from('x'.repeat(6000) + '\n' + 'y '.repeat(100) + '\n'), // a long line with little whitespace
  Buffer.from(('word '.repeat(1200) + '\n').repeat(2)), // long lines, much whitespace
  Buffer.from('\t'.repeat(5001) + '\nshort\n'.repeat(10)),
  Buffer.from('a'.repeat(301) + '\n' + 'b'.repeat(2000)), // average just over 300
];

describe('line scans', () => {
  it.each(samples.map((b, i) => [i, b] as const))('sample %i: countLines and isMinified agree with the byte loops', (_i, b) => {
    expect(countLines(b)).toBe(naiveCountLines(b));
    expect(isMinified(b)).toBe(naiveIsMinified(b));
  });

  it('the samples exercise both answers of isMinified', () => {
    expect(new Set(samples.map((b) => isMinified(b)))).toEqual(new Set([true, false]));
  });

  it('extractTestNames gives each test the 1-based line it starts on', () => {
    const text =
      "describe('a parser suite', () => {\n\n  it('parses an empty file', () => {});\n  it(\"keeps line numbers\", () => {\n  });\n});\ndef test_something_else():\n  pass\n";
    expect(extractTestNames('t.js', text).map((t) => [t.text, t.line])).toEqual([
      ['a parser suite', 1],
      ['parses an empty file', 3],
      ['keeps line numbers', 4],
      ['test_something_else', 7],
    ]);
  });
});
