import { describe, expect, it } from 'vitest';
import { inMemoryBlob } from '../src/in-memory-blob.ts';

describe('inMemoryBlob', () => {
  const bytes = new TextEncoder().encode('héllo, blob');

  it('reads back as a Node Blob of the same bytes does, in every form', async () => {
    const ours = inMemoryBlob(bytes, 'application/x-tar');
    const node = new Blob([bytes], { type: 'application/x-tar' });
    expect(ours).toBeInstanceOf(Blob);
    expect(ours.size).toBe(node.size);
    expect(ours.type).toBe(node.type);
    expect(new Uint8Array(await ours.arrayBuffer())).toEqual(new Uint8Array(await node.arrayBuffer()));
    expect(await ours.text()).toBe(await node.text());
    expect(await ours.slice(1, 4).text()).toBe(await node.slice(1, 4).text());
    expect(new Uint8Array(await new Response(ours.stream()).arrayBuffer())).toEqual(bytes);
  });

  it('hands over the bytes it was given without copying them, and only those bytes of a larger buffer', async () => {
    const whole = new Uint8Array([9, 1, 2, 3, 9]);
    expect(await inMemoryBlob(whole).arrayBuffer()).toBe(whole.buffer);
    const part = inMemoryBlob(whole.subarray(1, 4));
    expect(part.size).toBe(3);
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([1, 2, 3]);
  });
});
