/** The reaction on a post nothing saved covers (setting "reaction"): seen, searched, nothing found. */
export const UNCOVERED_REACTION = '🔍';

/** The short public line (setting "line") when nothing saved covers a post. */
export const UNCOVERED_LINE = 'No saved source covers this yet: someone from the team will follow up.';

/** The short public line when the workspace's plan allows no more answers. */
export const NOT_ENTITLED_LINE = 'I can’t answer automatically right now: this server’s plan allowance is used up (an admin can check `/billing`).';

/** The short public line when answering failed (the model, the search…). */
export const FAILED_LINE = 'I couldn’t answer this one automatically; someone from the team will follow up.';

/** The short public line when the channel had its hour's allowance of auto-answers. */
export const RATE_LIMITED_LINE = 'Lots of questions here right now, so I’m not answering this one automatically; someone from the team will follow up (or try `/ask`).';

/** What "Still need help?" posts in the thread: the staff role (the only ping the bot ever sends) and who asked. */
export function staffPingLine(staffRoleId: string, userId: string): string {
  return `🙋 <@&${staffRoleId}> — <@${userId}> still needs help here. I’ll stay out of this thread from now on.`;
}

/** To the clicker, privately, when the channel has no staff role: who can fix it, and how. */
export function noStaffRoleLine(channelId: string): string {
  return `No staff role is set for <#${channelId}>, so there is nobody I can ping. A server admin can set one with \`/autoanswer on\` (channel: <#${channelId}>, staff_role: the support role). Meanwhile, mention a moderator here.`;
}
