// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    INVALID_ARGUMENTS: true;
    MCP_TOKEN_MISSING: true;
    NOT_ENTITLED: true;
    SAVE_INPUT_INVALID: true;
  }
}

export {};
