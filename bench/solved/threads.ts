/**
 * The solved-threads eval, written before the boost was measured: pairs of forum posts about the
 * same question, one whose author marked it solved (it holds the fix) and one still open (the
 * same question, "same here", guesses), plus unrelated posts. Each question is a newcomer's
 * rewording of the pair's question; the solved post is the one an answer should come from.
 */
export interface EvalThread {
  key: string;
  title: string;
  solved: boolean;
  /** [author, text], oldest first. */
  messages: [string, string][];
}

export interface SolvedPair {
  question: string;
  solved: EvalThread;
  open: EvalThread;
}

const pair = (key: string, question: string, solved: [string, [string, string][]], open: [string, [string, string][]]): SolvedPair => ({
  question,
  solved: { key: `${key}-solved`, title: solved[0], solved: true, messages: solved[1] },
  open: { key: `${key}-open`, title: open[0], solved: false, messages: open[1] },
});

export const PAIRS: SolvedPair[] = [
  pair(
    'webhook-retries',
    'why does my webhook keep getting retried forever?',
    ['Webhook retried forever', [['ana', 'My webhook endpoint gets the same event retried forever. Why?'], ['ben', 'Your endpoint must answer 2xx within 10 seconds; a slow handler counts as a failure, so the event is retried. Acknowledge first, then process in a queue.'], ['ana', 'That was it, answering 200 first fixed the retries.']]],
    ['Webhook retries never stop', [['cleo', 'Webhook retries never stop for one event, it keeps getting retried forever.'], ['dan', 'Same here, the webhook keeps retrying.'], ['cleo', 'Maybe a bug on their side?']]],
  ),
  pair(
    'token-expired',
    'API says token expired right after I log in',
    ['Token expired immediately after login', [['eve', 'The API says my token expired immediately after login.'], ['finn', 'Check your server clock: tokens are checked against the issue time, and a clock more than 5 minutes off makes every token look expired. Enable NTP.'], ['eve', 'Clock was 7 minutes behind; syncing it fixed the expired token error.']]],
    ['Token expired error on every request', [['gus', 'I get a token expired error on every request after I log in.'], ['hana', 'I have the token expired problem too.'], ['gus', 'Tried logging in again, still expired.']]],
  ),
  pair(
    'upload-limit',
    'file upload fails for big files',
    ['Large file upload fails', [['ivy', 'Uploading a large file fails with 413.'], ['jon', 'The upload limit is 25 MB per file by default; raise max_upload_mb in the settings, or use the chunked upload endpoint for bigger files.'], ['ivy', 'Raised max_upload_mb to 100 and big uploads work now.']]],
    ['Upload of big file fails', [['kai', 'Upload of a big file fails, small files are fine.'], ['lea', 'Big file uploads fail for me as well.'], ['kai', 'Could it be my network?']]],
  ),
  pair(
    'dark-mode',
    'how do I turn on dark mode in the dashboard?',
    ['Dark mode in the dashboard', [['max', 'How do I turn on dark mode in the dashboard?'], ['nia', 'Open Settings → Appearance and pick Dark; it follows the system theme when set to Auto.'], ['max', 'Found it under Appearance, thanks.']]],
    ['Is there a dark mode for the dashboard?', [['oli', 'Is there a dark mode for the dashboard? The white is too bright.'], ['pia', 'Would love a dark mode too.'], ['oli', 'Maybe a browser extension?']]],
  ),
  pair(
    'cron-timezone',
    'scheduled job runs at the wrong hour',
    ['Scheduled job runs at the wrong time', [['quin', 'My scheduled job runs at the wrong hour, one hour late.'], ['rae', 'Schedules are evaluated in UTC unless you set timezone on the schedule, e.g. timezone: Europe/Paris; daylight saving moves a UTC schedule by an hour.'], ['quin', 'Setting the timezone on the schedule fixed the wrong hour.']]],
    ['Cron job runs at wrong hour', [['sam', 'Cron job runs at the wrong hour since last weekend.'], ['tia', 'Same, my scheduled job is an hour off.'], ['sam', 'No idea why, it worked before.']]],
  ),
  pair(
    'rate-limit-429',
    'getting 429 too many requests from the API',
    ['429 Too Many Requests from the API', [['uma', 'I am getting 429 Too Many Requests from the API when syncing.'], ['vic', 'The limit is 120 requests per minute per token; read the Retry-After header and wait that long, or batch requests with the bulk endpoint.'], ['uma', 'Honouring Retry-After stopped the 429s.']]],
    ['Too many requests 429 error', [['wes', 'Too many requests, 429 error from the API every few minutes.'], ['xia', 'Getting 429 as well.'], ['wes', 'Is the API down?']]],
  ),
  pair(
    'email-not-received',
    'password reset email never arrives',
    ['Password reset email not arriving', [['yan', 'The password reset email never arrives.'], ['zoe', 'Reset emails come from no-reply@mail.example.com; check spam, and ask your admin to allow that sender: corporate filters often quarantine it.'], ['yan', 'It was quarantined by our filter; allowing the sender fixed the reset email.']]],
    ['Never get the reset email', [['abe', 'I never get the password reset email.'], ['bea', 'Same problem with the reset email.'], ['abe', 'Tried three times.']]],
  ),
  pair(
    'export-csv',
    'how can I export my data as CSV?',
    ['Export data to CSV', [['cal', 'How can I export my data to CSV?'], ['dee', 'Reports → Export → CSV; the export is emailed as a link valid for 24 hours. Admins only.'], ['cal', 'Worked, I needed admin rights.']]],
    ['CSV export of my data', [['eli', 'Is there a CSV export of my data?'], ['fay', 'Also looking for a CSV export.'], ['eli', 'Copy-pasting the table for now.']]],
  ),
  pair(
    'sso-redirect',
    'SSO login loops back to the login page',
    ['SSO login redirect loop', [['gil', 'SSO login redirects me back to the login page in a loop.'], ['hal', 'The redirect URI registered at your identity provider must match exactly, including the trailing slash: https://app.example.com/sso/callback/'], ['gil', 'The trailing slash was missing at the IdP; the loop is gone.']]],
    ['Stuck in SSO login loop', [['ida', 'Stuck in an SSO login loop, it goes back to the login page.'], ['jay', 'Same SSO loop here.'], ['ida', 'Cleared cookies, still looping.']]],
  ),
  pair(
    'mobile-notifications',
    'no push notifications on my phone',
    ['Push notifications not working on phone', [['kim', 'I get no push notifications on my phone.'], ['lou', 'On Android, battery optimisation kills the app: exclude it under Settings → Battery. On iOS, allow notifications for the app and turn off Focus.'], ['kim', 'Excluding it from battery optimisation fixed the notifications.']]],
    ['Phone does not get push notifications', [['mia', 'My phone does not get push notifications anymore.'], ['ned', 'No notifications on my phone either.'], ['mia', 'Reinstalled, nothing.']]],
  ),
  pair(
    'db-connection-limit',
    'too many connections error from the database',
    ['Database says too many connections', [['ora', 'The database says too many connections under load.'], ['pat', 'Each worker opens a pool of 10; lower pool_size or put a pooler (PgBouncer in transaction mode) in front so connections are shared.'], ['ora', 'PgBouncer in transaction mode solved the too many connections error.']]],
    ['Too many connections error', [['quy', 'Too many connections error from the database at peak.'], ['ria', 'I see too many connections too.'], ['quy', 'Maybe we need a bigger database?']]],
  ),
  pair(
    'invite-link',
    'invite link says it is invalid',
    ['Invite link invalid', [['sol', 'The invite link says it is invalid.'], ['tom', 'Invite links expire after 7 days and work once; ask an admin for a new one from Members → Invite.'], ['sol', 'A new invite worked.']]],
    ['Invalid invite link', [['ula', 'My invite link is invalid, what do I do?'], ['val', 'Mine says invalid too.'], ['ula', 'Waiting for an answer.']]],
  ),
];

/** Posts about nothing the questions ask, so a pair is not alone in the index. */
export const OTHERS: EvalThread[] = [
  { key: 'other-keyboard', title: 'Keyboard shortcuts list', solved: false, messages: [['wyn', 'Where is the list of keyboard shortcuts?'], ['xan', 'Press ? anywhere to see them.']] },
  { key: 'other-billing', title: 'Change billing address', solved: true, messages: [['yul', 'How do I change the billing address on invoices?'], ['zed', 'Billing → Details → Address; it applies to the next invoice.']] },
  { key: 'other-api-version', title: 'Which API version to use', solved: false, messages: [['amy', 'Which API version should new integrations use?'], ['bo', 'v3; v2 is deprecated next year.']] },
  { key: 'other-roles', title: 'Custom roles', solved: false, messages: [['cy', 'Can I create custom roles with fewer permissions?'], ['di', 'Yes on the Business plan, under Members → Roles.']] },
  { key: 'other-search', title: 'Search is slow', solved: true, messages: [['ed', 'Search is slow on large workspaces.'], ['flo', 'Reindex from Settings → Search; it runs overnight.']] },
  { key: 'other-language', title: 'Change interface language', solved: false, messages: [['gia', 'How do I change the interface language?'], ['hu', 'Profile → Language.']] },
];
