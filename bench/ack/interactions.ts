// The interaction the benchmark sends: a guild /ask, as Discord would deliver it.
import { guildSlashCommand } from '@brain/testkit';

const QUESTIONS = ['How do we deploy?', 'When are keys rotated?', 'Who reviews pull requests?', 'Where is the on-call runbook?', 'What is the refund policy?'];

export const BENCH_APPLICATION_ID = '700000000000000001';

export function askInteraction(guildId: string, i: number): object {
  const question = QUESTIONS[i % QUESTIONS.length] as string;
  return guildSlashCommand({ applicationId: BENCH_APPLICATION_ID, guildId, name: 'ask', options: [{ name: 'question', value: question }], sequence: i, tokenPrefix: 'bench' });
}
