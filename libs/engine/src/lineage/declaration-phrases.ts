// The phrases declarations are read by (declarations.ts): what a project says when it descends from another, what a
// comment says when code came from elsewhere, and what an original says when the project went on somewhere else.
// Each phrase holds for projects in general; the project a phrase was first met in is named beside it.

/** One global regular expression matching any of `alternatives` as whole words. */
const phrases = (alternatives: readonly string[]): RegExp => new RegExp(alternatives.map((t) => `\\b${t}(?![A-Za-z0-9])`).join('|'), 'gi');

/**
 * The triggers by which a project says another project went on from the one named: naming the speaker's own name
 * they speak of a later project ("I released the successor to Jedi", in Jedi's README), not of the speaker's origin.
 */
const LATER = ['continuation\\s+of', 'successor\\s+(?:to|of)', 'descendant\\s+of', 'spin-?off\\s+(?:of|from)'];

const DESCENT = [
  // "This is a fork and split of the original ghodss/yaml repository" (invopop/yaml)
  '(?:hard|soft|friendly|community|maintained|community[- ]maintained|actively[- ]maintained|blessed|official)?\\s*fork(?:ed)?(?:\\s+and\\s+(?:split|rewrite|continuation|extension|port))?\\s+(?:of|from|off)',
  // "forked in 2016 from the abandoned Livestreamer project" (streamlink)
  'forked\\s+(?:it\\s+|this\\s+\\w+\\s+|(?:back\\s+)?in\\s+(?:\\w+\\s+)?\\d{4}\\s+)?from',
  // "based (forked) on Requests" (niquests)
  'based\\s+(?:\\([^)\\n]{1,24}\\)\\s+)?on',
  // "It is built on earlier work on LevelDB": building on a project's work, not on a platform ("built on Node.js")
  '(?:built|builds|building)\\s+(?:up)?on\\s+(?:the\\s+)?(?:earlier|previous|prior|original)\\s+work\\s+(?:on|of|by|from|in)',
  // "We have decided to fork the original `Faust` project because …" (faust-streaming/faust): the writers say they
  // forked it. Only in the first person: "fork the repository and open a pull request" tells a contributor what to do.
  "(?:we|i)(?:'ve|\\s+have|\\s+had)?\\s+(?:(?:decided|chosen|chose)\\s+to\\s+)?fork(?:ed)?",
  'derived\\s+from',
  ...LATER,
  'cloned?\\s+(?:of|from)',
  'originally\\s+(?:forked\\s+from|based\\s+on|derived\\s+from|from|part\\s+of|known\\s+as|called|named|released\\s+as)',
  'formerly(?:\\s+known\\s+as|\\s+called)?',
  'previously\\s+(?:known\\s+as|called|named)',
  'renamed\\s+from',
  'upstream(?:\\s+(?:is|project|repository|repo|library))?\\s*:?',
  'port\\s+of',
  // "This is an unofficial mirror (with some minor bugfix) for volley" (mcxiaoke/android-volley): a mirror is a copy
  '(?:unofficial|official|read-only)?\\s*mirror\\s+(?:\\([^)\\n]{1,40}\\)\\s+)?(?:of|for)',
  // "Ported from `classnames` for compatibility checks." (clsx's test/classnames.js)
  'ported\\s+from',
  // "OpenDoas: a portable version of OpenBSD's doas command": a portable version is a port
  '(?:maintained|patched|modernized|updated|improved|extended|modified|portable)\\s+version\\s+of',
  // "Originating from the JSLint project in 2010, JSHint …", "This project originates from Google's golang/mock repo"
  'originat(?:es?|ed|ing)\\s+(?:from|as)',
  // "Our HTTP parser is inherited from Mongrel" (puma)
  'inherited\\s+from',
  // "It was pulled out of jedi to be useful for other projects as well" (parso); "extracted from", "split out of"
  '(?:pulled|split|spun|carved)\\s+out\\s+(?:of|from)',
  'split\\s+(?:off\\s+)?from',
  'extracted\\s+from',
];
export const TRIGGER = phrases(DESCENT);
/**
 * The triggers by which a project says it descends from a project of its own name ("a portable version of the OpenBSD
 * signify command", in signify; "importing all changes from the upstream OpenBSD mg repository", in a portable mg): a
 * second project made from that one. Those of LATER are left out.
 */
export const OWN_NAME_TRIGGER = phrases(DESCENT.filter((t) => !LATER.includes(t)));
/**
 * The triggers by which a project says it remade another's design in code of its own (engine 0.7.18): "a Python
 * implementation of Mustache" (pystache), "a JavaScript/TypeScript rewrite of Box2D" (planck.js), "a translation in
 * JavaScript of the original program" (cowsay), "a Python version of Ruby's VCR library" (vcrpy), "the Golang adaptation
 * of … the NPM JavaScript pluralize package" (go-pluralize). Such a claim never convicts: code in another language cannot confirm
 * it, and the same words name a protocol's or a format's implementations. It only keeps the engine from calling the
 * pair independent when nothing else is in common (decide/facts.ts, `claimed`).
 */
export const DESIGN_TRIGGER = phrases([
  '(?:re-?)?implementation\\s+of',
  're-?write\\s+of',
  'translation\\s+(?:(?:in|into|to)\\s+[A-Za-z+#]+\\s+)?of',
  'adaptation\\s+of',
  // A version in a language is the project remade in it; "an updated version of" is a declaration (DESCENT).
  '(?:python|go|golang|rust|java|javascript|typescript|ruby|php|lua|perl|haskell|swift|kotlin|scala|elixir|erlang|ocaml|c|c\\+\\+|c#|node(?:\\.js)?|js)\\s+version\\s+of',
]);

/**
 * The triggers read in code comments (SideLineageInput's codeComments): only those that say the code itself came from
 * somewhere. "Based on" is left out: comments use it for everything ("returns a UUID based on the MD5 hash of the
 * namespace UUID", satori/go.uuid's generator.go).
 */
export const CODE_TRIGGER = phrases([
  'ported\\s+from',
  'port\\s+of',
  'fork(?:ed)?\\s+(?:of|from)',
  'derived\\s+from',
  '(?:copied|taken|adapted|borrowed|lifted|extracted|vendored)\\s+from',
  'originally\\s+from',
]);
/** In a comment the name comes right after the trigger ("Ported from `classnames` for compatibility checks."). */
export const MAX_WORDS_AFTER_IN_CODE = 3;

/** How many words after the trigger a name may come ("a fork of the excellent `request` module"). */
export const MAX_WORDS_AFTER = 8;

/**
 * An original pointing at its successor: "The new repository can be found at",
 * "now maintained by … at [repository](…)", "moved to", "please use … instead".
 * The name may come anywhere in the rest of the sentence.
 */
export const SUCCESSOR = phrases([
  'new\\s+(?:repository|repo|home|location|project)',
  '(?:has\\s+)?moved\\s+to',
  'now\\s+(?:maintained|developed|lives|hosted|continued|available)',
  'continued\\s+(?:at|in|on|by|as)',
  'superseded\\s+by',
  // "migrated to the Eclipse Foundation, re-branded as Eclipse Collections" (goldmansachs/gs-collections)
  're-?branded\\s+(?:as|to)',
  'renamed\\s+(?:to|as)',
  'replaced\\s+by',
  'successor\\s+(?:is|project|repository)',
  'deprecated\\s+in\\s+favou?r\\s+of',
  'please\\s+(?:use|switch\\s+to|migrate\\s+to)',
  // "Kreeti is maintaining kt-paperclip, an ongoing fork of Paperclip" (thoughtbot/paperclip)
  '(?:is|are)\\s+(?:now\\s+)?maintaining',
  // "WE CONTINUE THE DEVELOPMENT AT go-git/go-git" (src-d/go-git), "development continues at …"
  'continue[sd]?\\s+(?:the\\s+|its\\s+|our\\s+)?(?:development|maintenance)',
  'development\\s+(?:continues|has\\s+moved|moved|is\\s+continued)',
  // "The current active community project can be found at https://github.com/faust-streaming/faust" (robinhood/faust),
  // "Maintained fork can be found at: …" (awumii/EpicGuard): where the active project is found is where it lives on.
  '(?:active|(?:actively\\s+)?maintained)\\s+(?:community\\s+)?(?:project|fork|version|repository|repo)\\s+(?:can\\s+be\\s+found|is(?:\\s+now)?(?:\\s+available)?|lives)\\s+(?:at|on|here)',
  // "There is an actively maintained fork of this project available at …" (eslint/typescript-eslint-parser)
  'fork\\s+of\\s+this\\s+(?:project|repository|repo|library|package|module)',
]);
export const MAX_WORDS_SUCCESSOR = 30;
