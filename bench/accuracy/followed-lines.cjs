#!/usr/bin/env node
// Which sides of the accuracy sets' pairs carry another repository's line: merged in (a followed line,
// libs/engine/src/lineage/followed-line.ts, engine 0.7.16) or rebased onto (lineage/rebased-line.ts, 0.7.17): the screen
// behind those rules. Walks each side's history as the engine's history stage does (date order, at most
// 20,000 commits, what each merge's subject says it merged), from the mirror (LINEAGE_MIRRORS, default /work/.mirror).
// Needs `npx tsc -b libs/engine`. Usage: node bench/accuracy/followed-lines.cjs [pairs.tsv ...] (default: the
// development set and every held-out file).
const { followedLines, mergeSource, namedRepository } = require('../../libs/engine/dist/lineage/followed-line.js');
const { rebasedLine } = require('../../libs/engine/dist/lineage/rebased-line.js');
const { eachSide, pairsFiles } = require('./side-histories.cjs');

let named = 0;
let rebased = 0;
const { read, missing } = eachSide(pairsFiles(process.argv.slice(2)), ({ pair, side, repo, commit, commits: raw }) => {
  const commits = raw.map(({ subject, ...c }) => {
    const from = c.parents.length > 1 ? mergeSource(subject) : null;
    const names = c.parents.length > 1 && namedRepository(subject) !== null;
    return { ...c, names, ...(from ? { from } : {}) };
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
});
console.log(
  `${read} sides read (${missing} not in the mirror); ${named} with a merge naming another repository; ${rebased} rebased onto another line`,
);
