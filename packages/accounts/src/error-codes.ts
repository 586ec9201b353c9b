// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    DISCORD_CODE_INVALID: true;
    DISCORD_NO_GUILD: true;
    DISCORD_UNREACHABLE: true;
    EMAIL_INVALID: true;
    MAILBOX_PROOF_INVALID: true;
    MAILBOX_PROOF_MISMATCH: true;
    MAILBOX_PROOF_MISSING: true;
    MAILBOX_VERIFY_UNAVAILABLE: true;
    MAIL_RATE_LIMITED: true;
    MAIL_SEND_FAILED: true;
    MCP_TOKEN_LIMIT: true;
    MCP_TOKEN_NAME_INVALID: true;
    MCP_TOKEN_NAME_TAKEN: true;
    MCP_TOKEN_NOT_FOUND: true;
    MCP_TOKEN_REVOKED: true;
    MCP_TOKEN_SCOPE_INVALID: true;
    MCP_TOKEN_UNKNOWN: true;
    RATE_LIMITED: true;
  }
}

export {};
