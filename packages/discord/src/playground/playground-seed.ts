import { PLAYGROUND } from './playground-ids.ts';

/** A channel of the pretend server, as its sidebar lists it and the fake Discord serves it. */
export interface PretendChannel {
  id: string;
  name: string;
  /** Discord's channel type: 0 text, 15 forum, 11 public thread (a forum post is one too). */
  type: 0 | 11 | 15;
  parentId: string | null;
  topic: string;
  /** @everyone cannot view it; the Moderator role can. */
  staffOnly?: boolean;
  /** A forum's tags. */
  tags?: { id: string; name: string }[];
  /** A forum post's tags (ids from its forum's). */
  appliedTags?: string[];
}

/** A message someone else wrote in the pretend server, before you arrived. */
export interface PretendMessage {
  id: string;
  channelId: string;
  author: string;
  content: string;
  pinned?: boolean;
  /** The thread this message started (its id is the message's, as on Discord). */
  startsThread?: string;
}

const EPOCH_MS = 1_420_070_400_000n;
/** Everything in the pretend server was written in the week before 2026-11-30, one minute apart. */
const START_MS = Date.UTC(2026, 10, 23, 9, 0, 0);
let minute = 0;
function at(): string {
  minute += 1;
  return String((BigInt(START_MS + minute * 60_000) - EPOCH_MS) << 22n);
}

const threadStarterId = at();
const HELP_FORUM_ID = '100000000000000010';
const TAG = { solved: '100000000000000011', question: '100000000000000012', bug: '100000000000000013' } as const;

/** The thread in #general: a few dozen messages, with one fact said in the middle of it. */
const STAGING_THREAD: [string, string][] = [
  ['Ana', 'Starting a thread so the cluster move does not drown #general.'],
  ['Bo', 'Thanks. Is the move still planned for this week?'],
  ['Ana', 'Yes, Wednesday evening, after the release freeze lifts.'],
  ['Chidi', 'Do we need to pause the nightly jobs while it happens?'],
  ['Ana', 'Only the backup job. The reports can keep running.'],
  ['Dana', 'I will pause the backup job at 18:00 and turn it back on afterwards.'],
  ['Bo', 'Who owns the DNS change?'],
  ['Eli', 'Me. The records have a five minute TTL already, so the switch is quick.'],
  ['Chidi', 'Nice. Will old sessions survive?'],
  ['Ana', 'No, everyone will have to sign in again once. We will say so in #announcements.'],
  ['Dana', 'Can we keep the old cluster around for a day, just in case?'],
  ['Ana', 'Two days. We delete it on Friday if nothing is on fire.'],
  ['Bo', 'What about the feature flags service, does it move too?'],
  ['Eli', 'It moves in the same window; its config is already in the new repo.'],
  ['Chidi', 'I still have the old VPN profile, is that a problem?'],
  ['Eli', 'The new cluster does not need the VPN at all, you can delete the profile.'],
  ['Dana', 'So how do we reach staging from outside then?'],
  ['Eli', 'Heads up: the new staging load balancer listens on port 8443, not 443. Update your bookmarks and your curl scripts.'],
  ['Bo', 'Good to know, my scripts would have broken.'],
  ['Chidi', 'Will the certificate be the same one?'],
  ['Eli', 'A new one from the same authority, renewed automatically every sixty days.'],
  ['Dana', 'And the metrics dashboards?'],
  ['Ana', 'They point at both clusters until Friday, then only at the new one.'],
  ['Bo', 'Is there a runbook if the move goes badly?'],
  ['Ana', 'Yes, rollback is switching the DNS records back; Eli has the steps written down.'],
  ['Eli', 'Pinned in #staff, for the on-call people.'],
  ['Chidi', 'Do customers get an email?'],
  ['Ana', 'Only the three who use the staging API directly. Dana is writing it.'],
  ['Dana', 'Draft is done, sending it Tuesday morning.'],
  ['Bo', 'Anything we should test on Thursday morning?'],
  ['Ana', 'Sign in, upload a file, run a report. That covers most of it.'],
  ['Chidi', 'I can do the upload test with the big sample files.'],
  ['Eli', 'Please do, the new storage has a different chunk size.'],
  ['Dana', 'Backup job is paused now, see you on the other side.'],
  ['Ana', 'Move done. Everything is green, thanks everyone!'],
  ['Bo', 'Confirmed from my side, reports are running.'],
];

/** Posts of the #help forum, each with its tags; one is marked solved. */
const HELP_POSTS: { name: string; tags: string[]; messages: [string, string][] }[] = [
  {
    name: 'Login emails never arrive',
    tags: [TAG.bug, TAG.solved],
    messages: [
      ['Chidi', 'I ask for a login link and no email ever shows up. Tried three times.'],
      ['Eli', 'Check your spam folder: the mail comes from no-reply@example.com.'],
      ['Chidi', 'Found them in spam. Can we stop that?'],
      ['Eli', 'Fixed: the mail domain now has an SPF record, so the links land in the inbox.'],
    ],
  },
  {
    name: 'How do I rotate my API key?',
    tags: [TAG.question],
    messages: [
      ['Bo', 'Where do I rotate the API key for the reports integration?'],
      ['Dana', 'Settings, then Integrations, then Rotate key. The old key keeps working for 24 hours.'],
    ],
  },
  {
    name: 'Uploads over 2 GB fail',
    tags: [TAG.bug],
    messages: [
      ['Dana', 'Uploading a 3 GB archive stops at 2 GB with a timeout.'],
      ['Ana', 'Known limit of the old storage; the new cluster raises it to 10 GB.'],
    ],
  },
];

function build(): { channels: PretendChannel[]; messages: PretendMessage[] } {
  const threadId = threadStarterId;
  const channels: PretendChannel[] = [
    { id: PLAYGROUND.channelId, name: PLAYGROUND.channelName, type: 0, parentId: null, topic: 'Save what your team knows; ask, and get answers with sources.' },
    { id: PLAYGROUND.staffChannelId, name: PLAYGROUND.staffChannelName, type: 0, parentId: null, topic: 'Moderators only: @everyone cannot see this channel.', staffOnly: true },
    {
      id: HELP_FORUM_ID,
      name: 'help',
      type: 15,
      parentId: null,
      topic: 'A forum: one post per question, tagged; a solved post is marked.',
      tags: [
        { id: TAG.solved, name: 'solved' },
        { id: TAG.question, name: 'question' },
        { id: TAG.bug, name: 'bug' },
      ],
    },
    { id: threadId, name: 'Moving staging to the new cluster', type: 11, parentId: PLAYGROUND.channelId, topic: 'A thread in #general.' },
  ];
  const messages: PretendMessage[] = [
    { id: at(), channelId: PLAYGROUND.channelId, author: 'Ana', content: 'Welcome to the team space! Questions go in the #help forum; decisions get pinned here.', pinned: true },
    { id: at(), channelId: PLAYGROUND.channelId, author: 'Dana', content: 'Office hours are on Tuesdays at 15:00 UTC, in the voice channel.', pinned: true },
    { id: at(), channelId: PLAYGROUND.staffChannelId, author: 'Eli', content: 'On-call rota for December: Eli, then Ana, then Dana, one week each.' },
  ];
  // The thread was started from a message in #general: its id is that message's id.
  messages.unshift({ id: threadStarterId, channelId: PLAYGROUND.channelId, author: 'Ana', content: 'Staging moves to the new cluster this week. Details in the thread.', startsThread: threadId });
  for (const [author, content] of STAGING_THREAD) messages.push({ id: at(), channelId: threadId, author, content });
  for (const post of HELP_POSTS) {
    // A forum post's id is its first message's.
    const first = at();
    channels.push({ id: first, name: post.name, type: 11, parentId: HELP_FORUM_ID, topic: `A post in #help.`, appliedTags: post.tags });
    post.messages.forEach(([author, content], i) => messages.push({ id: i === 0 ? first : at(), channelId: first, author, content }));
  }
  messages.push({ id: at(), channelId: PLAYGROUND.channelId, author: 'Bo', content: 'Reminder: the release freeze lifts on Wednesday at noon.' });
  return { channels, messages };
}

/** The pretend server's channels, threads, forum posts, messages and pins; fixed, so every start is the same. */
export const PRETEND_SERVER = build();

/** The thread in #general, and its message that says the fact (the middle of the thread). */
export const PRETEND_THREAD = {
  id: threadStarterId,
  factMessageId: PRETEND_SERVER.messages.find((m) => m.content.startsWith('Heads up: the new staging load balancer'))?.id ?? '',
} as const;

export const PRETEND_FORUM_ID = HELP_FORUM_ID;
