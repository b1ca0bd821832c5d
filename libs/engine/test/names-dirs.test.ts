import { directoryNames, pathNamesProject } from '../src/lineage/directory-names';
import type { NameRef } from '../src/types';

const ref = (name: string, kind: NameRef['kind']): NameRef => ({
  name,
  kind,
  key: `${kind}:x`,
  path: 'x',
  line: 1,
  blobId: '',
  commit: '',
});

describe('directories named after a project', () => {
  it('takes single-word names, the repository part of URLs and module paths, and leaves generic ones out', () => {
    const n = directoryNames([
      ref('Lua', 'title'),
      ref('Simple DirectMedia Layer', 'title'),
      ref('github.com/mattn/go-sqlite3', 'module'),
      ref('core', 'package'),
    ]);
    expect([...n].sort()).toEqual(['go-sqlite3', 'lua']);
  });

  it('matches a directory of that name, alone or with a version, never the file name or a longer word', () => {
    const n = new Set(['lua', 'zlib']);
    expect(pathNamesProject('lua-5.3.0-tests/api.lua', n)).toBe(true);
    expect(pathNamesProject('deps/lua/src/lapi.c', n)).toBe(true);
    expect(pathNamesProject('third_party/zlib-1.2.11/inflate.c', n)).toBe(true);
    expect(pathNamesProject('src/luajit/lj_api.c', n)).toBe(false);
    expect(pathNamesProject('src/lua.c', n)).toBe(false);
    expect(pathNamesProject('src/lapi.c', new Set())).toBe(false);
  });
});
