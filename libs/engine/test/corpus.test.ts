import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_K, DEFAULT_WINDOW } from '@lineage/engine';
import { matchCode } from '../src/compare/code';
import { commonFingerprints, isCommonFingerprint } from '../src/corpus';
import { fingerprintFile } from '../src/fingerprint-file';
import type { Fingerprints } from '../src/types';

const DATA = join(__dirname, '..', 'data');

async function repo(files: Record<string, string>): Promise<Fingerprints> {
  const out: Fingerprints = {
    commit: '0'.repeat(40),
    k: DEFAULT_K,
    window: DEFAULT_WINDOW,
    files: [],
    tests: [],
    manifests: [],
    totalTokens: 0,
    language: [],
  };
  for (const [path, text] of Object.entries(files)) {
    const r = await fingerprintFile(
      { path, blobId: '0'.repeat(40), language: 'javascript', isTest: false, text },
      DEFAULT_K,
      DEFAULT_WINDOW,
    );
    out.files.push(r.fp);
    out.totalTokens += r.fp.tokens;
  }
  return out;
}

// Idioms the corpus packages share (require chains, constructors that only initialise fields), written fresh.
const SCAFFOLD = (p: string) => `'use strict';
const ${p}Path = require('path');
const ${p}Fs = require('fs');
const ${p}Util = require('util');
const ${p}Events = require('events');
const ${p}Stream = require('stream');

function ${p}Registry(options) {
  this.options = options;
  this.items = [];
  this.names = [];
  this.pending = [];
  this.handlers = [];
}
`;

describe('fingerprints common across unrelated code', () => {
  it('the committed set is the one its description names: sorted, distinct, exact integers, this k and window', () => {
    const meta = JSON.parse(readFileSync(join(DATA, 'common-fingerprints.json'), 'utf8')) as {
      count: number;
      sha256: string;
      k: number;
      window: number;
      minPackages: number;
      packages: unknown[];
    };
    const bin = readFileSync(join(DATA, 'common-fingerprints.bin'));
    expect(createHash('sha256').update(bin).digest('hex')).toBe(meta.sha256);
    const set = commonFingerprints();
    expect(set.length).toBe(meta.count);
    expect(set.every((h, i) => Number.isSafeInteger(h) && h >= 0 && (i === 0 || set[i - 1]! < h))).toBe(true);
    expect([meta.k, meta.window]).toEqual([DEFAULT_K, DEFAULT_WINDOW]);
    expect(meta.packages.length).toBeGreaterThanOrEqual(80);
    expect(isCommonFingerprint(set[0]!) && isCommonFingerprint(set[set.length - 1]!)).toBe(true);
    expect(isCommonFingerprint(set[0]! - 1)).toBe(false);
  });

  it('holds the fingerprints of idioms written fresh here (fails if tokens change and the set is not rebuilt)', async () => {
    const fp = (await repo({ 'a.js': SCAFFOLD('app') })).files[0]!;
    const usable = fp.hashes.filter((_, i) => !fp.lowEntropy[i]);
    expect(usable.length).toBeGreaterThanOrEqual(3);
    expect(usable.filter(isCommonFingerprint).length).toBeGreaterThanOrEqual(Math.ceil(usable.length / 2));
  });

  it('holds Go idioms written fresh here too (error returns, deferred close)', async () => {
    const go = `package store

import (
	"context"
	"fmt"
)

func (s *Store) Load(ctx context.Context, id string) (*Item, error) {
	rows, err := s.db.QueryContext(ctx, "select", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	item, err := scan(rows)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", id, err)
	}
	return item, nil
}
`;
    const fp = (
      await fingerprintFile(
        { path: 'store.go', blobId: '0'.repeat(40), language: 'go', isTest: false, text: go },
        DEFAULT_K,
        DEFAULT_WINDOW,
      )
    ).fp;
    const usable = fp.hashes.filter((_, i) => !fp.lowEntropy[i]);
    expect(usable.length).toBeGreaterThanOrEqual(3);
    expect(usable.filter(isCommonFingerprint).length).toBeGreaterThanOrEqual(Math.ceil(usable.length / 2));
  });

  it('two repositories sharing only such idioms share fingerprints but no fragment; shared distinctive code still matches', async () => {
    const o = await repo({ 'lib/a.js': SCAFFOLD('app') });
    const t = await repo({ 'src/b.js': SCAFFOLD('svc') });
    const shared = o.files[0]!.hashes.filter((h, i) => !o.files[0]!.lowEntropy[i] && t.files[0]!.hashes.includes(h));
    expect(shared.length).toBeGreaterThanOrEqual(3);
    expect(matchCode(o, t, () => false).fragments.length).toBeGreaterThanOrEqual(1); // without the set, the idioms match
    expect(matchCode(o, t).fragments).toEqual([]);

    const distinctive = `function interleaveChecksum(buffer, seed) {
  let a = seed ^ 0x5bd1e995, b = buffer.length;
  for (let i = 0; i < buffer.length; i += 3) {
    a = (a * 31 + buffer[i]) % 65521;
    b = (b + a * (i & 7)) % 65521;
    if ((a & 15) === 3) { b ^= a >>> 2; } else { a += b << 1; }
  }
  return (b << 16) | a;
}
`;
    const o2 = await repo({ 'lib/a.js': SCAFFOLD('app') + distinctive });
    const t2 = await repo({ 'src/b.js': SCAFFOLD('svc') + distinctive.replace(/interleaveChecksum/g, 'mix').replace(/buffer/g, 'buf') });
    expect(matchCode(o2, t2).fragments.length).toBeGreaterThanOrEqual(1);
  });
});
