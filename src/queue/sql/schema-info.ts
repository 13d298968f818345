/** The queue tables' persistence and size. */

export const READ_QUEUE_TABLES = `SELECT t.name, c.relpersistence::text AS persistence, c.reltuples::float8 AS reltuples, pg_total_relation_size(c.oid)::text AS bytes
       FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)
       LEFT JOIN pg_class c ON c.oid = to_regclass(t.name)
      ORDER BY t.ord`
