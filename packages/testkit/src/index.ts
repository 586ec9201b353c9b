export { startFakeHttpServer, type FakeHandler, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
export { startFakeDiscordOAuth, type FakeDiscordOAuth, type FakeGuild } from './fake-discord-oauth.ts';
export { startFakeStripe, type FakeStripe, type FakeStripeEvent, type SignedDelivery } from './fake-stripe.ts';
export { startFakeSupabaseAuth, type FakeSupabaseAuth, type FakeSupabaseEmail } from './fake-supabase-auth.ts';
export { parseStripeForm } from './stripe-form.ts';
export { closedLoopbackUrl } from './closed-port.ts';
