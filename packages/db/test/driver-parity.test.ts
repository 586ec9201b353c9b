import { expect, it } from 'vitest';
import { describeDb } from '../src/testing/index.ts';

describeDb('driver parity', (suite) => {
  it('passes JSON given as text or as an object the same way', async () => {
    const [row] = await suite.db.query<{ a: unknown; b: unknown }>('select $1::jsonb as a, $2::jsonb as b', ['{"x":1}', { x: 1 }]);
    expect(row).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('passes bytes, arrays, timestamps and NULLs the same way', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const at = new Date('2026-01-02T03:04:05.000Z');
    const [row] = await suite.db.query<{ b: Uint8Array; ids: string[]; t: Date; n: null; c: number }>(
      'select $1::bytea as b, $2::uuid[] as ids, $3::timestamptz as t, $4::text as n, count(*)::int as c from (values (1), (2)) v',
      [bytes, ['00000000-0000-0000-0000-000000000001'], at, null],
    );
    expect(Buffer.from(row?.b as Uint8Array).equals(bytes)).toBe(true);
    expect(row?.ids).toEqual(['00000000-0000-0000-0000-000000000001']);
    expect(row?.t.toISOString()).toBe(at.toISOString());
    expect(row?.n).toBeNull();
    expect(row?.c).toBe(2);
  });
});
