import knexFactory from 'knex';
import { z } from 'zod';
import { ApiError, CursorCodec, idPosition, keysetPage, keysetQuery } from '../src';

const codec = new CursorCodec('a-test-secret-of-enough-length');
const knex = knexFactory({ client: 'pg' });
const rows = Array.from({ length: 5 }, (_, i) => ({ id: String(i + 1) }));

/** A list of `rows` in id order, read like a keyset query would. */
const page = (cursor?: string, limit = 2) =>
  keysetPage({
    cursors: codec,
    scope: 'things:',
    position: idPosition(19),
    cursor,
    limit,
    fetch: async (after, take) => rows.filter((r) => after === null || BigInt(r.id) > BigInt(after.id)).slice(0, take),
    positionOf: (r) => ({ id: r.id }),
  });

describe('keysetPage', () => {
  it('pages through in order, limit rows at a time, with a null cursor on the last page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await page(cursor);
      seen.push(...p.rows.map((r) => r.id));
      cursor = p.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
    expect(pages).toBe(3);
    expect((await page(undefined, 5)).nextCursor).toBeNull();
  });

  it('cursors are the signed position, bound to the scope, and checked by the schema', async () => {
    const first = await page();
    expect(first.nextCursor).toBe(codec.encode('things:', { id: '2' }));
    await expect(
      keysetPage({
        cursors: codec,
        scope: 'other:',
        position: idPosition(19),
        cursor: first.nextCursor!,
        limit: 2,
        fetch: async () => rows,
        positionOf: (r) => r,
      }),
    ).rejects.toBeInstanceOf(ApiError);
    const badShape = codec.encode('things:', { id: 'not a number' });
    await expect(page(badShape)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'cursor', issue: 'invalid_cursor' }],
    });
    const seq = z.object({ seq: z.number().int().min(0) });
    expect(codec.decode('s', codec.encode('s', { seq: 3 }), seq)).toEqual({ seq: 3 });
    expect(() => codec.decode('s', codec.encode('s', { seq: -1 }), seq)).toThrow(ApiError);
  });

  it('keysetQuery: one column is a plain comparison; several are the lexicographic successor', () => {
    const one = keysetQuery(knex('t').select('*'), [{ column: 'id', direction: 'desc', key: 'id' }], { id: '7' }, 3)
      .toSQL()
      .toNative();
    expect(one.sql).toBe('select * from "t" where "id" < $1 order by "id" desc limit $2');
    expect(one.bindings).toEqual(['7', 3]);
    const two = keysetQuery(
      knex('t').select('*'),
      [
        { column: 'rank', direction: 'asc', key: 'rank' },
        { column: 'id', direction: 'desc', key: 'id' },
      ],
      { rank: 1, id: '7' },
      3,
    )
      .toSQL()
      .toNative();
    expect(two.sql).toBe('select * from "t" where (("rank" > $1) or ("rank" = $2 and "id" < $3)) order by "rank" asc, "id" desc limit $4');
    expect(two.bindings).toEqual([1, 1, '7', 3]);
  });
});
