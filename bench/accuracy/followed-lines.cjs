#!/usr/bin/env node
// Which sides of the accuracy sets' pairs carry another repository's line: merged in (a followed line,
// libs/engine/src/lineage/followed-line.ts, engine 0.7.16) or rebased onto (lineage/rebased-line.ts, 0.7.17): the screen
// behind those rules. Walks each side's history as the engine's history stage does (date order, at most
// 20,000 commits, what each merge's subject says it merged), from the mirror (LINEAGE_MIRRORS, default /work/.mirror).
// Needs `npx tsc -b libs/engine`. Usage: node bench/accuracy/followed-lines.cjs [pairs.tsv ...] (default: the
// development set and every held-out file).
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { followedLines, mergeSource, namedRepository } = require('../../libs/engine/dist/lineage/followed-line.js');
const { rebasedLine } = require('../../libs/engine/dist/lineage/rebased-line.js');

const MIRRORS = process.env.LINEAGE_MIRRORS ?? '/work/.mirror';
const MAX_COMMITS = 20_000;
const heldout = join(__dirname, 'heldout');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      join(__dirname, 'pairs.tsv'),
      ...readdirSync(heldout)
        .filter((f) => f.endsWith('.tsv'))
        .sort()
        .map((f) => join(heldout, f)),
    ];

let sides = 0;
let named = 0;
let missing = 0;
let rebased = 0;
for (const file of files) {
  for (const line of readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean)) {
    const [pair, origin, oCommit, target, tCommit] = line.split('\t');
    for (const [side, repo, commit] of [
      ['origin', origin, oCommit],
      ['target', target, tCommit],
    ]) {
      let dir = join(MIRRORS, repo.replace('/', '+'), 'repo');
      if (existsSync(join(dir, '.git'))) dir = join(dir, '.git');
      let out;
      try {
        out = execFileSync(
          'git',
          [
            '--git-dir',
            dir,
            'log',
            '--date-order',
            `--max-count=${MAX_COMMITS}`,
            '--format=%H%x00%P%x00%ae%x00%an%x00%ct%x00%at%x00%s',
            commit,
          ],
          {
            maxBuffer: 1 << 30,
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        ).toString();
      } catch {
        missing++;
        continue;
      }
      sides++;
      const commits = out
        .split('\n')
        .filter(Boolean)
        .map((s) => {
          const [id, p, email, author, time, at, subject] = s.split('\0');
          const parents = p.split(' ').filter(Boolean);
          const from = parents.length > 1 ? mergeSource(subject) : null;
          const names = parents.length > 1 && namedRepository(subject) !== null;
          return { id, parents, email: email.toLowerCase(), author, time: Number(time), at: Number(at), names, ...(from ? { from } : {}) };
        });
      if (commits.some((c) => c.names)) named++;
      const f = followedLines({ commit, commits });
      if (f.lines.length)
        console.log(
          `${pair}\t${side}\t${repo}\t${f.lines.length} followed merge(s)\t${f.commits.size} of ${commits.length} commits\t${[...new Set(f.lines.map((l) => l.from))].join(' ')}`,
        );
      const r = rebasedLine({ commit, commits });
      if (r) {
        rebased++;
        console.log(
          `${pair}\t${side}\t${repo}\trebased onto another line at ${r.base.slice(0, 7)}\t${r.commits.size} of ${commits.length} commits`,
        );
      }
    }
  }
}
console.log(
  `${sides} sides read (${missing} not in the mirror); ${named} with a merge naming another repository; ${rebased} rebased onto another line`,
);
