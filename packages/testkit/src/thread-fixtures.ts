import { fakeMessage, snowflakeAt, type FakeMessage } from './fake-discord-message.ts';

/** Two facts said in the middle of a long thread, by message number (1 = the starter). */
export const THREAD_FACTS: Readonly<Record<number, { text: string; question: string; answer: string }>> = {
  37: {
    text: 'The staging database password rotates every 45 days, and Priya owns the rotation.',
    question: 'How often does the staging database password rotate?',
    answer: 'every 45 days',
  },
  170: {
    text: 'The release train leaves on Thursdays at 15:00 UTC from the main branch.',
    question: 'When does the release train leave?',
    answer: 'Thursdays at 15:00 UTC',
  },
};

const PEOPLE = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken'];
const FILLER = ['Thanks, that helps a lot.', 'I will look into it after lunch.', 'Same here, seeing it on my laptop too.', 'Can someone confirm on Windows?', 'Fixed after a restart for me.', 'Added a note to the wiki page.'];

export interface ForumPostFixture {
  /** The thread's id, which is also its starter message's. */
  id: string;
  /** As Discord stores them, oldest first: the people's messages, a bot's reply and a join notice. */
  messages: FakeMessage[];
  /** People's messages by number, 1 being the starter. */
  byNumber: Map<number, FakeMessage>;
}

/**
 * A forum post as a busy help channel has them: `count` messages by five people, one a minute,
 * every tenth a reply to the one before, THREAD_FACTS at messages 37 and 170 and small talk
 * around them, plus a bot message and a system notice (after messages 50 and 51) that are not
 * part of the conversation. 240 people's messages make 242 in history: three pages of 100.
 */
export function forumPostFixture(options: { guildId: string; startMs: number; count?: number }): ForumPostFixture {
  const count = options.count ?? 240;
  const id = snowflakeAt(options.startMs);
  const messages: FakeMessage[] = [];
  const byNumber = new Map<number, FakeMessage>();
  for (let n = 1; n <= count; n++) {
    const mid = n === 1 ? id : snowflakeAt(options.startMs + n * 60_000);
    const content = THREAD_FACTS[n]?.text ?? `${FILLER[n % FILLER.length]} (update ${n})`;
    const previous = byNumber.get(n - 1);
    const reply = n % 10 === 0 && previous ? { type: 19, message_reference: { message_id: previous.id, channel_id: id, guild_id: options.guildId }, referenced_message: previous } : {};
    const m = fakeMessage({ id: mid, channelId: id, author: PEOPLE[n % PEOPLE.length] as string, content, ...reply });
    byNumber.set(n, m);
    messages.push(m);
    if (n === 50) messages.push(fakeMessage({ id: snowflakeAt(options.startMs + n * 60_000 + 1), channelId: id, author: 'HelperBot', bot: true, content: 'The release train leaves whenever HelperBot says so.' }));
    if (n === 51) messages.push(fakeMessage({ id: snowflakeAt(options.startMs + n * 60_000 + 1), channelId: id, author: 'Newcomer', type: 7, content: '' }));
  }
  return { id, messages, byNumber };
}
