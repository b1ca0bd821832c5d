// Keyset pagination, written once: the cursor is the signed position of the
// last row of a page (cursor.ts), bound to the list and its filters by the
// scope and checked by a zod schema before it reaches a query; a page asks for
// one row more than `limit` to know whether another follows. Nothing uses OFFSET.
import { z } from 'zod';
import type { Knex } from './db';
import type { CursorCodec } from './cursor';

export interface KeysetPage<R> {
  /** At most `limit` rows, in list order. */
  rows: R[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/** One column of the list's order, and the key of the position that holds its value. */
export interface KeysetColumn<P> {
  column: string;
  direction: 'asc' | 'desc';
  key: keyof P & string;
}

interface KeysetCommon<P, R> {
  cursors: CursorCodec;
  /** The list and its filters: a cursor of another scope is refused. */
  scope: string;
  /** What a position must look like; a signed cursor of another shape is refused all the same. */
  position: z.ZodType<P>;
  cursor?: string | undefined;
  limit: number;
  /** The position a row stands at: the next page starts after the last row's. */
  positionOf(row: R): P;
}

/** A list the query builder expresses: its filters in `query`, ordered by `order` (first column first). */
export interface KeysetQueryOptions<P, R> extends KeysetCommon<P, R> {
  query: Knex.QueryBuilder;
  order: readonly KeysetColumn<P>[];
  /** How to run the finished query (default: as is; say, a prepared statement instead). */
  run?: (query: Knex.QueryBuilder) => Promise<R[]>;
}

/** A list the builder's keyset cannot express (a union of ranked parts, say): `fetch` reads `take` rows after `after`. */
export interface KeysetFetchOptions<P, R> extends KeysetCommon<P, R> {
  fetch(after: P | null, take: number): Promise<R[]>;
}

/** A decimal id (a bigint or numeric column) of at most `digits` digits, as a position `{ id }`. */
export const idPosition = (digits: number) => z.object({ id: z.string().regex(new RegExp(`^[0-9]{1,${digits}}$`)) });

/**
 * Order `query` by `order`, keep the rows after `after` (the lexicographic
 * successor condition; a plain `column > value` for one column) and take `take`.
 */
export function keysetQuery<P extends object>(
  query: Knex.QueryBuilder,
  order: readonly KeysetColumn<P>[],
  after: P | null,
  take: number,
): Knex.QueryBuilder {
  for (const o of order) query.orderBy(o.column, o.direction);
  if (after !== null && order.length > 0) {
    const position = after;
    const value = (o: KeysetColumn<P>) => position[o.key] as unknown as Knex.Value;
    const op = (o: KeysetColumn<P>) => (o.direction === 'asc' ? '>' : '<');
    if (order.length === 1) {
      query.where(order[0]!.column, op(order[0]!), value(order[0]!));
    } else {
      query.where((w) => {
        order.forEach((o, i) => {
          w.orWhere((and) => {
            for (const eq of order.slice(0, i)) and.where(eq.column, value(eq));
            and.where(o.column, op(o), value(o));
          });
        });
      });
    }
  }
  return query.limit(take);
}

/** One page of a keyset-paginated list: the cursor decoded and checked, `limit + 1` rows read, the next cursor signed. */
export async function keysetPage<P extends object, R>(opts: KeysetQueryOptions<P, R> | KeysetFetchOptions<P, R>): Promise<KeysetPage<R>> {
  const after = opts.cursor ? opts.cursors.decode(opts.scope, opts.cursor, opts.position) : null;
  const take = opts.limit + 1;
  let rows: R[];
  if ('fetch' in opts) {
    rows = await opts.fetch(after, take);
  } else {
    const query = keysetQuery(opts.query, opts.order, after, take);
    rows = await (opts.run ? opts.run(query) : (query as unknown as Promise<R[]>));
  }
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor: rows.length > opts.limit && last !== undefined ? opts.cursors.encode(opts.scope, opts.positionOf(last)) : null,
  };
}
