import { AppError } from '@brain/errors';

export const MCP_TOKEN_NAME_MAX = 60;
/** Live tokens per workspace: one per agent or person is plenty, and a list stays readable. */
export const MCP_TOKENS_PER_WORKSPACE = 25;

export function mcpTokenUnknown(): AppError {
  return new AppError({
    code: 'MCP_TOKEN_UNKNOWN',
    message: 'The MCP token is not one this server issued.',
    userMessage: 'That MCP token is not valid.',
    nextStep: 'Copy the token again from where you saved it, or create a new one in the dashboard (Settings → MCP tokens).',
    httpStatus: 401,
  });
}

export function mcpTokenRevoked(revokedAt: Date): AppError {
  return new AppError({
    code: 'MCP_TOKEN_REVOKED',
    message: `The MCP token was revoked at ${revokedAt.toISOString()}.`,
    userMessage: 'That MCP token has been revoked.',
    nextStep: 'Ask the workspace owner for a new token (dashboard: Settings → MCP tokens).',
    httpStatus: 401,
    details: { revokedAt: revokedAt.toISOString() },
  });
}

export function mcpTokenNotFound(tokenId: string): AppError {
  return new AppError({
    code: 'MCP_TOKEN_NOT_FOUND',
    message: `No MCP token ${tokenId.slice(0, 40)} in this workspace.`,
    userMessage: 'There is no such MCP token in this workspace.',
    nextStep: 'Reload the token list and try again.',
    httpStatus: 404,
  });
}

export function mcpTokenNameInvalid(): AppError {
  return new AppError({
    code: 'MCP_TOKEN_NAME_INVALID',
    message: 'An MCP token needs a name.',
    userMessage: `Give the token a name of 1 to ${MCP_TOKEN_NAME_MAX} characters.`,
    nextStep: 'Name it after where it will be used, like "Claude Desktop (Ana)".',
    httpStatus: 400,
  });
}

export function mcpTokenScopeInvalid(scope: string): AppError {
  return new AppError({
    code: 'MCP_TOKEN_SCOPE_INVALID',
    message: `Not an MCP token scope: ${scope.slice(0, 40)}`,
    userMessage: 'A token reads either what everyone in the server can read ("public") or one channel\'s sources.',
    nextStep: 'Leave the scope out for "public", or give a channel id (`brain token create --channel 123…`).',
    httpStatus: 400,
  });
}

export function mcpTokenNameTaken(name: string): AppError {
  return new AppError({
    code: 'MCP_TOKEN_NAME_TAKEN',
    message: `A live MCP token is already named "${name}".`,
    userMessage: `A token named "${name}" already exists.`,
    nextStep: 'Pick another name, or revoke the old token first.',
    httpStatus: 409,
  });
}

export function mcpTokenLimit(): AppError {
  return new AppError({
    code: 'MCP_TOKEN_LIMIT',
    message: `A workspace may have ${MCP_TOKENS_PER_WORKSPACE} live MCP tokens.`,
    userMessage: `This workspace already has ${MCP_TOKENS_PER_WORKSPACE} live MCP tokens.`,
    nextStep: 'Revoke the ones no longer in use, then create the new one.',
    httpStatus: 409,
  });
}
