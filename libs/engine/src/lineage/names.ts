// The names a repository goes by, read from its own files: package and module
// names in manifests, the project name of C build files, the README's title and
// the hosted URL it refers to most. Pure functions of a file's path and text.
import type { NameRef } from '../types';

/** Root files that carry a project's identity (manifests and READMEs). */
export const IDENTITY_FILE =
  /^(package\.json|composer\.json|setup\.py|setup\.cfg|pyproject\.toml|go\.mod|Cargo\.toml|configure\.ac|configure\.in|CMakeLists\.txt|meson\.build|pom\.xml|[^/]+\.gemspec|Makefile\.PL|Build\.PL|dist\.ini|META\.json|[^/]+\.cabal|mix\.exs|project\.clj|DESCRIPTION|Project\.toml|shard\.yml|pubspec\.yaml|Package\.swift|settings\.gradle(\.kts)?|[^/]+\.rockspec|readme(\.[a-z]+)?)$/i;
/** Root prose files read for declarations (besides READMEs). */
export const DOC_FILE = /^(readme|notice|credits|authors|history|about|acknowledg(e)?ments)(\.[a-z]+)?$/i;

const HOSTS = '(?:github\\.com|gitlab\\.com|codeberg\\.org|bitbucket\\.org)';
const HOSTED_URL = new RegExp(`${HOSTS}[/:]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)`, 'g');
/**
 * Underscores that open or close Markdown emphasis (`_name_`), at a word's edge: the ones inside a word are part of
 * a name (PHP_CodeSniffer, typing_extensions) and stay.
 */
export const EMPHASIS_UNDERSCORES = /(^|[^A-Za-z0-9])_+|_+(?![A-Za-z0-9])/g;
/** autoconf's and similar templates' placeholders are not names. */
const PLACEHOLDER = /^(full-package-name|package|project|name|my-?app|example|untitled|todo)$/i;

export const lineOf = (text: string, index: number): number => {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/** `owner/repo` of a hosted URL or path-like reference (`.git`, a trailing slash and sub-paths dropped), lowercase. */
export function hostedRepo(ref: string): string | null {
  HOSTED_URL.lastIndex = 0;
  const m = HOSTED_URL.exec(ref);
  if (!m) return null;
  return repoOf(m);
}

/** `owner/repo` of a HOSTED_URL match, lower-cased, without `.git`. */
const repoOf = (m: RegExpMatchArray): string => `${m[1]}/${m[2]!.replace(/\.git$/i, '')}`.toLowerCase();

/** Every hosted `owner/repo` a text cites, in order, lower-cased. */
export function hostedRepos(text: string): string[] {
  return [...text.matchAll(HOSTED_URL)].map(repoOf);
}

/** Go's major-version suffix is the same module line (`/v2`). */
const goModule = (m: string): string => m.toLowerCase().replace(/\/v[0-9]+$/, '');

function clean(name: string): string | null {
  const n = name.trim().toLowerCase();
  if (n.length < 2 || n.length > 214 || PLACEHOLDER.test(n) || /[\s${}()<>]/.test(n)) return null;
  return n;
}

/** The first markdown/rst/plain heading of a README, as a short name, or null (a sentence or an image is no title). */
export function readmeTitle(text: string): { title: string; line: number } | null {
  const lines = text.split('\n', 41); // the title is looked for in the first 40 lines (and the one after each)
  // A README rendered from Perl's POD: "NAME", then the indented "JSON::XS - what it is".
  const pod = /^\uFEFF?NAME[ \t]*\r?\n(?:[ \t]*\r?\n)*[ \t]+(\S+)[ \t]+-[ \t]/.exec(text);
  if (pod) return { title: pod[1]!.toLowerCase(), line: lineOf(text, pod[0].lastIndexOf(pod[1]!)) };
  if (/^\uFEFF?NAME[ \t]*\r?\n/.test(text)) return null; // POD's heading, not a title
  for (let i = 0; i < Math.min(lines.length, 40); i++) {
    let l = lines[i]!.trim();
    if (!l) continue;
    const setext = /^(=+|-+|#+|\*+)$/.test((lines[i + 1] ?? '').trim()) && (lines[i + 1] ?? '').trim().length >= 3;
    if (/^(=+|-+|\*+)$/.test(l)) continue; // an rst over-line
    if (!l.startsWith('#') && !setext && i > 0) return null;
    l = l
      .replace(/^#+\s*/, '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[*`]/g, '')
      .replace(EMPHASIS_UNDERSCORES, '$1')
      .trim();
    if (!l || l.startsWith('..') || l.startsWith('[')) continue; // badges and directives come before the title
    // "Request - Simplified HTTP client": the name is the part before the tagline.
    const head = l.split(/\s+[-–—:|]\s+|\s*\(/)[0]!.trim();
    if (!head || head.split(/\s+/).length > 3) return null;
    return { title: head.toLowerCase(), line: i + 1 };
  }
  return null;
}

/** The hosted `owner/repo` a text refers to most (at least twice): how a README names its own repository. */
export function selfUrl(text: string): { repo: string; line: number } | null {
  const counts = new Map<string, { n: number; first: number }>();
  HOSTED_URL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = HOSTED_URL.exec(text))) {
    const repo = repoOf(m);
    if (/^(orgs|users|sponsors|features|marketplace|topics|apps|settings)\//.test(repo)) continue;
    const c = counts.get(repo);
    if (c) c.n++;
    else counts.set(repo, { n: 1, first: m.index });
  }
  let best: [string, { n: number; first: number }] | null = null;
  for (const e of [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (!best || e[1].n > best[1].n) best = e;
  if (!best || best[1].n < 2) return null;
  return { repo: best[0], line: lineOf(text, best[1].first) };
}

function tomlSectionValue(text: string, sections: RegExp, key: string): { value: string; index: number } | null {
  let inSection = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    const sec = /^\s*\[([^\]]+)\]/.exec(line);
    if (sec) inSection = sections.test(sec[1]!.trim());
    else if (inSection) {
      const kv = new RegExp(`^\\s*${key}\\s*[=:]\\s*["']?([^"'#\\s]+)`).exec(line);
      if (kv) return { value: kv[1]!, index: offset };
    }
    offset += line.length + 1;
  }
  return null;
}

/**
 * The key of a Python distribution's name, whichever file declares it: setup.py, setup.cfg and pyproject.toml all give
 * the one name the package index knows the project by (its core metadata `Name`), and a project moves it from file to
 * file (engine 0.7.19: alexmojaki/snoop renamed PySnooper's `setup.py` name to `snoop` in `setup.cfg`, and a key per
 * file saw no name that one side kept and the other changed).
 */
export const PYTHON_DISTRIBUTION = 'python';

/**
 * Names a root file declares for its project. `key` says which identity it is
 * (the kind of name and the file, or the ecosystem when several files declare one name), so two snapshots can be
 * compared key by key.
 */
export function namesIn(path: string, text: string, blobId: string, commit: string): NameRef[] {
  const out: NameRef[] = [];
  const file = path.toLowerCase();
  const add = (kind: NameRef['kind'], raw: string | null | undefined, index: number, keyFile = file): void => {
    const name = raw ? (kind === 'module' ? goModule(raw) : clean(raw)) : null;
    if (!name) return;
    out.push({ name, kind, key: `${kind}:${keyFile}`, path, line: lineOf(text, index), blobId, commit });
  };
  const first = (re: RegExp): RegExpExecArray | null => re.exec(text);
  if (file === 'package.json' || file === 'composer.json' || file === 'meta.json') {
    try {
      const j = JSON.parse(text) as { name?: unknown; repository?: unknown };
      if (typeof j.name === 'string') add('package', j.name, text.indexOf('"name"'));
      const repo = typeof j.repository === 'string' ? j.repository : (j.repository as { url?: unknown } | undefined)?.url;
      if (typeof repo === 'string') add('url', hostedRepo(repo), text.indexOf('"repository"'));
    } catch {
      /* not JSON: no names */
    }
  } else if (file === 'setup.py') {
    const m = first(/\bname\s*=\s*['"]([^'"]+)['"]/);
    if (m) add('package', m[1], m.index, PYTHON_DISTRIBUTION);
  } else if (file === 'setup.cfg') {
    const v = tomlSectionValue(text, /^metadata$/, 'name');
    if (v) add('package', v.value, v.index, PYTHON_DISTRIBUTION);
  } else if (file === 'pyproject.toml' || file === 'cargo.toml') {
    const v = tomlSectionValue(text, file === 'cargo.toml' ? /^package$/ : /^(project|tool\.poetry)$/, 'name');
    if (v) add('package', v.value, v.index, file === 'cargo.toml' ? file : PYTHON_DISTRIBUTION);
  } else if (file === 'go.mod') {
    const m = first(/^\s*module\s+"?([^\s"]+)"?/m);
    if (m) add('module', m[1], m.index);
  } else if (file === 'configure.ac' || file === 'configure.in') {
    const m = first(/AC_INIT\(\s*\[?\s*([A-Za-z0-9_.+-]+)/);
    if (m) add('project', m[1], m.index);
  } else if (file === 'cmakelists.txt') {
    const m = first(/^\s*project\s*\(\s*"?([A-Za-z0-9_.+-]+)/im);
    if (m) add('project', m[1], m.index);
  } else if (file === 'meson.build') {
    const m = first(/^\s*project\s*\(\s*'([^']+)'/m);
    if (m) add('project', m[1], m.index);
  } else if (file.endsWith('.gemspec')) {
    const m = first(/\.name\s*=\s*['"]([^'"]+)['"]/);
    if (m) add('package', m[1], m.index, 'gemspec');
  } else if (file === 'pom.xml') {
    const body = text.replace(/<parent>[\s\S]*?<\/parent>/, (s) => ' '.repeat(s.length));
    const m = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(body);
    if (m) add('package', m[1], m.index);
  } else if (file === 'makefile.pl' || file === 'build.pl') {
    // Perl: ExtUtils::MakeMaker's NAME, Module::Build's module_name (`JSON::XS`; the CPAN dist is `JSON-XS`)
    const m = first(file === 'makefile.pl' ? /\bNAME\s*=>\s*['"]([\w:]+)['"]/ : /\bmodule_name\s*=>\s*['"]([\w:]+)['"]/);
    if (m) add('package', m[1], m.index);
  } else if (file === 'dist.ini' || file === 'project.toml') {
    // Dist::Zilla's and Julia's top-level `name = …`, before any section
    const m = /^name\s*=\s*"?([^"\s]+)"?/m.exec(text.split(/^\[/m)[0]!);
    if (m) add('package', m[1], m.index);
  } else if (file.endsWith('.cabal')) {
    const m = first(/^name\s*:\s*(\S+)/im);
    if (m) add('package', m[1], m.index, 'cabal');
  } else if (file.endsWith('.rockspec')) {
    const m = first(/^\s*package\s*=\s*['"]([^'"]+)['"]/m);
    if (m) add('package', m[1], m.index, 'rockspec');
  } else if (file === 'mix.exs') {
    const m = first(/\bapp:\s*:([a-z_][a-z0-9_]*)/);
    if (m) add('package', m[1], m.index);
  } else if (file === 'project.clj') {
    // (defproject group/artifact "version"): the artifact is the name
    const m = first(/\(defproject\s+(?:[^\s/()]+\/)?([^\s/()]+)/);
    if (m) add('package', m[1], m.index);
  } else if (file === 'description') {
    const m = first(/^Package:\s*(\S+)/m);
    if (m) add('package', m[1], m.index);
  } else if (file === 'shard.yml' || file === 'pubspec.yaml') {
    const m = first(/^name:\s*['"]?([\w.-]+)/m);
    if (m) add('package', m[1], m.index);
  } else if (file === 'package.swift') {
    const m = first(/\bPackage\s*\(\s*name:\s*"([^"]+)"/);
    if (m) add('package', m[1], m.index);
  } else if (file === 'settings.gradle' || file === 'settings.gradle.kts') {
    const m = first(/\brootProject\.name\s*=\s*['"]([^'"]+)['"]/);
    if (m) add('project', m[1], m.index);
  } else if (/^readme/.test(file)) {
    const t = readmeTitle(text);
    if (t) out.push({ name: t.title, kind: 'title', key: 'title:readme', path, line: t.line, blobId, commit });
    const u = selfUrl(text);
    if (u) out.push({ name: u.repo, kind: 'url', key: 'url:readme', path, line: u.line, blobId, commit });
  }
  return out;
}

/** Names a repository URL gives: `owner/repo` and the repository's own name. */
export function urlNames(url: string | undefined): string[] {
  if (!url) return [];
  const out = new Set<string>();
  const hosted = hostedRepo(url);
  if (hosted) out.add(hosted);
  const m = /([^/:]+?)(?:\.git)?\/?$/.exec(url);
  if (m?.[1]) out.add(m[1].toLowerCase());
  return [...out].filter((n) => n.length >= 2);
}

/**
 * Every spelling under which a name can be cited in prose: the name itself,
 * an npm scope dropped, `owner/repo` and `repo` of a module path or URL.
 */
export function spellings(name: string): string[] {
  const out = new Set<string>([name]);
  const scoped = /^@[^/]+\/(.+)$/.exec(name);
  if (scoped?.[1]) out.add(scoped[1]);
  const hosted = hostedRepo(name);
  if (hosted) out.add(hosted);
  const parts = (hosted ?? name).split('/');
  if (parts.length >= 2) out.add(parts[parts.length - 1]!);
  return [...out].filter((n) => n.length >= 2);
}

/** Identity values compare without case or separators: `coffee-script` is `coffeescript`. */
export const sameName = (a: string, b: string): boolean => a.replace(/[^a-z0-9/]/g, '') === b.replace(/[^a-z0-9/]/g, '');
