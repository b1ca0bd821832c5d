// Directories named after a project (`lua-5.3.0-tests/`, `deps/lua/`): material kept there was taken from it.
import type { NameRef } from '../types';
import { spellings } from './names';

/** Directory names too common to say a path was named after a project that happens to be called so. */
const GENERIC_DIR =
  /^(src|source|lib|libs|core|test|tests|testes|spec|app|apps|pkg|cmd|internal|util|utils|common|include|packages|vendor|third_party|thirdparty|deps|docs?|examples?|main|server|client|web|api|cli|tools|scripts|build|dist|ext|contrib|modules?|plugins?|runtime|engine|base|shared)$/;

/** The names a project goes by that a directory could be named after: single words, lower-cased, not generic ones. */
export function directoryNames(names: readonly NameRef[]): Set<string> {
  const out = new Set<string>();
  for (const n of names) {
    if (n.kind === 'title' && /\s/.test(n.name)) continue;
    for (const sp of spellings(n.name)) {
      const last = sp.slice(sp.lastIndexOf('/') + 1).toLowerCase();
      if (last.length >= 3 && !GENERIC_DIR.test(last) && /^[a-z0-9][a-z0-9._-]*$/.test(last)) out.add(last);
    }
  }
  return out;
}

/**
 * Whether a directory of the path is named after one of `names`, alone or with a version (`lua-5.3.0-tests/`,
 * `deps/lua/`, `zlib-1.2.11/`): material kept there was taken from that project.
 */
export function pathNamesProject(path: string, names: ReadonlySet<string>): boolean {
  if (!names.size) return false;
  const dirs = path.toLowerCase().split('/').slice(0, -1);
  for (const d of dirs) for (const n of names) if (d === n || (d.startsWith(n) && /^[-_.]v?\d/.test(d.slice(n.length)))) return true;
  return false;
}
