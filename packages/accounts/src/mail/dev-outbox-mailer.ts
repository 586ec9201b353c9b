import type { MagicLinkMailer, MagicLinkMessage } from './mailer.ts';

export interface OutboxEntry extends MagicLinkMessage {
  sentAt: Date;
}

/**
 * Local development without an email service: each link is handed to `print` (the console) and
 * kept, newest first, for the /dev/outbox page. Nothing leaves the machine.
 */
export class DevOutboxMailer implements MagicLinkMailer {
  readonly kind = 'dev-outbox' as const;
  readonly #entries: OutboxEntry[] = [];
  readonly #print: (line: string) => void;
  readonly #keep: number;

  constructor(options: { print: (line: string) => void; keep?: number }) {
    this.#print = options.print;
    this.#keep = options.keep ?? 50;
  }

  async send(message: MagicLinkMessage): Promise<void> {
    this.#entries.unshift({ ...message, sentAt: new Date() });
    this.#entries.length = Math.min(this.#entries.length, this.#keep);
    this.#print(`[dev outbox] ${message.purpose} link for ${message.to} (${message.workspaceName}): ${message.url}`);
  }

  /** Our own single-use token already proves the mailbox here: only the outbox ever saw it. */
  async verify(): Promise<void> {}

  entries(): readonly OutboxEntry[] {
    return this.#entries;
  }
}
