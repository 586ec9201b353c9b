/**
 * Interaction ids this process has acknowledged recently: a cheap first check, before the
 * database claim (claimInteraction) that decides across instances. Bounded: the oldest id goes
 * first, and ids past the signature freshness window could not be replayed anyway.
 */
export class RecentIds {
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly capacity = 20_000,
    private readonly ttlMs = 10 * 60_000,
  ) {}

  /** True when the id was already seen (and not expired); records it otherwise. */
  checkAndAdd(id: string, nowMs = Date.now()): boolean {
    const seenAt = this.ids.get(id);
    if (seenAt !== undefined && nowMs - seenAt < this.ttlMs) return true;
    this.ids.delete(id);
    this.ids.set(id, nowMs);
    while (this.ids.size > this.capacity) {
      const oldest = this.ids.keys().next().value;
      if (oldest === undefined) break;
      this.ids.delete(oldest);
    }
    return false;
  }
}
