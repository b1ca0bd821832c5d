#!/usr/bin/env node
// Which sides of the accuracy sets' pairs keep a run of their own commits on top of a line made by others, without
// merging or rebasing (docs/engine.md, Known limits: the screen behind not reading such a run as a carried line, 0.7.20).
// A run: at least 5 commits at the mainline's top, at least half by one person (the owner, by authorKeys), none by the
// line beneath's people, the owner at most 5 % of the line beneath (at least 10 commits), the owner going on for 30
// days or more: the conditions of lineage/rebased-line.ts without the replay. Reads each side as followed-lines.cjs
// does. Needs `npx tsc -b libs/engine`. Usage: node bench/accuracy/top-runs.cjs [pairs.tsv ...]; prints one line per
// side with such a run: pair, side, repository, owner, the run, the line beneath, days on top, where the run sits.
const { authorKeys } = require('../../libs/engine/dist/lineage/former-identity.js');
const { eachSide, pairsFiles } = require('./side-histories.cjs');

let found = 0;
const { read, missing } = eachSide(pairsFiles(process.argv.slice(2)), ({ pair, side, repo, commit, commits }) => {
  const t = tail({ commit, commits });
  if (t) {
    found++;
    console.log([pair, side, repo, ...t].join('\t'));
  }
});
console.log(`${read} sides read (${missing} not in the mirror); ${found} with a run of their own on top of another's line`);

/** The deepest qualifying run of the mainline, as printable fields, or null. */
function tail(h) {
  const byId = new Map(h.commits.map((c) => [c.id, c]));
  const ml = [];
  for (let c = byId.get(h.commit); c; c = c.parents[0] ? byId.get(c.parents[0]) : undefined) ml.push(c);
  const keys = ml.map((c) => authorKeys(c));
  const own = (j) => ml[j].parents.length < 2;
  let best = null;
  for (let i = 0; i < ml.length - 1; i++) {
    if (!own(i)) continue;
    const owner = new Set(keys[i]);
    const isO = (j) => keys[j].some((k) => owner.has(k));
    if (isO(i + 1)) continue;
    let mine = 0,
      total = 0,
      cross = false;
    const beneathPeople = new Set();
    for (let j = i + 1; j < ml.length; j++) if (own(j) && !isO(j)) for (const k of keys[j]) beneathPeople.add(k);
    for (let j = 0; j <= i; j++)
      if (own(j)) {
        total++;
        if (isO(j)) mine++;
        else if (keys[j].some((k) => beneathPeople.has(k))) cross = true;
      }
    if (mine < 5 || mine < 0.5 * total || cross) continue;
    let ob = 0,
      n = 0;
    for (let j = i + 1; j < ml.length; j++) {
      n++;
      if (isO(j)) ob++;
    }
    if (n < 10 || ob > 0.05 * n) continue;
    const times = ml
      .slice(0, i + 1)
      .filter((x, j) => own(j) && isO(j))
      .map((x) => x.at);
    const days = (Math.max(...times) - ml[i + 1].at) / 86400;
    if (days < 30) continue;
    best = [
      ml[i].author + ' <' + ml[i].email + '>',
      'run ' + (i + 1) + ' (' + mine + ' own)',
      'beneath ' + n + ' (owner ' + ob + ')',
      'on top ' + days.toFixed(0) + ' d',
      'base ' + new Date(ml[i].at * 1000).toISOString().slice(0, 10) + ' on ' + new Date(ml[i + 1].at * 1000).toISOString().slice(0, 10),
      'rebased? ' + (ml[i].at < ml[i + 1].at),
    ];
  }
  return best;
}
