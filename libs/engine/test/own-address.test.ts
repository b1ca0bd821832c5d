import { addressOf, forkPointAddresses, ownAddresses } from '../src/lineage/own-address';
import { namesIn } from '../src/lineage/names';
import type { NameRef } from '../src/types';

const at = (path: string, text: string): NameRef[] => namesIn(path, text, 'b'.repeat(40), 'c'.repeat(40));
const goMod = (module: string): NameRef[] => at('go.mod', `module ${module}\n\ngo 1.13\n`);
const pkg = (repository: string): NameRef[] => at('package.json', JSON.stringify({ name: 'go-logging', repository }));
const readme = (owner: string): NameRef[] =>
  at(
    'README.md',
    `# go-logging\n\n[godoc](https://godoc.org/github.com/${owner}/go-logging)\n\n    go get github.com/${owner}/go-logging\n`,
  );

describe('addressOf', () => {
  it('reads owner and repository from a Go module path (major version dropped) and from a hosted URL name', () => {
    expect(addressOf(goMod('github.com/keybase/go-logging/v2')[0]!)).toEqual({ owner: 'keybase', repo: 'go-logging' });
    expect(addressOf(pkg('git+https://github.com/Op/go-logging.git').find((n) => n.kind === 'url')!)).toEqual({
      owner: 'op',
      repo: 'go-logging',
    });
  });
  it('gives nothing for a module path off the hosting sites, or for a package name', () => {
    expect(addressOf(goMod('golang.org/x/tools')[0]!)).toBeNull();
    expect(addressOf({ kind: 'package', name: 'go-logging' })).toBeNull();
  });
});

describe('ownAddresses', () => {
  const fork = forkPointAddresses(readme('op'));
  it('the fork point names the project under its owner, its README included', () => {
    expect(fork).toEqual([{ owner: 'op', repo: 'go-logging' }]);
  });
  it("a manifest naming another owner is the side's own address", () => {
    expect(ownAddresses([...goMod('github.com/keybase/go-logging'), ...readme('op')], fork)).toMatchObject([
      { name: { name: 'github.com/keybase/go-logging' }, former: 'op/go-logging', current: 'keybase/go-logging' },
    ]);
  });
  it("the shared owner's address, a README's citations and a module off the hosting sites are not", () => {
    expect(ownAddresses(goMod('github.com/op/go-logging'), fork)).toEqual([]);
    expect(ownAddresses(readme('keybase'), fork)).toEqual([]);
    expect(ownAddresses(goMod('gopkg.in/op/go-logging.v1'), fork)).toEqual([]);
  });
  it('nothing when the fork point named no address: there is no owner to depart from', () => {
    expect(ownAddresses(goMod('github.com/keybase/go-logging'), forkPointAddresses([]))).toEqual([]);
  });
  it("a repository the fork point cited under another name (a dependency) is not the project's address", () => {
    const cited = forkPointAddresses(
      at('README.md', '# sslscan\n\nBuild against https://github.com/someone/openssl (see github.com/someone/openssl).\n'),
    );
    expect(ownAddresses(pkg('https://github.com/rbsec/sslscan'), cited)).toEqual([]);
  });
});
