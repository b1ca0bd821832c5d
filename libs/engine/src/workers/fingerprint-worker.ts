// Worker-thread entry: fingerprints batches of files sent by the pool.
import { parentPort, workerData } from 'node:worker_threads';
import { fingerprintFile, type FileJob, type FileResult } from '../fingerprint-file';
import { optimiseParser } from '../tokenize/treesitter';
import { toWire, type WorkerSetup } from './wire';

const setup = workerData as WorkerSetup | undefined;
if (setup?.optimiseParser) optimiseParser(setup.optimiseParser.lock);

interface Request {
  id: number;
  jobs: FileJob[];
  k: number;
  w: number;
}

parentPort?.on('message', (req: Request) => {
  void (async () => {
    try {
      const results: FileResult[] = [];
      for (const j of req.jobs) results.push(await fingerprintFile(j, req.k, req.w));
      const wire = toWire(results);
      parentPort!.postMessage({ id: req.id, results: wire.results }, wire.transfer);
    } catch (e) {
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) });
    }
  })();
});
