import {
  candidates,
  declarationSentences,
  findDeclaration,
  findDenial,
  findDesignClaim,
  findSuccessor,
  linkedSite,
  releaseSite,
  negated,
  unversioned,
} from '../src/lineage/declarations';
import { aboutTheOther, pointsBack, sentenceHead } from '../src/lineage/declaration-context';
import { namesIn, readmeTitle, sameName, selfUrl, spellings } from '../src/lineage/names';

const C = 'c'.repeat(40);
const B = 'b'.repeat(40);
const names = (path: string, text: string) => namesIn(path, text, B, C).map((n) => `${n.key}=${n.name}@${n.line}`);

describe('project names in root files', () => {
  it('reads package, module and project names with their line', () => {
    expect(
      names(
        'package.json',
        '{\n  "name": "Coffee-Script",\n  "repository": { "url": "git+https://github.com/jashkenas/coffeescript.git" }\n}',
      ),
    ).toEqual(['package:package.json=coffee-script@2', 'url:package.json=jashkenas/coffeescript@3']);
    expect(names('go.mod', 'module github.com/gofrs/uuid/v5\n\ngo 1.19\n')).toEqual(['module:go.mod=github.com/gofrs/uuid@1']);
    expect(names('setup.py', "from setuptools import setup\nsetup(\n    name = 'pdfminer',\n)")).toEqual(['package:python=pdfminer@3']);
    expect(names('setup.cfg', '[options]\nname = wrong\n[metadata]\nname = pyjwt\n')).toEqual(['package:python=pyjwt@4']);
    expect(names('pyproject.toml', '[build-system]\nrequires = []\n[project]\nname = "pdfminer.six"\n')).toEqual([
      'package:python=pdfminer.six@4',
    ]);
    expect(names('Cargo.toml', '[package]\nname = "ripgrep"\n[dependencies]\nname = "x"\n')).toEqual(['package:cargo.toml=ripgrep@2']);
    // One key for a Python distribution's name in any of its files; Cargo's stays its own.
    const key = (path: string, text: string) => namesIn(path, text, B, C)[0]!.key;
    expect(key('Cargo.toml', '[package]\nname = "ripgrep"\n')).not.toBe(key('pyproject.toml', '[project]\nname = "ripgrep"\n'));
    expect(names('configure.ac', 'AC_INIT([htop],[2.2.0],[hisham@gobolinux.org])\n')).toEqual(['project:configure.ac=htop@1']);
    expect(names('CMakeLists.txt', 'cmake_minimum_required(VERSION 3.5)\nproject(zlib C)\n')).toEqual(['project:cmakelists.txt=zlib@2']);
  });

  it('reads the manifests of Perl, Haskell, Elixir, Clojure, R, Julia, Crystal, Dart, Swift, Gradle and LuaRocks', () => {
    expect(names('Makefile.PL', "use ExtUtils::MakeMaker;\nWriteMakefile(\n    NAME => 'Cpanel::JSON::XS',\n);")).toEqual([
      'package:makefile.pl=cpanel::json::xs@3',
    ]);
    expect(names('Build.PL', "Module::Build->new(\n  module_name => 'Moose',\n)")).toEqual(['package:build.pl=moose@2']);
    expect(names('META.json', '{\n   "abstract" : "JSON",\n   "name" : "JSON-XS"\n}')).toEqual(['package:meta.json=json-xs@3']);
    expect(names('dist.ini', 'name = Dist-Zilla\nauthor = x\n[@Basic]\nname = wrong\n')).toEqual(['package:dist.ini=dist-zilla@1']);
    expect(names('megaparsec.cabal', 'cabal-version: 2.4\nname:          megaparsec\nversion: 9\n')).toEqual([
      'package:cabal=megaparsec@2',
    ]);
    expect(names('mix.exs', 'defmodule Plug.Cowboy.MixProject do\n  def project do\n    [\n      app: :plug_cowboy,\n')).toEqual([
      'package:mix.exs=plug_cowboy@4',
    ]);
    expect(names('project.clj', '(defproject org.clojure/core.async "1.6"\n  :description "x")')).toEqual([
      'package:project.clj=core.async@1',
    ]);
    expect(names('project.clj', '(defproject ring "1.9.0")')).toEqual(['package:project.clj=ring@1']);
    expect(names('DESCRIPTION', 'Package: data.table\nVersion: 1.15\n')).toEqual(['package:description=data.table@1']);
    expect(names('Project.toml', 'name = "DataFrames"\nuuid = "a93c"\n[deps]\nname = "x"\n')).toEqual([
      'package:project.toml=dataframes@1',
    ]);
    expect(names('shard.yml', 'name: kemal\nversion: 1.0\n')).toEqual(['package:shard.yml=kemal@1']);
    expect(names('pubspec.yaml', "name: 'http'\n")).toEqual(['package:pubspec.yaml=http@1']);
    expect(names('Package.swift', 'let package = Package(\n    name: "Alamofire",\n')).toEqual(['package:package.swift=alamofire@1']);
    expect(names('settings.gradle', "rootProject.name = 'okhttp-parent'\n")).toEqual(['project:settings.gradle=okhttp-parent@1']);
    expect(names('lua-cjson-2.1.0-1.rockspec', 'package = "lua-cjson"\nversion = "2.1.0-1"\n')).toEqual(['package:rockspec=lua-cjson@1']);
  });

  it("takes the title of a README rendered from Perl's POD", () => {
    expect(readmeTitle('NAME\n    Cpanel::JSON::XS - cPanel fork of JSON::XS, fast and correct serializing\n\nSYNOPSIS\n')).toEqual({
      title: 'cpanel::json::xs',
      line: 2,
    });
    expect(readmeTitle('NAME\n\nSomething else entirely\n')).toBeNull();
  });

  it('ignores template placeholders and unparsable files', () => {
    expect(names('configure.ac', 'AC_INIT([FULL-PACKAGE-NAME], [VERSION], [BUG-REPORT-ADDRESS])')).toEqual([]);
    expect(names('package.json', '{ not json')).toEqual([]);
    expect(names('setup.py', 'setup(name=project_name)')).toEqual([]);
  });

  it("takes a README's title (after badges, before a tagline) and the repository it refers to most", () => {
    expect(readmeTitle('[![Build](https://x/y.svg)](https://x)\n\n# Request - Simplified HTTP client\n')).toEqual({
      title: 'request',
      line: 3,
    });
    expect(readmeTitle('PDFMiner\n========\n\nPDFMiner is a tool')).toEqual({ title: 'pdfminer', line: 1 });
    expect(readmeTitle('This project has reached the end of its development as a library.\n')).toBeNull();
    const readme =
      'Install: go get github.com/satori/go.uuid\n\n[docs](https://godoc.org/github.com/satori/go.uuid) see github.com/stretchr/testify\n';
    expect(selfUrl(readme)).toEqual({ repo: 'satori/go.uuid', line: 1 });
    expect(selfUrl('one mention of github.com/a/b')).toBeNull();
  });

  it('compares names without case or separators, and cites them in every usual spelling', () => {
    expect(sameName('coffee-script', 'coffeescript')).toBe(true);
    expect(sameName('pdfminer', 'pdfminer.six')).toBe(false);
    expect(spellings('github.com/satori/go.uuid').sort()).toEqual(['github.com/satori/go.uuid', 'go.uuid', 'satori/go.uuid']);
    expect(spellings('@colors/colors').sort()).toEqual(['@colors/colors', 'colors']);
  });
});

describe('declarations in prose', () => {
  const find = (text: string, other: string[], own: string[] = [], inherited: string[] = []) =>
    findDeclaration([{ path: 'README.md', text }], new Set(other), new Set(own), new Set(inherited))?.name ?? null;

  it('finds the name a few words after the trigger, in code spans, links and emphasis', () => {
    expect(find('# postman-request\n\nThis is a fork of the excellent `request` module, used inside Postman.', ['request'])).toBe(
      'request',
    );
    expect(
      find(':bulb: This is a continuation of the [**harthur/brain**](https://github.com/harthur/brain), which is not maintained.', [
        'harthur/brain',
      ]),
    ).toBe('harthur/brain');
    expect(find('Pdfminer.six is a community maintained fork of the original PDFMiner. It extracts text.', ['pdfminer'])).toBe('pdfminer');
    expect(find('backward compatibility with older tags and upstream `github.com/dgrijalva/jwt-go`.', ['dgrijalva/jwt-go'])).toBe(
      'dgrijalva/jwt-go',
    );
    expect(
      find('This project was originally forked from the\n[github.com/satori/go.uuid](https://github.com/satori/go.uuid) repository', [
        'satori/go.uuid',
      ]),
    ).toBe('satori/go.uuid');
    expect(find('thefuzz, formerly known as fuzzywuzzy, matches strings.', ['fuzzywuzzy'])).toBe('fuzzywuzzy');
    // RocksDB's README names the project it grew from this way.
    expect(
      find(
        'It is built on earlier work on [LevelDB](https://github.com/google/leveldb) by Sanjay Ghemawat (sanjay@google.com)\nand Jeff Dean',
        ['google/leveldb'],
      ),
    ).toBe('google/leveldb');
  });

  it("takes building on a project's work as descent, and building on a platform as nothing", () => {
    expect(find('This library builds on the original work of left-pad by Azer.', ['left-pad'])).toBe('left-pad');
    expect(find('Koa is built on top of Node.js and its http module.', ['node.js'])).toBeNull();
    expect(find('Built on express, for teams.', ['express'])).toBeNull();
  });

  it('takes "a modified version of X" and "originating from X" as descent', () => {
    expect(
      find('A modified version of [group cache](https://github.com/golang/groupcache) with support for `context.Context`.', [
        'golang/groupcache',
        'groupcache',
      ]),
    ).toBe('golang/groupcache');
    expect(find('Originating from the JSLint project in 2010, JSHint has been maintained by a community.', ['jslint'])).toBe('jslint');
    expect(find('A modified version of the config file is written on save.', ['groupcache'])).toBeNull();
  });

  it('takes "a portable version of X" as a port of X', () => {
    expect(find("# OpenDoas: a portable version of OpenBSD's `doas` command", ['doas'])).toBe('doas');
    expect(find('A portable version of the parser is on the roadmap.', ['doas'])).toBeNull();
  });

  it('reads the ways forks of 2024-2026 word it', () => {
    expect(find('Streamlink was forked in 2016 from the abandoned <em>Livestreamer</em> project.', ['livestreamer'])).toBe('livestreamer');
    expect(find('Niquests is a highly improved HTTP client that is based (forked) on Requests.', ['requests'])).toBe('requests');
    expect(
      find("This project originates from Google's `golang/mock` repo. Unfortunately, Google no longer maintains it.", ['golang/mock']),
    ).toBe('golang/mock');
  });

  it("takes a project's idea (its algorithm, its API) as no descent from its code", () => {
    // skim, a Rust reimplementation of fzf, on its matching algorithm.
    expect(find("- `skim_v2`, the default algorithm, loosely based on `fzf`'s algorithm", ['fzf'])).toBeNull();
    expect(find("A matcher based on fzf's algorithm.", ['fzf'])).toBeNull();
    expect(find('A matcher based on the fzf algorithm.', ['fzf'])).toBeNull();
    expect(find('An HTTP client based on the requests API, for async code.', ['requests'])).toBeNull();
    expect(find('Loosely based on fzf, in Rust.', ['fzf'])).toBeNull();
    expect(find('Inspired by and based on fzf, in Rust.', ['fzf'])).toBeNull();
    // The project itself, with what it is, stays a declaration.
    expect(find('Based on fzf, with a different matcher.', ['fzf'])).toBe('fzf');
    expect(find("It is a fork of fzf's code base.", ['fzf'])).toBe('fzf');
  });

  it('ends a sentence at a stop that markup closes', () => {
    // urllib3.future: the heading's "Upstream" is not a declaration naming the urllib3 of the next sentence.
    expect(find('**1. Upstream test suite.** We maintain the full urllib3 test suite, unmodified.', ['urllib3'])).toBeNull();
    expect(find('_A fork of `request`._ It is used by Postman.', ['request'])).toBe('request');
  });

  it('needs a trigger, the name soon after it, in the same sentence', () => {
    expect(
      find('Please use other libraries in development like [brain.js](https://github.com/BrainJS/brain.js).', [
        'brain.js',
        'brainjs/brain.js',
      ]),
    ).toBeNull();
    expect(find('This is a fork. We also like the request module a lot.', ['request'])).toBeNull();
    expect(find('A fork of one two three four five six seven eight nine request.', ['request'])).toBeNull();
    expect(find('Forked from lattice-core.', ['lattice-core'], ['lattice-core'])).toBeNull();
  });

  it('reads a fork told in the first person, not an instruction to fork (0.7.20)', () => {
    // faust-streaming/faust's README, under "Why the fork".
    const faust = 'We have decided to fork the original `Faust` project because there is a critical process of releasing new versions.';
    expect(find(faust, ['faust'])).toBe('faust');
    expect(find("I've forked widget to add colours.", ['widget'])).toBe('widget');
    expect(find('We forked widget in 2019.', ['widget'])).toBe('widget');
    expect(find('Fork the repository and open a pull request against widget.', ['widget'])).toBeNull();
    expect(find('You can fork widget on GitHub.', ['widget'])).toBeNull();
    expect(find('We did not fork widget.', ['widget'])).toBeNull();
  });

  it('reads nothing of the writer in a section that lists other projects (0.7.20)', () => {
    // google/brotli's README: the port is devongovett's, listed under "Related projects".
    const brotli =
      '# Brotli\n\nBrotli is a generic-purpose lossless compression algorithm.\n\n### Related projects\n' +
      '> **Disclaimer:** Brotli authors take no responsibility for the third party projects mentioned in this section.\n\n' +
      'JavaScript port of brotli [decoder](https://github.com/devongovett/brotli.js).\n';
    expect(find(brotli, ['brotli'])).toBeNull();
    expect(find('# Brotli\n\nJavaScript port of brotli [decoder](https://github.com/devongovett/brotli.js).\n', ['brotli'])).toBe('brotli');
    expect(find('Ports\n-----\n\nA port of widget to Go.\n', ['widget'])).toBeNull();
    // A sentence that says another project exists is about it (fastfloat/fast_float), as is a section of other languages.
    expect(find('There is a Rust port of the fast_float library called `fast-float-rust`.', ['fast_float'])).toBeNull();
    expect(find("There's also a fork of widget by someone else.", ['widget'])).toBeNull();
    expect(find('## Other programming languages\n\nA Rust port of widget.\n', ['widget'])).toBeNull();
    // The writer's own sentence before such a section, and a section of another kind, still declare.
    expect(find('# beta\n\nA fork of widget.\n\n## Alternatives\n\n- gamma, a port of widget to Go.\n', ['widget'])).toBe('widget');
    expect(find('# beta\n\n## Other notes\n\nThis is a fork of widget.\n', ['widget'])).toBe('widget');
  });

  it('reads a negation joined to the next word by a hyphen as a compound, not a denial (0.7.20)', () => {
    // dropbox/rust-brotli's README.
    const text = 'Direct no-stdlib port of the C brotli compressor to Rust';
    expect(findDenial([{ path: 'README.md', text }], new Set(['brotli']), new Set())).toBeNull();
    expect(find(text, ['brotli'])).toBe('brotli');
    expect(findDenial([{ path: 'README.md', text: 'This is no port of brotli.' }], new Set(['brotli']), new Set())).toMatchObject({
      name: 'brotli',
    });
  });

  it('reads the cited project before a clause that says what it is for (0.7.20)', () => {
    // bakkeby/dwm-flexipatch: what was forked is fsignal; dwm is what the client talks to.
    expect(find('- a simple dwmc client using a fork of fsignal to communicate with dwm', ['dwm'])).toBeNull();
    expect(find('Forked from a small library, which was written for widget.', ['widget'])).toBeNull();
    // The name before the clause is still read, and a first word is never a clause.
    expect(find('A port of the RE2 C++ code to Java.', ['re2'])).toBe('re2');
    expect(find('This is a fork of widget with patches to talk to gadget.', ['widget', 'gadget'])).toBe('widget');
    expect(find('The scheduler is based on that of widget.', ['widget'])).toBe('widget');
  });

  it("reads a trigger whose first name is the declarer's own as speaking of itself", () => {
    // antirez/sds's README: the updated version is of SDS itself; Redis is one of the projects it is shared with.
    const sds =
      'this is an updated version of SDS in an attempt to finally unify Redis, Disque, Hiredis, and the stand alone SDS versions.';
    expect(find(sds, ['redis'], ['sds'])).toBeNull();
    // Redis stands past "in an attempt to" too, a clause of its own (0.7.20); without one, the own name stops the reading.
    expect(find(sds, ['redis'])).toBeNull();
    expect(find('this is an updated version of SDS, Redis and Disque.', ['redis'], ['sds'])).toBeNull();
    expect(find('this is an updated version of SDS, Redis and Disque.', ['redis'])).toBe('redis');
    // The declarer's name after the other's does not hide it.
    expect(find('A modified version of groupcache, published as mailgun/groupcache.', ['groupcache'], ['mailgun/groupcache'])).toBe(
      'groupcache',
    );
  });

  it('skips a sentence the other side (or the shared project) has too', () => {
    const text = 'Based on jsmin by Douglas Crockford.\n\nThis is a fork of alpha-lib.';
    const inherited = declarationSentences(['Based on jsmin by Douglas Crockford.']);
    expect(find(text, ['jsmin', 'alpha-lib'], [], inherited)).toBe('alpha-lib');
    // A link's scheme is not the text: an older copy keeps http where the project's present file has https (0.7.18).
    const older = 'Major parts are based on the LZMA SDK <http://7-zip.org/sdk.html>. Without it, nothing.';
    const present = declarationSentences(['Major parts are based on the LZMA SDK <https://7-zip.org/sdk.html>. Without it, nothing.']);
    expect(find(older, ['lzma'], [], present)).toBeNull();
    expect(find(older, ['lzma'], [], declarationSentences(['Major parts are based on the LZMA SDK <https://7-zip.org/other.html>.']))).toBe(
      'lzma',
    );
    expect(candidates(' the [**harthur/brain**](https://github.com/harthur/brain), which')).toEqual([
      'the',
      'harthur/brain',
      'harthur/brain',
      'which',
    ]);
  });
});

/** The name a README sentence declares descent from, among `other`'s names, or null. */
const declaredName = (text: string, other: string[]) =>
  findDeclaration([{ path: 'README.md', text }], new Set(other), new Set(), new Set())?.name ?? null;

describe('denials: a trigger negated in its own sentence (0.7.0)', () => {
  const denied = (text: string, other: string[]) => findDenial([{ path: 'README.md', text }], new Set(other), new Set())?.name ?? null;

  it('is no declaration, in any sentence shape', () => {
    const readme =
      '# Zap\n\nThis is not the same thing as Yarrow. Yarrow is a completely separate project; this is not a clone of Yarrow, ' +
      'just a tool with a similar purpose.';
    expect(declaredName(readme, ['yarrow'])).toBeNull();
    expect(denied(readme, ['yarrow'])).toBe('yarrow');
    expect(declaredName("Zap isn't based on yarrow.", ['yarrow'])).toBeNull();
    expect(declaredName('It was never forked from yarrow, whatever the name suggests.', ['yarrow'])).toBeNull();
    expect(declaredName('Zap is neither a fork nor a port of **Yarrow**.', ['yarrow'])).toBeNull();
    expect(declaredName('NOT a fork of yarrow!', ['yarrow'])).toBeNull();
    expect(declaredName("Zap doesn't derive anything: it is not derived from yarrow.", ['yarrow'])).toBeNull();
  });

  it('leaves affirmations that merely contain a negative word alone', () => {
    expect(declaredName('Zap is not just a fork of yarrow: it adds a scheduler.', ['yarrow'])).toBe('yarrow');
    expect(declaredName('Zap is no longer a fork of yarrow.', ['yarrow'])).toBe('yarrow');
    // A negation in an earlier sentence does not reach the trigger.
    expect(declaredName('Yarrow was not maintained. Zap is a fork of yarrow.', ['yarrow'])).toBe('yarrow');
    expect(denied('Zap is a fork of yarrow.', ['yarrow'])).toBeNull();
    // Too far before the trigger to negate it.
    const far = 'Not that it matters much to anyone here, but this is a fork of';
    expect(negated(far, far.indexOf('fork'))).toBe(false);
    const near = 'This is not a fork of';
    expect(negated(near, near.indexOf('fork'))).toBe(true);
  });
});

describe('declarations worded as a split or an inheritance (0.6.8)', () => {
  const find = declaredName;
  it('reads "a fork and split of" and "inherited from"', () => {
    expect(
      find(
        'This is a fork and split of the original [ghodss/yaml](https://github.com/ghodss/yaml) repository which no longer appears to be maintained.',
        ['ghodss/yaml'],
      ),
    ).toBe('ghodss/yaml');
    expect(
      find('* **Battle-tested**. Our HTTP parser is inherited from Mongrel and has over 15 years of production use.', ['mongrel']),
    ).toBe('mongrel');
    expect(find('A fork and a spoon of mongrel.', ['mongrel'])).toBeNull();
  });
});

describe('declarations worded as a part taken out of the other project (0.6.9)', () => {
  const find = declaredName;
  it('reads "pulled out of", "split out of", "split off from" and "extracted from"', () => {
    expect(find('Parso has been battle-tested by jedi. It was pulled out of jedi to be useful for other projects as well.', ['jedi'])).toBe(
      'jedi',
    );
    expect(find('This package was split out of the monorepo of webpack in 2019.', ['webpack'])).toBe('webpack');
    expect(find('The tokenizer was split off from esprima.', ['esprima'])).toBe('esprima');
    expect(find('Extracted from Rails, where it powered ActiveSupport for years.', ['rails'])).toBe('rails');
    expect(find('The parser was spun out of acorn in 2017.', ['acorn'])).toBe('acorn');
    expect(find('It pulled the data out of jedi and split it.', ['jedi'])).toBeNull();
  });
});

describe('a project cited at a release (0.6.15)', () => {
  const find = declaredName;
  it('reads the name of a project cited with a dotted version after a hyphen or an at sign', () => {
    // ploxiln/fab-classic, a fork of fabric 1.x like Fabric3.
    expect(find('This is forked from Fabric-1.14 from https://github.com/fabric/fabric/tree/1.14\nand is intended', ['fabric'])).toBe(
      'fabric',
    );
    expect(find('A fork of left-pad@1.3.0 with types.', ['left-pad'])).toBe('left-pad');
    expect(find('Forked from foo-v2.x.', ['foo'])).toBe('foo');
    // A name that holds a version is matched whole first; names that end in digits are names of their own.
    expect(find('A fork of lua-5.1 for sandboxes.', ['lua-5.1', 'lua'])).toBe('lua-5.1');
    expect(find('A fork of fabric3.', ['fabric'])).toBeNull();
    expect(find('A fork of yaml.v2 with fixes.', ['yaml'])).toBeNull();
    expect(find('A fork of log4j-2 with fixes.', ['log4j'])).toBeNull();
  });

  it('splits off the version only', () => {
    expect(unversioned('fabric-1.14')).toBe('fabric');
    expect(unversioned('@scope/pkg@2.0.1')).toBe('@scope/pkg');
    expect(unversioned('foo-v2.x')).toBe('foo');
    expect(unversioned('python-2')).toBeNull();
    expect(unversioned('1.14')).toBeNull();
  });
});

describe('declarations quoted over several lines (0.6.11)', () => {
  it('reads a sentence through Markdown blockquote markers, on the line where it starts', () => {
    const text =
      '# Nano Colors\n\n>Started as a fork\n> of [**@jorgebucaran**](https://github.com/jorgebucaran/)’s\n> [`colorette`](https://github.com/jorgebucaran/colorette) with hacks\n> from x.\n';
    expect(findDeclaration([{ path: 'README.md', text }], new Set(['colorette']), new Set(), new Set())).toMatchObject({
      name: 'colorette',
      line: 3,
    });
    expect(declaredName('> > This is a\n> > fork of\n> > acorn.', ['acorn'])).toBe('acorn');
    // Unquoting joins no paragraphs: a blank quoted line still ends the sentence.
    expect(declaredName('> a fork of\n>\n> acorn', ['acorn'])).toBeNull();
    // The same sentence in both sides' READMEs, quoted in one, is inherited.
    const inherited = new Set(declarationSentences(['> A fork of\n> acorn.']));
    expect(findDeclaration([{ path: 'README.md', text: 'A fork of acorn.' }], new Set(['acorn']), new Set(), inherited)).toBeNull();
  });
});

describe('findDesignClaim', () => {
  const claim = (text: string, names = ['mustache']) =>
    findDesignClaim([{ path: 'README.md', text }], new Set(names), new Set(['pystache']))?.name ?? null;
  it('reads a project that says it remade another in code of its own', () => {
    expect(
      claim('[Pystache](http://defunkt.github.com/pystache) is a Python implementation of [Mustache](http://mustache.github.com/).'),
    ).toBe('mustache');
    expect(claim('Planck.js is JavaScript/TypeScript rewrite of Box2D physics engine', ['box2d'])).toBe('box2d');
    expect(claim('This project is a translation in JavaScript of the original cowsay program', ['cowsay'])).toBe('cowsay');
    expect(claim('a reimplementation of mustache in Python')).toBe('mustache');
    expect(claim('This is a Python version of [Ruby’s Mustache library](https://github.com/mustache/mustache).')).toBe('mustache');
    expect(claim('The go-pystache module is the Golang adaptation of the NPM JavaScript mustache package.')).toBe('mustache');
    // A version that is not a language's is no claim of having remade it.
    expect(claim('a newer version of mustache')).toBeNull();
  });
  it('reads no influence, denial, idea or own name', () => {
    expect(claim('Pystache is heavily inspired by mustache.')).toBeNull();
    expect(claim('Pystache is not an implementation of mustache.')).toBeNull();
    expect(claim('an implementation of the mustache spec')).toBeNull();
    // The idea is read past the address the name links to.
    expect(claim('a Go implementation of the [Mustache](http://www.rfc-editor.org/rfc/rfc6455.txt) protocol.')).toBeNull();
    expect(claim('a Go implementation of [Mustache](https://mustache.github.io/) in one file')).toBe('mustache');
    expect(claim('a Python implementation of pystache', ['pystache'])).toBeNull();
  });
});

describe('releaseSite', () => {
  it("reads the site whose release archive of the name a document links, without the host's service labels", () => {
    expect(releaseSite('Version forked: [0.9](https://dl.suckless.org/st/st-0.9.tar.gz)', 'st')).toBe('suckless.org');
    expect(releaseSite('based on [dwm 6.5](https://dl.suckless.org/dwm/dwm-6.5.tar.gz) (2024-03-19)', 'dwm')).toBe('suckless.org');
    expect(releaseSite('from https://www.lua.org/ftp/lua-5.4.6.tar.gz', 'lua')).toBe('lua.org');
    expect(releaseSite('see <https://ftp.gnu.org/gnu/less/less-643.tar.gz>', 'less')).toBe('gnu.org');
  });
  it('reads none for an archive of another name, a page, a code host, a registry or a project subdomain host', () => {
    expect(releaseSite('https://dl.suckless.org/st/st-0.9.tar.gz', 'dwm')).toBeUndefined();
    expect(releaseSite('https://st.suckless.org/patches/scrollback/', 'st')).toBeUndefined();
    expect(releaseSite('https://st.suckless.org/patches/st-scrollback-0.8.5.diff', 'st')).toBeUndefined();
    expect(releaseSite('https://github.com/example/st/releases/download/v0.9/st-0.9.tar.gz', 'st')).toBeUndefined();
    expect(releaseSite('https://registry.npmjs.org/st/-/st-0.9.tgz', 'st')).toBeUndefined();
    expect(releaseSite('https://files.pythonhosted.org/packages/aa/bb/st-0.9.tar.gz', 'st')).toBeUndefined();
    expect(releaseSite('https://downloads.sourceforge.net/project/st/st-0.9.tar.gz', 'st')).toBeUndefined();
    // The archive must sit where the project lives: its name a label of the host or a folder of the path.
    expect(releaseSite('https://mirror.example.org/pub/st-0.9.tar.gz', 'st')).toBeUndefined();
  });
  it('is found with the declaration, from anywhere in its document', () => {
    const text = '# A fork of ST 0.9 with my configs\n\nVersion forked: [0.9](https://dl.suckless.org/st/st-0.9.tar.gz)\n';
    const d = findDeclaration([{ path: 'README.md', text }], new Set(['st']), new Set());
    expect(d).toMatchObject({ name: 'st', site: 'suckless.org' });
  });
});

describe('a fork of this project', () => {
  it('is no declaration of descent by the project that says it', () => {
    const decl = (text: string) => findDeclaration([{ path: 'README.md', text }], new Set(['example/next']), new Set())?.name ?? null;
    expect(decl('There is an actively maintained fork of this project at example/next.')).toBeNull();
    expect(decl('This is an actively maintained fork of example/next.')).toBe('example/next');
  });
});

describe('linkedSite', () => {
  const site = (text: string, name: string) => {
    const cs = candidates(text);
    return linkedSite(cs, cs.indexOf(name));
  };
  it('reads the site a name links to when the site is named after it', () => {
    expect(site('[st](https://st.suckless.org/) with patches', 'st')).toBe('st.suckless.org');
    expect(site('[Redis](https://redis.io)', 'redis')).toBe('redis.io');
    expect(site('[foo-bar](https://www.foo-bar.dev/docs)', 'foo-bar')).toBe('foo-bar.dev');
  });
  it('reads none for a registry, a directory, a code host or a version', () => {
    expect(site('[st](https://pypi.org/project/st/)', 'st')).toBeUndefined();
    expect(site('[slstatus](https://tools.suckless.org/slstatus/)', 'slstatus')).toBeUndefined();
    expect(site('[yaml](https://github.com/go-yaml/yaml)', 'yaml')).toBeUndefined();
    expect(site('st 0.9.2 patched', 'st')).toBeUndefined();
    expect(site('st', 'st')).toBeUndefined();
    // A host that gives every project a subdomain of its name says no more than the name.
    expect(site('[QuakeSpasm](http://quakespasm.sourceforge.net/)', 'quakespasm')).toBeUndefined();
    expect(site('[foo](https://foo.readthedocs.io/en/latest/)', 'foo')).toBeUndefined();
  });
  it('is found with the declaration', () => {
    const d = findDeclaration([{ path: 'README.md', text: 'My fork of [st](https://st.suckless.org/)\n' }], new Set(['st']), new Set());
    expect(d).toMatchObject({ name: 'st', site: 'st.suckless.org' });
  });
});

describe('a sentence about the other side (0.7.19)', () => {
  const notice = '  * [bo/alpha-lib](https://github.com/bo/alpha-lib) - Community supported fork of alpha-lib.\n';
  const doc = (text: string) => [{ path: 'README.md', text }];

  it("reads the words of a trigger's own sentence or list item before it", () => {
    expect(sentenceHead(notice, notice.indexOf('fork'))).toBe('[bo/alpha-lib](https://github.com/bo/alpha-lib) - Community supported ');
    const two = 'We thank bo/alpha-lib for the tests. This is a fork of alpha-lib.';
    expect(sentenceHead(two, two.indexOf('a fork'))).toBe('This is ');
    const item = 'Options:\n\n- zeta - a fork of alpha-lib\n';
    expect(sentenceHead(item, item.indexOf('a fork'))).toBe('zeta - ');
  });

  it('is about the other side when the first name in it before the trigger is one only the other side carries', () => {
    expect(aboutTheOther(['bo/alpha-lib', 'community', 'supported'], new Set(['ada/alpha-lib']), new Set(['bo/alpha-lib']))).toBe(true);
    expect(aboutTheOther(['snoop', 'is', 'a'], new Set(['snoop']), new Set(['pysnooper']))).toBe(false);
    expect(aboutTheOther(['this', 'is'], new Set(), new Set(['pysnooper']))).toBe(false);
  });

  it("declares nothing for the writer: the other side's fork named in the writer's notice", () => {
    const names = new Set(['alpha-lib', 'bo/alpha-lib']);
    expect(findDeclaration(doc(notice), names, new Set(['ada/alpha-lib']))).toMatchObject({ name: 'alpha-lib' });
    expect(findDeclaration(doc(notice), names, new Set(['ada/alpha-lib']), new Set(), undefined, new Set(['bo/alpha-lib']))).toBeNull();
    // The writer's own name first, or another sentence naming the other side, keeps the declaration.
    const own = doc('snoop is a fork of [PySnooper](https://github.com/cool-RR/pysnooper).');
    expect(findDeclaration(own, new Set(['pysnooper']), new Set(['snoop']), new Set(), undefined, new Set(['pysnooper']))).toMatchObject({
      name: 'pysnooper',
    });
    const after = doc('We thank bo/alpha-lib for the tests. This is a fork of alpha-lib.');
    expect(findDeclaration(after, names, new Set(), new Set(), undefined, new Set(['bo/alpha-lib']))).toMatchObject({ name: 'alpha-lib' });
  });

  it('reads "a mirror of X" and "an unofficial mirror (…) for X" as descent', () => {
    const volley =
      'This is an unofficial mirror (with some minor bugfix) for [volley](https://android.googlesource.com/platform/frameworks/volley).';
    expect(findDeclaration(doc(volley), new Set(['volley']), new Set())).toMatchObject({ name: 'volley' });
    expect(findDeclaration(doc('A read-only mirror of zlib, updated nightly.'), new Set(['zlib']), new Set())).toMatchObject({
      name: 'zlib',
    });
    expect(findDeclaration(doc('Releases of zlib are mirrored nightly.'), new Set(['zlib']), new Set())).toBeNull();
  });

  it('takes no successor from a sentence that sends its users back to the official version', () => {
    const back = 'This project is deprecated, please use official version [volley](https://github.com/google/volley).';
    expect(pointsBack(candidates('official version [volley](https://github.com/google/volley).'), 3)).toBe(true);
    expect(findSuccessor(doc(back), new Set(['google/volley']), new Set())).toBeNull();
    const forward = 'This project is deprecated, please use [volley](https://github.com/google/volley) instead.';
    expect(findSuccessor(doc(forward), new Set(['google/volley']), new Set())).toMatchObject({ name: 'google/volley' });
    const author = 'Now maintained by its original author at [x/volley](https://github.com/x/volley).';
    expect(findSuccessor(doc(author), new Set(['x/volley']), new Set())).toMatchObject({ name: 'x/volley' });
    // robinhood/faust's notice: where the active project is found is where it lives on (0.7.20).
    const active =
      'This library has been deprecated. The current active community project can be found at https://github.com/faust-streaming/faust';
    expect(findSuccessor(doc(active), new Set(['faust-streaming/faust']), new Set())).toMatchObject({ name: 'faust-streaming/faust' });
    // awumii/EpicGuard's first line.
    const maintained = '# Maintained fork can be found at: https://github.com/4drian3d/EpicGuard';
    expect(findSuccessor(doc(maintained), new Set(['4drian3d/epicguard']), new Set())).toMatchObject({ name: '4drian3d/epicguard' });
    expect(
      findSuccessor(doc('This is an active project used by faust-streaming/faust.'), new Set(['faust-streaming/faust']), new Set()),
    ).toBeNull();
  });
});
