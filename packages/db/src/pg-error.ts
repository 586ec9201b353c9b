/** The SQLSTATE of a database error from either driver, or undefined. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const SqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  insufficientPrivilege: '42501',
  invalidTextRepresentation: '22P02',
  duplicateObject: '42710',
  raiseException: 'P0001',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;
