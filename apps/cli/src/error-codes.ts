// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    CHANNEL_INVALID: true;
    ANSWER_THREAD_STOPPED: true;
    CONFIG_INVALID: true;
    DB_CONNECTION_UNUSABLE: true;
    DISCORD_BOT_TOKEN_MISSING: true;
    DISCORD_REGISTER_FAILED: true;
    EVAL_CORPUS_EMPTY: true;
    EVAL_EACH_PAGE_INVALID: true;
    EVAL_FILE_UNREADABLE: true;
    EVAL_K_INVALID: true;
    EVAL_MODE_INVALID: true;
    EVAL_SPLIT_INVALID: true;
    GUILD_ID_INVALID: true;
    MCP_TOKEN_REQUIRED: true;
    MCP_WORKSPACE_CONFLICT: true;
    SAVE_NOTHING: true;
    SAVE_NOT_FOUND: true;
    SCHEMA_OUT_OF_DATE: true;
    SYNC_CHANNEL_TYPE: true;
    SYNC_NEEDS_BOT_TOKEN: true;
    WORKSPACE_SLUG_INVALID: true;
  }
}

export {};
