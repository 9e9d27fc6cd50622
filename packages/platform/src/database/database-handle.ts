import type { Kysely } from 'kysely';

/**
 * The table map of a database that every package of a home shares: any table, any column, each
 * value of a type only the package that owns the table knows. Typed, not `any`: a value read
 * through it must be narrowed before use.
 */
export type SharedTables = Record<string, Record<string, unknown>>;

/**
 * A database as packages hand it to each other (`openDatabase`'s `db`, a home's `db`): one Kysely
 * database holding every package's tables. Each package views it through the tables it owns,
 * and nobody else's.
 */
export type DatabaseHandle = Kysely<SharedTables>;
