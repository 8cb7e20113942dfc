/**
 * The ledger's tables, as a list of migrations: migration i takes a ledger of schema version i to
 * i + 1, and the version a file is at is SQLite's user_version. A ledger is brought up to date when
 * it is opened, in one transaction, by whichever payorder process gets there first; one made by a
 * newer payorder (a version this list does not reach) is refused, never changed.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the orders payorder created or was told of, one row each.
  `CREATE TABLE orders (
    entry INTEGER PRIMARY KEY,
    profile TEXT NOT NULL,
    env TEXT NOT NULL,
    api TEXT NOT NULL,
    source TEXT NOT NULL,
    at TEXT NOT NULL,
    amount_cents TEXT,
    description TEXT,
    external_reference TEXT,
    success_url TEXT,
    fail_url TEXT,
    notification_url TEXT,
    outcome TEXT NOT NULL,
    error TEXT,
    uuid TEXT,
    order_id TEXT,
    order_number TEXT,
    ref_number TEXT,
    currency TEXT,
    checkout_url TEXT,
    status TEXT,
    status_at TEXT
  ) STRICT;
  CREATE INDEX orders_by_reference ON orders (profile, env, api, external_reference);
  CREATE INDEX orders_by_uuid ON orders (uuid);
  CREATE INDEX orders_by_time ON orders (at);`,
];

/** The schema version this payorder writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
