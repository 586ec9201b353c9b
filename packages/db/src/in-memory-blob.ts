/**
 * A Blob over bytes already in memory whose `arrayBuffer()` hands those bytes over instead of a copy.
 * Node's Blob copies its parts when built and again, in 64 KiB reads joined at the end, on every
 * `arrayBuffer()`: for a 42 MB database template that was about 0.3 CPU s of each test database's
 * start (0.6 s in a thread; fresh memory is slow to fault in on a small VM). PGlite only reads
 * what it loads.
 * The bytes are shared: whoever calls `arrayBuffer()` must not transfer or change them.
 */
export function inMemoryBlob(bytes: Uint8Array, type = ''): Blob {
  const view =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return new InMemoryBlob(view, type);
}

class InMemoryBlob extends Blob {
  readonly #bytes: ArrayBuffer;

  constructor(bytes: ArrayBuffer, type: string) {
    super([], { type });
    this.#bytes = bytes;
    // Blob's `size` is a getter of its own bytes (none here); TypeScript types it as a property.
    Object.defineProperty(this, 'size', { value: bytes.byteLength, enumerable: true });
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }

  override bytes(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#bytes));
  }

  override slice(start?: number, end?: number, type?: string): Blob {
    return new Blob([this.#bytes]).slice(start, end, type);
  }

  override stream(): ReadableStream<Uint8Array> {
    return new Blob([this.#bytes]).stream();
  }

  override text(): Promise<string> {
    return Promise.resolve(new TextDecoder().decode(this.#bytes));
  }
}
