// Screen for engine 0.7.18's "a link's scheme is not the text": every pair of every pairs file whose sides both are in
// the mirror, and the declaration sentences of each side's root README/NOTICE/CREDITS/AUTHORS/COPYING/LICENSE at its
// pinned commit that equal one of the other side's only once http/https is dropped. Such pairs are the ones whose
// inherited-sentence reading the rule can change. Needs `npx tsc -b libs/engine`.
// Usage: node bench/accuracy/screen-link-schemes.cjs   (from the repository root; LINEAGE_MIRRORS, default /work/.mirror)
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { declarationSentences } = require(join(__dirname, '..', '..', 'libs', 'engine', 'dist', 'lineage', 'declarations.js'));

const MIRRORS = process.env.LINEAGE_MIRRORS ?? '/work/.mirror';
const git = (dir, ...args) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
const repo = (name) =>
  [join(MIRRORS, name.replace('/', '+'), 'repo', '.git'), join(MIRRORS, name.replace('/', '+'), 'repo')].find(existsSync);
const docs = (dir, commit) => {
  try {
    return git(dir, 'ls-tree', '--name-only', commit)
      .split('\n')
      .filter((f) => /^(readme|notice|credits|authors|copying|license|licence)/i.test(f))
      .map((f) => git(dir, 'show', `${commit}:${f}`));
  } catch {
    return [];
  }
};
// The engine's normaliser drops a link's scheme; keep it in sight (http://x -> httpx://x, which it leaves alone), so that
// sentences that differ by the scheme alone show up as different, then compare them once more without it.
const keepScheme = (texts) => texts.map((t) => t.replace(/\b(https?):\/\//gi, '$1x://'));
const schemeless = (s) => s.replace(/\bhttps?x \/\//g, '');
const files = [
  'pairs.tsv',
  ...readdirSync(join(__dirname, 'heldout'))
    .filter((f) => f.endsWith('.tsv'))
    .map((f) => join('heldout', f)),
];
for (const f of files)
  for (const line of readFileSync(join(__dirname, f), 'utf8').split('\n').slice(1)) {
    const [name, o, oc, t, tc] = line.split('\t');
    if (!name || !t || name.startsWith('#')) continue;
    const [O, T] = [repo(o), repo(t)];
    if (!O || !T) continue;
    const [so, st] = [declarationSentences(keepScheme(docs(O, oc)), 1000), declarationSentences(keepScheme(docs(T, tc)), 1000)];
    const exact = new Set(so);
    const loose = new Set(so.map(schemeless));
    const hits = st.filter((x) => !exact.has(x) && loose.has(schemeless(x)));
    if (hits.length) console.log(name, JSON.stringify(hits.map((h) => h.slice(0, 100))));
  }
