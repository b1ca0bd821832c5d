// Preloaded into each engine CLI run by bench/accuracy/run.ts: at exit, writes the process's
// peak RSS in KB (process.resourceUsage().maxRSS, worker threads included) to $LINEAGE_ACCURACY_RSS_FILE.
const { isMainThread } = require('node:worker_threads');
if (isMainThread && process.env.LINEAGE_ACCURACY_RSS_FILE) {
  process.on('exit', () => require('node:fs').writeFileSync(process.env.LINEAGE_ACCURACY_RSS_FILE, String(process.resourceUsage().maxRSS)));
}
