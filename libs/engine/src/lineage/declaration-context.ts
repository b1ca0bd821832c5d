// What stands around a declaration's trigger and changes what it says: a negation before it (a denial), a possessor or
// a link that says whose version of the name it cites, a noun after the name that makes it an idea, not code.
import { MAX_WORDS_AFTER } from './declaration-phrases';
import { EMPHASIS_UNDERSCORES, hostedRepo } from './names';

const TOKEN = /[@A-Za-z0-9][A-Za-z0-9@/._:+-]*[A-Za-z0-9]|[A-Za-z0-9]/g;

/** Tokens a name may be cited as: URLs reduced to `owner/repo`, code and emphasis marks dropped. */
export function candidates(window: string, maxWords = MAX_WORDS_AFTER): string[] {
  const plain = window
    .replace(/\]\(([^)]*)\)/g, ' $1 ')
    .replace(/[`*[\]<>"'()]/g, ' ')
    .replace(EMPHASIS_UNDERSCORES, '$1 ');
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(plain)) && out.length < maxWords + 4) {
    let t = m[0]
      .toLowerCase()
      .replace(/^(git\+)?(https?:\/\/|git:\/\/)?(www\.)?/, '')
      .replace(/\.git$/, '')
      .replace(/[.:]+$/, '');
    const hosted = hostedRepo(t);
    if (hosted) t = hosted;
    out.push(t);
  }
  return out.slice(0, maxWords);
}

/**
 * Words that open a clause of their own: what follows says what the cited project is for or does, not what was
 * forked ("a dwmc client using a fork of fsignal to communicate with dwm", in dwm-flexipatch; "based on X, which uses
 * Y"). The project a trigger cites stands before them (engine 0.7.20).
 */
const CLAUSE = /\s(?:to|which|who|whom|whose|that|with|because|so|when|while|where)\s/i;

/**
 * The part of a trigger's window that can hold the project it cites: up to the first word that opens a clause. The
 * first word never does ("based on that of X" cites X's).
 */
export function objectOf(window: string): string {
  const first = /^\s*\S+/.exec(window)?.[0].length ?? 0;
  const m = CLAUSE.exec(window.slice(first));
  return m ? window.slice(0, first + m.index) : window;
}

/** A name or address label with nothing but letters and digits left, to compare them. */
const bare = (x: string): string => x.replace(/[^a-z0-9]/g, '');

/**
 * The owner of the repository a cited name links to ("a fork of [`yaml`](https://github.com/go-yaml/yaml)": `go-yaml`):
 * the address right after the name, when it keeps the name as its repository part. The link says whose version it is.
 */
export function linkedOwner(words: readonly string[], at: number): string | undefined {
  const m = /^([a-z0-9][a-z0-9._-]*)\/([a-z0-9._-]+)$/.exec(words[at + 1] ?? '');
  return m && bare(m[2]!) === bare(words[at]!) ? m[1] : undefined;
}

/**
 * Hosts that give every project a subdomain of its name (quakespasm.sourceforge.net, foo.github.io,
 * bar.readthedocs.io): such an address says no more than the project's name, as a code host's owner/repo does of its
 * repository.
 */
const PROJECT_HOSTS =
  /(?:^|\.)(?:sourceforge\.net|sourceforge\.io|sf\.net|github\.io|gitlab\.io|readthedocs\.io|readthedocs\.org|rtfd\.io|pages\.dev|netlify\.app|vercel\.app|herokuapp\.com|codeberg\.page|googlecode\.com|bitbucket\.io|sr\.ht)$/;

/**
 * The site a cited name links to, when the site is named after it ("a fork of [st](https://st.suckless.org/)":
 * `st.suckless.org`): a web address right after the name whose host has the name as a label below its top level, on no
 * host that gives every project a subdomain (PROJECT_HOSTS). A code host's address is `linkedOwner`'s; a registry's or
 * a directory's path names a package, not where a project lives.
 */
export function linkedSite(words: readonly string[], at: number): string | undefined {
  const m = /^((?:[a-z0-9-]+\.)+[a-z]{2,})(?:\/|$)/.exec(words[at + 1] ?? '');
  if (!m || PROJECT_HOSTS.test(m[1]!)) return undefined;
  const labels = m[1]!.split('.');
  return labels.slice(0, -1).some((l) => bare(l) === bare(words[at]!)) ? m[1]! : undefined;
}

/**
 * Hosts where an archive belongs to a repository or a package, not to a project's own distribution: code hosts (their
 * release downloads sit under owner/repo, `linkedOwner`'s business) and package registries.
 */
const REPOSITORY_OR_REGISTRY =
  /(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|codeberg\.org|gitee\.com|npmjs\.org|npmjs\.com|pypi\.org|pythonhosted\.org|crates\.io|rubygems\.org|golang\.org|maven\.org|cpan\.org|metacpan\.org|packagist\.org|nuget\.org|hackage\.haskell\.org|hex\.pm|luarocks\.org)$/;
/** What a release is published as. */
const ARCHIVE = /\.(?:tar\.(?:gz|xz|bz2|zst|lz|z)|tgz|txz|tbz2?|zip|7z)$/;
/** A release archive's file stem: the name, then a version (`st-0.9`, `lua-5.4.6`, `less_590`). */
const RELEASE_STEM = /^(.+?)[-_]v?\d[a-z0-9.+-]*$/;
/** Labels a distribution host puts before the site's own (dl.suckless.org, ftp.gnu.org, www.lua.org). */
const SERVICE_LABEL = /^(?:dl|download|downloads|ftp|www|files|release|releases|mirror|mirrors|cdn|get|static|pub|dist)$/;
const URL_IN_TEXT = /\bhttps?:\/\/([a-z0-9.-]+)((?:\/[^\s()[\]<>"'`]*)?)/g;

/**
 * The site whose release of `name` a document links (engine 0.7.18): an archive named after the name and a version
 * (`https://dl.suckless.org/st/st-0.9.tar.gz`), on a host that is neither a code host nor a registry nor a host giving
 * every project a subdomain, with the name as a label of the host or a folder of the path: the project's own
 * distribution. The site is the host without its service labels (`suckless.org`). A copy made from a release says
 * where the release came from.
 */
export function releaseSite(text: string, name: string): string | undefined {
  const want = bare(name.toLowerCase());
  if (!want) return undefined;
  for (const m of text.toLowerCase().matchAll(URL_IN_TEXT)) {
    const host = m[1]!.replace(/\.$/, '');
    if (PROJECT_HOSTS.test(host) || REPOSITORY_OR_REGISTRY.test(host)) continue;
    const parts = m[2]!.split(/[?#]/)[0]!.split('/').filter(Boolean);
    const file = parts.pop() ?? '';
    if (!ARCHIVE.test(file)) continue;
    const stem = RELEASE_STEM.exec(file.replace(ARCHIVE, ''));
    if (!stem || bare(stem[1]!) !== want) continue;
    const labels = host.split('.');
    if (!labels.slice(0, -1).some((l) => bare(l) === want) && !parts.some((p) => bare(p) === want)) continue;
    while (labels.length > 2 && SERVICE_LABEL.test(labels[0]!)) labels.shift();
    return labels.join('.');
  }
  return undefined;
}

/**
 * The possessor standing between a trigger and the name it found ("a fork of ioerror's version of sslscan", "forked
 * from Sam Stephenson's ruby-build"): the word before a possessive `'s` (candidates() drops the apostrophe).
 */
export function possessor(words: readonly string[], at: number): string | undefined {
  for (let j = at - 2; j >= 0; j--)
    if (words[j + 1] === 's' && words[j] !== 's' && /^[a-z0-9][a-z0-9._-]*$/.test(words[j]!)) return words[j];
  return undefined;
}

/**
 * Descent from a project's idea, not its code: "`skim_v2`, the default algorithm, loosely based on `fzf`'s algorithm"
 * (skim, a Rust reimplementation of fzf), "based on the X API". The name is followed by one of these nouns, possessive
 * or not.
 */
const IDEA =
  /^(?:algorithms?|design|ideas?|concepts?|approach|apis?|syntax|interfaces?|protocol|spec|specification|paper|format|semantics|architecture|philosophy|ui|ux|look)$/;
export const LOOSELY = /\b(?:loosely|conceptually|spiritually|inspired\s+(?:by\s+)?and)\s*$/i;

/**
 * A trigger negated within its own sentence is a denial, the opposite of a declaration: "this is not a clone of X",
 * "isn't based on X", "never forked from X", "neither a fork nor a port of X". The negation must stand within
 * DENIAL_WORDS words before the trigger; "not just/only/merely a fork of X" and "no longer a fork of X" still declare.
 * A negation joined to the next word by a hyphen makes a compound, not a denial: "Direct no-stdlib port of the C
 * brotli compressor to Rust" (dropbox/rust-brotli; engine 0.7.20).
 */
const DENIAL_WORDS = 4;
const NEGATION = new RegExp(
  `(?:^|[^A-Za-z0-9'’])(?:not|never|neither|nor|no|(?:is|are|was|were|does|do|did|has|have)n['’]?t)(?![A-Za-z0-9'’]|-[A-Za-z0-9])((?:[\\s,*_\`()-]+[A-Za-z0-9'’]+){0,${DENIAL_WORDS}})[\\s,*_\`()-]*$`,
  'i',
);
const AFFIRMING = /^[\s,*_`()-]*(?:just|only|merely|simply|solely|longer)\b/i;

/**
 * Headings of the sections where a README lists other projects: what a sentence there says ("JavaScript port of
 * brotli [decoder](…)", under google/brotli's "Related projects") is about the project it lists, not the writer.
 */
const LISTING =
  /^(?:(?:related|similar|other|notable)\s+(?:projects?|work|libraries|tools|implementations|ports|forks|bindings|versions|software|(?:programming\s+)?languages)|alternatives?|see\s+also|ports|bindings|wrappers|implementations|third[- ]party|derivatives|forks|projects\s+using|who\s+uses|used\s+by|in\s+the\s+wild|ecosystem)\b/i;
/** A Markdown or reStructuredText heading: `## Title`, or a line underlined with = or -; group 1 or 2 is its title. */
const HEADING = /^#{1,6}[ \t]+([^\n]*?)[ \t#]*$|^([^\n]+)\n(?:=+|-+)[ \t]*$/gm;

/**
 * A sentence that begins by saying something exists ("There is a Rust port of the fast_float library", in fast_float's
 * README) introduces another project: its trigger speaks of that project, not of the writer's descent.
 */
const EXISTENTIAL = /^\s*(?:there\s+(?:is|are|was|were|exists?)|there['’]s|here\s+(?:is|are))\b/i;
export const introducesAnother = (head: string): boolean => EXISTENTIAL.test(head);

/**
 * Where `text`'s sections that list other projects (see LISTING) begin and end, read once per document: a predicate
 * telling whether a position lies in one.
 */
export function listingSections(text: string): (at: number) => boolean {
  const spans: [number, number][] = [];
  let open: number | null = null;
  for (const m of text.matchAll(HEADING)) {
    if (open !== null) spans.push([open, m.index]);
    open = LISTING.test((m[1] ?? m[2] ?? '').replace(/[*_`[\]]/g, '').trim()) ? m.index : null;
  }
  if (open !== null) spans.push([open, text.length]);
  return (at) => spans.some(([from, to]) => at >= from && at < to);
}

/** Whether the trigger at `at` in `text` is negated within its own sentence (see NEGATION). */
export function negated(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 80), at);
  const sentence = before.slice(Math.max(...[/[.!?:;]\s/g, /\n\s*\n/g].map((re) => lastEnd(before, re))));
  const m = NEGATION.exec(sentence);
  return m !== null && !AFFIRMING.test(m[1] ?? '');
}

function lastEnd(text: string, re: RegExp): number {
  let end = 0;
  for (const m of text.matchAll(re)) end = m.index + m[0].length;
  return end;
}

export function borrowsAnIdea(words: readonly string[], at: number, pastLink = false): boolean {
  let j = words[at + 1] === 's' ? at + 2 : at + 1;
  // A claim of having remade a name reads past the address the name links to ("a Go implementation of the
  // [WebSocket](http://www.rfc-editor.org/rfc/rfc6455.txt) protocol", Gorilla WebSocket): the noun after it is the idea.
  if (pastLink && /[./]/.test(words[j] ?? '')) j++;
  const next = words[j];
  return next !== undefined && IDEA.test(next);
}

/** How far back a trigger's sentence is read for the name it is about. */
const SUBJECT_CHARS = 160;
/** Where a sentence, a list item or a paragraph starts: what comes before it is another sentence's. */
const SENTENCE_START = /[.!?][*_`'")\]]*\s+|\n[ \t]*(?:[-*+]|\d+[.)])[ \t]+|\n(?=[ \t]*\n)|^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/g;

/** The words of a trigger's own sentence before the trigger ("[globalsign/mgo](…) - Community supported "). */
export function sentenceHead(text: string, at: number): string {
  const from = Math.max(0, at - SUBJECT_CHARS);
  const head = text.slice(from, at);
  let start = 0;
  SENTENCE_START.lastIndex = 0;
  for (let m = SENTENCE_START.exec(head); m; m = SENTENCE_START.exec(head)) start = m.index + m[0].length;
  return head.slice(start);
}

/**
 * Whether a trigger's sentence is about the other side: the first name in it before the trigger is one only the other
 * side carries (engine 0.7.19). "[globalsign/mgo](https://github.com/globalsign/mgo) - Community supported fork of
 * mgo", in mgo's own deprecation notice, says the other side is a fork; the writer declares no descent of its own. A
 * name the writer carries first ("snoop is a fork of …") keeps the sentence the writer's.
 */
export function aboutTheOther(words: readonly string[], own: ReadonlySet<string>, theirs: ReadonlySet<string>): boolean {
  for (const w of words) {
    if (theirs.has(w)) return true;
    if (own.has(w)) return false;
  }
  return false;
}

/** Words that call a project the original: a sentence pointing at "the official version" points back, not forward. */
const THE_ORIGINAL = new Set(['official', 'original', 'upstream', 'canonical', 'mainline']);
/** The qualifier stands right before the name or one noun before it ("official version volley"), not anywhere. */
const QUALIFIER_WORDS = 2;

/**
 * Whether a successor sentence calls the project it names the original (engine 0.7.19): "this project is deprecated
 * …, please use official version [volley](https://github.com/google/volley)", in a deprecated mirror, sends its users
 * back to the project it copied, which is no successor of it.
 */
export function pointsBack(words: readonly string[], at: number): boolean {
  // A link's address stands right after its text ("[volley](https://github.com/google/volley)"): count from the text.
  const name = at > 0 && linkedOwner(words, at - 1) !== undefined ? at - 1 : at;
  return words.slice(Math.max(0, name - QUALIFIER_WORDS), name).some((w) => THE_ORIGINAL.has(w));
}
