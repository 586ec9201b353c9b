import { describe, expect, it } from 'vitest';
import { loadMigrations } from '../src/index.ts';
import { splitStatements } from '../src/migrations/split-statements.ts';

// The cases follow the Supabase CLI's parser (pkg/parser), quirks included: the CLI's ledger
// row must hold the statements exactly as the CLI would have recorded them.
describe('splitStatements, as the Supabase CLI splits a migration', () => {
  it('splits on semicolons and trims each statement', () => {
    expect(splitStatements('select 1;\n\n  select 2 ;;\n')).toEqual(['select 1', 'select 2']);
    expect(splitStatements('select 1')).toEqual(['select 1']);
    expect(splitStatements(' ;\n;')).toEqual([]);
  });

  it('keeps comments with the statement that follows them, and a trailing comment as its own', () => {
    expect(splitStatements('-- header\nselect 1;\n-- the end\n')).toEqual(['-- header\nselect 1', '-- the end']);
    expect(splitStatements('SELECT --; 1')).toEqual(['SELECT --; 1']);
    expect(splitStatements('select - 1; select 2')).toEqual(['select - 1', 'select 2']);
  });

  it('does not split inside block comments, nested ones included', () => {
    expect(splitStatements('SELECT /* ; */ 1; select 2')).toEqual(['SELECT /* ; */ 1', 'select 2']);
    expect(splitStatements('SELECT /*; /*;*/ ;*/ 1')).toEqual(['SELECT /*; /*;*/ ;*/ 1']);
    expect(splitStatements('/ * ; */ END')).toEqual(['/ *', '*/ END']);
  });

  it('does not split inside quotes, with doubled quotes as escapes', () => {
    expect(splitStatements("select 'a;''b'; select \"x;\"")).toEqual(["select 'a;''b'", 'select "x;"']);
  });

  it('does not split inside dollar quotes, anonymous or tagged', () => {
    const body = 'do $$ begin perform 1; end $$;\nselect $fn$ a; b $fn$;';
    expect(splitStatements(body)).toEqual(['do $$ begin perform 1; end $$', 'select $fn$ a; b $fn$']);
    // $1 is a parameter, not a tag.
    expect(splitStatements('select $1; select 2')).toEqual(['select $1', 'select 2']);
  });

  it('does not split inside parentheses or BEGIN ATOMIC … END', () => {
    expect(splitStatements('select (1;2); select 3')).toEqual(['select (1;2)', 'select 3']);
    const atomic = 'create function f() returns int language sql begin atomic select 1; end; select 2';
    expect(splitStatements(atomic)).toEqual(['create function f() returns int language sql begin atomic select 1; end', 'select 2']);
  });

  it('treats a backslash as escaping the next character, and trims every trailing semicolon', () => {
    expect(splitStatements('\\;;\\;')).toEqual(['\\', '\\']);
  });

  it("walks multi-byte characters a byte at a time, as the CLI's loop does", () => {
    // The continuation byte ends the tag `$é`, so this is no dollar quote for the CLI.
    expect(splitStatements('select $é$ x; $é$')).toEqual(['select $é$ x', '$é$']);
    expect(splitStatements("select 'é;'; -- → ;\nselect 2")).toEqual(["select 'é;'", '-- → ;\nselect 2']);
  });

  it('splits every migration of this repository into statements that rebuild the whole file', () => {
    for (const migration of loadMigrations()) {
      const statements = splitStatements(migration.sql);
      expect(statements.length, migration.name).toBeGreaterThan(0);
      // Nothing lost but separators and whitespace.
      const squash = (s: string) => s.replace(/[\s;]+/g, '');
      expect(squash(statements.join('')), migration.name).toBe(squash(migration.sql));
    }
  });
});
