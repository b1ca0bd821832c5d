import { renamesIn } from '../src/history';

describe('renames within one commit', () => {
  it('pairs a deleted and an added file with the same blob, whatever their names', () => {
    expect(renamesIn([['src/valkey-cli.c', 'b1']], [['src/redis-cli.c', 'b1']])).toEqual([['src/valkey-cli.c', 'src/redis-cli.c']]);
  });

  it('pairs a file moved and edited by its name, when that name is deleted once', () => {
    expect(
      renamesIn(
        [
          ['spree/core/lib/order.rb', 'n1'],
          ['spree/core/lib/new.rb', 'n2'],
        ],
        [['core/lib/order.rb', 'o1']],
      ),
    ).toEqual([['spree/core/lib/order.rb', 'core/lib/order.rb']]);
  });

  it('among several candidates takes the one sharing the longest path tail, and none when that is a tie', () => {
    const deleted: [string, string][] = [
      ['a/pkg/__init__.py', 'e'],
      ['b/pkg/__init__.py', 'e'],
      ['c/other/__init__.py', 'e'],
    ];
    expect(renamesIn([['src/a/pkg/__init__.py', 'e']], deleted)).toEqual([['src/a/pkg/__init__.py', 'a/pkg/__init__.py']]);
    // pkg/__init__.py is the tail of both a/ and b/: ambiguous, not paired
    expect(renamesIn([['x/pkg/__init__.py', 'e']], deleted)).toEqual([]);
  });

  it('uses each deleted file once, and pairs nothing without a deletion', () => {
    expect(
      renamesIn(
        [
          ['x/util.js', 'b1'],
          ['y/util.js', 'b1'],
        ],
        [['old/util.js', 'b1']],
      ),
    ).toEqual([['x/util.js', 'old/util.js']]);
    expect(renamesIn([['a.js', 'b1']], [])).toEqual([]);
  });
});
