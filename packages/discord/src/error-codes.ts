// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    ATTACHMENT_URL_REFUSED: true;
    AUTOANSWER_EMPTY: true;
    AUTOANSWER_FORBIDDEN: true;
    AUTOANSWER_RATE_LIMITED: true;
    DISCORD_BOT_TOKEN_INVALID: true;
    DISCORD_CHANNEL_NOT_FOUND: true;
    DISCORD_MESSAGE_CONTENT_OFF: true;
    DISCORD_MISSING_ACCESS: true;
    DISCORD_RATE_LIMITED: true;
    DISCORD_THREAD_TOO_LONG: true;
    INTERACTION_MALFORMED: true;
    PLAYGROUND_COMMAND_INVALID: true;
    PLAYGROUND_FORUM_NO_MESSAGES: true;
    PLAYGROUND_MESSAGE_NOT_FOUND: true;
    PLAYGROUND_VIEW_INVALID: true;
    SYNC_JOB_INVALID: true;
  }
}

export {};
