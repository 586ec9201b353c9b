import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { notice } from './notice.ts';
import { inert, oneLine } from './text.ts';

/** The one time a token is shown: the token, that it will not be shown again, and how to use it. */
export function mcpTokenMessage(name: string, tokenId: string, token: string): OutgoingMessage {
  return notice(
    [
      `🔑 MCP token *${inert(oneLine(name))}* created. Copy it now: it is shown only this once and cannot be retrieved later.`,
      `\`\`\`\n${token}\n\`\`\``,
      'Use it as `BRAIN_MCP_TOKEN` for `brain mcp` (Claude Desktop), or send `Authorization: Bearer <token>` to this service’s `/mcp` endpoint.',
      `It reads and changes this server’s sources only. Revoke it with \`brain token revoke ${tokenId}\` if it leaks.`,
    ].join('\n'),
  );
}
