/**
 * Bump whenever the manifest content for the same input could change
 * (0.2.0: shared misspellings in LANGUAGE, from the pinned list in typos.ts;
 * 0.3.0: code fingerprints common across unrelated code weigh nothing, from data/common-fingerprints.bin;
 * 0.4.0: shared history decides who forked from whom: topology from git, lineage signals, the manifest's `lineage`;
 * 0.5.0: evidence text gives first appearances as ISO 8601 UTC times, not Unix seconds;
 * 0.6.0: RENAMED_AT_FORK: the side that took a new name within 60 days of the fork point is the new project, and
 * maintainers who went with it do not make it the original; an XML or HTML document under a code file's extension,
 * such as a Qt translation `.ts` file, is config, not code;
 * 0.6.1: "built on earlier work on X" declares descent from X; maintainer continuity counts a side's own commits
 * dated after the newest fork point only;
 * 0.6.2: maintainer continuity reads each side's mainline (first-parent chain) only, and a sync merge counts only
 * when it brings in a commit of the other side's mainline; "a modified version of X" and "originating from X"
 * declare descent from X; without shared history, matched material each side had first in comparable amounts is
 * SHARED_UPSTREAM;
 * 0.6.3: own commits of both sides with the same author time and subject (a history converted apart, cherry-picks)
 * are shared history for the maintainers signal; the chronology veto needs the dated material to decide the other
 * direction, not merely lean; material found in a file's first version is followed to the file the same commit
 * took it out of, and dated there;
 * 0.6.4: a declaration trigger whose first name is the declarer's own speaks of the declarer: no name after it in
 * that sentence is declared;
 * 0.6.5: code matching runs in an orientation chosen from the two trees' contents, so exchanging origin and target
 * gives the same fragments and containments, mirrored;
 * 0.6.6: a declaration naming the other project's idea ("loosely based on fzf's algorithm", "based on the X API")
 * is no declaration of descent; "forked in 2016 from X", "based (forked) on X", "originates from X" declare it;
 * "Y is maintaining X" points at a successor; a sentence ends at a stop that markup closes; material that no
 * recorded version of its path holds is undated instead of dated to the newest version; root prose files (NOTICE,
 * CREDITS, AUTHORS, …) are read for declarations at the pinned commit; material both histories begin with is not
 * counted when one of them goes on past a snapshot; two projects generated from one template that both READMEs cite,
 * whose matched material came with each side's bootstrap commit, are SHARED_UPSTREAM; a rename at the fork point
 * must be to a new name;
 * 0.6.7: a file renamed or moved (its old path deleted in the same commit, with the same blob or the same file
 * name) keeps its versions from before the move for dating; without a merge base, commits both histories hold under
 * other ids (the same author time, e-mail and subject) are a history rewritten apart: common ancestry
 * (REWRITTEN_COMMITS), derived in the direction of the dated material or SHARED_UPSTREAM; a declaration naming the
 * other side's own URL counts though neither side continues the shared history's authors; "we continue the
 * development at X", "development continues at X", "a maintained fork of this project" name a successor, and a
 * trigger followed by "this project" declares nothing; material the earlier side keeps in a directory named after the
 * other project is not counted for it;
 * 0.6.8: files of languages without a grammar here (Perl, Haskell, Erlang, Clojure, CoffeeScript, R, Julia,
 * assembly, …) are code, through the generic lexer, not prose; `t/` and `.t` files are tests; HTML and CSS under
 * `docs/` are prose; project names are read
 * from the manifests of Perl, Haskell, Elixir, Clojure, R, Julia, Crystal, Dart, Swift, Gradle and LuaRocks, and from a
 * POD README's NAME; "a fork and split of X" and "inherited from X" declare descent, "re-branded as Y" and "renamed
 * to Y" name a successor; a history committed in one go (IMPORTED_HISTORY) dates its material at the import, and its
 * later dates are not counted;
 * 0.6.9: Python's `_vendor/` (and `_vendored/`, `vendored/`) directories hold vendored copies (left out like vendor/:
 * poetry-core and pdm-backend both vendor packaging and tomli); "pulled out of X" (also split, spun or carved out of),
 * "split off from X" and "extracted from X" declare descent;
 * 0.6.10: without shared history, a root licence (LICENSE, COPYING, …) that names the other side's founder, or the
 * author of a tenth of its commits, as a copyright holder, who made none of its own commits, keeps the other's
 * copyright notice (COPYRIGHT_ATTRIBUTION): it gives the direction, over the dated material;
 * 0.6.11: declarations and successors are read through Markdown blockquote markers, so a sentence quoted over several
 * lines is one sentence;
 * 0.6.12: successor statements are also read in READMEs below the root, in the directories that hold a side's matched
 * code (a package moved out of a larger repository is announced where it was: go-kit/kit's log/README.md); without
 * shared history, the original pointing at the other side as its successor gives the direction, over the dated
 * material, as a copyright attribution does (the two disagreeing leave none); SUCCESSOR_NAMED is a chronology fact;
 * without shared history, a comment in code matched with the other side that declares descent from it by a name it
 * carries now gives the direction the same way, unless a README declares descent (DECLARED_IN_CODE: clsx's "Ported from
 * `classnames`"; "based on" is not read in code); "ported from X" declares descent);
 * 0.6.13: without shared history, a library both sides embed is their common source (THIRD_PARTY_CODE,
 * SHARED_UPSTREAM): the heads of the matched files keep, on both sides, the copyright notice of a holder who is
 * neither side's principal author or founder nor named in either side's root licence, and that holder's files (those
 * whose head names it, and the files beside them below the root) hold at least 80% of each side's matched
 * fingerprints and less than half of each side's code tokens (orjson and libmseed, both carrying ibireme's yyjson);
 * with shared history, both sides declaring descent from the shared project by one of its names at the fork point
 * makes neither the original, and the declarations weigh nothing (KeyDB and Valkey, both forks of Redis);
 * 0.6.14: Lua files are tokenised as the first Lua parse of a thread was: the Lua grammar's scanner kept its state
 * from one parse to the next (tokenize/grammar-fixes.ts), so a Lua file's tokens depended on the file parsed before
 * it on the same thread, and so on scheduling; a name with underscores is read whole in declarations, successor
 * statements and README titles (only underscores at a word's edge are Markdown emphasis): squizlabs/PHP_CodeSniffer's
 * "Its successor is PHPCSStandards/PHP_CodeSniffer";
 * 0.6.15: a declaration naming a project at a release (a dotted version after a hyphen or an at sign) names the
 * project: ploxiln/fab-classic's "forked from Fabric-1.14" declares descent from fabric, as Fabric3's "a fork of
 * Fabric" does, and the two forks of fabric 1.x are siblings; a library both sides embed is also told by a
 * public-domain dedication (SQLite's "The author disclaims copyright") or a pointer to the notice in another file
 * (Lua's "See Copyright Notice in lua.h") heading its files on both sides, which may then be up to 80% of a side's
 * code (go-sqlite3 and rusqlite, dew and lua_sandbox);
 * 0.6.16: without shared history, one side's matched files adding its own people's copyright notice under a holder
 * both sides' files name makes that side the copier (COPYRIGHT_ATTRIBUTION, as a licence naming the other side's
 * author does): Chocolate Doom's "Copyright(C) 2005-2014 Simon Howard" under id Software's notice, which id's 2012
 * upload of the 1997 release has alone;
 * 0.6.17: with no history in common (no shared commit ids, none held under other ids), a declaration naming a name the
 * other side carried no longer points at that side when that side's own text declares descent from the same name (not
 * a rename): both were made from a third project, and the matched material is its, a common source (SHARED_UPSTREAM):
 * pyenv's "forked from rbenv and ruby-build" against node-build's "Forked from Sam Stephenson's ruby-build".
 */
export const ENGINE_VERSION = 'lineage-engine/0.6.17';
export const MANIFEST_VERSION = '1';
