// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    BILLING_NOT_CONFIGURED: true;
    BILLING_NO_CUSTOMER: true;
    /** An entitlement check's refusals (a save or an ask over the allowance, or a lapsed plan). */
    FREE_ALLOWANCE_USED: true;
    PAYMENT_OVERDUE: true;
    PLAN_ALREADY_ACTIVE: true;
    STRIPE_REQUEST_FAILED: true;
    STRIPE_UNAVAILABLE: true;
    STRIPE_UNEXPECTED: true;
    WEBHOOK_SIGNATURE_INVALID: true;
    WORKSPACE_NOT_CLAIMED: true;
    WORKSPACE_NOT_FOUND: true;
  }
}

export {};
