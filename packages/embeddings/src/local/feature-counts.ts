/**
 * Counts of hashed features for one text, in an open-addressing table of typed arrays: several
 * times faster than a Map<number, number> for the thousands of features a passage has. The table
 * is reused between texts (cleared through the list of used slots) and grows when a text is large.
 * Each slot packs count × 8 + kind, so the kind of a feature travels with its count, and keeps the
 * largest weight any occurrence brought (1 unless the recipe weighs words by their rarity).
 */
export class FeatureCounts {
  private keys = new Uint32Array(1 << 12);
  private values = new Uint32Array(1 << 12);
  private weights = new Float32Array(1 << 12);
  private used = new Int32Array(1 << 11);
  size = 0;

  add(key: number, kind: number, weight = 1): void {
    if (this.size * 2 >= this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    // Key 0 marks an empty slot, so 0 itself is stored as 1 (a collision of no consequence).
    const k = key === 0 ? 1 : key;
    let slot = k & mask;
    for (;;) {
      const found = this.keys[slot] as number;
      if (found === k) {
        this.values[slot] = (this.values[slot] as number) + 8;
        if (weight > (this.weights[slot] as number)) this.weights[slot] = weight;
        return;
      }
      if (found === 0) {
        this.keys[slot] = k;
        this.values[slot] = 8 + kind;
        this.weights[slot] = weight;
        this.used[this.size++] = slot;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Calls `fn` with each feature's key, kind, count and weight, then empties the table. */
  drain(fn: (key: number, kind: number, count: number, weight: number) => void): void {
    for (let i = 0; i < this.size; i++) {
      const slot = this.used[i] as number;
      const packed = this.values[slot] as number;
      fn(this.keys[slot] as number, packed & 7, packed >>> 3, this.weights[slot] as number);
      this.keys[slot] = 0;
    }
    this.size = 0;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const weights = this.weights;
    const count = this.size;
    const slots = this.used.slice(0, count);
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Uint32Array(keys.length * 2);
    this.weights = new Float32Array(keys.length * 2);
    this.used = new Int32Array(keys.length);
    this.size = 0;
    const mask = this.keys.length - 1;
    for (let i = 0; i < count; i++) {
      const old = slots[i] as number;
      const k = keys[old] as number;
      let slot = k & mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = k;
      this.values[slot] = values[old] as number;
      this.weights[slot] = weights[old] as number;
      this.used[this.size++] = slot;
    }
  }
}
