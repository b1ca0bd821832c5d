// Each side of the pairs files' pairs, with its history walked as the engine's history stage does (date order, at most
// 20,000 commits) from the mirror (LINEAGE_MIRRORS, default /work/.mirror): the reader shared by the screens
// followed-lines.cjs and top-runs.cjs.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const MIRRORS = process.env.LINEAGE_MIRRORS ?? '/work/.mirror';
const MAX_COMMITS = 20_000;

/** The files named on the command line, else the development set and every held-out file. */
function pairsFiles(args) {
  if (args.length) return args;
  const heldout = join(__dirname, 'heldout');
  return [
    join(__dirname, 'pairs.tsv'),
    ...readdirSync(heldout)
      .filter((f) => f.endsWith('.tsv'))
      .sort()
      .map((f) => join(heldout, f)),
  ];
}

/**
 * Calls `visit({ pair, side, repo, commit, commits })` for every side found in the mirror, each commit as
 * `{ id, parents, email, author, time, at, subject }` (e-mail lower-cased, times in seconds); returns the counts of
 * sides read and missing.
 */
function eachSide(files, visit) {
  let read = 0;
  let missing = 0;
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
            { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] },
          ).toString();
        } catch {
          missing++;
          continue;
        }
        read++;
        const commits = out
          .split('\n')
          .filter(Boolean)
          .map((s) => {
            const [id, p, email, author, time, at, subject] = s.split('\0');
            return {
              id,
              parents: p.split(' ').filter(Boolean),
              email: email.toLowerCase(),
              author,
              time: Number(time),
              at: Number(at),
              subject,
            };
          });
        visit({ pair, side, repo, commit, commits });
      }
    }
  }
  return { read, missing };
}

module.exports = { eachSide, pairsFiles };
