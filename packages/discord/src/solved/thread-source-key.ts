/** The key a thread's source is saved under (by "Save thread to brain", /sync and the Gateway alike). */
export function threadSourceKey(guildId: string, threadId: string): string {
  return `discord-thread:${guildId}/${threadId}`;
}
