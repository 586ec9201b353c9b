/**
 * Applied migrations are immutable, with one exception: an edit that a database which already ran
 * the file has no reason to run again, made so that the file itself works where it did not (a
 * fresh `supabase db push`, or an incremental one). Each entry is the checksum the file had
 * before such an edit. A database that recorded it is accepted, and its ledger row is brought up
 * to the file's current checksum; any other checksum still stops `brain migrate`.
 *
 * packages/db/test/migrate-supabase.test.ts rebuilds the previous files (test/previous-migrations
 * keeps the one that cannot be rebuilt from its successor) and proves both that these
 * are their checksums and that a database migrated with them upgrades cleanly.
 */
export const supersededChecksums: Readonly<Record<string, readonly { checksum: string; why: string }[]>> = {
  '20261129000100_create_extensions_and_roles.sql': [
    {
      checksum: 'f3c6257442ef37b00b5f2d839bc64db325c61c2e1f792bf7df17681c7c6f69cd',
      why: 'grant brain_tenant through format(%I) (supautils < 3.2.3 crashed on the literal grant); vector in `extensions` when that schema is on the search path',
    },
  ],
  '20261129000700_create_match_artifacts.sql': [
    { checksum: '77af03c3ada0bc0bb79c9fadf5917330b9345f941b0006d6405c959022d2c0ee', why: "loads pgvector (select '[1]'::vector) before its SET hnsw.* clause" },
  ],
  '20261130020100_tune_match_artifacts.sql': [
    { checksum: '0e72516d0438b2a56587c9df5eb7d3bf63488b9e376788b1a616c641a3a20978', why: "loads pgvector (select '[1]'::vector) before its SET hnsw.* clause" },
  ],
  '20261130040100_tune_match_artifacts_fusion.sql': [
    { checksum: 'c805931576ee620f802d86c8fe5764d56ca5dff3566b73d46362b0127c3cb645', why: "loads pgvector (select '[1]'::vector) before re-creating a function with SET hnsw.*" },
  ],
  '20261130040200_diversify_match_artifacts_sources.sql': [
    { checksum: 'acddfca0ebdb344e3fbcbe2fa64403f2ec298cdf1a489a5b21d32452a3ece865', why: "loads pgvector (select '[1]'::vector) before its SET hnsw.* clause" },
  ],
  '20261130090000_probe_before_walking_match_artifacts.sql': [
    { checksum: 'e351be1d2cf15c008a078d0c95b8858e83c738e1242f2fb072a8edfcb322e52f', why: "loads pgvector (select '[1]'::vector) before its SET hnsw.* clause" },
  ],
};

export function isSupersededChecksum(name: string, checksum: string): boolean {
  return (supersededChecksums[name] ?? []).some((entry) => entry.checksum === checksum);
}
