// Declarations of descent in ordinary prose ("This is a fork of the excellent
// `request` module", "a continuation of harthur/brain", "formerly known as X"):
// a trigger phrase, then a name within the next few words of the same sentence.
import {
  aboutTheOther,
  borrowsAnIdea,
  candidates,
  introducesAnother,
  listingSections,
  LOOSELY,
  linkedOwner,
  linkedSite,
  negated,
  objectOf,
  pointsBack,
  possessor,
  releaseSite,
  sentenceHead,
} from './declaration-context';
import { lineOf } from './names';

export { candidates, linkedOwner, linkedSite, negated, possessor, releaseSite } from './declaration-context';
import {
  CODE_TRIGGER,
  DESIGN_TRIGGER,
  MAX_WORDS_AFTER,
  MAX_WORDS_AFTER_IN_CODE,
  MAX_WORDS_SUCCESSOR,
  SUCCESSOR,
  TRIGGER,
} from './declaration-phrases';

export interface Declaration {
  /** the name matched, as normalised */
  name: string;
  path: string;
  line: number;
  /** the trigger and the words after it, normalised: compared to find text inherited from the other side */
  sentence: string;
  /**
   * whose version of the name it cites, when it says so: a possessor ("a fork of ioerror's version of sslscan":
   * `ioerror`) or the owner of the repository the name links to (`[yaml](https://github.com/go-yaml/yaml)`: `go-yaml`)
   */
  owner?: string;
  /**
   * the site the name links to, when the site is named after it (`[st](https://st.suckless.org/)`: `st.suckless.org`),
   * else the site whose release archive of the name the document links (`st-0.9.tar.gz` on dl.suckless.org:
   * `suckless.org`, see `releaseSite`)
   */
  site?: string;
}

const THIS_PROJECT = /^\s*(?:this|our)\s+(?:project|repository|repo|library|package|module|crate|gem|code)\b/i;

/** Text from a trigger to the end of its sentence (at most a short line's worth), markup removed. */
function windowAfter(text: string, from: number): string {
  let end = Math.min(text.length, from + 240);
  // A sentence ends at a stop even when markup closes after it ("**1. Upstream test suite.** We maintain …").
  const stop = /[.!?][*_`'")\]]*(\s|$)|\n\s*\n|\n[#=*-]/g;
  stop.lastIndex = from;
  const m = stop.exec(text);
  if (m && m.index < end) end = m.index;
  return text.slice(from, end);
}

/**
 * A sentence as compared to recognise inherited text: lower case, markup and punctuation gone, and a link's scheme
 * dropped (engine 0.7.18): a copy of an older README or AUTHORS keeps "<http://7-zip.org/sdk.html>" where the project's
 * present one has https, and is the same sentence (fochoao/xz-5.2.2 against tukaani-project/xz).
 */
export const normaliseSentence = (s: string): string =>
  s
    .toLowerCase()
    .replace(/\bhttps?:\/\//g, '')
    .replace(/[^a-z0-9@/._-]+/g, ' ')
    .trim();

/**
 * A project cited at a release ("forked from Fabric-1.14", "a fork of foo@2.3.1", "bar-1.x"): the name without the
 * version, or null. Only a dotted version after a hyphen or an at sign: "fabric3", "web3", "log4j" and "yaml.v2" are
 * names of their own.
 */
export function unversioned(token: string): string | null {
  const m = /^([@a-z0-9][a-z0-9@._/+-]*?[a-z0-9])[-@]v?\d+(?:\.(?:\d+|x))+$/.exec(token);
  return m ? m[1]! : null;
}

/**
 * The first declaration in `docs` that names one of `names` (spellings of the
 * other repository's names), skipping names in `own` (the declarer's own) and
 * sentences in `inherited`. A trigger whose first name is the declarer's own
 * speaks of the declarer ("an updated version of SDS, to unify Redis, Disque and
 * the stand-alone SDS"): a name later in that sentence is not what it descends from.
 * A sentence whose first name is one only the other side carries (`theirs`) speaks
 * of the other side (see aboutTheOther).
 */
export function findDeclaration(
  docs: readonly { path: string; text: string }[],
  names: ReadonlySet<string>,
  own: ReadonlySet<string>,
  inherited: ReadonlySet<string> = new Set(),
  /** the phrases read: TRIGGER, or a subset of it (OWN_NAME_TRIGGER) */
  triggers: RegExp = TRIGGER,
  theirs: ReadonlySet<string> = new Set(),
): Declaration | null {
  return find(triggers, MAX_WORDS_AFTER, docs, names, own, inherited, true, false, theirs);
}

/**
 * The first sentence in `docs` that denies descent from one of `names` ("this is not a clone of X", "not based on X"):
 * a declaration's trigger negated in its own sentence (see NEGATION). Evidence against descent, never for it.
 */
export function findDenial(
  docs: readonly { path: string; text: string }[],
  names: ReadonlySet<string>,
  own: ReadonlySet<string>,
): Declaration | null {
  return find(TRIGGER, MAX_WORDS_AFTER, docs, names, own, new Set(), true, true);
}

/** The first sentence in `docs` that says the project remade one of `names` in code of its own (see DESIGN_TRIGGER). */
export function findDesignClaim(
  docs: readonly { path: string; text: string }[],
  names: ReadonlySet<string>,
  own: ReadonlySet<string>,
  inherited: ReadonlySet<string> = new Set(),
): Declaration | null {
  return find(DESIGN_TRIGGER, MAX_WORDS_AFTER, docs, names, own, inherited, true);
}

/** The first comment in `docs` that says its code came from one of `names` (see CODE_TRIGGER). */
export function findDeclarationInCode(
  docs: readonly { path: string; text: string }[],
  names: ReadonlySet<string>,
  own: ReadonlySet<string>,
  inherited: ReadonlySet<string> = new Set(),
): Declaration | null {
  return find(CODE_TRIGGER, MAX_WORDS_AFTER_IN_CODE, docs, names, own, inherited, true);
}

/** The first sentence in `docs` that points at one of `names` as where the project went on (see SUCCESSOR). */
export function findSuccessor(
  docs: readonly { path: string; text: string }[],
  names: ReadonlySet<string>,
  own: ReadonlySet<string>,
  inherited: ReadonlySet<string> = new Set(),
): Declaration | null {
  return find(SUCCESSOR, MAX_WORDS_SUCCESSOR, docs, names, own, inherited, false);
}

/**
 * The text without Markdown's blockquote markers: a sentence quoted over several lines ("> Started as a fork\n> of
 * [colorette](…)", nanocolors) reads as one. Only characters within lines go, so line numbers stay.
 */
const unquoted = (text: string): string => text.replace(/^[ \t]*(?:>[ \t]?)+/gm, '');

function find(
  trigger: RegExp,
  maxWords: number,
  docs: readonly { path: string; text: string }[],
  names: ReadonlySet<string>,
  own: ReadonlySet<string>,
  inherited: ReadonlySet<string>,
  stopAtOwn: boolean,
  denials = false,
  theirs: ReadonlySet<string> = new Set(),
): Declaration | null {
  if (!names.size) return null;
  for (const d of docs) {
    const text = unquoted(d.text);
    // Read at the first trigger only; a comment's lines are no document's sections.
    let sections: ((at: number) => boolean) | undefined;
    const inListing = (at: number): boolean => trigger !== CODE_TRIGGER && (sections ??= listingSections(text))(at);
    trigger.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = trigger.exec(text))) {
      // A denial is read only as a denial, a declaration only as a declaration.
      if (negated(text, m.index) !== denials) continue;
      const win = windowAfter(text, m.index + m[0].length);
      // A sentence the other side (or the shared project) has too was inherited, not declared by this side.
      if (inherited.has(normaliseSentence(m[0] + ' ' + win))) continue;
      // Two words past the last place a name may stand: what follows a name tells an idea borrowed from a project.
      const cs = candidates(objectOf(win), maxWords + 2);
      if (stopAtOwn && LOOSELY.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
      const head = sentenceHead(text, m.index);
      // A sentence in a section that lists other projects, or one that says another exists, speaks of them
      // (declaration-context.ts, LISTING and EXISTENTIAL).
      if (stopAtOwn && (inListing(m.index) || introducesAnother(head))) continue;
      // "a fork of this project is maintained at X" speaks of the declarer's own descendants (see SUCCESSOR).
      if (stopAtOwn && THIS_PROJECT.test(win)) continue;
      if (theirs.size && aboutTheOther(candidates(head, MAX_WORDS_AFTER), own, theirs)) continue;
      for (let i = 0; i < Math.min(cs.length, maxWords); i++) {
        const word = cs[i]!;
        const bare = unversioned(word);
        const c = [word, bare].find((x) => x !== null && names.has(x) && !own.has(x));
        if (c) {
          if (stopAtOwn && borrowsAnIdea(cs, i, trigger === DESIGN_TRIGGER)) break;
          if (trigger === SUCCESSOR && pointsBack(cs, i)) break;
          const owner = c.includes('/') ? undefined : (possessor(cs, i) ?? linkedOwner(cs, i));
          const site = c.includes('/') ? undefined : (linkedSite(cs, i) ?? releaseSite(text, c));
          return {
            name: c,
            path: d.path,
            line: lineOf(text, m.index),
            sentence: normaliseSentence(m[0] + ' ' + win),
            ...(owner ? { owner } : {}),
            ...(site ? { site } : {}),
          };
        }
        if (stopAtOwn && own.has(word)) break;
      }
    }
  }
  return null;
}

/** Triggers that say the declarer was the named project under another name, not that it was made from it. */
const RENAMED = /^(?:originally (?:known as|called|named|released as)|formerly|previously (?:known as|called|named)|renamed from)\b/;

/**
 * Whether a declaration says the declarer was made from the project it names ("forked from ruby-build"), rather than
 * that it is that project renamed ("formerly known as X"): only the first makes the declarer a second project.
 */
export const declaresAnother = (d: Declaration): boolean => !RENAMED.test(d.sentence);

/** Every trigger sentence of the texts, normalised (to recognise a declaration both sides inherited). */
export function declarationSentences(texts: readonly string[], max = 64): string[] {
  const out = new Set<string>();
  for (const re of [TRIGGER, SUCCESSOR]) {
    for (const raw of texts) {
      const text = unquoted(raw);
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) && out.size < max) out.add(normaliseSentence(m[0] + ' ' + windowAfter(text, m.index + m[0].length)));
    }
  }
  return [...out].sort();
}
