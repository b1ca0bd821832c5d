// The main process's memory through one analysis, by stage: RSS, V8 heapTotal, external and array buffers every 100 ms
// for the first 4 s, then every 2 s (issue 42: where the memory outside the main heap appears). Needs `npx tsc -b
// libs/engine`. Usage: node bench/history/memory-timeline.cjs ORIGIN_DIR TARGET_DIR ORIGIN_COMMIT TARGET_COMMIT [WORKERS]
const { join } = require('node:path');
const { analyze } = require(join(__dirname, '..', '..', 'libs', 'engine', 'dist', 'index.js'));

const [o, t, oc, tc, w] = process.argv.slice(2);
if (!tc) {
  console.error('usage: memory-timeline.cjs ORIGIN_DIR TARGET_DIR ORIGIN_COMMIT TARGET_COMMIT [WORKERS]');
  process.exit(2);
}
const mb = (x) => Math.round(x / 1048576);
const t0 = Date.now();
let stage = 'start';
let last = 0;
const timer = setInterval(() => {
  const m = process.memoryUsage();
  const at = Date.now() - t0;
  if (at < 4000 || at - last > 2000) {
    last = at;
    console.log(
      String(at).padStart(6),
      stage.padEnd(14),
      'rss',
      mb(m.rss),
      'heapTotal',
      mb(m.heapTotal),
      'external',
      mb(m.external),
      'arrayBuffers',
      mb(m.arrayBuffers),
    );
  }
}, 100);
analyze({
  origin: { dir: o, commit: oc },
  target: { dir: t, commit: tc },
  workers: w ? Number(w) : undefined,
  onProgress: (p) => (stage = p.stage + (p.side ? `:${p.side[0]}` : '')),
}).then(
  (r) => {
    clearInterval(timer);
    console.log('verdict', r.decision.verdict, 'manifest', r.hash);
  },
  (e) => {
    clearInterval(timer);
    console.error(e);
    process.exit(1);
  },
);
