// The pages' static files (services/gateway/assets): a fixed list read once at start, served with their
// content type, nosniff, and long caching when asked for by the version the pages link (`?v=<hash>`).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { PAGES_CSS } from '@lineage/report-view';

const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

/** services/gateway/assets, from src/pages (tests) and dist/pages (builds) alike. */
export const ASSET_DIR = join(__dirname, '..', '..', 'assets');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const asset = (body: Buffer, type: string): Asset => ({
  body,
  type,
  etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
});

function load(): Map<string, Asset> {
  // The stylesheet is the report view's (libs/report-view), the CLI's HTML report inlines the same.
  const out = new Map<string, Asset>([['pages.css', asset(Buffer.from(PAGES_CSS, 'utf8'), TYPES.css!)]]);
  let names: string[] = [];
  try {
    names = readdirSync(ASSET_DIR);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const ext = /^[a-z0-9-]+\.([a-z]+)$/.exec(name)?.[1];
    if (!ext || !TYPES[ext]) continue;
    out.set(name, asset(readFileSync(join(ASSET_DIR, name)), TYPES[ext]!));
  }
  return out;
}

const ASSETS = load();

/** One version for all assets: a page always links a consistent set. */
export const ASSET_VERSION = createHash('sha256')
  .update([...ASSETS.entries()].map(([n, a]) => `${n}:${a.etag}`).join('\n'))
  .digest('hex')
  .slice(0, 12);

export const assetNames = (): string[] => [...ASSETS.keys()];

/** GET /assets/:name; false when there is no such asset (the caller answers 404). */
export function serveAsset(req: Request, res: Response): boolean {
  const asset = ASSETS.get(String(req.params.name ?? ''));
  if (!asset) return false;
  res.setHeader('Content-Type', asset.type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('ETag', asset.etag);
  res.setHeader('Cache-Control', req.query.v === ASSET_VERSION ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
  const inm = req.get('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === asset.etag)) {
    res.status(304).end();
    return true;
  }
  res.status(200).end(req.method === 'HEAD' ? undefined : asset.body);
  return true;
}
