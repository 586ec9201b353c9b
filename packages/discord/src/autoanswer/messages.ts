/** The reaction on a post nothing saved covers (setting "reaction"): seen, searched, nothing found. */
export const UNCOVERED_REACTION = '🔍';

/** The short public line (setting "line") when nothing saved covers a post. */
export const UNCOVERED_LINE = 'No saved source covers this yet: someone from the team will follow up.';

/** The short public line when the workspace's plan allows no more answers. */
export const NOT_ENTITLED_LINE = 'I can’t answer automatically right now: this server’s plan allowance is used up (an admin can check `/billing`).';

/** The short public line when answering failed (the model, the search…). */
export const FAILED_LINE = 'I couldn’t answer this one automatically; someone from the team will follow up.';
